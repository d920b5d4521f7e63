"""Recipes: the v10 recipe (v9's stages and three more) names the stages that made the shipped
models and replays them end to end at a tiny scale (a few images a stage, one epoch) from nothing
but the repo, its git history and the real sets; one stage replays alone from the checkpoint it
started from."""

from __future__ import annotations

import json
import re
import subprocess

import numpy as np
import pytest

from companion.cli import main
from vision.train import recipe as recipes
from vision.train.frozen_labels import FrozenLabelsError, format_found_cards, read_found_cards

V9 = recipes.load_recipe("v9")
V10 = recipes.load_recipe("v10")


def _git_history() -> bool:
    try:
        return subprocess.run(["git", "-C", str(recipes.REPO), "cat-file", "-e", "a69a6ed4cc9f63f0387f7cfd93186519f0c9a5a3"],
                              capture_output=True).returncode == 0
    except OSError:
        return False


needs_history = pytest.mark.skipif(not _git_history(), reason="a checkout without the git history of models v9")


def test_v9_chains_its_detector_and_reader_stages_and_ships_the_last_of_each():
    assert V9.version == "9"
    names = [s.name for s in V9.stages]
    assert names == ["detector-s7", "detector-s8", "detector-s9", "reader-s9", "reader-s11", "reader-s12", "reader-s13"]
    for earlier, later in zip(V9.stages, V9.stages[1:]):
        if later.model == earlier.model:
            assert later.after == earlier.name
    assert V9.stages[0].start.startswith("imagenet:") and V9.stages[3].after is None
    assert (V9.detector_from, V9.reader_from) == ("detector-s9", "reader-s13")
    assert [s.epochs for s in V9.stages] == [3, 4, 4, 2, 3, 2, 2]
    assert [c.seed for c in V9.stage("reader-s13").data.crops] == [20, 21, 22]
    for stage in V9.stages:
        if stage.model == "detector":
            assert (recipes.REPO / stage.data.real_labels).is_file()


def test_v10_continues_v9_with_the_640_px_line_and_a_reader_cut_at_its_boxes():
    assert V10.version == "10" and recipes.CURRENT == "v10"
    assert V10.stages[:7] == V9.stages
    added = V10.stages[7:]
    assert [s.name for s in added] == ["detector-s17", "detector-s18-gpu", "reader-s19-g4"]
    assert [s.after for s in added] == ["detector-s9", "detector-s17", "reader-s13"]
    assert (V10.detector_from, V10.reader_from) == ("detector-s18-gpu", "reader-s19-g4")
    cpu, gpu, reader = added
    assert (cpu.imgsz, cpu.stop_after, cpu.cache, cpu.schedule) == (640, 3, "disk", "finetune")
    assert (gpu.imgsz, gpu.stop_after, gpu.schedule, gpu.batch) == (640, 4, "device", 64)
    assert ("mixed", 1600, 9) in gpu.data.layout_renders
    assert reader.data.real_at_boxes_of and {c.detector for c in reader.data.crops} == {reader.data.real_at_boxes_of}
    assert [c.seed for c in reader.data.crops] == [29, 30, 31]
    changed = {step: {k: v for k, v in values.items() if V9.calibration[step].get(k) != v}
               for step, values in V10.calibration.items() if isinstance(values, dict)}
    assert {step: c for step, c in changed.items() if c} == {"interpret": {"read_floor": 0.3, "confirm_below": 0.6,
                                                                   "floor_reader": 0.7}}
    for stage in V9.stages[:3]:  # v9's detector stages state their arguments as v9's provenance was written
        assert not {"stop_after", "cache", "real_repeat"} & set(recipes.stage_arguments(stage))
    assert recipes.stage_arguments(gpu)["stop_after"] == 4 and recipes.stage_arguments(cpu)["cache"] == "disk"
    described = recipes.describe(V10)
    assert "9. detector-s18-gpu (detector): 11 epochs (ran 4)" in described and "min on a lent GPU" in described


@needs_history
def test_every_git_start_is_in_the_history_and_the_last_reader_start_is_models_v8():
    for stage in V10.stages:
        references = [stage.start, stage.data.real_at_boxes_of] + [c.detector for c in stage.data.crops]
        for reference in (r for r in references if r and r.startswith("git:")):
            _, commit, path = reference.split(":", 2)
            if stage.model == "reader" and reference != stage.start:
                path += "/models.json"  # a models folder
            assert subprocess.run(["git", "-C", str(recipes.REPO), "cat-file", "-e", f"{commit}:{path}"]).returncode == 0
    v8 = subprocess.run(["git", "-C", str(recipes.REPO), "show", "ea01cc4:models/models.json"], capture_output=True,
                        text=True, check=True).stdout
    assert json.loads(v8)["version"] == "8" and V9.stage("reader-s13").start.startswith("git:ea01cc4")


def test_help_with_a_recipe_lists_its_stages(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["train", "--recipe", "v9", "--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0
    assert "recipe v9 (models v9): 7 stages" in out and "7. reader-s13 (reader): 2 epochs" in out
    assert "vision/train/frozen/real_train_cards_v5.txt" in out


@pytest.mark.parametrize("args, message", [
    (("--recipe", "v1"), "no recipe 'v1'; known: "),
    (("--stage", "11"), "recipe v10 has stages 1-10, not 11"),
    (("--stage", "2", "--from-stage", "3"), "--stage and --from-stage go apart"),
    (("--epochs", "2"), "--epochs is the one-shot pipeline's, an experiment now"),
    (("--quick", "--recipe", "v9"), "recipes, whose stages say their data, epochs and threads"),
])
def test_bad_recipe_input_is_one_line(tmp_path, capsys, args, message):
    work = tmp_path / "work"
    assert main(["train", "--work", str(work), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not work.exists()


DETECTOR_STAGE = '[[stage]]\nname = "d"\nmodel = "detector"\nstart = "git:1:x"\nepochs = 2\nthreads = 1\nlr0 = 0.001\n'
A_READER_STAGE = '[[stage]]\nname = "a"\nmodel = "reader"\nstart = "git:1:x"\nepochs = 1\nthreads = 1\nlr = 1e-4\n'


@pytest.mark.parametrize("text, message", [
    ('name = "x"\nversion = "1"\ndetector_from = "a"\nreader_from = "a"\n', "no [[stage]]"),
    ('[[stage]]\nname = "a"\nmodel = "lens"\nstart = "git:1:x"\nepochs = 1\nthreads = 1\n', "model 'lens'"),
    ('[[stage]]\nname = "a"\nmodel = "reader"\nstart = "git:1:x"\nepochs = 1\nthreads = 1\nspeed = 2\n', "speed"),
    ('[[stage]]\nname = "a"\nmodel = "reader"\nstart = "models/x.onnx"\nepochs = 1\nthreads = 1\n', "neither imagenet"),
    (A_READER_STAGE + 'after = "b"\n', "after 'b' is not an earlier stage"),
    ('name = "x"\nversion = "1"\ndetector_from = "a"\nreader_from = "a"\n' + A_READER_STAGE +
     '[calibration.interpret]\nread_flor = 0.2\n', "bad [calibration]: "),
    (A_READER_STAGE.replace("lr = 1e-4\n", ""), "stage 1: a reader stage names its learning rate, lr > 0"),
    (A_READER_STAGE.replace("lr = 1e-4", "lr = 0.0"), "stage 1: a reader stage names its learning rate, lr > 0"),
    (DETECTOR_STAGE.replace("lr0 = 0.001\n", "lr = 0.001\n"),
     "stage 1: a detector stage names its learning rate, lr0 > 0"),
    (DETECTOR_STAGE + 'schedule = "gpu"\n', "schedule 'gpu' is not one of from-start, finetune, device"),
    (DETECTOR_STAGE.replace("git:1:x", "imagenet:x.yaml") + 'schedule = "device"\n',
     "a device stage starts from a checkpoint, git:<commit>:<path>"),
    (DETECTOR_STAGE + 'stop_after = 3\n', "stop_after must be 1-2 (epochs of the schedule)"),
    (DETECTOR_STAGE + 'cache = "ssd"\n', "cache 'ssd' is neither ram nor disk"),
    (DETECTOR_STAGE + '[stage.data]\nreal_sets = []\nlayout_renders = ["mixed:2:9"]\n',
     'layout "mixed" renders only in a device stage'),
])
def test_a_malformed_recipe_names_what_is_wrong(text, message):
    with pytest.raises(recipes.RecipeError, match=re.escape(message)):
        recipes.parse_recipe(text, "bad")


READER_STAGE = ('[[stage]]\nname = "r"\nmodel = "reader"\nstart = "git:1:x"\nepochs = 1\nthreads = 1\nlr = 1e-4\n'
                '[stage.data]\nreal_sets = []\ncrops = [{ scenes = 2, seed = 29, mix = "v4", %s }]\n')


@pytest.mark.parametrize("crops, message", [
    ('boxes = "true"', "crops boxes 'true' is not one of jittered, detector"),
    ('boxes = "detector"', 'name its models folder as detector = "git:<commit>:<folder>"'),
    ('boxes = "detector", detector = "models"', 'detector = "git:<commit>:<folder>"'),
    ('detector = "git:1:models"', "(and only they do)"),
])
def test_crops_at_a_detector_s_boxes_name_its_models(crops, message):
    with pytest.raises(recipes.RecipeError, match=re.escape(message)):
        recipes.parse_recipe(READER_STAGE % crops, "bad")


def test_real_photos_cut_at_a_detector_s_boxes_name_its_models():
    text = (READER_STAGE % 'boxes = "jittered"').replace("[stage.data]\n", '[stage.data]\nreal_at_boxes_of = "models"\n')
    with pytest.raises(recipes.RecipeError, match=re.escape('real_at_boxes_of names a models folder as "git:<commit>')):
        recipes.parse_recipe(text, "bad")


def test_a_recipe_extends_an_earlier_one_and_states_its_crops_as_they_are_cut(tmp_path):
    text = ('name = "next"\nversion = "10"\nextends = "v9"\ndetector_from = "detector-s9"\nreader_from = "r"\n'
            + (READER_STAGE % 'boxes = "detector", detector = "git:1:models"').replace('name = "r"\n',
                                                                                      'name = "r"\nafter = "reader-s13"\n'))
    later = recipes.parse_recipe(text, "next")
    assert [s.name for s in later.stages] == [s.name for s in V9.stages] + ["r"]
    assert later.stages[:7] == V9.stages and later.stage("r").after == "reader-s13"
    at_boxes = recipes.stage_arguments(later.stage("r"))["data"]["crops"][0]
    assert at_boxes["boxes"] == "detector" and at_boxes["detector"] == "git:1:models" and "per_index" not in at_boxes
    jittered = recipes.stage_arguments(V9.stage("reader-s13"))["data"]["crops"][0]
    assert "boxes" not in jittered and jittered["per_index"] == 3  # as v9's provenance was written
    assert "at the boxes drawn by the detector of git:1:models)" in recipes.describe(later)
    assert "real_at_boxes_of" not in recipes.stage_arguments(V9.stage("reader-s13"))["data"]
    assert "real_at_boxes_of" not in recipes.stage_arguments(V9.stage("detector-s9"))["data"]
    cut_again = recipes.parse_recipe(text.replace("[stage.data]\n", '[stage.data]\nreal_at_boxes_of = "git:1:models"\n'))
    assert recipes.stage_arguments(cut_again.stage("r"))["data"]["real_at_boxes_of"] == "git:1:models"
    with pytest.raises(recipes.RecipeError, match="no recipe 'v1'"):
        recipes.parse_recipe(text.replace('"v9"', '"v1"'), "next")
    with pytest.raises(recipes.RecipeError, match="next: extends 'next', which extends it"):
        recipes.parse_recipe(text.replace('"v9"', '"next"'), "next")


def test_frozen_labels_read_back_what_was_written_and_reject_a_broken_line(tmp_path):
    found = {"b_jpg": np.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.5, 0.9, 0.9]]), "a_jpg": np.zeros((0, 4))}
    path = tmp_path / "cards.txt"
    path.write_text(format_found_cards(found, "test"))
    back = read_found_cards(path)
    assert sorted(back) == ["a_jpg", "b_jpg"] and back["a_jpg"].shape == (0, 4)
    assert np.allclose(back["b_jpg"], found["b_jpg"])
    path.write_text("c_jpg 0.1 0.2 0.3\n")
    with pytest.raises(FrozenLabelsError, match="3 numbers after c_jpg"):
        read_found_cards(path)


@pytest.mark.real_photos("cardcounterml")  # the recipe reads both real sets
@pytest.mark.real_photos("rf100-poker")
def test_the_frozen_labels_answer_for_every_real_train_photo_that_needs_them():
    from vision.train.frozen_labels import needs_found_cards
    from vision.train.real_sets import real_photos_of

    needing = {p.name for p in real_photos_of("train") if needs_found_cards(p)}
    files = {s.data.real_labels for s in V10.stages if s.model == "detector"}
    assert len(files) == 2  # v5's detector labelled v9's data, v9's the 640 line's
    for file in files:
        assert needing and needing <= set(read_found_cards(recipes.REPO / file))


@pytest.mark.real_photos("cardcounterml")  # the recipe reads both real sets
@pytest.mark.real_photos("rf100-poker")
@needs_history
def test_v10_replays_end_to_end_at_a_tiny_scale_and_a_stage_replays_alone(tmp_path, capsys):
    from vision.model_config import load_models_config
    from vision.runtime import OnnxModel

    out = tmp_path / "models"
    assert main(["train", "--tiny", "--work", str(tmp_path / "work"), "--out", str(out)]) == 0  # the current recipe
    err = capsys.readouterr().err
    assert '"cards_from_detector": 2' in err  # the frozen labels gave the lone corners' cards
    config = load_models_config(out)
    provenance = config["provenance"]
    assert config["version"] == "10" and provenance["recipe"] == "v10" and provenance["scale"] == "tiny"
    assert provenance["stages"] == [s.name for s in V10.stages]
    assert (provenance["detector_stage"], provenance["reader_stage"]) == ("detector-s18-gpu", "reader-s19-g4")
    assert provenance["arguments"]["detector-s8"]["start"] == "output of stage detector-s7"
    assert provenance["arguments"]["detector-s18-gpu"]["start"] == "output of stage detector-s17"
    assert provenance["arguments"]["detector-s18-gpu"]["device"] in ("cpu", "gpu")
    assert provenance["arguments"]["reader-s9"]["start"] == V9.stage("reader-s9").start
    assert provenance["seeds"]["reader-s13"] == [20, 21, 22] and provenance["git_commit"]
    shipped = json.loads((recipes.REPO / "models" / "models.json").read_text())
    assert config["calibration"] == shipped["calibration"] == V10.calibration  # read as the shipped v10
    assert config["doubt"] == shipped["doubt"]  # the tiny replay refits the committed evidence
    size = config["detector"]["imgsz"]
    raw = OnnxModel(out / "detector.onnx", "onnxruntime").run(np.zeros((1, 3, size, size), np.float32))
    assert raw.shape[:2] == (1, 6)
    logits = OnnxModel(out / "classifier.onnx", "onnxruntime").run(np.zeros((2, 3, 80, 80), np.float32))
    assert logits.shape == (2, 52) and (out / "train" / "detector_last.pt").is_file()

    # stage 10 alone, in the replay's work folder as after a stopped replay: it starts from its own
    # git start (models v9's reader, fetched now) and keeps the crops the replay cut at v9's boxes
    # (run_reader_stage reuses a stage's crops; cutting them alone is
    # test_a_reader_stage_cut_at_a_detector_s_boxes_replays_at_a_tiny_scale's)
    alone = tmp_path / "alone"
    assert main(["train", "--recipe", "v10", "--stage", "10", "--tiny", "--work", str(tmp_path / "work"),
                 "--out", str(alone)]) == 0
    provenance = json.loads((alone / "models.json").read_text())["provenance"]
    assert provenance["stages"] == ["reader-s19-g4"] and provenance["detector_stage"] is None
    assert json.loads((alone / "models.json").read_text())["calibration"] == shipped["calibration"]
    assert provenance["arguments"]["reader-s19-g4"]["start"] == V10.stage("reader-s19-g4").start  # models v9's reader
    assert provenance["arguments"]["reader-s19-g4"]["data"]["crops"][0]["boxes"] == "detector"
    assert (alone / "classifier.onnx").is_file() and not (alone / "detector.onnx").exists()


def test_the_shipped_models_say_which_recipe_made_them():
    shipped = json.loads((recipes.REPO / "models" / "models.json").read_text())
    provenance = shipped["provenance"]
    assert shipped["version"] == V10.version and provenance["recipe"] == "v10"
    made = json.loads(json.dumps(recipes.historical_provenance(V10, provenance["git_commit"])))
    assert provenance == made  # the recipe as committed
    assert provenance["arguments"]["reader-s13"]["lr"] == 3e-4 and provenance["seconds"]["detector-s9"] == 7583
    assert shipped["detector"]["imgsz"] == V10.stage(V10.detector_from).imgsz == 640


@pytest.mark.real_photos("cardcounterml")
@pytest.mark.real_photos("rf100-poker")
@needs_history
def test_a_reader_stage_cut_at_a_detector_s_boxes_replays_at_a_tiny_scale(tmp_path):
    from vision.runtime import OnnxModel

    models = "git:2504fab845eeb98bf0e753da9633d08ccd17c280:models"  # models v9 as the runtime reads them
    text = ('name = "boxes"\nversion = "0"\ndetector_from = "r"\nreader_from = "r"\n'
            '[[stage]]\nname = "r"\nmodel = "reader"\nstart = "git:a69a6ed4cc9f63f0387f7cfd93186519f0c9a5a3:models/'
            'classifier.onnx"\nepochs = 1\nthreads = 1\nlr = 1e-4\n[stage.data]\nreal_sets = ["cardcounterml", '
            f'"rf100-poker"]\nreal_at_boxes_of = "{models}"\n'
            f'crops = [{{ scenes = 2, seed = 29, mix = "v4", layout = "fan", boxes = "detector", detector = "{models}" }}]\n')
    recipe = recipes.parse_recipe(text.replace('detector_from = "r"', 'detector_from = "d"') + (
        '[[stage]]\nname = "d"\nmodel = "detector"\nstart = "imagenet:x.yaml"\nepochs = 1\nthreads = 1\nlr0 = 0.01\n'
        '[stage.data]\nreal_sets = []\n'), "boxes")
    done = recipes.replay(recipe, tmp_path / "work", None, stages=[1], scale=recipes.TINY, log=lambda _: None)
    crops = sorted(p.name for p in (tmp_path / "work" / "01_r" / "crops").iterdir())
    assert crops == ["crops80_fan_s29_2_detector.npz", "crops80_real_train_detector_2.npz"]
    for name in crops:
        with np.load(tmp_path / "work" / "01_r" / "crops" / name) as saved:
            assert len(saved["labels"]) > 0 and len(saved["labels"]) % 3 == 0  # three margins a box
    data = done.arguments["r"]["data"]
    assert data["real_at_boxes_of"] == models and data["crops"][0]["boxes"] == "detector"
    logits = OnnxModel(done.outputs["r"], "onnxruntime").run(np.zeros((1, 3, 80, 80), np.float32))
    assert logits.shape == (1, 52)


def test_the_doubt_stage_alone_refits_into_a_models_folder(tmp_path, capsys):
    import shutil

    pytest.importorskip("sklearn")
    models = tmp_path / "models"
    shutil.copytree(recipes.REPO / "models", models)
    config = json.loads((models / "models.json").read_text())
    shipped = config.pop("doubt")
    (models / "models.json").write_text(json.dumps(config))
    assert main(["train", "--doubt", "--tiny", "--out", str(models), "--work", str(tmp_path / "work")]) == 0
    assert json.loads((models / "models.json").read_text())["doubt"] == shipped
    assert "doubt model fitted" in capsys.readouterr().out
    assert main(["train", "--doubt", "--stage", "3"]) == 2
    assert capsys.readouterr().err == ("crib train: error: --doubt is the recipe's last stage alone: "
                                       "leave out --stage and --from-stage\n")
    assert main(["train", "--doubt", "--out", str(tmp_path / "nowhere")]) == 2
    assert "models.json" in capsys.readouterr().err
