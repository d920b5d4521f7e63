"""The board's current: the model, the firmware's frame limiter (host copy) and the worst frames.

Model (stated in docs/BOARD.md): a WS2812B channel draws ``CHANNEL_MA`` at PWM value 255 and
proportionally less below (value / 255); every LED's controller draws ``IDLE_UA`` even when dark
(PJRC measured "just under 1 mA" on two kinds of WS2812B); the Nano/Uno itself (ATmega328P at
16 MHz, its USB chip and power LED) ``CONTROLLER_MA``. A frame's current is therefore

    CONTROLLER_MA + leds * IDLE_UA / 1000 + CHANNEL_MA * (sum of every channel value) / 255

The firmware keeps the sum of channel values ("light units") of every frame within
``light_budget(geometry, limit_ma)`` by scaling the whole frame when it is over (``limit``), so
the board never asks more of its supply than ``limit_ma`` (500 mA: a USB 2.0 port).
The C header carries these constants, so the firmware and this copy cannot drift apart.
The worst frames the firmware can draw are worked out in ``hardware.power_worst`` (it draws with
``hardware.leds``, which limits with this module: kept apart so the imports run one way).
"""

from __future__ import annotations

CHANNEL_MA = 20            # one colour channel at full PWM
IDLE_UA = 1000             # one dark WS2812B (its controller chip)
CONTROLLER_MA = 30         # the Nano/Uno: ATmega328P at 16 MHz, USB-serial chip, power LED
DEFAULT_LIMIT_MA = 500     # a USB 2.0 port; set another at build time: make firmware CURRENT_LIMIT_MA=...
UNLIMITED = 1 << 24        # a board that does not limit (firmware before the limiter)
MAX_BUDGET = 65535         # the firmware's scale factor keeps 16 bits (a limit of about 5.5 A)


class PowerError(ValueError):
    """A current limit the board cannot keep (below what the dark strip and controller draw)."""


def overhead_ma(led_count: int) -> int:
    """What the board draws with every LED dark (integer mA, as the firmware computes it)."""
    return CONTROLLER_MA + led_count * IDLE_UA // 1000


def light_budget(led_count: int, limit_ma: int = DEFAULT_LIMIT_MA) -> int:
    """The largest sum of channel values a frame may have (the firmware's LIGHT_BUDGET)."""
    spare = limit_ma - overhead_ma(led_count)
    if spare <= 0:
        raise PowerError(f"a limit of {limit_ma} mA is below the {overhead_ma(led_count)} mA the board "
                         f"draws dark ({led_count} LEDs x {IDLE_UA / 1000:g} mA + {CONTROLLER_MA} mA)")
    return min(spare * 255 // CHANNEL_MA, MAX_BUDGET)


def light_units(grb: bytes) -> int:
    return sum(grb)


def current_ma(grb: bytes) -> float:
    """The model's current for one frame (GRB bytes, three per LED)."""
    return overhead_ma(len(grb) // 3) + CHANNEL_MA * light_units(grb) / 255


def limit(grb: bytes | bytearray, budget: int) -> bytes:
    """The firmware's limiter: a frame over ``budget`` is scaled by ``floor(budget * 65536 / sum)``/65536,
    each byte rounded down, so the result is always within the budget (one division a frame)."""
    total = sum(grb)
    if total <= budget:
        return bytes(grb)
    factor = (budget << 16) // total
    return bytes((b * factor) >> 16 for b in grb)
