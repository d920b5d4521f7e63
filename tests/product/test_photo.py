"""companion.photo.count_show and the recogniser's Python API: results as data, precise errors
in library words (no CLI flags), the same answers whatever form the photo comes in."""

import json
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from companion.drawing import KIND_COLOURS, PANEL_WIDTH, ROLE_COLOURS, draw_show
from companion.photo import (NO_STARTER, STARTER_FROM_PHOTO, STARTER_GIVEN, ClaimCountError, NoCardsError,
                             StarterError, count_show)
from companion.rules import ClaimResult, Show, ruleset
from companion.rules.show import SHOW_KINDS
from vision import (CardGroup, RecognizedCard, Recognition, Recognizer, Role, ThresholdError, read_photo,
                    recognize)

ROOT = Path(__file__).resolve().parents[2]
HAND_STARTER = ROOT / "sample_images" / "hand_starter_spread_large.jpg"  # KD 3D JD 4S, starter 6S (models v4, v5)


def _recognition(*groups: tuple[Role, tuple[str, ...]], confirm: tuple[str, ...] = ()) -> Recognition:
    cards = tuple(RecognizedCard(code, 0.9, (0.0, 0.0, 10.0, 14.0), code in confirm)
                  for _, codes in groups for code in codes)
    return Recognition("table.jpg", 1280, 960, cards, tuple(CardGroup(r, c) for r, c in groups), ())


TWO_HANDS_CRIB = _recognition((Role.HAND, ("5H", "5C", "JD", "4S")), (Role.HAND, ("2C", "3D", "9S", "KH")),
                              (Role.CRIB, ("5S", "6H", "7D", "8D")), (Role.STARTER, ("5D",)), confirm=("JD",))


def test_count_show_on_a_photo_returns_the_counted_hand_and_judged_claim():
    show = count_show(HAND_STARTER, claims=[1])
    assert (show.starter, show.starter_source) == ("6S", STARTER_FROM_PHOTO)
    [hand] = show.groups
    assert (hand.label, hand.role, hand.cards) == ("hand 1", Role.HAND, ("KD", "3D", "JD", "4S"))
    assert isinstance(hand.show, Show) and hand.show.total == 0  # nineteen: no fifteen, pair, run or nob
    assert isinstance(hand.claim, ClaimResult) and not hand.claim.correct and hand.claim.claimed == 1
    flagged = tuple(c.card for c in show.recognition.cards if c.confirm)  # models v5: JD, read at 0.45
    assert hand.confirm == flagged and show.cards == show.recognition.cards
    assert show.photo is not None and show.photo.width == 1280


def test_every_form_of_the_photo_gives_the_same_recognition():
    by_path = recognize(HAND_STARTER)
    photo = read_photo(HAND_STARTER)
    for source in (HAND_STARTER.read_bytes(), photo, photo.pixels):
        other = recognize(source)
        assert (other.cards, other.groups, other.warnings) == (by_path.cards, by_path.groups, by_path.warnings)
    assert by_path.image == str(HAND_STARTER) and recognize(photo, "mine").image == "mine"


def test_count_show_counts_hands_and_crib_from_a_recognition_without_models():
    show = count_show(TWO_HANDS_CRIB, claims=[15, 4, 12])
    assert [(g.label, g.crib, g.show.total) for g in show.groups] == [
        ("hand 1", False, 15), ("hand 2", False, 4), ("crib", True, 12)]  # 15 2s, pair royal, nobs; 2 fifteens; double run of 4
    assert [g.claim.correct for g in show.groups] == [True, True, True]
    assert show.groups[0].confirm == ("JD",) and show.warnings == ()
    as_crib = count_show(TWO_HANDS_CRIB, all_crib=True)
    assert all(g.crib for g in as_crib.groups)


def test_a_given_starter_replaces_the_photos_and_says_so_in_library_words():
    show = count_show(TWO_HANDS_CRIB, starter="5C")
    assert (show.starter, show.starter_source, show.starter_in_photo) == ("5C", STARTER_GIVEN, "5D")
    assert show.groups[0].cards == ("5H", "5C", "JD", "4S") and show.groups[0].show is None  # 3 cards left
    assert show.warnings == ("starter 5C given (the photo shows 5D apart)",)


def test_no_starter_is_data_and_a_warning_without_cli_flags():
    show = count_show(_recognition((Role.HAND, ("5H", "5C", "JD", "4S"))))
    assert show.starter_source == NO_STARTER and show.groups[0].problem == "no starter to count with"
    assert show.warnings and not any("--" in w for w in show.warnings)
    assert "--" not in json.dumps(show.as_json()["warnings"])


def test_library_errors_are_precise_and_speak_no_cli():
    with pytest.raises(StarterError) as bad:
        count_show(TWO_HANDS_CRIB, starter="ZZ")
    assert bad.value.reason.startswith("not a card") and "--" not in str(bad.value)
    with pytest.raises(ClaimCountError, match="4 claims but 3 hands"):
        count_show(TWO_HANDS_CRIB, claims=[1, 2, 3, 4])
    with pytest.raises(NoCardsError):
        count_show(_recognition())
    for name in ("confirm_below", "lone_index_score", "unread_card_score"):
        with pytest.raises(ThresholdError, match=f"^{name} must be between 0 and 1, got 1.5$"):
            Recognizer(**{name: 1.5})


def test_the_cli_json_is_the_library_json_with_flag_wording(capsys):
    assert main(["show", str(HAND_STARTER), "--claim", "1", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    library = count_show(HAND_STARTER, claims=[1], rules=ruleset("acc")).as_json()
    for data in (cli, library):
        data["recognition"].pop("ms")
    assert cli == library


def test_drawing_has_a_colour_for_every_role_and_score_kind_and_draws_the_show():
    assert set(ROLE_COLOURS) == set(Role) and set(KIND_COLOURS) == set(SHOW_KINDS)
    show = count_show(HAND_STARTER)
    picture = draw_show(show)
    assert picture.shape == (960, 1280 + PANEL_WIDTH, 3)
    assert not np.array_equal(picture[:, :1280], show.photo.pixels)  # boxes and badges drawn
    with pytest.raises(ValueError, match="no photo to draw on"):
        draw_show(count_show(TWO_HANDS_CRIB))


def test_roles_serialise_as_their_text():
    assert json.dumps(CardGroup(Role.CRIB, ("5S",)).as_json()) == '{"role": "crib", "cards": ["5S"]}'
    assert Role("starter") is Role.STARTER and f"{Role.HAND:8s}|" == "hand    |"
