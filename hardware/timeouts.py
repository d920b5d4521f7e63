"""Every time limit of the host side, in one place, each with the reason for its value (seconds).

The board answers a request in about 4.3 ms on a real 16 MHz chip (wire time of a 20-byte
request and an 11-byte ACK at 115200 baud, 2.7 ms, plus 1.6 ms of parsing, rendering and CRC;
hardware/PROTOCOL.md, "Measured"). Everything below is a multiple of that with room for a busy
host: a tablet that stalls for a moment must cost a retry, not a lost board.
"""

from __future__ import annotations

# --- the port ------------------------------------------------------------------------------
# One blocking read waits at most this long: short enough to notice a reply within 10 ms,
# long enough not to spin. Set once per port: changing it reconfigures a real port every time.
READ_SLICE_S = 0.01
# A write that cannot drain in a second means the device is gone (USB adapters block, not fail).
WRITE_TIMEOUT_S = 1.0

# --- one request (link.py): per attempt, then retried with a fresh sequence number ------------
REQUEST_S = 0.25         # a generic request: 50x the board's answer time
REQUEST_RETRIES = 3      # four attempts: a 1 % byte-fault link loses all four about once in 10^8
# The handshake reply is 32 bytes (2.8 ms on the wire; firmware 1.2 added the limiter's budget).
# A reply to any attempt counts (link.py), so a short wait costs only a resend of 9 bytes, while
# a lost request no longer holds a reconnect up for long.
HELLO_S = 0.1
SET_STATE_S = 0.1        # 23x the 4.3 ms a real board needs
# A self-test step: nobody waits on it, and each redraws the whole strip (379 LEDs, 11 ms on
# the wire alone); a loaded host running the simulator must not turn a slow step into a failure.
TEST_S = 0.25
READBACK_S = 0.2         # a 66-byte chunk: 5.7 ms on the wire
STATUS_S = 0.2
PING_S = 0.2
PING_RETRIES = 1
BYE_S = 0.3              # the board writes its state to EEPROM before it answers: up to 82 ms

# --- a reset when the port opens ------------------------------------------------------------
# Opening the port of an Uno/Nano pulls DTR and resets the board; its bootloader listens for
# a new sketch for about 0.5 s (Optiboot, Uno) to 1.6 s (the old Nano bootloader, measured
# from its 1 s timeout after the 8-flash-blink start), then the firmware starts within 10 ms.
# The host keeps repeating HELLO (every HELLO_S) until this bound, then reports "no reply".
RESET_WAIT_S = 2.5

# --- the driver (driver.py): keeps a board showing the newest state ---------------------------
ACK_S = 0.05             # one attempt at a state; the driver resends the newest state itself
IDLE_PING_S = 1.0        # ping after a second without a word (the board's heartbeat period)
DEAD_AFTER_S = 3.0       # silent this long (three missed heartbeats): close and reconnect
BACKOFF_S = (0.05, 1.0)  # reconnect delay: doubles from the first to the second value
# ... unless the port is not there at all (PortAbsentError: the cable is out): opening a missing
# device costs microseconds, so it is looked for this often and a replugged board found at once
# (the backoff used to grow to 1 s while the cable was out, and a replug waited up to that long).
REOPEN_S = 0.05
IDLE_PING_REPLY_S = 0.3  # the idle ping's one attempt
REFUSED_WAIT_S = 1.0     # a refused state is not resent until a new one comes, or this long
MAILBOX_WAIT_S = 0.2     # the worker wakes at least this often to ping and check the link
JOIN_S = 5.0             # close(): the worker finishes its current request well within this

# --- the simulated board (simulator.py) -------------------------------------------------------
SIM_START_S = 10.0       # build check plus simavr start: about 0.1 s, far more on a loaded machine
SIM_STOP_S = 3.0         # SIGTERM, then SIGKILL
SIM_POLL_S = 0.1         # wait_for() rechecks that the harness still runs at least this often
