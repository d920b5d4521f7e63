"""Capture: the camera preview with the layout guide over it, the live view (card names drawn
over the preview as cards are laid, recognised in the background), the shutter; a photo file
instead; the sample photos offered when there is no camera."""

from __future__ import annotations

import os

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.filechooser import FileChooserListView
from kivy.uix.popup import Popup

from companion.ui import present
from companion.ui import theme as T
from companion.ui.camera import sample_photos
from companion.ui.live import LiveView
from companion.ui.review import Review
from companion.ui.screens import CribScreen, load_kv
from companion.words import plural
from companion.ui.widgets.photo_view import PhotoView  # noqa: F401  (used in capture.kv)

load_kv(__file__)

PHOTO_FILTERS = ("*.jpg", "*.jpeg", "*.png", "*.JPG", "*.JPEG", "*.PNG")


def start_folder(last: str | None = None) -> str:
    """Where the photo-file picker opens: the folder the last photo came from, else the
    pictures folder (a phone's camera folder first), else home."""
    home = os.path.expanduser("~")
    for folder in (last, os.path.join(home, "DCIM", "Camera"), os.path.join(home, "Pictures"), home):
        if folder and os.path.isdir(folder):
            return folder
    return os.getcwd()


def folder_words(path: str) -> str:
    """A folder as the player reads it: under home, "~/Pictures"."""
    home = os.path.expanduser("~")
    path = os.path.abspath(path)
    if path == home or path.startswith(home.rstrip(os.sep) + os.sep):
        return "~" + path[len(home.rstrip(os.sep)):]
    return path


class CaptureScreen(CribScreen):
    title = "Photograph the cards"
    has_camera = BooleanProperty(False)
    live_on = BooleanProperty(True)
    live_line = StringProperty("")
    hint = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._poll = None
        self._shown_id = -1
        self.live: LiveView | None = None
        self.busy = False
        self.last_folder: str | None = None   # where the last photo file was picked

    # --- entering and leaving ----------------------------------------------------------------------------
    def show(self) -> None:
        purpose = self.context.get("purpose", "show")
        self.title = {"show": "Photograph the show", "discard": "Photograph the deal"}.get(purpose, self.title)
        self.app.screen_title = self.title
        camera = self.companion.camera
        started = camera is not None and camera.start()
        self.has_camera = bool(started)
        names = present.guide_hand_names(self.companion.view) if purpose == "show" else ()
        self.ids.preview.guide_hands = list(names)
        rows = f"{names[0]} in the top row, {names[1]} below" if names else "hands in rows"
        self.hint = (f"Lay the cards inside the guide: {rows}, the crib apart, the starter alone."
                     if started else (camera.error if camera is not None and camera.error else
                                      "No camera here: pick a photo file, or try a sample photo."))
        self._samples()
        self._shown_id = -1
        if started:
            self._poll = Clock.schedule_interval(lambda _dt: self._refresh_preview(), 1 / 15)
            if self.live_on:
                self.start_live()
        else:
            self.ids.preview.set_pixels(None)

    def on_leave(self, *args) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        self.stop_live()
        if self.companion.camera is not None and not self.companion.demo:
            self.companion.camera.stop()

    def _samples(self) -> None:
        box = self.ids.samples
        box.clear_widgets()
        if self.has_camera and not self.companion.demo:
            return
        for path in sample_photos():
            name = os.path.splitext(os.path.basename(path))[0].replace("_", " ")
            button = Factory.BigButton(text=name, font_size=T.SMALL_SP)
            button.bind(on_release=lambda _b, p=path: self.use_sample(p))
            box.add_widget(button)

    # --- the preview and the live view -------------------------------------------------------------------
    def _refresh_preview(self) -> None:
        camera = self.companion.camera
        if camera is None:
            return
        texture = getattr(camera, "texture", None)
        if texture is not None:  # a real camera: its own texture, no copy through the CPU
            self.ids.preview.set_texture(texture)
            return
        if camera.frame_id == self._shown_id:
            return
        frame = camera.frame()
        if frame is not None:
            self._shown_id = camera.frame_id
            self.ids.preview.set_pixels(frame)

    def toggle_live(self) -> None:
        self.live_on = not self.live_on
        if self.live_on:
            self.start_live()
        else:
            self.stop_live()
            self.ids.preview.boxes = []
            self.live_line = ""

    def start_live(self) -> None:
        camera = self.companion.camera
        if camera is None or (self.live is not None and self.live.running):
            return
        from companion.ui.background import clock_deliver

        options = self.companion.recognize_options()

        def make():
            from vision import Recognizer

            return Recognizer(options=options)
        self.live = LiveView(camera, self._live_result, clock_deliver, make)
        self.live.start()
        self.live_line = "Live view: starting..."

    def stop_live(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None

    def _live_result(self, result) -> None:
        if self.live is None:
            return
        self.ids.preview.photo_size = list(result.size)
        self.ids.preview.boxes = [{"box": box, "label": T.card_text(code), "flagged": flagged,
                                   "colour": T.OK} for code, box, flagged in result.cards]
        rate = f" · {result.fps:.1f} frames/s" if result.fps > 0 else ""
        self.live_line = f"Live: {plural(len(result.cards), 'card')}{rate} · {result.ms:.0f} ms a frame"

    # --- taking the photo ----------------------------------------------------------------------------------
    def shoot(self) -> None:
        camera = self.companion.camera
        still = camera.still() if camera is not None else None
        if still is None:
            self.app.show_error("The camera has no picture yet: wait a moment, or pick a photo file.")
            return
        self._recognize(still)

    def use_sample(self, path: str) -> None:
        camera = self.companion.camera
        if camera is not None and hasattr(camera, "show"):
            camera.show(path)  # the demo's camera now shows it
        self._recognize(path)

    def pick_file(self) -> None:
        """A photo from a file: the folder shown is said (and follows the player up and down),
        the photo picked is named on the button that uses it; it opens where the last photo was
        picked, else in the pictures folder, else at home."""
        chooser = FileChooserListView(path=start_folder(self.last_folder), filters=list(PHOTO_FILTERS))
        popup = Popup(title="Pick a photo", size_hint=(0.95, 0.95), title_size=T.HEADING_SP)
        body = Factory.BoxLayout(orientation="vertical", spacing=T.GAP)
        folder = Factory.Body(color=T.MUTED, markup=False)
        body.add_widget(folder)
        body.add_widget(chooser)
        row = Factory.BoxLayout(size_hint_y=None, height=T.TOUCH, spacing=T.GAP)
        use = Factory.BigButton(text="Use this photo")
        cancel = Factory.BigButton(text="Cancel")

        def said(*_args) -> None:
            folder.text = f"Folder: {folder_words(chooser.path)}"
            picked = [p for p in chooser.selection if os.path.isfile(p)]
            use.disabled = not picked
            use.text = f"Use {os.path.basename(picked[0])}" if picked else "Use this photo"

        def take(*_args) -> None:
            picked = [p for p in chooser.selection if os.path.isfile(p)]
            if not picked:
                return
            popup.dismiss()
            self.last_folder = os.path.dirname(picked[0])
            self._recognize(picked[0])
        chooser.bind(path=said, selection=said, on_submit=take)
        use.bind(on_release=take)
        cancel.bind(on_release=lambda _b: popup.dismiss())
        said()
        row.add_widget(use)
        row.add_widget(cancel)
        body.add_widget(row)
        popup.content = body
        self.file_picker = popup
        popup.open()

    def _recognize(self, photo) -> None:
        if self.busy:
            return
        self.busy = True
        self.stop_live()  # the still gets both cores (the live view restarts when the screen is shown again)
        self.app.notify("Reading the cards...")
        purpose = self.context.get("purpose", "show")

        def done(result):
            self.busy = False
            self.app.dismiss_message()
            path, decoded, recognition, quality = result
            context = dict(path=path, photo=decoded, recognition=recognition, purpose=purpose, quality=quality)
            if purpose == "discard":
                self.app.go("discard", **context)
                return
            review = Review(recognition)
            if review.problems() or not recognition.cards or quality.advice:
                self.app.go("review", **context)
                return
            # nothing to check: straight to the count (the show offers "Check the cards")
            self.companion.count(review.recognition(), lambda photo_show: self.app.go(
                "show", photo_show=photo_show, **context), failed)

        def failed(exc):
            self.busy = False
            self.app.show_error(exc)
            if self.live_on and self.has_camera:
                self.start_live()
        self.companion.recognize(photo, done, failed)


SCREEN_CLASS = CaptureScreen
