"""The round-trip .theanorc editor: untouched lines byte for byte, edits exactly where asked."""

from __future__ import annotations

import configparser
from pathlib import Path

import pytest
from theanodoctor.fixes.rc_draft import Draft
from theanodoctor.fixes.rc_text import RcText

SAMPLES = [
    "",
    "[global]\n",
    "[global]\ndevice = cpu",  # no final newline
    "; top comment\r\n[global]\r\ndevice = cuda\r\nfloatX=float32\r\n\r\n[my own]\r\nx: 1\r\n  continued\r\n",
    "# mixed\n[global]\r\ndevice = cuda # later\n\n[dnn.conv]\nalgo_fwd = time_once\n\t\n",
    "[global]\n  indented comment-ish\n[lib]\ncnmem=0.8\n[unknown]\nkey = va;lue # x\n",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_unedited_text_round_trips_exactly(text: str) -> None:
    assert RcText(text).text() == text


def test_set_keeps_everything_else_byte_for_byte() -> None:
    text = "; mine\r\n[global]\r\nDevice=gpu  \r\nfloatX = float32\r\n\r\n[weird]\r\na = 1\r\n"
    rc = RcText(text)
    assert rc.set("global", "device", "cuda")
    assert rc.set("blas", "ldflags", "")
    assert not rc.set("global", "floatx", "float32")  # already so: no change
    assert rc.text() == ("; mine\r\n[global]\r\nDevice=cuda\r\nfloatX = float32\r\n\r\n[weird]\r\na = 1\r\n"
                         "\r\n[blas]\r\nldflags =\r\n")


def test_set_adds_to_an_existing_section_after_its_last_option() -> None:
    rc = RcText("[global]\nfloatX = float32\n# note\n\n[cuda]\nroot = /x\n")
    rc.set("global", "device", "cuda")
    assert rc.text() == "[global]\nfloatX = float32\ndevice = cuda\n# note\n\n[cuda]\nroot = /x\n"


def test_set_on_a_file_without_final_newline() -> None:
    rc = RcText("[global]\ndevice = cpu")
    rc.set("global", "floatX", "float32")
    assert rc.text() == "[global]\ndevice = cpu\nfloatX = float32\n"


def test_set_keeps_a_last_line_without_newline_and_same_indented_neighbours() -> None:
    rc = RcText("[global]\n  floatX = float64\n  device = gpu")
    rc.set("global", "floatX", "float32")
    rc.set("global", "device", "cuda")
    assert rc.text() == "[global]\n  floatX = float32\n  device = cuda"


def test_remove_option_and_continuation_and_empty_section() -> None:
    rc = RcText("[global]\ndevice = cuda\n\n[lib]\ncnmem = 0.8\n  more\n\n[dnn]\nenabled = False\n")
    assert rc.remove("lib", "cnmem")
    assert rc.section_is_empty("lib")
    assert rc.remove_section("lib")
    assert rc.text() == "[global]\ndevice = cuda\n\n[dnn]\nenabled = False\n"


@pytest.mark.parametrize(("text", "expected"), [
    ("[global]\ndevice = gpu\n\n[nvcc]\nfastmath = True\n# the BLAS we use:\n[blas]\nldflags = -lblas\n",
     "[global]\ndevice = gpu\n\n# the BLAS we use:\n[blas]\nldflags = -lblas\n"),
    ("[nvcc]\nflags = -O3\n#flags = -arch=sm_30\nfastmath = True\n\n# below: the cuDNN paths\n\n[dnn]\nx = 1\n",
     "# below: the cuDNN paths\n\n[dnn]\nx = 1\n"),
    ("[global]\nx = 1\n\n[nvcc]\nflags = -O3\n# last words\n", "[global]\nx = 1\n\n# last words\n"),
])
def test_removing_a_section_keeps_the_comments_after_its_last_option(text: str, expected: str) -> None:
    rc = RcText(text)
    assert rc.remove_section("nvcc")
    assert rc.text() == expected
    configparser.ConfigParser().read_string(rc.text())  # still a valid file


def test_inline_comment_moves_onto_its_own_line() -> None:
    rc = RcText("[global]\r\ndevice = cpu # later gpu\r\nx = a;b\r\n")
    line = rc.find("global", "device")
    assert line is not None and rc.split_inline_comment(line.at)
    assert rc.text() == "[global]\r\n# later gpu\r\ndevice = cpu\r\nx = a;b\r\n"
    assert not rc.split_inline_comment(rc.find("global", "x").at)  # type: ignore[union-attr]  # ';' inside a value


def test_rename_section_keeps_its_lines() -> None:
    rc = RcText("[dnn.conv]\nalgo_fwd = time_once\n")
    assert rc.rename_section("dnn.conv", "dnn__conv")
    assert rc.text() == "[dnn__conv]\nalgo_fwd = time_once\n"


@pytest.mark.parametrize("encoding,prefix", [("utf-8-sig", b"\xef\xbb\xbf"), ("utf-16", b"\xff\xfe")])
def test_draft_reencodes_bom_and_utf16_to_plain_utf8(encoding: str, prefix: bytes) -> None:
    text = "[global]\r\ndevice = cpu\r\n"
    data = text.encode(encoding)
    assert data.startswith(prefix)
    draft = Draft("x", data)
    draft.to_utf8 = True
    assert draft.data() == text.encode("utf-8")


def test_draft_keeps_utf16_when_only_another_fix_edits() -> None:
    data = "[global]\ndevice = gpu\n".encode("utf-16")
    draft = Draft("x", data)
    draft.rc.set("global", "device", "cuda")
    assert draft.data() == "[global]\ndevice = cuda\n".encode("utf-16")


def test_edited_text_parses_like_theano() -> None:
    rc = RcText(SAMPLES[3])
    rc.set("global", "device", "cuda0")
    rc.set("gpuarray", "preallocate", "0.5")
    parser = configparser.ConfigParser()
    parser.read_string(rc.text())
    assert parser.get("global", "device") == "cuda0"
    assert parser.get("gpuarray", "preallocate") == "0.5"
    assert parser.get("my own", "x") == "1\ncontinued"


def test_obsolete_sections_and_cnmem_are_dropped_saying_what_replaced_them() -> None:
    from theanodoctor.fixes.context import Context
    from theanodoctor.fixes.rc_repairs import fix_obsolete

    from theanodoctor.facts import Facts

    draft = Draft("x", b"[global]\ndevice = cuda\n\n[nvcc]\nflags = -O3\noptimizer_including = cudnn\n"
                       b"\n[lib]\ncnmem = 2000\n")
    theano105 = Facts(target={"status": "ok", "stages": {"distributions": {"versions": {"Theano": "1.0.5"}}}})
    fix_obsolete(Context(theano105, (), frozenset({"theanorc-obsolete"})), draft)
    parser = configparser.ConfigParser()
    parser.read_string(draft.data().decode())
    assert {s: dict(parser[s]) for s in parser.sections()} == {
        "global": {"device": "cuda", "optimizer_including": "cudnn"}, "gpuarray": {"preallocate": "2000"}}
    said = " ".join(w for _, w in draft.changes)
    assert "gpuarray] preallocate` replaced it" in said and "[nvcc]" in said
    # cnmem > 1 counted MB, and so does preallocate: carried over, said with its unit
    assert "set [gpuarray] preallocate = 2000: the same 2000 MB of GPU memory" in said
    # a key Theano knows in another section moves there instead of being dropped with [nvcc]
    assert "moved [global] optimizer_including (Theano reads it there)" in said


def test_state_folder_follows_xdg_and_the_override(monkeypatch: pytest.MonkeyPatch, guard_home: object) -> None:
    from theanodoctor.repair.state import STATE_ENV, new_run_id, state_dir

    monkeypatch.delenv(STATE_ENV, raising=False)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    assert state_dir() == f"{guard_home}/.local/state/theanodoctor"
    monkeypatch.setenv("XDG_STATE_HOME", "/x/state")
    assert state_dir() == "/x/state/theanodoctor"
    monkeypatch.setenv(STATE_ENV, "/y")
    assert state_dir() == "/y"
    first, second = new_run_id(), new_run_id()
    assert first <= second


def test_preview_marks_a_missing_final_newline_and_shows_cr_only_lines_as_lines(tmp_path: Path) -> None:
    path = tmp_path / ".theanorc"
    path.write_bytes(b"[global]\rfloatX = float32\r[lib]\rcnmem = 0.8")
    draft = Draft.read(str(path))
    draft.rc.remove_section("lib")
    draft.rc.set("global", "device", "cuda")
    draft.note("theanorc-obsolete", "test")
    action = draft.action()
    assert action is not None and "\r" not in action.preview
    assert action.preview.splitlines()[-5:] == [
        " floatX = float32", "-[lib]", "-cnmem = 0.8", "\\ No newline at end of file", "+device = cuda"]
