"""Issue 36 section 4: small things a player trips on at the terminal. Impossible claims are refused
with one line (never taken as overclaims), refusals name the player, ``crib game show`` and
``resume`` agree on the deal, the prompt's example names a card not yet laid, a muggins offer
says what its number is and how to take it, ``show`` with too few cards says a hand has 4 and a
negative claim says a claim cannot be negative."""

import io
import json
import random

import pytest

from companion.claims import MAX_PLAY, check_claim, ImpossibleClaimError
from companion.cli import main
from companion.game import GameSession
from companion.game.errors import EntryError
from companion.game.simulate import random_script
from companion.game.terminal import Terminal
from companion.rules import Card, Pegging

DEAL = ["discard QD JD / 2D 9C", "cut 6S"]   # Ann deals, Ben leads


def play(session, moves) -> list[str]:
    out = io.StringIO()
    Terminal(session, io.StringIO("\n".join(moves) + "\n"), out).run()
    return out.getvalue().splitlines()


def optional():
    return GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"})


# ------------------------------------------------------------------ the most one play can score

def test_the_most_one_card_scores_is_reached_by_a_real_play_and_never_passed():
    assert MAX_PLAY == 15
    # 2 3 3 3 (count 11), then four aces: the last makes 15 with a double pair royal as the play's last card
    pegging = Pegging(2)
    for code in ("2C", "3C", "3D", "3H", "AC", "AD", "AH", "AS"):
        event = pegging.lay(Card.parse(code))
    assert pegging.complete and event.points == MAX_PLAY
    # random legal plays through the rules core never score more on one card
    rng, deck = random.Random(36), [Card.parse(r + s) for r in "A23456789TJQK" for s in "CDHS"]
    for _ in range(300):
        pegging = Pegging(2)
        cards = rng.sample(deck, 8)
        while not pegging.complete:
            fits = [c for c in cards if pegging.count + c.value <= 31]
            if fits:
                cards.remove(fits[0])
                assert pegging.lay(fits[0]).points <= MAX_PLAY
            else:
                pegging.go()


def test_check_claim_bounds():
    check_claim("hand", 29)
    check_claim("play", 15)
    for kind, claimed, said in (("hand", 30, "no hand counts more than 29"), ("crib", 40, "no crib counts more than 29"),
                                ("play", 16, "nothing in the play scores more than 15"),
                                ("heels", 3, "his heels is 2"), ("hand", -1, "a claim cannot be negative")):
        with pytest.raises(ImpossibleClaimError, match=said):
            check_claim(kind, claimed)


def test_the_session_refuses_impossible_claims_and_stores_nothing():
    session = optional()
    session.discard([["QD", "JD"], ["2D", "9C"]])
    with pytest.raises(EntryError, match="heels: 3 is impossible: his heels is 2"):
        session.cut("JS", heels=3)
    session.cut("6S")
    entries = len(session.journal)
    with pytest.raises(EntryError, match="claim: 99 is impossible: nothing in the play scores more than 15"):
        session.lay("5H", 99)
    assert len(session.journal) == entries and session.view().count == 0


def test_the_terminal_refuses_impossible_and_negative_claims_in_one_line():
    session = optional()
    lines = play(session, DEAL + ["5H claim 99", "5H claim -1", "5H claim 0"])
    assert "refused: claim: 99 is impossible: nothing in the play scores more than 15" in lines
    assert "refused: claim: a claim cannot be negative, got -1" in lines
    assert not any("too many" in line for line in lines)


# ------------------------------------------------------------------ names, the show, the deal number

def test_a_card_over_31_is_refused_with_the_players_name():
    session = optional()
    lines = play(session, DEAL + ["KH", "KC", "KS", "6D"])  # Ben KH, Ann KC, Ben KS (30), Ann 6D: 36
    refusal = next(line for line in lines if "over 31" in line)
    assert refusal == "refused: card: 6D by Ann takes the count to 36 (over 31)"
    assert "player" not in refusal


def test_show_with_three_cards_says_a_hand_has_4_cards():
    lines = play(optional(), DEAL + ["show 7h 8h 9h"])
    assert "refused: show: a hand has 4 cards (the crib too), got 3 (7h 8h 9h)" in lines


def test_game_show_and_resume_agree_on_the_deal(capsys, monkeypatch, tmp_path):
    file = tmp_path / "two_deals.json"
    file.write_text(json.dumps(random_script(5, max_deals=2)))  # two whole deals: the next is deal 3
    assert main(["game", "replay", str(file), "--save", "--json"]) == 0
    game_id = json.loads(capsys.readouterr().out)["id"]
    assert main(["game", "show", str(game_id), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] == "discard" and state["deal"] == 3
    assert main(["game", "show", str(game_id)]) == 0
    out = capsys.readouterr().out
    assert "game 1, deal 3: at the discard" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["game", "resume", str(game_id)]) == 0
    assert capsys.readouterr().out.startswith(f"game {game_id}, deal 3:")


# ------------------------------------------------------------------ the prompt's words

def test_the_claim_example_names_a_card_not_yet_laid():
    lines = play(optional(), DEAL + ["5H"])
    prompt = lines[-2]  # the last line says the game is quit
    assert "to play (claim the points, e.g." in prompt and "5H claim" not in prompt


def test_a_muggins_offer_says_what_its_number_is_and_how_to_take_it():
    lines = play(optional(), DEAL + ["KH", "5D"])  # Ann's 5D makes 15 and claims nothing: 2 missed
    offer = next(line for line in lines if "muggins offer" in line)
    number = offer.split("muggins offer ")[1].split(":")[0]
    assert f"Ann missed 2 in the play (move {number})" in offer
    assert "Ben may take them: 'muggins Ben', or 'decline'" in offer and "ends when the scorer pegs again" in offer
