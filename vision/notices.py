"""What recognition tells the player, as codes with arguments (standard library only).

The steps return ``Notice`` values; the words are made where they are shown (``Notice.text``: the
CLI, the app, the JSON). A caller acts on a notice by its ``code`` and ``args``, never by its words:
``companion`` drops the notice of an unread card the player named by ``Code.UNREAD_CARD`` and its
number.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from vision.roles import Role


class Code(StrEnum):
    """Every notice recognition gives. The arguments each one carries are listed beside it."""

    NO_CARD = "no_card"  # ()
    TOO_MANY_CARDS = "too_many_cards"  # (cards found, the most a cribbage layout holds)
    DISPUTED_CORNERS = "disputed_corners"  # (card kept, the other code its corners read)
    MID_FACE_MARKS = "mid_face_marks"  # (codes,): reads in the middle of another card's face
    FRAME_MARKS = "frame_marks"  # (codes,): reads on another card's face, where no corner lies
    LONE_INDICES = "lone_indices"  # ((code, detector score), ...): indices with no card around them
    UNSURE_LONE_READS = "unsure_lone_reads"  # ((code, probability), ...): unsure reads with no card around
    UNSURE_READS_ON_CARDS = "unsure_reads_on_cards"  # ((code, probability), ...): on cards read otherwise
    SEEN_TWICE = "seen_twice"  # (code, times)
    READ_TWICE = "read_twice"  # (code, where the likelier wrong read lies: "left" ..., its chance, its alternatives)
    SECOND_READING = "second_reading"  # (code, confidence, card it lies on, "index" / "corner" / "face")
    COLUMN_CARD = "column_card"  # (code, confidence): read on a fan's index column, no card box
    DOUBTFUL = "doubtful"  # (code, chance it is right, runner-up or None, why: a DOUBT_WHY key)
    LOW_CONFIDENCE = "low_confidence"  # (code, confidence, runner-up or None, its confidence)
    ONE_CORNER = "one_corner"  # (code, confidence, runner-up or None, its confidence)
    UNREAD_CARD = "unread_card"  # (number from 1, box x1 y1 x2 y2, best guess (code, probability) or None)
    STARTER_PUSHED = "starter_pushed"  # (): the starter taken from a group of 5
    LONE_CARDS = "lone_cards"  # (how many lone cards)
    SINGLE_CARD = "single_card"  # ()
    ODD_GROUP = "odd_group"  # (group size): neither a hand nor a deal
    DEAL_OF_SIX = "deal_of_six"  # ()
    DEAL_OF_FIVE = "deal_of_five"  # ()
    NO_STARTER_FOR_CRIB = "no_starter_for_crib"  # (groups of 4)
    CRIB_UNSURE = "crib_unsure"  # (): older results; recognition now says ROLE_GUESSED (role "crib", "near_...")
    ROLE_GUESSED = "role_guessed"  # (role, cards read in the group, why: a GUESS_WHY key): a role not shown for sure
    # The player's table (``vision.table``): the groups built from the cards the player can trust.
    NAMED_APART = "named_apart"  # (code, the starter): a card the player named lies apart, not counted
    SET_ASIDE = "set_aside"  # (code, card it sits on): a flagged card kept out of the groups until confirmed
    # The doubt model (``vision.doubt``): the photo itself made cards doubtful.
    PHOTO_ADVICE = "photo_advice"  # (what: a PHOTO_ADVICE key, cards doubtful, cards weighed)


# Why a role is a guess (``Code.ROLE_GUESSED``'s third argument).
GUESS_WHY = {
    "size": "{n} cards where a {role} has 4 (a card hidden, not found or read twice?)",
    "near_starter": "another group lies almost as near the starter",
    "near_pack": "another group lies almost as near the pack",
}


def _role_guessed(role: str, cards: tuple, why: str) -> str:
    which = " ".join(cards) if cards else "a group of unread cards"
    reason = GUESS_WHY[why].format(n=len(cards), role=role)
    if why.startswith("near_"):
        return f"unsure which group is the crib: took {which}, but {reason}"
    return f"{which} taken for {'the crib' if role == Role.CRIB else 'a hand'} on a guess: {reason}; check the photo"


# Why a card is doubted (``Code.DOUBTFUL``'s fourth argument): the evidence that pulls its chance
# down the most (``vision.doubt``'s features).
DOUBT_WHY = {
    "reader_logit": "its index is hard to read",
    "runner_up_logit": "its index looks like another card's too",
    "index_score_logit": "its corner index is faint",
    "card_score": "the card's edges are unclear",
    "no_card_box": "the card's edges are not seen",
    "one_corner": "only one corner shows",
    "disputed": "its two corners read differently",
    "second_look": "it was read only on a second look",
    "column": "it was found beside its neighbours on a fan or row, not on its own",
    "log_index_px": "its index is small in the photo",
    "again_logit": "read a second time it looks less sure",
    "red_ink_on_black": "its ink looks red for a black suit",
    "black_ink_on_red": "its ink does not look red for a red suit",
    "log_sharpness": "its index is blurred",
    "log_ground": "it lies in shadow",
    "log_contrast": "its ink is faint against the card",
    "cast": "the light is tinted",
    "log_noise": "the photo is grainy",
    "photo_log_ground": "the photo is dark",
    "photo_log_sharpness": "the photo is blurred",
    "others_logit": "the photo's other cards are hard to read too",
}


# What is wrong with a photo worse than the tuning photos as taken, with a card doubtful in it
# (``Code.PHOTO_ADVICE``), and what the player can do about it.
PHOTO_ADVICE = {
    "dark": "too dark to trust: more light, or the flash",
}


def _photo_advice(what: str, doubtful: int, weighed: int) -> str:
    cards = "card" if weighed == 1 else "cards"
    return f"the photo is {PHOTO_ADVICE[what]} ({doubtful} of {weighed} {cards} doubtful in it); take another"


def percent_sure(p: float) -> str:
    """A chance as a player reads it: whole percent, never rounded up to a sure 100 %."""
    return f"{min(99, int(p * 100))} %"


def _read_twice(code: str, where: str, p: float, others: tuple) -> str:
    maybe = f"; it may be {' or '.join(others)}" if others else ""
    return (f"{code} read twice: the one at the {where} is likelier wrong ({percent_sure(p)} sure){maybe}; "
            f"confirm or correct it")


def _doubtful(code: str, p: float, runner: str | None, why: str) -> str:
    alternative = f", or {runner}" if runner else ""
    return f"read as {code}, {percent_sure(p)} sure{alternative}: {DOUBT_WHY.get(why, why)}; confirm this card"


# Where a second reading lies on the card it was taken from (``Code.SECOND_READING``).
_WHERE = {"index": "index", "corner": "other corner index", "face": "pips or picture"}


def _guess(read: tuple[str, float]) -> str:
    return f"{read[0]}, {read[1]:.2f}"


def _alternative(runner_up: str | None, confidence: float) -> str:
    return f" (or {runner_up}, {confidence:.2f})" if runner_up else ""


def _unsure(reads: tuple, one: str, many: str) -> str:
    if len(reads) == 1:
        return f"ignored an unsure corner read ({_guess(reads[0])}) {one}"
    return f"ignored {len(reads)} unsure corner reads {many} ({'; '.join(_guess(r) for r in reads)})"


def _lone_indices(reads: tuple) -> str:
    if len(reads) == 1:
        code, score = reads[0]
        return f"ignored a corner index read as {code} with no card around it (detector score {score:.2f})"
    scores = ", ".join(f"{code} {score:.2f}" for code, score in reads)
    return f"ignored {len(reads)} corner indices with no card around them (detector scores: {scores})"


def _unread(number: int, box: tuple, guess: tuple | None) -> str:
    best = f" (best guess {_guess(guess)})" if guess else ""
    return f"unread card {number} at [{', '.join(f'{v:.0f}' for v in box)}] has no readable index{best}: check it"


_TEXT = {
    Code.NO_CARD: lambda: "no card found in the photo",
    Code.TOO_MANY_CARDS: lambda n, most: f"{n} cards found: more than {most}, this does not look like a cribbage layout",
    Code.DISPUTED_CORNERS: lambda code, other: f"the corners of one card read {code} and {other}: confirm this card",
    Code.MID_FACE_MARKS: lambda codes: f"ignored {', '.join(codes)}: read in the middle of another card's face, "
                                       f"not in a corner",
    Code.FRAME_MARKS: lambda codes: f"ignored {', '.join(codes)}: read on another card's face, where no corner index lies",
    Code.LONE_INDICES: _lone_indices,
    Code.UNSURE_LONE_READS: lambda reads: _unsure(reads, "with no card around it", "with no card around them"),
    Code.UNSURE_READS_ON_CARDS: lambda reads: _unsure(reads, "on a card read otherwise", "on cards read otherwise"),
    Code.SEEN_TWICE: lambda code, n: f"{code} seen {n} times far apart: one deck has one {code}; check the photo",
    Code.READ_TWICE: _read_twice,
    Code.SECOND_READING: lambda code, p, card, where: f"ignored {code} ({p:.2f}): a second reading of {card}'s "
                                                      f"{_WHERE[where]}, not a card of its own",
    Code.COLUMN_CARD: lambda code, p: f"{code} read at {p:.2f} on the index column of a fan or row, with no card "
                                      f"box of its own: confirm this card",
    Code.DOUBTFUL: _doubtful,
    Code.PHOTO_ADVICE: _photo_advice,
    Code.LOW_CONFIDENCE: lambda code, p, runner, q: f"{code} read with low confidence {p:.2f}"
                                                    f"{_alternative(runner, q)}: confirm this card",
    Code.ONE_CORNER: lambda code, p, runner, q: f"{code} read from one corner only at {p:.2f}"
                                                f"{_alternative(runner, q)}: confirm this card",
    Code.UNREAD_CARD: _unread,
    Code.STARTER_PUSHED: lambda: "the starter lies close to a hand: took the card set apart from the other four",
    Code.LONE_CARDS: lambda n: f"{n} lone cards apart from the groups: cannot tell which is the starter",
    Code.SINGLE_CARD: lambda: "a single card: no hand to read",
    Code.ODD_GROUP: lambda n: f"a group of {n} cards is neither a hand (4) nor a deal (5 or 6)",
    Code.DEAL_OF_SIX: lambda: "a group of 6 cards is a deal: discard 2 to the crib before the show",
    # 5 is also a 6-card deal with a card not found: say both, not just the three-player deal
    Code.DEAL_OF_FIVE: lambda: "a group of 5 cards: a three-player deal (discard 1 to the crib before the show), "
                               "or a card of it was not found: check the photo",
    Code.NO_STARTER_FOR_CRIB: lambda n: f"{n} groups of 4 and no starter or pack apart: cannot tell which is the crib",
    Code.CRIB_UNSURE: lambda: "unsure which group is the crib: two groups lie almost equally near the starter",
    Code.ROLE_GUESSED: _role_guessed,
    Code.NAMED_APART: lambda code, starter: f"{code} (named) lies apart from the hands and the starter {starter}: "
                                            f"not counted",
    Code.SET_ASIDE: lambda code, under: f"{code} (read unsure on {under}'s corner) is left out of the groups until "
                                        f"confirmed",
}


@dataclass(frozen=True)
class Notice:
    """One thing recognition tells the player: a ``Code`` and its arguments (see ``Code``).
    ``text()`` (and ``str()``) words it."""

    code: Code
    args: tuple = ()

    def text(self) -> str:
        return _TEXT[self.code](*self.args)

    def __str__(self) -> str:
        return self.text()


def text_of(notice) -> str:
    """A notice's words; a plain string (a caller's own warning) as it is."""
    return notice if isinstance(notice, str) else notice.text()
