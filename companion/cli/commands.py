"""The subcommand modules of ``crib``, in ``crib --help`` order. Adding one is one import line
here: every module imported below that has ``register(subparsers)`` is a subcommand module."""

from companion.cli import rules_commands  # score, stats, peg, discard
from companion.cli import training_commands  # synth, train
from companion.cli import recognition_commands  # recognize, show
from companion.cli import sample_commands  # samples
from companion.cli import board_commands  # board ...
from companion.cli import game_commands  # game ...
from companion.cli import app_commands  # app
