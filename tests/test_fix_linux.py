"""`fix --cuda 10.2` on a Linux snapshot pointing into a temp tree shaped like
/usr/local/cuda-10.2: unversioned soname symlinks in a user folder plus the LD_LIBRARY_PATH
line, and the config file written for the toolkit (other keys, order kept)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.fix_helpers import assert_left_only, fix, linux_tree, listing


def test_cuda_target_links_sonames_and_writes_theanorc(tmp_path: Path) -> None:
    snap, lib, home = linux_tree(tmp_path)
    data = json.loads(snap.read_text())  # Theano has no cuda.root of its own here
    data["target"]["stages"]["theano_config"]["values"]["cuda.root"] = {"value": "", "source": "default"}
    snap.write_text(json.dumps(data))
    original = (home / ".theanorc").read_bytes()
    run = fix(tmp_path / "state", "--from", str(snap), "--cuda", "10.2", "--yes", "--format", "json")
    assert_left_only(run, {"pygpu-version"})  # the fixture's broken pygpu (the device is in the file written)
    doc = run.json()
    links = home / "cuda-links"
    assert os.readlink(links / "libcublas.so") == str(lib / "libcublas.so.10")
    assert os.readlink(links / "libnvrtc.so") == str(lib / "libnvrtc.so.10.2")
    assert not (links / "libcuda.so").exists()  # the driver's, not the toolkit's
    advice = [c["command"] for a in doc["plan"] if a["kind"] == "advice" for c in a["commands"]]
    assert any(c.startswith(f'export LD_LIBRARY_PATH="{links}') for c in advice)
    text = (home / ".theanorc").read_bytes()
    assert text.startswith(original)  # existing keys and order untouched; [cuda] root appended
    assert text[len(original):] == f"\n[cuda]\nroot = {lib.parent}\n".encode()
    assert fix(tmp_path / "state", "--undo").code == 0
    assert not links.exists() and (home / ".theanorc").read_bytes() == original


def test_config_already_right_for_the_toolkit_is_left_alone(tmp_path: Path) -> None:
    snap, _, home = linux_tree(tmp_path)
    original = (home / ".theanorc").read_bytes()
    run = fix(tmp_path / "state", "--from", str(snap), "--cuda", "10.2", "--yes", "--format", "json")
    assert_left_only(run, {"pygpu-version", "theano-device"})  # the fixture's broken pygpu
    assert [s["kind"] for s in run.json()["steps"]] == ["symlink", "symlink"]
    assert (home / ".theanorc").read_bytes() == original


def test_existing_unversioned_names_need_no_link(tmp_path: Path) -> None:
    snap, _, home = linux_tree(tmp_path, unversioned=True)
    before = listing(home)
    run = fix(tmp_path / "state", "--from", str(snap), "--only", "cuda-soname-links", "--yes", "--format", "json")
    assert_left_only(run, {"pygpu-version", "theano-device"})  # the fixture's broken pygpu
    assert run.json()["mode"] == "nothing-to-apply"
    assert any("LD_LIBRARY_PATH" in n["message"] for n in run.json()["notes"])
    assert listing(home) == before


def test_unknown_cuda_version_is_a_usage_error_listing_what_was_found(tmp_path: Path) -> None:
    snap, _, _ = linux_tree(tmp_path)
    for fmt in ("text", "json"):
        run = fix(tmp_path / "state", "--from", str(snap), "--cuda", "9.2", "--format", fmt)
        assert run.code == 2
        assert "CUDA 9.2 was not found" in run.err and "CUDA 10.2 at" in run.err
    assert run.json()["error"]["kind"] == "usage"


def test_theano_flags_are_corrected_as_advice_never_set(tmp_path: Path) -> None:
    snap, _, home = linux_tree(tmp_path)
    data = json.loads(snap.read_text())
    data["env"]["vars"]["THEANO_FLAGS"] = "floatX=float32,device=gpu1"
    snap.write_text(json.dumps(data))
    before = listing(home)
    run = fix(tmp_path / "state", "--from", str(snap), "--yes", "--only", "theanorc-device", "--format", "json")
    assert_left_only(run, {"pygpu-version", "theano-device"})  # the fixture's broken pygpu
    [advice] = [a for a in run.json()["plan"] if a["kind"] == "advice"]
    assert advice["commands"] == [{"shell": "bash", "command": "export THEANO_FLAGS='floatX=float32,device=cuda1'"}]
    assert run.json()["mode"] == "nothing-to-apply" and listing(home) == before


def test_cuda_target_points_theano_at_a_cudnn_outside_the_toolkit(tmp_path: Path) -> None:
    snap, _, home = linux_tree(tmp_path)
    data = json.loads(snap.read_text())
    cudnn = tmp_path / "cudnn-7.6.5"
    data["cudnn"]["installs"] = [{"root": str(cudnn), "major": 7, "minor": 6, "patch": 5, "version": "7.6.5",
                                  "in_toolkit": None, "libraries": ["libcudnn.so.7"]}]
    snap.write_text(json.dumps(data))
    doc = fix(tmp_path / "state", "--from", str(snap), "--cuda", "10.2", "--dry-run", "--format", "json").json()
    [write] = [a for a in doc["plan"] if a["kind"] == "write"]
    assert f"+[dnn]\n+base_path = {cudnn}\n" in write["preview"]
    assert write["fix_ids"] == ["theanorc-write"]
