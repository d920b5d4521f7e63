"""Every tunable of recognition in one frozen configuration, grouped by step.

One name per meaning, its unit in the name or beside it. The measurement that set each value is in
the tuning log, docs/TUNING.md (by the field's ``step.name``). Values calibrated to a model version
travel with the model: models.json's ``calibration`` block (``{"interpret": {"read_floor": 0.3}}``)
overrides these defaults for that model (``from_models_json``); the defaults are the values
measured for the shipped models. Card and index geometry (not tuned: measured on cards) lives in
``vision.geometry``.

Units: *score* is the detector's score (0-1); *reader probability* the classifier's (0-1); *sure*
with no other word is their product, a card's confidence; *share* a fraction of what the name says.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace


@dataclass(frozen=True)
class DetectConfig:
    """Step 2, detect (``vision.detect``, ``vision.postprocess``, ``vision.kept_apart``)."""

    min_index_score: float = 0.25  # an index scored under this is not considered at all
    min_card_score: float = 0.4  # nor a card box under this
    candidate_score: float = 0.25  # raw rows under this never reach NMS (ultralytics' predict default)
    nms_iou: float = 0.6
    max_candidates: int = 3000  # bounds NMS time on a pathological output
    suppressed_iou: float = 0.9  # a box NMS suppressed overlapping its keeper by more is the same box
    # the closer pass (``zoom_regions``)
    sure_index_score: float = 0.6  # a card box holding an index scored this needs no closer look
    region_margin_of_photo: float = 0.04  # around the cards' union, share of the photo's long side
    target_index_px: float = 28.0  # an index's size at the detector's input the tiles aim for
    max_tiles: int = 6  # detector runs the closer pass may take
    tile_overlap: float = 0.2  # share of a tile
    min_tile_of_input: float = 1.0  # tiles are never smaller than the detector's input (no upsampling)
    max_region_share: float = 0.7  # a union of cards within this share of the photo each way is one region
    max_tile_of_photo: float = 0.6  # share of the photo's long side a tile may take
    tile_growth: float = 1.15  # tiles grow by this factor until max_tiles cover the cards


@dataclass(frozen=True)
class ReadConfig:
    """Step 3, read (``vision.read``)."""

    recheck_below: float = 0.95  # reader probability under which an index is read again, wider
    margin_scales: tuple[float, ...] = (1.0, 1.2, 1.4)  # crop margins read (the first always)


@dataclass(frozen=True)
class SecondLookConfig:
    """Step 3b, the second look (``vision.second_look``)."""

    sure: float = 0.5  # a card box holding a read this sure (score x reader probability) needs no look
    max_looks: int = 16  # more unread boxes than this is not a cribbage layout
    region_margin_of_box: float = 0.06  # around the card box, share of its size
    outline_px: int = 256  # the region is shrunk to this long side to find the outline
    canny_thresholds: tuple[int, int] = (40, 120)
    fill_range: tuple[float, float] = (0.3, 1.1)  # outline area, share of the card box's area
    contour_slack: float = 0.8  # contours under this share of the smallest fill are not looked at
    aspect_range_long_over_short: tuple[float, float] = (1.15, 1.75)
    min_outline_px: float = 4.0  # an outline's short side under this is noise
    oversample: float = 1.5  # the card is averaged down to this many times its upright size first
    # pips (``count_pips``): shares of the upright card's face
    face_rows: tuple[float, float] = (0.07, 0.93)
    face_columns: tuple[float, float] = (0.2, 0.8)
    dark_card_ink: float = 0.5  # more ink than this share: a dark card with light pips
    picture_share: float = 0.12  # a blob over this share of the face is a picture or one big pip
    pip_share: float = 0.004  # blobs under this share of the face are not pips
    pip_of_largest: float = 0.4  # pips are at least this share of the largest blob
    piece_of_largest: float = 0.08  # smaller blobs over this share are a picture's pieces
    max_pieces: int = 2
    pip_spread: float = 1.6  # a number card's pips differ in area by less than this factor


@dataclass(frozen=True)
class InterpretConfig:
    """Step 4, interpret (``vision.interpret``, ``identify``, ``outlines``, ``sure_reads``,
    ``kept_apart.restore``). The first three are the caller's (``Recognizer(confirm_below=,
    lone_index_score=, unread_card_score=)``), each between 0 and 1."""

    confirm_below: float = 0.6  # a card read less sure (score x reader probability) is flagged
    lone_index_score: float = 0.5  # an index with no card box needs this score to count
    unread_card_score: float = 0.5  # a card box with no read index needs this score to be reported
    read_floor: float = 0.3  # a card read less sure is an unread card with a best guess
    floor_reader: float = 0.7  # ... unless the reader gives it this probability or more (over 1: no exception)
    inside_share: float = 0.8  # a box with this share of its area inside other card boxes is part of them
    one_corner_factor: float = 1.3  # a card read from one corner needs this x confirm_below
    max_cards: int = 24  # more is not a cribbage layout (4 players show 21: four hands, a crib, the starter)
    sure_reader: float = 0.5  # reader probability that makes a read count as sure
    lone_sure_reader: float = 0.5  # reader probability that makes a lone index on a card's edge a card
    # where indices lie (shares of a box's short side unless said)
    edge_tolerance: float = 0.05  # an index this far outside a card's edge still lies on it
    corner_depth: float = 0.25  # a corner index lies at most this deep in its card's box
    mark_depth: float = 0.4  # a read deeper in another card's face is a mark on it
    mark_size_tie: float = 0.01  # card boxes this close in area (share) are one size: neither is a mark on the other
    coincident_iou: float = 0.8  # two card boxes with this IoU lie in one place
    square_on: float = 0.8  # a box this elongated (short / long side) or more holds a card square on
    corner_quadrant: float = 0.15  # this far from the box's centre (share of its side) is a corner
    face_inset: float = 0.15  # a mark this far from both nearest edges is inside the face
    suppressed_corner_reach: float = 0.2  # a read this far from a box's corner spot is its corner index
    # outlines (shares of a card box's diagonal unless said)
    same_card_diagonals: float = 1.1  # same-code indices farther apart are two cards
    unassigned_cost: float = 2.5  # a read card left without a card box (fits cost 0 .. ~1.5)
    own_corner_reach: float = 0.5  # a second read this near the owner's index is another card's corner
    own_card_reach: float = 1.1  # a read's index farther from its best one is not on the same card
    other_corner_reach: float = 0.25  # share of the short side: where the card's other corner lies

    def __post_init__(self) -> None:
        for name in CALLERS_THRESHOLDS:
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ThresholdError(name, value)


# The thresholds a caller may choose (``Recognizer``'s keywords of the same names).
CALLERS_THRESHOLDS = ("confirm_below", "lone_index_score", "unread_card_score")


class ThresholdError(ValueError):
    """A threshold outside 0..1. ``name`` is the threshold's parameter name, ``value`` the value."""

    def __init__(self, name: str, value: float):
        super().__init__(f"{name} must be between 0 and 1, got {value}")
        self.name, self.value = name, value


@dataclass(frozen=True)
class GroundConfig:
    """Is a lone index printed on a card (``vision.ground``)?"""

    region_side_px: int = 48  # a card's short side when the region is measured
    frame_share: float = 0.3  # the ground is sampled this wide around the index box (of its size)
    colour_tolerance: float = 30.0  # BGR distance within which a pixel is the ground's colour
    window_short_sides: float = 1.0  # the region is looked for this many card short sides around
    min_ground: float = 0.13  # ground of at least this share of a card's area is a card's face
    min_ink: float = 0.05  # share of the index box off the ground's colour


@dataclass(frozen=True)
class LayoutConfig:
    """Step 5, layout (``vision.layout``); distances in card widths unless said."""

    aspect_range_w_over_h: tuple[float, float] = (0.5, 0.85)  # the apparent card width / height
    link_distance: float = 1.6  # cards whose centres are closer share a group
    merge_reach: float = 1.3  # fragments join a group this many link distances away
    crib_unsure_ratio: float = 1.25  # the crib's group must be this much nearer the starter
    starter_apart: float = 1.35  # a 5th card this much farther out than the rest is the starter
    same_row: float = 0.5  # groups whose centres differ by less (card heights) share a reading row
    pack_under_iou: float = 0.5  # an unread box over a read card by this IoU is the pack
    overlap_link: float = 0.25  # boxes overlapping by this share of the smaller lie on each other
    complete_sizes: tuple[int, ...] = (1, 4, 5, 6)  # read cards alone making a group that fits a role


@dataclass(frozen=True)
class PhantomConfig:
    """After interpret: a second reading of a card already read is no card (``vision.phantoms``)."""

    own_box_iou: float = 0.9  # a card whose outline overlaps a detector's card box this much has a box of its own
    same_card_iou: float = 0.7  # a reading's box overlapping the card's box this much is that card boxed twice
    edge_tolerance: float = 0.05  # share of a box's short side: an index this far outside still lies on it
    same_index_share: float = 0.9  # a reading whose index box lies this much inside a surer card's index box (or it
    # inside the reading's) reads that index again; side by side in a column they overlap less
    same_index_iou: float = 0.3  # a read box overlapping the phantom's or the card's index this much is that index
    other_corner_reach_of_diagonal: float = 0.12  # this near the card's second index spot (share of its diagonal)
    corner_reader_below: float = 0.8  # a read the reader is this sure of is no misread corner: another card's index
    face_depth_of_short_side: float = 0.4  # this deep inside a card's outline is its pips or picture
    column_reach_of_index: float = 0.6  # another index this near (index long sides) makes a column of cards


@dataclass(frozen=True)
class IndexColumnConfig:
    """After interpret: the index column of a fan or an overlapping row (``vision.index_column``)."""

    sure: float = 0.5  # a read this sure (detector score x reader probability) on the column is a card
    sure_reader: float = 0.5  # and the reader's probability at least this
    size_ratio: float = 1.5  # indices of one column differ in long side by at most this factor
    min_step_of_index: float = 0.3  # the column's step, in index long sides: at least this
    max_step_of_index: float = 3.0  # and at most this
    spacing_spread: float = 0.35  # steps differ from each other by at most this share
    max_turn_deg: float = 30.0  # the column turns by at most this from one step to the next (an arc)
    gap_clear_of_step: float = 0.5  # a read card's index this near a gap's middle (in steps) fills it
    gap_reader: float = 0.7  # the reader's probability that makes a read in a gap a card
    gap_score: float = 0.5  # a gap read's confidence: the reader's probability times this (no detector score; flagged)


@dataclass(frozen=True)
class RecognitionConfig:
    """The whole configuration, one part per step."""

    detect: DetectConfig = field(default_factory=DetectConfig)
    read: ReadConfig = field(default_factory=ReadConfig)
    second_look: SecondLookConfig = field(default_factory=SecondLookConfig)
    interpret: InterpretConfig = field(default_factory=InterpretConfig)
    ground: GroundConfig = field(default_factory=GroundConfig)
    layout: LayoutConfig = field(default_factory=LayoutConfig)
    phantoms: PhantomConfig = field(default_factory=PhantomConfig)
    index_column: IndexColumnConfig = field(default_factory=IndexColumnConfig)

    def with_values(self, values: dict) -> "RecognitionConfig":
        """A copy with ``{"step": {"name": value}}`` applied (CalibrationError on a name it lacks)."""
        parts = {}
        for step, changes in values.items():
            if step not in {f.name for f in fields(self)}:
                raise CalibrationError(f"unknown step {step!r} (steps: {', '.join(f.name for f in fields(self))})")
            part = getattr(self, step)
            names = {f.name: f for f in fields(part)}
            if not isinstance(changes, dict):
                raise CalibrationError(f"{step}: expected an object of values, got {changes!r}")
            typed = {}
            for name, value in changes.items():
                if name not in names:
                    raise CalibrationError(f"unknown value {step}.{name}")
                default = getattr(part, name)
                typed[name] = tuple(value) if isinstance(default, tuple) else type(default)(value)
            parts[step] = replace(part, **typed)
        return replace(self, **parts)


class CalibrationError(ValueError):
    """models.json's calibration block names a value recognition does not have."""


DEFAULTS = RecognitionConfig()


def from_models_json(models_config: dict) -> RecognitionConfig:
    """The configuration for a model: the defaults with models.json's ``calibration`` applied
    (its ``"measured"`` entries, pointers into docs/TUNING.md, are documentation only)."""
    calibration = {k: v for k, v in (models_config.get("calibration") or {}).items() if k != "measured"}
    return DEFAULTS.with_values(calibration)
