"""Issue 48 section 5 (and the terminal's side of section 3): the terminal game as a player
expects it. A new move after ``undo`` forgets the undone moves, as an editor does, and says so in
one line; the claim example in the prompt names a card the player could hold and lay now, with
what it truly scores; piped moves are written after the prompt; ``quit`` (or the end of input)
says the game is saved and how to resume it; a hand or crib total no cards make is refused."""

import io
import json
import random

import pytest

from companion.cli import main
from companion.game import GameSession, RedoPendingError, Store
from companion.game.events import ForgetUndone
from companion.game.simulate import sloppy_claim
from companion.game.terminal import EXAMPLE_CARDS, Terminal, claim_example, prompt_line
from companion.claims import could_score
from companion.rules import Card
from companion.rules.cards import DECK

DEAL = ["discard 7C 6D / 2D 9C", "cut 6S"]   # Ann deals, Ben leads; 7C and 6D lie in the crib


def optional(**kwargs):
    return GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, first_dealer=0, **kwargs)


def play(session, moves) -> list[str]:
    out = io.StringIO()
    Terminal(session, io.StringIO("\n".join(moves) + "\n"), out).run()
    return out.getvalue().splitlines()


# ------------------------------------------------------------------ undo, then a new move

def test_a_new_move_after_undo_forgets_the_undone_ones_in_one_line():
    session = optional()
    lines = play(session, DEAL + ["5H claim 0", "KH", "undo", "undo", "4H"])
    said = [line for line in lines if "forgotten" in line]
    assert said == ["  2 undone moves forgotten: the new move replaces them (undo takes the new move back)"]
    assert not any(line.startswith("refused") for line in lines)
    view = session.view()
    assert [p.card for p in view.play] == ["4H"] and view.can_redo == 0
    assert sum(isinstance(e, ForgetUndone) for e in session.journal) == 1  # the journal keeps what was dropped
    # the prompt said what a new move would do while the undone moves waited
    assert any(line.endswith("[2 undone: redo brings them back, a new move forgets them]") for line in lines)


def test_a_refused_move_after_undo_keeps_the_undone_ones_for_redo():
    session = optional()
    lines = play(session, DEAL + ["5H claim 0", "undo", "6S", "redo"])  # 6S is the starter: refused
    assert "refused: card: 6S is already the starter" in lines
    assert not any("forgotten" in line for line in lines)
    assert "  redone: Ben laying 5H, claimed 0" in lines
    assert [p.card for p in session.view().play] == ["5H"]


def test_redo_and_forget_are_not_new_moves():
    session = optional()
    lines = play(session, DEAL + ["5H", "undo", "redo", "undo", "forget"])
    assert not any("forgotten" in line for line in lines) and "  1 undone move dropped" in lines


def test_outside_the_terminal_a_new_move_after_undo_is_still_refused():
    """The app keeps its own way (Redo, or Drop undone moves): the session refuses unless told."""
    session = optional()
    session.discard([["7C", "6D"], ["2D", "9C"]])
    session.undo()
    with pytest.raises(RedoPendingError):
        session.discard([["7C", "6D"], ["2D", "9C"]])
    assert session.view().can_redo == 1


def test_a_stored_game_forgets_and_resumes_as_played(capsys, monkeypatch, data_folder):
    assert main(["game", "new", "Ann", "Ben", "--muggins", "optional", "--json"]) == 0
    game_id = json.loads(capsys.readouterr().out)["id"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(DEAL + ["5H", "undo", "4H", "quit"]) + "\n"))
    assert main(["game", "resume", str(game_id)]) == 0
    assert "  1 undone move forgotten: the new move replaces it" in capsys.readouterr().out
    assert main(["game", "show", str(game_id), "--json"]) == 0
    assert [p["card"] for p in json.loads(capsys.readouterr().out)["view"]["play"]] == ["4H"]


# ------------------------------------------------------------------ the claim example

def _example_checked(session) -> Card | None:
    """The prompt's example card, checked against the cards: unseen in this deal (not laid, not
    the starter, not in the crib) and within 31 now."""
    card = claim_example(session)
    if card is not None:
        deal = session.game.deal
        assert card not in deal.seen, f"{card} is {deal.seen.get(card)}"
        assert session.view().count + card.value <= 31, f"{card} at count {session.view().count}"
    return card


def test_at_25_the_example_fits_and_is_no_card_of_the_crib():
    session = optional()
    lines = play(session, DEAL + ["KH", "5D claim 2", "TH"])  # Ben KH, Ann 5D (15), Ben TH: 25, Ann to play
    assert session.view().count == 25
    card = _example_checked(session)
    assert str(card) not in ("7C", "6D") and card.value <= 6  # 7C lies in the crib and would make 32
    assert lines[-2].endswith(f"count 25: Ann to play (claim the points, e.g. {card} claim N)")


def test_the_example_never_names_a_card_seen_or_one_that_does_not_fit_through_random_plays():
    rng = random.Random(48)
    for _ in range(12):
        session = optional()
        session.discard([["7C", "6D"], ["2D", "9C"]])
        session.cut("6S")
        pool = [c for c in DECK if str(c) not in ("7C", "6D", "2D", "9C", "6S")]
        rng.shuffle(pool)
        hands = {0: pool[:4], 1: pool[4:8]}
        while session.game.phase == "play":
            assert _example_checked(session) is not None  # 40 unseen cards: one always fits
            seat, count = session.view().to_act, session.view().count
            fits = [c for c in hands[seat] if count + c.value <= 31]
            if fits:
                hands[seat].remove(fits[0])
                session.lay(fits[0], session.preview_lay(fits[0]).points)
            else:
                session.go(session.preview_go().points)


def test_the_example_never_says_what_a_card_would_score():
    """The count is the player's to make (the example shows only with the count hidden): at 10,
    where a five makes 15, the example is a five, and its claim is N, not 2."""
    session = optional()
    lines = play(session, DEAL + ["KH"])
    assert claim_example(session) == EXAMPLE_CARDS[0] == Card.parse("5H")
    assert lines[-2].endswith("count 10: Ann to play (claim the points, e.g. 5H claim N)")
    play(session, ["5H claim 2"])  # laid now: never the example again in this deal
    assert claim_example(session) != Card.parse("5H")


def test_with_no_unseen_card_that_fits_the_example_is_left_out():
    session = optional()
    session.discard([["AC", "AD"], ["AH", "2C"]])
    session.cut("AS")
    for played in ("KH", "KS", "KD"):   # count 30: only an ace fits, and all four are seen
        session.lay(played, 0)
    assert session.view().count == 30 and claim_example(session) is None
    assert prompt_line(session).splitlines()[0].endswith("count 30: Ann to play (claim the points: CARD claim N)")


# ------------------------------------------------------------------ the prompt and quit

def test_piped_moves_are_written_after_the_prompt_and_quit_says_how_to_resume(capsys, monkeypatch, data_folder):
    assert main(["game", "new", "Ann", "Ben", "--json"]) == 0
    game_id = json.loads(capsys.readouterr().out)["id"]
    monkeypatch.setattr("sys.stdin", io.StringIO("discard 7C 6D / 2D 9C\nquit\n"))
    assert main(["game", "resume", str(game_id)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "move> discard 7C 6D / 2D 9C"
    assert lines[-1] == (f"game {game_id} saved (every move is kept as it is made); "
                         f"resume it with: crib game resume {game_id}")
    # the end of input (Ctrl-D) says the same
    monkeypatch.setattr("sys.stdin", io.StringIO("cut 6S\n"))
    assert main(["game", "resume", str(game_id)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"game {game_id} saved")
    # and the game was saved: it resumes where it was
    assert main(["game", "show", str(game_id), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["view"]["starter"] == "6S"


def test_quit_on_a_game_not_stored_says_so():
    assert play(optional(), ["quit"])[-1] == "quit: this game was not stored"


def test_undo_from_the_command_line_says_a_new_move_forgets(capsys, data_folder):
    assert main(["game", "new", "Ann", "Ben", "--json"]) == 0
    game_id = json.loads(capsys.readouterr().out)["id"]
    session = GameSession.open(Store(), game_id)
    session.discard([["7C", "6D"], ["2D", "9C"]])
    session.close()
    assert main(["game", "undo", str(game_id)]) == 0
    assert "a new move there forgets them" in capsys.readouterr().out


# ------------------------------------------------------------------ totals no hand or crib can score

# Ben (the pone) holds 4H 5H 6H 6D, Ann KC QC JC TC; the crib 2C 2H 3C 9H; starter 6S
TO_THE_SHOW = ["discard 2C 2H / 3C 9H", "cut 6S", "4H", "KC", "6D", "QC", "go", "go", "5H", "JC", "6H", "TC"]


@pytest.mark.parametrize("claim", [19, 25, 26, 27])
def test_the_terminal_refuses_a_hand_or_crib_claim_no_cards_make(claim):
    session = optional()
    lines = play(session, TO_THE_SHOW + [f"show claim {claim}", "show claim 21", "show claim 0",
                                         f"show claim {claim}"])
    refusals = [line for line in lines if line.startswith("refused")]
    assert [line.split(" (nor")[0] for line in refusals] == [
        f"refused: claim: {claim} is impossible: no hand counts {claim}",
        f"refused: claim: {claim} is impossible: no crib counts {claim}"]
    assert [s.claimed for s in session.view().shown] == [21, 0]  # nothing recorded for the refusals
    assert session.view().next_show.kind == "crib"


def test_the_simulated_sloppy_table_never_claims_what_no_cards_make():
    rng = random.Random(7)
    claims = [(kind, entitled, sloppy_claim(rng, kind, entitled))
              for _ in range(400) for kind in ("hand", "crib") for entitled in range(30) if could_score(kind, entitled)]
    assert all(claim is None or could_score(kind, claim) for kind, entitled, claim in claims)
    assert any(claim is not None and claim > entitled for kind, entitled, claim in claims)
    assert any(claim is not None and claim < entitled for kind, entitled, claim in claims)
