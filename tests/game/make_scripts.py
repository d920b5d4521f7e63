"""Writes tests/game/scripts/*.json: full games that show the RULES.md situations.

    python tests/game/make_scripts.py

Each script is a random legal game (companion.game.simulate) from the first seed whose game
shows the situation; the tests read the committed files and check the situation happened
(they never regenerate them). Claim habits make the situation likely.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.game.script import run_script  # noqa: E402
from companion.game.simulate import random_script, sloppy_call  # noqa: E402

OUT = Path(__file__).resolve().parent / "scripts"


def ended_in(kind):
    def check(run):
        last = [l for l in run.session.game.log if l.points > 0][-1]
        return run.session.game.over and last.kind == kind
    return check


def pone_pegs_out(run):
    game = run.session.game
    last = [l for l in game.log if l.points > 0][-1]
    return game.over and last.kind == "hand" and last.seat == (game.dealer + 1) % game.n


def has_jack_cut(run):
    return any(l.kind == "lost" and "heels" in l.text for l in run.session.game.log)


def overclaims(run):
    return sum(1 for l in run.session.game.log if l.claimed is not None and l.claimed > (l.entitled or 0)) >= 3


def taken_and_declined(run):
    log = run.session.game.log
    kinds = {l.text.split("(")[-1].rstrip(")") for l in log if l.kind == "muggins"}
    return {"play", "hand"} <= kinds and any(l.kind == "lost" for l in log)


def result_kind(kind):
    return lambda run: run.session.game.over and run.session.game.results[-1].kind == kind


def under_habit(rate):
    def claims(rng, kind, entitled):
        if kind == "heels":
            return 0
        if entitled and rng.random() < rate:
            return rng.randint(0, entitled - 1)
        return entitled + 2 if kind == "hand" and rng.random() < 0.1 else None
    return claims



def readme_example(run):
    """Pone pegs out in the show, with a muggins taken, one declined, an overclaim and a penalty."""
    log = run.session.game.log
    return (pone_pegs_out(run) and any(l.kind == "muggins" for l in log)
            and any("declined" in l.text for l in log) and any("too many" in l.text for l in log)
            and any(l.kind == "penalty" for l in log))


def with_penalty(script: dict) -> dict:
    script = json.loads(json.dumps(script))
    if len(script["deals"]) > 2:
        script["deals"][1]["penalties"] = [{"key": "bottom-card", "offender": "Ben", "after": "discards"}]
    return script


SITUATIONS = {
    "short_pone_pegs_out_in_show": (dict(short=True), pone_pegs_out),
    "pone_pegs_out_in_show": (dict(), pone_pegs_out),
    "peg_out_in_play": (dict(), ended_in("play")),
    "heels_not_mugginsable": (dict(rules={"preset": "acc", "muggins": "optional"},
                                   claims=lambda r, k, e: 0 if k == "heels" else None), has_jack_cut),
    "overclaim_corrected": (dict(rules={"preset": "acc", "muggins": "optional"},
                                 claims=lambda r, k, e: e + r.randint(1, 4) if r.random() < 0.15 else None,
                                 calls=lambda r, o: None), overclaims),
    "muggins_taken_and_declined": (dict(rules={"preset": "acc", "muggins": "optional"},
                                        claims=under_habit(0.2),
                                        calls=lambda r, o: r.choice(o.callers) if r.random() < 0.6 else "decline"),
                                   taken_and_declined),
    "three_players": (dict(players=("Ann", "Ben", "Cat"), sloppy=True), lambda run: run.session.game.over),
    "four_players": (dict(players=("Ann", "Ben", "Cat", "Dan"), rules={"preset": "acc", "muggins": "optional"},
                          claims=under_habit(0.1), calls=sloppy_call), lambda run: run.session.game.over),
    "skunk": (dict(rules="acc"), result_kind("skunk")),
    "double_skunk": (dict(rules={"preset": "home", "muggins": "optional"}, claims=None, calls=None),
                     result_kind("double skunk")),
    "lowball": (dict(rules={"preset": "acc", "lowball": True}), lambda run: run.session.game.over),
    "pub_best_of_three": (dict(rules="pub", sloppy=True),
                          lambda run: len(run.session.game.results) == 3),
    "readme_example": (dict(short=True, rules={"preset": "acc", "muggins": "optional"},
                            claims=under_habit(0.15),
                            calls=lambda r, o: r.choice(o.callers) if r.random() < 0.6 else "decline"),
                       readme_example),
}



def find(name: str, options: dict, check) -> dict:
    options = dict(options)
    if name == "double_skunk":
        # Ben never claims his points and Ann always calls muggins on him
        options["claims"] = lambda r, k, e: 0 if k != "heels" and e and r.random() < 0.95 else None
        options["calls"] = lambda r, o: o.callers[0]
    for seed in range(5000):
        script = random_script(seed, **options)
        script = json.loads(json.dumps(script))
        if name == "readme_example":
            script = with_penalty(script)
            try:
                run = run_script(script)
            except ValueError:
                continue  # the penalty changed the game's course: the script no longer fits
        else:
            run = run_script(script)
        if check(run):
            if "pone_pegs_out" in name or name == "readme_example":
                _add_uncounted(script, run)
            script["comment"] = f"{name.replace('_', ' ')}: generated by make_scripts.py, seed {seed}"
            return script
    raise SystemExit(f"no seed shows {name}")


def _add_uncounted(script: dict, run) -> None:
    """The table would still have the dealer's hand and the crib: the script says them too, and
    the replay skips them (the game ended at the pone's count)."""
    deal = run.session.game.deal
    for kind, seat in deal.show_order[deal.show_index:]:
        cards = deal.known_cards(kind, seat)
        script["deals"][-1]["show"].append({"cards": [str(c) for c in cards]})


def write(script: dict, path: Path) -> None:
    """One deal per line: readable diffs and still plain JSON."""
    head = {k: v for k, v in script.items() if k != "deals"}
    lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    lines.append('  "deals": [')
    deals = [f"    {json.dumps(d)}" for d in script["deals"]]
    lines.append(",\n".join(deals))
    lines += ["  ]", "}"]
    path.write_text("\n".join(lines) + "\n")


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, (options, check) in SITUATIONS.items():
        script = find(name, options, check)
        write(script, OUT / f"{name}.json")
        print(name, len(script["deals"]), "deals")


if __name__ == "__main__":
    main()
