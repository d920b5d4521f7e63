"""Board wiring geometry: which LED of the strip lights which hole, loaded from a JSON file.

The JSON lists the strip in wiring order (single LEDs and serpentine rows of holes) and, per
track, the rows its two laps run along. ``python3 -m hardware.geometry header FILE`` writes the
C header the firmware is built with (stdlib only, so the firmware build needs no venv).
"""

from __future__ import annotations

import argparse
import binascii
import json
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

from hardware import palette, power

GEOMETRY_DIR = Path(__file__).resolve().parent / "geometry"
HOLES = 120          # holes 1..120 per track
GAME_HOLE = 121      # position 121: the game hole; position 0: the start
POSITIONS = GAME_HOLE + 1
MAX_TRACKS = 3
MAX_GAMES = 3        # games-won LEDs per track (best of three needs two; a third for a skunk counted double)
SHORT_GAME = 61      # the short game: once round (holes 1..60), then the game hole
BUTTON_ACTIONS = ("+1", "+2", "undo")   # each track's buttons, in the firmware's order


class GeometryError(ValueError):
    """A geometry file that does not describe a usable board."""


@dataclass(frozen=True)
class Geometry:
    name: str
    led_count: int
    status_led: int
    track_rgb: tuple[tuple[int, int, int], ...]
    hole_leds: tuple[tuple[int, ...], ...]   # [track][position 0..121] -> LED index
    dealer_leds: tuple[int, ...]
    positions: tuple[tuple[float, float], ...]  # LED index -> (x, y) in mm, for pictures
    game_leds: tuple[tuple[int, ...], ...] = ()  # [track] -> the LEDs that count games won
    # (track, action, x, y) in the firmware's button order (track by track: +1, +2, undo); where
    # the buttons sit, for the drilling template only (they are not on the strip)
    buttons: tuple[tuple[int, str, float, float], ...] = ()

    @property
    def tracks(self) -> int:
        return len(self.hole_leds)

    @property
    def geometry_id(self) -> int:
        """CRC-16 of the wiring tables: the board reports it so the host knows it matches."""
        words = [self.led_count, self.status_led, *self.dealer_leds]
        for track in self.hole_leds:
            words.extend(track)
        for track in self.game_leds:
            words.extend(track)
        blob = struct.pack(f"<{len(words)}H", *words) + bytes(c for rgb in self.track_rgb for c in rgb)
        return binascii.crc_hqx(blob, 0xFFFF)

    @classmethod
    def load(cls, name_or_path: str | Path) -> "Geometry":
        path = Path(name_or_path)
        if not path.suffix:
            path = GEOMETRY_DIR / f"{name_or_path}.json"
        try:
            doc = json.loads(path.read_text())
        except FileNotFoundError:
            known = ", ".join(sorted(p.stem for p in GEOMETRY_DIR.glob("*.json")))
            raise GeometryError(f"no geometry {str(name_or_path)!r} (known: {known})") from None
        except json.JSONDecodeError as exc:
            raise GeometryError(f"{path}: not JSON: {exc}") from None
        return cls.from_dict(doc)

    @classmethod
    def from_dict(cls, doc: dict) -> "Geometry":
        if doc.get("format") != 1:
            raise GeometryError(f"geometry format {doc.get('format')!r} is not 1")
        named: dict[str, int] = {}
        rows: dict[str, list[int]] = {}          # row id -> LED indices from left to right
        positions: list[tuple[float, float]] = []
        for seg in doc["strip"]:
            if "row" in seg:
                n, pitch = int(seg["holes"]), float(seg["pitch"])
                group, gap = int(seg.get("group", n)), float(seg.get("group_gap", 0))
                xs = [seg["x0"] + i * pitch + (i // group) * gap for i in range(n)]
                left_to_right = seg["wired"] == "left-to-right"
                if seg["wired"] not in ("left-to-right", "right-to-left"):
                    raise GeometryError(f"row {seg['row']}: wired must be left-to-right or right-to-left")
                first = len(positions)
                order = range(n) if left_to_right else range(n - 1, -1, -1)
                for i in order:
                    positions.append((xs[i], float(seg["y"])))
                rows[seg["row"]] = [first + (i if left_to_right else n - 1 - i) for i in range(n)]
            else:
                named[seg["id"]] = len(positions)
                positions.append((float(seg["x"]), float(seg["y"])))

        def led(name: str) -> int:
            if name not in named:
                raise GeometryError(f"unknown LED id {name!r}")
            return named[name]

        hole_leds, dealer_leds, colours, game_leds, buttons = [], [], [], [], []
        for t, track in enumerate(doc["tracks"]):
            holes = [led(track["start"])]
            for lap in track["laps"]:
                for run in lap:
                    if run["row"] not in rows:
                        raise GeometryError(f"track {t}: unknown row {run['row']!r}")
                    row = rows[run["row"]]
                    holes.extend(row if run["from"] == "left" else reversed(row))
            holes.append(led(track["game"]))
            if len(holes) != POSITIONS:
                raise GeometryError(f"track {t}: {len(holes) - 2} holes, expected {HOLES}")
            hole_leds.append(tuple(holes))
            dealer_leds.append(led(track["dealer"]))
            game_leds.append(tuple(led(name) for name in track.get("games", ())))
            if len(game_leds[-1]) > MAX_GAMES or len(game_leds[-1]) != len(game_leds[0]):
                raise GeometryError(f"track {t}: up to {MAX_GAMES} games LEDs, as many on every track")
            rgb = tuple(int(c) for c in track["colour"])
            if len(rgb) != 3 or not all(0 <= c <= 255 for c in rgb):
                raise GeometryError(f"track {t}: colour must be three values 0..255")
            colours.append(rgb)
            placed = track.get("buttons", ())
            if placed and [b.get("action") for b in placed] != list(BUTTON_ACTIONS):
                raise GeometryError(f"track {t}: buttons must be {', '.join(BUTTON_ACTIONS)} in that order")
            buttons.extend((t, b["action"], float(b["x"]), float(b["y"])) for b in placed)
        if not 2 <= len(hole_leds) <= MAX_TRACKS:
            raise GeometryError(f"{len(hole_leds)} tracks; a board has 2 or {MAX_TRACKS}")
        status = led(doc["status"])
        used = [status, *dealer_leds, *(i for track in hole_leds for i in track),
                *(i for track in game_leds for i in track)]
        if len(set(used)) != len(used):
            raise GeometryError("two holes (or markers) share one LED")
        return cls(name=str(doc["name"]), led_count=len(positions), status_led=status,
                   track_rgb=tuple(colours), hole_leds=tuple(hole_leds),
                   dealer_leds=tuple(dealer_leds), positions=tuple(positions), game_leds=tuple(game_leds),
                   buttons=tuple(buttons))

    def led_names(self) -> tuple[str, ...]:
        """What each LED of the strip sits under, in strip order ("track 2 hole 37", "status LED")."""
        names = [""] * self.led_count
        names[self.status_led] = "status LED"
        for t, track in enumerate(self.hole_leds):
            for position, led in enumerate(track):
                names[led] = (f"track {t + 1} start hole" if position == 0
                              else f"track {t + 1} game hole" if position == GAME_HOLE
                              else f"track {t + 1} hole {position}")
            names[self.dealer_leds[t]] = f"track {t + 1} dealer LED"
            for k, led in enumerate(self.game_leds[t] if self.game_leds else ()):
                names[led] = f"track {t + 1} games-won LED {k + 1}"
        return tuple(name or f"LED {i} (unused)" for i, name in enumerate(names))

    @property
    def games_per_track(self) -> int:
        return len(self.game_leds[0]) if self.game_leds else 0

    def c_header(self) -> str:
        """The firmware's compiled-in tables (flash, PROGMEM)."""
        def rows(values, per=16):
            values = list(values)
            return ",\n    ".join(", ".join(str(v) for v in values[i:i + per]) for i in range(0, len(values), per))
        tracks = ",\n  ".join("{\n    " + rows(track) + "\n  }" for track in self.hole_leds)
        games = ", ".join("{" + rows(track or (0,)) + "}" for track in (self.game_leds or ((),) * self.tracks))
        return f"""/* Generated by `python3 -m hardware.geometry header` from geometry {self.name!r}: do not edit. */
#ifndef BOARD_GEOMETRY_H
#define BOARD_GEOMETRY_H
#include <avr/pgmspace.h>
#include <stdint.h>
#define GEOMETRY_NAME "{self.name}"
#define TRACKS {self.tracks}
#define LED_COUNT {self.led_count}
#define STATUS_LED {self.status_led}
#define GEOMETRY_ID 0x{self.geometry_id:04X}u
#define POSITIONS {POSITIONS}
#define GAME_HOLE {GAME_HOLE}
#define BRIGHTNESS_LEVELS {len(palette.BRIGHTNESS_SCALE)}
#define DEFAULT_BRIGHTNESS {palette.DEFAULT_BRIGHTNESS}
#define WIN_FRAME_MS {palette.WIN_FRAME_MS}
#define WIN_TAIL {palette.WIN_TAIL}
#define GAME_LEDS {self.games_per_track}
#define MAX_GAMES {MAX_GAMES}
#define SHORT_GAME {SHORT_GAME}
#define LED_CHANNEL_MA {power.CHANNEL_MA}
#define LED_IDLE_UA {power.IDLE_UA}
#define CONTROLLER_MA {power.CONTROLLER_MA}
#define DEFAULT_CURRENT_LIMIT_MA {power.DEFAULT_LIMIT_MA}
static const uint16_t HOLE_LED[TRACKS][POSITIONS] PROGMEM = {{
  {tracks}
}};
static const uint16_t DEALER_LED[TRACKS] PROGMEM = {{ {rows(self.dealer_leds)} }};
static const uint16_t GAMES_LED[TRACKS][GAME_LEDS ? GAME_LEDS : 1] PROGMEM = {{ {games} }};
static const uint8_t TRACK_RGB[TRACKS][3] PROGMEM = {{ {", ".join("{%d, %d, %d}" % c for c in self.track_rgb)} }};
static const uint8_t BRIGHTNESS_SCALE[BRIGHTNESS_LEVELS] PROGMEM = {{ {rows(palette.BRIGHTNESS_SCALE)} }};
static const uint8_t SKUNK_MARKER_RGB[3] PROGMEM = {{ {rows(palette.SKUNK_MARKER_RGB)} }};
static const uint8_t DOUBLE_SKUNK_MARKER_RGB[3] PROGMEM = {{ {rows(palette.DOUBLE_SKUNK_MARKER_RGB)} }};
static const uint8_t WIN_HEAD_RGB[3] PROGMEM = {{ {rows(palette.WIN_HEAD_RGB)} }};
static const uint8_t SKUNK_HEAD_RGB[3] PROGMEM = {{ {rows(palette.SKUNK_HEAD_RGB)} }};
static const uint8_t DOUBLE_SKUNK_HEAD_RGB[3] PROGMEM = {{ {rows(palette.DOUBLE_SKUNK_HEAD_RGB)} }};
static const uint8_t STATUS_IDLE_RGB[3] PROGMEM = {{ {rows(palette.STATUS_IDLE_RGB)} }};
static const uint8_t STATUS_RESTORED_RGB[3] PROGMEM = {{ {rows(palette.STATUS_RESTORED_RGB)} }};
static const uint8_t STATUS_WAITING_RGB[3] PROGMEM = {{ {rows(palette.STATUS_WAITING_RGB)} }};
static const uint8_t STATUS_CONNECTED_RGB[3] PROGMEM = {{ {rows(palette.STATUS_CONNECTED_RGB)} }};
static const uint8_t STATUS_LOST_RGB[3] PROGMEM = {{ {rows(palette.STATUS_LOST_RGB)} }};
#endif
"""


def available() -> list[str]:
    return sorted(p.stem for p in GEOMETRY_DIR.glob("*.json"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m hardware.geometry")
    sub = parser.add_subparsers(dest="command", required=True)
    header = sub.add_parser("header", help="write the firmware's C header for a geometry")
    header.add_argument("geometry", help="a name (2-track, 3-track) or a JSON path")
    header.add_argument("-o", "--output", type=Path)
    args = parser.parse_args(argv)
    try:
        text = Geometry.load(args.geometry).c_header()
    except GeometryError as exc:
        print(f"geometry: error: {exc}", file=sys.stderr)
        return 2
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
