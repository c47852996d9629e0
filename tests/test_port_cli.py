"""`theanodoctor port`, as a user runs it (a subprocess of the real CLI) on copies of real
repositories from tests/scan_corpus: dry run, plan only without a terminal, --only/--skip, the
terminal prompt, a file changed after the preview left alone, undo byte for byte, the report file,
JSON that stays one document, .theanorc files and broken trees; and `resolve --project` on a ported
copy."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

from tests.cli_helpers import Run, doctor, on_a_terminal

CORPUS = Path(__file__).parent / "scan_corpus"


def port(state: Path, *args: str) -> Run:
    return doctor("port", *args, env={"THEANODOCTOR_STATE_DIR": str(state)}, no_stdin=True)


def _copy(tmp_path: Path, *names: str) -> Path:
    repo = tmp_path / "repo"
    for name in names:
        shutil.copytree(CORPUS / name, repo / name)
    return repo


def _tree(root: Path) -> dict[str, str]:
    """Every file's bytes hash (and every symlink's target), by relative path."""
    found = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            found[rel] = "link:" + os.readlink(path)
        elif path.is_file():
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def test_help_teaches_with_examples_and_exit_codes(tmp_path: Path) -> None:
    run = port(tmp_path, "--help")
    assert run.code == 0
    for word in ("--dry-run", "--undo", "--only", "--report", "Examples:", "Exit codes:", "profiles/port_rules.yaml"):
        assert word in run.out, word


def test_dry_run_shows_diffs_and_the_report_and_touches_nothing(tmp_path: Path) -> None:
    repo = _copy(tmp_path, "theano-alexnet", "lasagne")
    before = _tree(repo)
    run = port(tmp_path / "state", str(repo), "--dry-run")
    assert run.code == 1, run.err  # uses to port by hand are left (cuda_convnet, PyCUDA)
    assert "-from theano.tensor.signal import downsample\n+from theano.tensor.signal import pool" in run.out
    assert "theanodoctor port report" in run.out and "dry run: nothing was applied" in run.out
    assert "theano-alexnet/lib/layers.py:8: [cuda-convnet]" in run.out
    assert _tree(repo) == before and not (tmp_path / "state").exists()


def test_without_a_terminal_and_without_yes_only_the_plan_is_shown(tmp_path: Path) -> None:
    repo = _copy(tmp_path, "cnn-sentence")
    before = _tree(repo)
    run = port(tmp_path / "state", str(repo))
    assert run.code == 2
    assert "+from theano.tensor.signal import pool" in run.out
    assert "not applied" in run.err and "--yes" in run.err
    assert _tree(repo) == before


def test_apply_report_and_undo_byte_for_byte(tmp_path: Path) -> None:
    repo = _copy(tmp_path, "theano-alexnet", "cnn-sentence", "dcgan-code", "scikit-neuralnetwork")
    before = _tree(repo)
    run = port(tmp_path / "state", str(repo), "--yes", "--format", "json")
    doc = run.json()  # one JSON document on stdout, nothing else
    assert doc["schema_version"] and doc["mode"] == "applied" and run.code == 1  # hand work is left
    assert {s["status"] for s in doc["steps"]} == {"applied"}
    report = Path(doc["report_file"])
    assert report.is_file() and str(tmp_path / "state") in str(report)  # beside the journal, not in the tree
    text = report.read_text()
    assert f"applied in run {doc['run_id']}" in text and "To do by hand:" in text
    assert "THEANO_FLAGS=device=cuda0" in text  # sandbox.cuda.use(...) was taken out: where the device goes now
    cited = {s["rule"]: s for s in doc["sources"]}  # every rule the report rests on, with its upstream lines
    assert {"sandbox-cuda-use", "signal-downsample", "cuda-convnet"} <= set(cited)
    assert "rel-1.0.5" in cited["signal-downsample"]["new"] and cited["signal-downsample"]["new"] in text
    ported = (repo / "cnn-sentence/conv_net_classes.py").read_text()
    assert "from theano.tensor.signal import pool" in ported and "downsample" not in ported.split("\n")[15]
    changed = {k for k in before if _tree(repo).get(k) != before[k]}
    assert {a["path"] for a in doc["plan"]} == {str(repo / k) for k in changed}
    # porting again finds nothing more to rewrite; --report writes the report where asked
    again = port(tmp_path / "elsewhere", str(repo), "--yes", "--report", str(tmp_path / "mine.txt"), "--format", "json")
    assert again.json()["mode"] == "nothing-to-apply" and not again.json()["plan"]
    assert Path(again.json()["report_file"]) == tmp_path / "mine.txt"
    assert (tmp_path / "mine.txt").read_text().startswith("theanodoctor port report")
    undo = port(tmp_path / "state", "--undo", "--format", "json")
    assert undo.code == 0, undo.out
    assert {s["status"] for s in undo.json()["steps"]} == {"restored"}
    assert _tree(repo) == before
    again = port(tmp_path / "state", "--undo")
    assert again.code == 2 and "no port run to undo" in again.err


def test_only_and_skip_pick_rules(tmp_path: Path) -> None:
    repo = _copy(tmp_path, "cnn-sentence", "theano-alexnet")
    only = port(tmp_path / "state", str(repo), "--only", "signal-downsample", "--dry-run", "--format", "json").json()
    changes = {c["rule"] for f in only["files"] for c in f["changes"]}
    assert changes == {"signal-downsample"} and only["rules"] == ["signal-downsample"]
    skip = port(tmp_path / "state", str(repo), "--skip", "sandbox-cuda-use", "--yes", "--format", "json").json()
    assert "sandbox-cuda-use" not in {c["rule"] for f in skip["files"] for c in f["changes"]}
    assert "theano.sandbox.cuda.use(config['gpu'])\n" in (repo / "theano-alexnet/train.py").read_text()
    unknown = port(tmp_path / "state", str(repo), "--only", "no-such-rule", "--format", "json")
    assert unknown.code == 2 and unknown.json()["error"]["kind"] == "usage"


def test_a_file_changed_after_the_preview_is_left_alone(tmp_path: Path) -> None:
    repo = _copy(tmp_path, "cnn-sentence", "deeplearningtutorials")
    edited = repo / "cnn-sentence/conv_net_classes.py"
    mine = edited.read_text() + "# my own edit, made while the prompt waited\n"
    code, said = on_a_terminal(["port", str(repo)], b"y\n", {"THEANODOCTOR_STATE_DIR": str(tmp_path / "state")},
                               lambda: edited.write_text(mine))
    assert code == 1, said.decode(errors="replace")
    assert b"changed since the plan was made; left alone" in said
    assert edited.read_text() == mine  # the user's edit is kept, nothing ported over it
    assert "ws=poolsize" in (repo / "deeplearningtutorials/code/convolutional_mlp.py").read_text()


RC = b"# lab machine\r\n[global]\r\ndevice = gpu1\r\nfloatX = float32\r\n\r\n[lib]\r\ncnmem = 0.75\r\n\r\n" \
     b"[nvcc]\r\nfastmath = True\r\n"


def test_theanorc_in_the_repository_goes_through_fixs_line_keeping_repairs(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".theanorc").write_bytes(RC)
    (repo / "run.py").write_text("import os\n"
                                 "os.environ['THEANO_FLAGS'] = 'device=gpu,lib.cnmem=1,nvcc.fastmath=True'\n")
    run = port(tmp_path / "state", str(repo), "--yes", "--report", str(tmp_path / "r.txt"), "--format", "json")
    assert run.code == 0, run.out
    beside = tmp_path / "state" / "port" / "runs" / run.json()["run_id"] / "report.txt"
    assert beside.read_text() == (tmp_path / "r.txt").read_text()  # the default place, and the asked one
    rc = (repo / ".theanorc").read_bytes()
    assert b"device = cuda1\r\n" in rc and b"[gpuarray]\r\npreallocate = 0.75" in rc
    assert b"cnmem" not in rc and b"[nvcc]" not in rc and rc.startswith(b"# lab machine\r\n")
    assert (repo / "run.py").read_text().endswith("= 'device=cuda,gpuarray.preallocate=1'\n")
    assert port(tmp_path / "state", "--undo").code == 0
    assert (repo / ".theanorc").read_bytes() == RC
    half = port(tmp_path / "state", str(repo), "--only", "lib-cnmem", "--yes", "--format", "json")
    assert half.code == 1 and (repo / ".theanorc").read_bytes() == RC  # fix's repair runs whole or not at all
    assert "choose all of them or none" in next(m["what"] for m in half.json()["manual"] if m["file"] == ".theanorc")


def test_broken_trees_are_skipped_with_reasons_and_json_stays_whole(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    outside = tmp_path / "outside.py"
    outside.write_text("from theano.tensor.signal import downsample\n")
    (repo / "pkg" / "linked.py").symlink_to(outside)
    (repo / "pkg" / "latin.py").write_bytes(b"# caf\xe9\nfrom theano.tensor.signal import downsample\n")
    (repo / "pkg" / "blob.py").write_bytes(b"\0\0\0from theano.tensor.signal import downsample\n")
    (repo / "pkg" / "broken.py").write_text("def f(:\n    from theano.tensor.signal import downsample\n")
    (repo / "pkg" / "deep.py").write_text("import theano\nx = " + "(" * 3000 + "1" + ")" * 3000 + "\n")
    (repo / "pkg" / "noisy.py").write_text("print 'hi \\x00 \\x1b[31m red'\n"
                                           "from theano.tensor.signal import downsample\n")
    run = port(tmp_path / "state", str(repo), "--yes", "--format", "json")
    doc = run.json()
    reasons = {s["file"]: s["message"] for s in doc["skipped"]}
    assert "symlink" in reasons["pkg/linked.py"] and "UTF-8" in reasons["pkg/latin.py"]
    assert "binary" in reasons["pkg/blob.py"] and "lossless" in reasons["pkg/broken.py"]
    assert "nested too deeply" in reasons["pkg/deep.py"]
    assert outside.read_text() == "from theano.tensor.signal import downsample\n"
    assert (repo / "pkg" / "noisy.py").read_text().endswith("from theano.tensor.signal import pool\n")
    assert run.code == 0 and [a["path"] for a in doc["plan"]] == [str(repo / "pkg" / "noisy.py")]


def test_a_ported_repository_resolves_to_theano_105_on_the_gpuarray_backend(tmp_path: Path) -> None:
    from tests.legacy_envs import REAL_HOME

    repo = _copy(tmp_path, "cnn-sentence")
    env = {"PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR") or str(REAL_HOME / ".cache" / "pip")}

    def resolve() -> dict[str, Any]:
        run = doctor("resolve", "--project", str(repo), "--gpu", "RTX 3090", "--format", "json", env=env, timeout=600)
        assert run.code in (0, 1), run.err[-2000:]
        return dict(run.json()["lock"])

    old = resolve()  # downsample holds it to Theano 0.8, whose old back-end cannot run on sm_86
    assert not old["resolved"] and old["theano"] == "0.8.2" and "sm_86" in old["conflicts"][0]["why"][0]["text"]
    assert port(tmp_path / "state", str(repo), "--yes").code == 0
    new = resolve()
    assert new["resolved"] and new["theano"] == "1.0.5" and new["device"] == "cuda"
    assert {g["name"]: g["value"] for g in new["gpu"]}["pygpu"]


def test_flags_in_shell_scripts_are_listed_with_the_value_to_write(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    script = b"#!/bin/sh\nTHEANO_FLAGS=mode=FAST_RUN,device=gpu0,floatX=float32 python train.py\n"
    (repo / "run.sh").write_bytes(script)
    run = port(tmp_path / "state", str(repo), "--yes", "--format", "json")
    assert run.code == 1 and not run.json()["plan"]
    [item] = run.json()["manual"]
    assert (item["file"], item["line"], item["rule"]) == ("run.sh", 2, "device-gpu")
    assert "write mode=FAST_RUN,device=cuda0,floatX=float32" in item["what"]
    assert (repo / "run.sh").read_bytes() == script


def test_a_single_file_can_be_ported(tmp_path: Path) -> None:
    repo = _copy(tmp_path, "lasagne")
    target = repo / "lasagne/lasagne/layers/pool.py"
    doc = port(tmp_path / "state", str(target), "--dry-run", "--format", "json").json()
    assert [a["path"] for a in doc["plan"]] == [str(target)] and doc["files"][0]["file"] == "pool.py"
