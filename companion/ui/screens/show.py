"""The show: the next count (pone's hand first ... the dealer's, then the crib), its breakdown
as the spoken count (tap an item: its cards light up on the photo), the claim keypad, the
muggins flag with a button for the opponent to take the points, the correction of an
overclaim, Speak, and Undo / Redo as on the table. The counts come from the session (known hands) or the reviewed photo.

When the game shows the count only after the claim (muggins on, by default), the player sees
the cards, counts them and claims; then the count and its breakdown are revealed with the
muggins offer, and "Next count" goes on. Otherwise the count is shown first, to accept."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty

from companion.game.phase import Phase
from companion.game.photo_check import photo_conflicts
from companion.game.records import ShowKind
from companion.game.session import GameSession
from companion.ui import present
from companion.ui import theme as T
from companion.ui.screens import CribScreen, load_kv
from companion.ui.speech import speaker
from companion.ui.widgets.choice import ChoicePopup
from companion.ui.widgets.keypad import Keypad  # noqa: F401  (used in show.kv)
from vision import Role
from companion.ui.widgets.photo_view import PhotoView, cards_region  # noqa: F401  (PhotoView: show.kv)
from companion.ui.widgets.picker import CardPicker

load_kv(__file__)

FACES_HEIGHT = dp(180)  # the cards drawn large, held tall beside a photo (it shows them too)
FACES_LEAST = dp(90)    # under this the cards drawn large are left out
LIST_LEAST = dp(56)     # the combinations show at least one row


class ShowScreen(CribScreen):
    title = "The show"
    heading = StringProperty("")
    spoken = StringProperty("")
    total_line = StringProperty("")
    note = StringProperty("")
    last = StringProperty("")      # what the last count did (an overclaim's correction included)
    can_speak = BooleanProperty(False)
    has_photo = BooleanProperty(False)
    count_first = BooleanProperty(True)   # the count shown before the claim (else only after it)
    step = StringProperty("")             # the next step, in words, beside the keypad
    pick_text = StringProperty("Pick the crib")  # the cards of the next count picked by hand
    more_text = StringProperty("")        # said under the combinations when they do not all show

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.items: list[dict] = []
        self.cards: list[str] | None = None     # the cards to send (None: the session knows them)
        self.total: int | None = None
        self.highlight: set[str] = set()
        self.offer_items: dict[int, list[dict]] = {}  # claim entry -> the items of that count
        self._say = None
        self.typed: list[str] | None = None     # cards picked by hand when there is no photo
        self.revealed: int | None = None        # the entry of the count shown after its claim
        self.counted = 0                        # counts of the deal shown so far (fewer: one was undone)

    def on_kv_post(self, base_widget) -> None:
        ids = self.ids
        self.bind(size=self._arrange, has_photo=self._arrange)
        self._fit_soon = Clock.create_trigger(self._fit_count)  # once the layout has settled
        ids.breakdown.bind(height=self._fit_soon)
        ids.count.bind(height=self._fit_soon)
        for part in ids.count.children:  # the fixed parts: a line more or less changes the room
            if part is not ids.scroller.__self__ and part is not ids.faces.__self__:
                part.bind(height=self._fit_soon)
        self._arrange()

    def _arrange(self, *_args) -> None:
        """Held wide, the log and the photo are a column beside the count; held tall, above it. The
        photo takes its column's room when there is one (held tall: all the count leaves), else
        held wide the space below the log does (the log stays at the top). What takes no room has
        no height (a size hint switched off keeps the height it had)."""
        wide = self.width > self.height
        side, count = self.ids.side, self.ids.count
        tall_photo = not wide and self.has_photo
        side.size_hint_y = 1 if wide or tall_photo else None
        if side.size_hint_y is None:
            side.height = side.minimum_height
        count.size_hint_y = None if tall_photo else 1
        for widget, grows in ((self.ids.photo, self.has_photo), (self.ids.spacer, wide and not self.has_photo)):
            widget.size_hint_y = 1 if grows else None
            if not grows:
                widget.height = 0
        self._fit_count()

    def _fit_count(self, *_args) -> None:
        """The room between the count's fixed parts (heading, total, keypad, buttons) goes to the
        combinations first, whole where they fit (else they scroll), then to the cards drawn
        large (before a claim all of it; without a photo, what the combinations leave). Held
        tall with a photo the count takes only what it needs, up to 70 % of the screen."""
        ids = self.ids  # weak proxies: compared by the widgets they stand for
        count, scroller, faces, breakdown = ids.count, ids.scroller.__self__, ids.faces.__self__, ids.breakdown
        others = [c for c in count.children if c is not scroller and c is not faces]
        fixed = sum(c.height for c in others) + count.spacing * (len(count.children) - 1) \
            + count.padding[1] + count.padding[3]
        tall_photo = count.size_hint_y is None
        room = max(0.0, (self.height * 0.7 if tall_photo else count.height) - fixed)
        items = breakdown.height if breakdown.children else 0.0
        if not breakdown.children:
            listed = 0.0
        elif tall_photo:
            listed = min(items, max(room, LIST_LEAST))
        else:
            listed = max(min(items, room), LIST_LEAST) if faces.children else max(room, LIST_LEAST)
        drawn = 0.0
        if faces.children:
            drawn = room - listed
            if tall_photo:
                drawn = min(drawn, FACES_HEIGHT)
            if drawn < FACES_LEAST:
                drawn = 0.0
        scroller.size_hint_y = faces.size_hint_y = None
        scroller.height, faces.height = round(listed), round(drawn)
        faces.opacity = 1 if drawn else 0
        if tall_photo:
            count.height = round(fixed + listed + drawn)

    def show(self) -> None:
        self._say = speaker() if self.companion.settings.sound else None
        self.can_speak = self._say is not None
        photo = self.context.get("photo")
        photo_show = self.context.get("photo_show")
        self.has_photo = photo is not None and photo_show is not None
        if self.has_photo:
            rec = photo_show.recognition
            boxes = [c.box for c in rec.cards]
            self.ids.photo.set_photo(photo, cards_region(boxes, rec.width, rec.height))
        else:
            self.ids.photo.set_photo(None)
            self.ids.photo.boxes = []
        self.typed = None
        self.revealed = None
        self.last = ""
        self.ids.check.disabled = self.context.get("recognition") is None
        if self.companion.view is not None:
            self.on_game_view(self.companion.view)
            self.check_photo()

    # --- a photo that disagrees with the game: said, and the player chooses ----------------------------
    def check_photo(self) -> None:
        """Ask about the first disagreement the player has not settled (the game finds them)."""
        view, photo_show = self.companion.view, self.context.get("photo_show")
        if photo_show is None or view is None or view.phase is not Phase.SHOW or not view.next_show:
            return
        group, _note, _choices = self._group(view)
        settled = self.context.setdefault("settled", set())
        conflicts = [c for c in photo_conflicts(view, photo_show.starter_in_photo, group.cards if group else ())
                     if c.key not in settled]
        if not conflicts or getattr(self, "conflict", None) is not None:  # none, or already asked
            return
        conflict = conflicts[0]
        choices = [(present.with_suits(conflict.keep_game), lambda: self.keep_game(conflict))]
        if conflict.keep_photo:
            choices.append((present.with_suits(conflict.keep_photo), lambda: self.keep_photo(conflict)))
        self.conflict = ChoicePopup("The photo and the game disagree", present.with_suits(conflict.text), choices)
        self.conflict.open()

    def keep_game(self, conflict) -> None:
        self.conflict = None
        if conflict.game_card is None:  # the photo's card must be another: name it in the review
            self.check_cards()
            return
        self.context["settled"].add(conflict.key)
        self.context.setdefault("set_aside", []).append(present.with_suits(
            f"{conflict.photo_card} in the photo set aside: {conflict.game_card} stands."))
        self.on_game_view(self.companion.view)
        self.check_photo()

    def keep_photo(self, conflict) -> None:
        self.conflict = None
        """The game's card is corrected (the session plays the deal again), then the photo is counted again."""
        photo_show = self.context["photo_show"]

        def recount(_again) -> None:
            def counted(again) -> None:
                self.context["photo_show"] = again
                self.show()
            self.companion.count(photo_show.recognition, counted, self.app.show_error)
        self.act(GameSession.correct_card, conflict.game_card, conflict.photo_card, then=recount)

    # --- what to count now -------------------------------------------------------------------------------
    def on_game_view(self, view) -> None:
        self.ids.keypad.value = ""
        self.ids.undo.disabled = not view.can_undo
        self.ids.redo.disabled = not view.can_redo  # a count undone by mistake comes back as it was
        if len(view.shown) < self.counted:  # a count undone: what it did is no longer so
            self.last = ""
        self.counted = len(view.shown)
        self.count_first = view.count_first
        self._offers(view)
        self.ids.log.text = "\n".join(present.log_lines(view, 3))
        self.step = "Accept the count, or type the claim" if view.count_first else "Count the cards, then claim"
        nxt = view.next_show if view.phase is Phase.SHOW else None
        self.ids.after.clear_widgets()
        revealed = next((c for c in view.shown if c.entry == self.revealed), None)
        if revealed is not None:
            self._reveal(view, revealed)
            return
        self.revealed = None  # undone, or a new deal
        if nxt is None:
            self._finished(view)
            return
        who = view.players[nxt.seat]
        known = nxt.cards
        group, note, choices = self._group(view)
        self.note = "  ".join(filter(None, [note, *self.context.get("set_aside", ())]))
        self.pick_text = f"Pick {who}'s hand" if nxt.kind is ShowKind.HAND else "Pick the crib"
        if known:
            self.cards, proposal = None, nxt.proposal
            self._set_count(known, proposal.items, proposal.total, proposal.spoken)
        elif choices:  # a hand pegged by points: the player says which of the photo's hands it is
            self.cards = None
            self._set_count([], [], None, "")
        elif group is not None and nxt.kind is ShowKind.HAND and group.show is not None:
            self.cards = list(group.cards)
            data = group.show.as_json()
            self._set_count(self.cards, data["items"], data["total"], data["spoken"])
        elif group is not None and group.crib and group.show is not None:
            self.cards = list(group.cards)
            data = group.show.as_json()
            self._set_count(self.cards, data["items"], data["total"], data["spoken"])
        elif group is not None and len(group.cards) == 4 and view.starter:
            self._count_typed(list(group.cards))  # counted as a crib, whatever the photo's layout said
            self._set_count(list(group.cards), [], None, "")
        elif group is not None:
            self.cards = None
            self.note = f"{group.label}: {group.problem}"
            self._set_count([], [], None, "")
        elif self.typed:
            self._count_typed(self.typed)
            return
        else:
            self.cards = None
            whose = f"{who}'s hand" if nxt.kind is ShowKind.HAND else "The crib"
            self.note = note or f"{whose} is not known yet: photograph it or pick its 4 cards."
            self._set_count([], [], None, "")
        starter = T.card_text(view.starter) if view.starter else "?"
        what = "crib" if nxt.kind is ShowKind.CRIB else "hand"
        shown = "  ".join(T.card_text(c) for c in (known or self.cards or [])) or "cards not known"
        self.heading = f"{who}'s {what}: {shown}   starter {starter}"
        self.ids.accept.disabled = self.total is None or not self.count_first
        self.ids.claim.disabled = self.total is None
        self.ids.pick.opacity = 1 if self.total is None else 0
        self.ids.pick.disabled = self.total is not None
        if choices:
            self._ask_hand(view, choices)

    def _group(self, view):
        """The photo's group for the next count, a note for the player, and the photo's hands to
        choose from when the game does not know the hand (pegged by points) and the photo holds
        more than one it could be."""
        nxt, photo_show = view.next_show, self.context.get("photo_show")
        if nxt.cards or nxt.kind is not ShowKind.HAND or photo_show is None:
            group, note = present.group_for(photo_show, nxt.cards, nxt.kind)
            return group, note, []
        counted = {card for shown in view.shown for card in shown.cards}
        hands = [g for g in photo_show.groups
                 if g.role is Role.HAND and len(g.cards) == 4 and not counted & set(g.cards)]
        chosen = self.context.setdefault("hands", {}).get((view.deal_number, nxt.seat))
        picked = next((g for g in hands if g.label == chosen), None)
        if picked is not None or len(hands) == 1:
            return picked or hands[0], None, []
        rows = present.guide_hand_names(view)
        by_row = present.hands_by_row(photo_show, hands) if rows and not view.shown else None
        if by_row is not None and len(by_row) == len(rows):  # laid as the guide says: the top row is the pone's
            return by_row[0], None, []
        if not hands:
            return None, f"{view.players[nxt.seat]}'s hand is not in the photo: photograph it or pick its 4 cards", []
        return None, None, hands

    def _ask_hand(self, view, hands) -> None:
        """One button per hand in the photo: the player taps the one that is this player's."""
        who = view.players[view.next_show.seat]
        self.heading = f"Which is {who}'s hand?   starter {T.card_text(view.starter)}"
        self.step = f"Tap {who}'s hand"
        for number, group in enumerate(hands):
            button = Factory.BigButton(text=f"{who}: " + "  ".join(T.card_text(c) for c in group.cards),
                                       font_name=T.CARD_FONT)
            button.bind(on_release=lambda _b, g=group.label: self.choose_hand(g))
            self.ids.after.add_widget(button)
            self.ids[f"hand_{number}"] = button

    def choose_hand(self, label: str) -> None:
        view = self.companion.view
        self.context.setdefault("hands", {})[(view.deal_number, view.next_show.seat)] = label
        self.on_game_view(view)
        self.check_photo()

    def _set_count(self, cards, items, total, spoken, shown: bool | None = None) -> None:
        """The count to claim; on the screen only when it is shown before the claim (``shown``)."""
        self.items, self.total = list(items), total
        shown = self.count_first if shown is None else shown
        self.spoken = spoken.capitalize() if spoken and shown else ""
        self.total_line = "" if total is None or not shown else str(total)
        shown_items = self.items if shown else ()
        self.more_text = f"{len(shown_items)} combinations: scroll the list for all of them"
        # the cards drawn large: before the claim, and after it where no photo shows them
        self._faces([*cards, self.companion.view.starter] if cards and (not shown or not self.has_photo) else [])
        box = self.ids.breakdown
        box.clear_widgets()
        for i, item in enumerate(shown_items):
            button = Factory.BigButton(text=present.item_line(item), font_name=T.CARD_FONT, height=dp(52))
            button.bind(on_release=lambda _b, i=i: self.tap_item(i))
            box.add_widget(button)
        self.highlight = set()
        self._boxes()
        self._fit_count()
        self._fit_soon()

    def _faces(self, cards) -> None:
        """The cards to count, large (the last is the starter): while the count waits for the claim
        they take the combinations' room; once counted, without a photo, what the list leaves."""
        box = self.ids.faces
        box.clear_widgets()
        for number, code in enumerate(c for c in cards if c):
            face = Factory.CardFace(text=T.card_text(code), color=T.SUIT_COLOURS[code[-1]])
            if number == 4:  # the starter, set apart
                box.add_widget(Factory.Widget(size_hint_x=0.3))
            box.add_widget(face)
        self._arrange()

    def tap_item(self, index: int) -> None:
        cards = set(self.items[index]["cards"])
        self.highlight = set() if cards == self.highlight else cards
        self._boxes()

    def _boxes(self) -> None:
        photo_show = self.context.get("photo_show")
        if photo_show is None:
            return
        self.ids.photo.boxes = [{"box": c.box, "label": T.card_text(c.card), "highlight": c.card in self.highlight,
                                 "colour": T.ACCENT if c.card in self.highlight else T.OK}
                                for c in photo_show.recognition.cards]

    def pick_cards(self) -> None:
        view = self.companion.view
        nxt = view.next_show
        unavailable = ({p.card for p in view.play if p.card != "go"} | ({view.starter} if view.starter else set())
                       | {c for shown in view.shown for c in shown.cards})
        if nxt.kind is ShowKind.HAND:  # the cards its player laid in the play are in it
            unavailable -= {p.card for p in view.play if p.seat == nxt.seat}
        whose = f"{view.players[nxt.seat]}'s" if nxt.kind is ShowKind.HAND else "The crib's"
        CardPicker(f"{whose} 4 cards", multi=4, unavailable=unavailable, on_done=self._count_typed).open()

    def _count_typed(self, cards) -> None:
        self.typed = list(cards)
        view = self.companion.view
        starter, nxt = view.starter, view.next_show
        crib = nxt is None or nxt.kind is ShowKind.CRIB
        whose = "Crib" if nxt is None else f"{view.players[nxt.seat]}'s {'crib' if crib else 'hand'}"
        heading = f"{whose}: " + "  ".join(T.card_text(c) for c in cards) + f"   starter {T.card_text(starter)}"

        def done(show):
            self.heading = heading
            self.note = "  ".join(self.context.get("set_aside", ()))  # the cards are known now
            self.cards = list(cards)
            data = show.as_json()
            self._set_count(self.cards, data["items"], data["total"], data["spoken"])
            self.ids.accept.disabled = not self.count_first
            self.ids.claim.disabled = False
            self.ids.pick.opacity, self.ids.pick.disabled = 0, True
        self.companion.count_cards(cards, starter, crib, done, self.app.show_error)

    # --- claims ------------------------------------------------------------------------------------------
    def accept(self) -> None:
        self._record(None)

    def claim(self) -> None:
        """The points typed are claimed (the keypad claims by itself once no digit can follow)."""
        number = self.ids.keypad.number
        if number is None:
            self.app.show_error("Type the points claimed on the keypad, or accept the count.")
            return
        if self.ids.claim.disabled:  # nothing to claim now (a digit typed as the count went on)
            self.ids.keypad.value = ""
            return
        self._record(number)

    def _record(self, claim) -> None:
        items, path = list(self.items), self.context.get("path")

        def done(lines):
            self.last = "; ".join(line.text for line in lines)
            if lines:  # an offer made by this count carries its entry: name the items it may be
                self.offer_items[lines[0].entry] = items
            self.typed = None
            view = self.companion.view
            count = view.shown[-1] if view.shown else None
            if not view.count_first and count is not None:
                if count.claimed == count.total:  # right: said with its count, as the log has it
                    right = f"{view.players[count.seat]} claimed {count.claimed}: right"
                    self.last = f"{right} ({self.last})" if self.last else right
                if count.claimed != count.total or view.phase is not Phase.SHOW:
                    # claimed: now the count is shown (a right claim goes on to the next count at once)
                    self.revealed = count.entry
            self.on_game_view(view)

        def refused(error):
            self.ids.keypad.value = ""  # the claim refused is said in the banner: type it again
            self.app.show_error(error)
        photo_show = self.context.get("photo_show")
        # the photo's cards kept as read without the player's check: the game marks them unconfirmed
        unconfirmed = photo_show.unconfirmed(self.cards) if photo_show is not None and self.cards else ()
        self.companion.act(GameSession.show, self.cards, claim, path, unconfirmed, done=done, failed=refused)

    def _offers(self, view) -> None:
        box = self.ids.offers
        box.clear_widgets()
        for offer in view.offers:
            line = present.offer_line(view, offer, self.offer_items.get(offer.entry))
            box.add_widget(Factory.Body(text=line, color=T.WARN, font_name=T.CARD_FONT))
            row = Factory.BoxLayout(size_hint_y=None, height=T.TOUCH, spacing=T.GAP)
            for seat in offer.callers:
                button = Factory.BigButton(text=f"{view.players[seat]} takes {offer.points}")
                button.bind(on_release=lambda _b, s=seat, o=offer.entry: self.act(GameSession.muggins, s, o))
                row.add_widget(button)
                self.ids[f"take_{seat}"] = button
            button = Factory.BigButton(text="Let it go")
            button.bind(on_release=lambda _b, o=offer.entry: self.act(GameSession.decline, o))
            row.add_widget(button)
            box.add_widget(row)

    def _reveal(self, view, count: dict) -> None:
        """The count just claimed, shown now: its cards, breakdown and total beside the claim,
        the muggins offer when points were missed, and the way on."""
        who = view.players[count.seat]
        what = "crib" if count.kind is ShowKind.CRIB else "hand"
        cards = "  ".join(T.card_text(c) for c in count.cards)
        self.heading = f"{who}'s {what}: {cards}   starter {T.card_text(count.starter)}   claimed {count.claimed}"
        self.note = ""
        if not self.last:  # nothing pegged nor missed (a claim of 0 for a hand worth 0)
            self.last = f"{who} claimed {count.claimed}: right"
        self._set_count(count.cards, count.items, count.total, count.spoken, shown=True)
        self.ids.accept.disabled = self.ids.claim.disabled = True
        self.ids.pick.opacity, self.ids.pick.disabled = 0, True
        more = view.phase is Phase.SHOW and view.next_show is not None
        button = Factory.BigButton(text=f"Next count: {self._whose(view, view.next_show)}" if more
                                   else "Next deal" if view.phase is Phase.DISCARD else "To the table")
        self.step = f"{who}'s count, shown after the claim"
        button.bind(on_release=lambda _b: self.next_count() if more else self.next_deal())
        self.ids.after.add_widget(button)
        self.ids["next_count" if more else "next_deal"] = button

    @staticmethod
    def _whose(view, nxt) -> str:
        """The next count in words: "Ann's hand", "Ann's crib"."""
        return f"{view.players[nxt.seat]}'s {'crib' if nxt.kind is ShowKind.CRIB else 'hand'}"

    def next_count(self) -> None:
        """From the count revealed to the next one (muggins not taken stays on offer)."""
        self.revealed, self.last = None, ""
        self.on_game_view(self.companion.view)

    def _finished(self, view) -> None:
        self._set_count([], [], None, "")
        self.heading = "The show is counted" if view.phase is Phase.DISCARD else present.turn_line(view)
        self.note = ""
        self.ids.accept.disabled = self.ids.claim.disabled = True
        self.ids.pick.opacity, self.ids.pick.disabled = 0, True
        button = Factory.BigButton(text="Next deal" if view.phase is Phase.DISCARD else "To the table")
        self.step = "Every count of this deal is in" if view.phase is Phase.DISCARD else "The game is over"
        button.bind(on_release=lambda _b: self.next_deal())
        self.ids.after.add_widget(button)
        self.ids["next_deal"] = button

    def next_deal(self) -> None:
        view = self.companion.view
        if view.phase is Phase.DISCARD and not view.offers:
            # the next deal starts by itself: undo takes it back with the last count
            self.act(GameSession.next_deal, then=lambda _l: self.app.go("table"))
        else:
            self.app.go("table")

    def check_cards(self) -> None:
        """Back to the photo's review (correct a card, move one to another group)."""
        if self.context.get("recognition") is not None:
            self.app.go("review", **{k: self.context.get(k) for k in ("path", "photo", "recognition")},
                        purpose="show")

    def speak(self) -> None:
        if self._say and self.spoken:
            try:
                self._say(self.spoken)  # the spoken count ends with its total
            except OSError as exc:
                self.app.show_error(f"Speaking failed ({exc}): turn sound off in Settings.")


SCREEN_CLASS = ShowScreen
