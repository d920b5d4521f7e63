"""The 3- and 4-player show layouts (issue 54 item 5): three or four hands, the crib and the
starter laid out with the table conventions vision/layout.py reads (groups a card width apart,
the starter a card width clear, the crib the group nearest the starter), asked for by name only."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from vision.classes import CARD_CODES
from vision.synth import LAYOUTS, SHOW_LAYOUTS_MORE, UnknownLayoutError, render_scene
from vision.synth import layouts, overlaps
from vision.synth.layouts import CRIB_NEARER, cards_needed, place

from test_synth import _card_polygon, _polygon_gap

HANDS = {"three_hands_crib_starter": 3, "four_hands_crib_starter": 4}
ROOT = Path(__file__).resolve().parents[2]


def test_the_new_layouts_are_asked_for_by_name_only():
    assert SHOW_LAYOUTS_MORE == tuple(HANDS)
    assert not set(SHOW_LAYOUTS_MORE) & set(LAYOUTS)  # no mix draws them
    assert [cards_needed(name) for name in SHOW_LAYOUTS_MORE] == [17, 21]
    assert {cards_needed(name) for name in LAYOUTS} == {13}
    with pytest.raises(UnknownLayoutError, match="four_hands_crib_starter"):
        place(np.random.default_rng(0), "five_hands", CARD_CODES[:25], 0.7, True)


@pytest.mark.parametrize("style", [None, overlaps.v4_hand_style], ids=["v2_hands", "v4_hands"])
@pytest.mark.parametrize("layout", SHOW_LAYOUTS_MORE)
def test_groups_roles_and_the_crib_by_the_starter(layout, style):
    """Hands of 4, the crib of 4 and the starter; every card once; groups (and the starter) a card
    width or more apart; the crib the group nearest the starter, clearly (CRIB_NEARER)."""
    aspect = 0.7
    hands = HANDS[layout]
    for seed in range(60):
        codes = [CARD_CODES[i] for i in np.random.default_rng(seed).permutation(52)[:cards_needed(layout)]]
        placements, groups = place(np.random.default_rng(seed), layout, codes, aspect, table_conventions=True,
                                   show_style=style)
        assert [role for role, _ in groups] == ["hand"] * hands + ["crib", "starter"]
        assert [len(cards) for _, cards in groups] == [4] * (hands + 1) + [1]
        assert sorted(c for _, cards in groups for c in cards) == sorted(codes)  # every card once
        assert sorted(p[0] for p in placements) == sorted(codes)
        group_of = {c: i for i, (_, cards) in enumerate(groups) for c in cards}
        assert all(p[4] == group_of[p[0]] for p in placements)  # group numbers are the groups' order
        polygons = {p[0]: _card_polygon(p[1], p[2], p[3], aspect) for p in placements}
        for a in polygons:
            for b in polygons:
                if group_of[a] < group_of[b]:
                    assert _polygon_gap(polygons[a], polygons[b]) >= aspect * 0.999, (seed, a, b)
        starter = groups[-1][1][0]
        assert min(_polygon_gap(polygons[starter], polygons[c]) for c in codes if c != starter) >= aspect * 0.999
        centre = {i: np.mean([(p[1], p[2]) for p in placements if group_of[p[0]] == i], axis=0)
                  for i in range(len(groups))}
        by_distance = sorted((np.linalg.norm(centre[i] - centre[hands + 1]), groups[i][0]) for i in range(hands + 1))
        assert by_distance[0][1] == "crib" and by_distance[1][0] >= CRIB_NEARER * by_distance[0][0], seed


@pytest.mark.parametrize("mix", ["v2", "v3", "v4"])
@pytest.mark.parametrize("layout", SHOW_LAYOUTS_MORE)
def test_rendered_shows_hold_every_card_in_the_frame(layout, mix):
    """A rendered show: its annotation's groups (hands, crib, starter), every card once, all in the
    frame (a whole show is never cut by the frame) and its starter on the pack or beside it."""
    size = (1280, 960)
    for seed in (9_300_000, 9_300_001):
        image, ann = render_scene(seed, layout=layout, table_conventions=True, mix=mix, size=size)
        assert image.shape == (960, 1280, 3) and ann["layout"] == layout
        roles = [g["role"] for g in ann["groups"]]
        assert roles == ["hand"] * HANDS[layout] + ["crib", "starter"]
        in_groups = [c for g in ann["groups"] for c in g["cards"]]
        cards = [c["card"] for c in ann["cards"]]
        assert len(set(in_groups)) == len(in_groups) == cards_needed(layout)
        assert sorted(cards) == sorted(in_groups)  # none left out of the frame
        for card in ann["cards"]:
            corners = np.array(card["corners"])
            assert (corners >= -1).all() and (corners[:, 0] <= size[0] + 1).all() and (corners[:, 1] <= size[1] + 1).all()
        if mix != "v2":
            assert ann["cut_by_frame"] is False and ann["arrangement"] == "show"


def test_the_new_layouts_without_the_conventions_still_follow_them():
    placements, groups = place(np.random.default_rng(3), "three_hands_crib_starter", CARD_CODES[:17], 0.7, False)
    assert [role for role, _ in groups] == ["hand", "hand", "hand", "crib", "starter"]
    assert len(placements) == 17


def _bench_shows():
    spec = importlib.util.spec_from_file_location("bench_shows", ROOT / "bench" / "shows.py")
    shows = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shows)
    return shows


def test_show_bench_plan_keeps_the_two_player_shows_of_the_earlier_plan():
    shows = _bench_shows()
    seed = shows.FIRST_SHOW_SEED
    planned = shows.plan(300, seed)
    earlier = [{"seed": seed + i, "layout": ("hand_starter", "two_hands_crib_starter")[(i // 2) % 2],
                "kind": "guide" if i % 2 == 0 else "harder", "mix": "v3" if i % 2 == 0 else "v4",
                "scale": 1.0 if i % 2 == 0 else shows.HARDER_SCALE} for i in range(300)]
    two_player = [i for i, p in enumerate(planned) if p["layout"] in ("hand_starter", "two_hands_crib_starter")]
    assert len(two_player) == 152 and all(planned[i] == dict(earlier[i], size=(1280, 960)) for i in two_player)
    assert all(p["size"] == (1920, 1440) for p in planned if p["layout"] in SHOW_LAYOUTS_MORE)
    assert all(p["size"] == (1600, 1200) for p in shows.plan(8, seed, (1600, 1200)) if p["layout"] in SHOW_LAYOUTS_MORE)
    for layout in shows.SHOW_LAYOUTS:
        for kind in shows.KINDS:
            assert sum(p["layout"] == layout and p["kind"] == kind for p in planned) in (37, 38)
    assert set(shows.SHOW_LAYOUTS) == set(LAYOUTS[:2]) | set(layouts.SHOW_LAYOUTS_MORE)


def test_show_bench_judges_the_roles_of_a_whole_table():
    from types import SimpleNamespace

    from vision.results import Role

    shows = _bench_shows()
    truth = {"groups": [{"role": "hand", "cards": ["AS", "2S", "3S", "4S"]}, {"role": "hand", "cards": ["5S", "6S", "7S", "8S"]},
                        {"role": "hand", "cards": ["9S", "TS", "JS", "QS"]}, {"role": "crib", "cards": ["AH", "2H", "3H", "4H"]},
                        {"role": "starter", "cards": ["KS"]}]}

    def read(*groups):
        return SimpleNamespace(groups=[SimpleNamespace(role=Role(role), cards=tuple(cards)) for role, cards in groups])

    right = [("hand", ["AS", "2S", "3S", "4S"]), ("hand", ["5S", "6S", "7S", "8S"]), ("hand", ["9S", "TS", "JS", "QD"]),
             ("crib", ["AH", "2H", "3H", "4H"]), ("starter", ["KS"])]
    assert shows.roles_right(read(*right), truth)  # a misread card (QD) leaves the roles right
    crib_as_hand = right[:3] + [("hand", ["AH", "2H", "3H", "4H"]), ("starter", ["KS"])]
    assert not shows.roles_right(read(*crib_as_hand), truth)
    swapped = right[:2] + [("crib", ["9S", "TS", "JS", "QS"]), ("hand", ["AH", "2H", "3H", "4H"]), ("starter", ["KS"])]
    assert not shows.roles_right(read(*swapped), truth)
    assert not shows.roles_right(read(*right[:4], ("starter", ["8S"])), truth)
    assert not shows.roles_right(read(), truth)
