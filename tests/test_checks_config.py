"""The config checks (theanorc-*, theano-flags): real files judged through the real CLI against
the real healthy37 / py27 / pymc39 environments, and snapshots for the Windows-only cases.

Where real Theano fails on a file, the test also asserts that the check quotes the error text
Theano itself printed (theano-import carries it), so a quote can never drift from the truth."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.cli_helpers import doctor, result, statuses
from tests.test_checks import judge, snapshot
from theanodoctor.host.theanorc import inspect_file

Doc = dict[str, Any]


@pytest.fixture
def check_with(legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path) -> Callable[..., Doc]:
    """``check_with("healthy37", rc_bytes, THEANO_FLAGS=...)``: the real CLI's JSON report with
    THEANORC pointing at a file holding those bytes (no file when ``rc`` is None)."""

    def run(env_name: str, rc: bytes | None = None, **env: str) -> Doc:
        if rc is not None:
            path = tmp_path / f"rc{len(list(tmp_path.glob('rc*')))}"
            path.write_bytes(rc)
            env.setdefault("THEANORC", str(path))
        out = doctor("check", "--python", legacy_python(env_name), "--format", "json", env=env)
        assert "Traceback" not in out.err, out.err
        return out.json()

    return run


def outcome(doc: Doc, check_id: str) -> Doc:
    return result(doc, check_id)


def text_of(found: Doc) -> str:
    return "\n".join([found["message"], found["cause"], found["remedy"], *found["details"]])


# ---- encoding: what Windows Notepad writes --------------------------------------------------------


def test_utf8_bom_breaks_import_and_is_named(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", "\ufeff[global]\nfloatX = float32\n".encode())
    enc = outcome(doc, "theanorc-encoding")
    assert enc["status"] == "error"
    assert "saved as UTF-8 with a BOM" in enc["message"]
    assert "MissingSectionHeaderError: File contains no section headers." in enc["cause"]
    assert "\\ufeff[global]" in enc["cause"]
    # the real import failed with exactly that error
    assert "MissingSectionHeaderError: File contains no section headers." in outcome(doc, "theano-import")["message"]
    assert outcome(doc, "theanorc-parse")["status"] == "skipped"
    assert doc["exit_code"] == 1


def test_utf16_breaks_import_and_is_named(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", "[global]\r\nfloatX = float32\r\n".encode("utf-16"))
    enc = outcome(doc, "theanorc-encoding")
    assert enc["status"] == "error" and "saved as UTF-16" in enc["message"]
    quoted = "'utf-8' codec can't decode byte 0xff in position 0"
    assert quoted in enc["cause"] and quoted in outcome(doc, "theano-import")["message"]
    for cid in ("theanorc-inline-comment", "theanorc-unknown-keys", "theanorc-values"):
        assert outcome(doc, cid)["status"] == "skipped", cid


def test_utf16_on_python27_is_a_missing_section_header(check_with: Callable[..., Doc]) -> None:
    doc = check_with("py27", "[global]\r\nfloatX = float32\r\n".encode("utf-16"))
    enc = outcome(doc, "theanorc-encoding")
    assert enc["status"] == "error"
    assert "MissingSectionHeaderError" in enc["cause"] and "UnicodeDecodeError" not in enc["cause"]
    assert "MissingSectionHeaderError" in outcome(doc, "theano-import")["message"]


def test_plain_utf8_file_passes_every_config_check(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", b"[global]\nfloatX = float32\n\n[dnn]\nenabled = False\n")
    assert doc["verdict"] == "CPU only"
    for cid in ("theanorc-files", "theanorc-lookalikes", "theanorc-encoding", "theanorc-parse",
                "theanorc-inline-comment", "theanorc-unknown-keys", "theanorc-values", "theano-flags"):
        assert outcome(doc, cid)["status"] == "ok", (cid, outcome(doc, cid))
    assert outcome(doc, "theanorc-values")["message"] == "2 config values accepted"
    assert "utf-8" in outcome(doc, "theanorc-encoding")["message"]
    assert "(present)" in outcome(doc, "theanorc-files")["message"]


# ---- parse errors ----------------------------------------------------------------------------------


def test_duplicate_key_is_an_error_with_its_line(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", b"[global]\nfloatX = float32\nfloatx = float64\n")
    parse = outcome(doc, "theanorc-parse")
    assert parse["status"] == "error"
    assert ", line 3: DuplicateOptionError" in parse["message"]
    assert "option 'floatx' in section 'global' already exists" in parse["message"]
    assert "case-insensitive" in parse["cause"]
    assert "DuplicateOptionError" in outcome(doc, "theano-import")["message"]


def test_duplicate_key_on_python27_is_only_a_warning(check_with: Callable[..., Doc]) -> None:
    doc = check_with("py27", b"[global]\nfloatX = float32\nfloatx = float64\n")
    parse = outcome(doc, "theanorc-parse")
    assert parse["status"] == "warn" and "Python 2 accepts it" in parse["message"]
    assert statuses(doc)["theano-import"] == "ok"  # real Python 2 Theano imports it


def test_no_section_header(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", b"device = cpu\n")
    parse = outcome(doc, "theanorc-parse")
    assert parse["status"] == "error" and "line 1: MissingSectionHeaderError" in parse["message"]
    assert "[global]" in parse["cause"]


# ---- inline comments and values --------------------------------------------------------------------


def test_inline_comment_in_an_enum_is_an_error(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", b"[global]\nfloatX = float32 # later float16\n")
    found = outcome(doc, "theanorc-inline-comment")
    assert found["status"] == "error"
    assert "[global] floatx = float32 # later float16" in found["message"]
    said = 'Invalid value ("float32 # later float16") for configuration variable "floatX"'
    assert any(said in d for d in found["details"])
    assert said in outcome(doc, "theano-import")["message"]


def test_inline_comment_in_a_string_is_a_warning(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", b"[blas]\nldflags = -lblas # fast\n")
    found = outcome(doc, "theanorc-inline-comment")
    assert found["status"] == "warn" and "comment included" in found["details"][0]
    # real Theano took the whole text as the value
    assert doc["facts"]["target"]["stages"]["theano_config"]["values"]["blas.ldflags"]["value"] == "-lblas # fast"
    # and there is no libblas on this machine to link with: that is an error of its own
    assert "the linker cannot find -lblas" in outcome(doc, "theanorc-build")["message"]
    assert doc["verdict"] == "Broken: 1 error"


def test_dnn_enabled_true_is_refused(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", b"[dnn]\nenabled = true\n")
    found = outcome(doc, "theanorc-values")
    assert found["status"] == "error" and "[dnn] enabled = true" in found["message"]
    said = ("Invalid value (\"true\") for configuration variable \"dnn.enabled\". Valid options are "
            "('auto', 'True', 'False', 'no_check')")
    assert said in found["cause"] and said in outcome(doc, "theano-import")["message"]
    assert "write True" in found["cause"]


def test_preallocate_that_is_not_a_number(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", b"[gpuarray]\npreallocate = lots\n")
    found = outcome(doc, "theanorc-values")
    assert found["status"] == "error" and "could not convert string to float: 'lots'" in found["cause"]
    assert "could not convert string to float: 'lots'" in outcome(doc, "theano-import")["message"]


# ---- unknown keys ----------------------------------------------------------------------------------


def test_old_backend_keys_and_typos_are_named(check_with: Callable[..., Doc]) -> None:
    rc = (b"[global]\nfloatX = float32\n\n[lib]\ncnmem = 0.8\n\n[nvcc]\nfastmath = True\n\n"
          b"[Global]\ndevice = cpu\n\n[gpuarray]\nprealocate = 0.5\n")
    doc = check_with("healthy37", rc)
    found = outcome(doc, "theanorc-unknown-keys")
    assert found["status"] == "warn"
    assert found["message"].startswith("4 config keys that Theano ignores, first [lib] cnmem")
    text = text_of(found)
    assert "old GPU back-end's memory option" in text and "[gpuarray] preallocate" in found["remedy"]
    assert "nvcc is not needed" in found["remedy"]
    assert "section names are case-sensitive: [global]" in text
    assert "did you mean [gpuarray] preallocate?" in text
    assert "ignored silently" in found["cause"]
    # the real Theano imported and kept its defaults: nothing else is wrong
    assert doc["verdict"] == "CPU only (1 warning)"


def test_pymc_needs_dunder_sections(check_with: Callable[..., Doc]) -> None:
    doc = check_with("pymc39", b"[dnn.conv]\nalgo_fwd = small\n\n[dnn__conv]\nalgo_bwd_data = none\n")
    found = outcome(doc, "theanorc-unknown-keys")
    assert found["status"] == "warn" and "[dnn.conv] algo_fwd" in found["message"]
    assert "Theano-PyMC needs the section renamed: [dnn__conv]" in text_of(found)
    assert "algo_bwd_data" not in text_of(found)  # the dunder section is Theano-PyMC's own


# ---- THEANO_FLAGS ----------------------------------------------------------------------------------


def test_theano_flags_override_a_file_value(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", b"[global]\nfloatX = float32\n", THEANO_FLAGS="floatX=float64")
    found = outcome(doc, "theano-flags")
    assert found["status"] == "warn"
    assert "THEANO_FLAGS floatX=float64 overrides float32 from" in found["message"]
    assert "THEANO_FLAGS wins" in text_of(found)
    # what real Theano did
    value = doc["facts"]["target"]["stages"]["theano_config"]["values"]["floatX"]
    assert (value["value"], value["source"]) == ("float64", "THEANO_FLAGS")


def test_theano_flags_same_value_as_the_file_is_fine(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", b"[global]\nfloatX = float32\n", THEANO_FLAGS="floatX=float32")
    found = outcome(doc, "theano-flags")
    assert found["status"] == "ok" and found["message"] == "THEANO_FLAGS sets floatX"


def test_unrecognised_flags_and_entries_without_value(check_with: Callable[..., Doc]) -> None:
    doc = check_with("healthy37", THEANO_FLAGS="preallocate=0.5,lib.cnmem=0.8,device,floatX=float32,floatX=float64")
    found = outcome(doc, "theano-flags")
    assert found["status"] == "warn" and found["message"] == "3 THEANO_FLAGS entries do not do what they say"
    text = text_of(found)
    assert "'device' has no '=': Theano ignores it" in text
    assert "Theano does not recognise this flag: preallocate" in text and "full name: gpuarray.preallocate" in text
    assert "Theano does not recognise this flag: lib.cnmem" in text
    assert "the right-most (floatX=float64) wins" in text
    warned = [w["message"] for w in doc["facts"]["target"]["stages"]["theano_import"]["warnings"]]
    assert "Theano does not recognise this flag: preallocate" in warned  # real Theano agrees


def test_pymc_dotted_flag_gets_its_dunder_name(check_with: Callable[..., Doc]) -> None:
    doc = check_with("pymc39", THEANO_FLAGS="blas.ldflags=")
    found = outcome(doc, "theano-flags")
    assert found["status"] == "warn" and "blas.ldflags is not recognised" in found["message"]
    assert "Theano-PyMC spells it blas__ldflags" in text_of(found)


def test_no_theano_flags(check_with: Callable[..., Doc]) -> None:
    found = outcome(check_with("healthy37"), "theano-flags")
    assert (found["status"], found["message"]) == ("ok", "THEANO_FLAGS is not set")


# ---- which files, and look-alikes -----------------------------------------------------------------


def test_theanorc_naming_a_missing_file(check_with: Callable[..., Doc], tmp_path: Path) -> None:
    real = tmp_path / "lab.rc"
    real.write_text("[global]\nfloatX = float32\n")
    doc = check_with("healthy37", THEANORC=f"{real}:{tmp_path / 'gone.rc'}")
    found = outcome(doc, "theanorc-files")
    assert found["status"] == "warn"
    assert found["message"] == f"THEANORC names {tmp_path / 'gone.rc'}, which does not exist: Theano skips it silently"
    assert doc["facts"]["target"]["stages"]["theano_config"]["values"]["floatX"]["value"] == "float32"


def test_theanorc_files_without_any_file(check_with: Callable[..., Doc]) -> None:
    found = outcome(check_with("healthy37"), "theanorc-files")
    assert found["status"] == "ok" and found["message"].startswith("no config file: Theano looks for ")
    assert found["message"].endswith(".theanorc (absent); only THEANO_FLAGS and the built-in defaults apply")


def test_lookalikes_in_home_and_in_the_current_folder(legacy_python: Callable[[str], str], theano_home: Path,
                                                       guard_home: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (guard_home / ".theanorc.txt").write_text("[global]\nfloatX = float32\n")
    (guard_home / "theanorc").write_text("[global]\nfloatX = float32\n")
    work = tmp_path / "project"
    work.mkdir()
    (work / ".theanorc").write_text("[global]\nfloatX = float32\n")
    monkeypatch.chdir(work)
    # HOME is the empty guard home; compiled modules still come from the session's cache
    env = {"HOME": str(guard_home), "THEANO_FLAGS": f"base_compiledir={theano_home / '.theano'}"}
    doc = doctor("check", "--python", legacy_python("healthy37"), "--format", "json", env=env).json()
    found = outcome(doc, "theanorc-lookalikes")
    assert found["status"] == "warn"
    text = "\n".join(found["details"])
    assert f"{guard_home / '.theanorc.txt'}: ~/.theanorc.txt is read only on Windows; rename it to " \
           f"{guard_home / '.theanorc'}" in text
    assert f"{guard_home / 'theanorc'}: the name lacks the leading dot" in text
    assert f"{work / '.theanorc'}: a config file outside the home folder" in text
    # and real Theano indeed ignored all three: floatX kept its default
    assert doc["facts"]["target"]["stages"]["theano_config"]["values"]["floatX"]["value"] == "float64"


# ---- Windows-only situations, judged on snapshots -------------------------------------------------

WIN_HOME = "C:\\Users\\alice"


def windows(rc_files: list[dict[str, Any]] | None = None, lookalikes: list[str] | None = None,
            theanorc_env: str | None = None) -> dict[str, Any]:
    data = snapshot("windows_cuda102_ready")
    if rc_files is not None:
        data["theanorc"]["files"] = rc_files
    if lookalikes is not None:
        data["theanorc"]["lookalikes"] = lookalikes
    data["theanorc"]["theanorc_env"] = theanorc_env
    return data


def probed(tmp_path: Path, data: bytes, as_path: str) -> dict[str, Any]:
    """The host probe's real judgement of these bytes, as if the file lived at ``as_path``."""
    local = tmp_path / "probed.rc"
    local.write_bytes(data)
    entry = inspect_file(str(local))
    entry["path"] = as_path
    return entry


def win_outcome(data: dict[str, Any], check_id: str) -> Any:
    return next(r for r in judge(data).results if r.id == check_id).outcome


def test_windows_reads_theanorc_txt_after_theanorc() -> None:
    found = win_outcome(snapshot("windows_cuda102_ready"), "theanorc-files")
    assert found.status == "ok"
    assert found.message == (f"Theano reads {WIN_HOME}\\.theanorc (absent), then {WIN_HOME}\\.theanorc.txt (present)")
    assert any("only while THEANORC is unset" in d for d in found.details)


def test_windows_theanorc_with_colon_separator(tmp_path: Path) -> None:
    wrong = "C:\\lab\\a.rc:C:\\lab\\b.rc"
    data = windows([{"path": wrong, "exists": False, "readable": False}], theanorc_env=wrong)
    found = win_outcome(data, "theanorc-files")
    assert found.status == "warn"
    assert "separated by ';', not ':'" in found.message
    assert any("separated by ';' on this OS" in d for d in found.details)
    good = windows([probed(tmp_path, b"[global]\nfloatX = float32\n", "C:\\lab\\a.rc"),
                    probed(tmp_path, b"[global]\ndevice = cuda\n", "C:\\lab\\b.rc")],
                   theanorc_env="C:\\lab\\a.rc;C:\\lab\\b.rc")
    found = win_outcome(good, "theanorc-files")
    assert found.status == "ok" and any("C:\\lab\\b.rc override" in d for d in found.details)


@pytest.mark.parametrize("name, theanorc_env, needle", [
    (".theanorc.txt.txt", None, "Windows Explorer hides the extension"),
    (".theanorc.txt", "C:\\lab\\a.rc", "read only while THEANORC is unset"),
    ("_theanorc", None, "lacks the leading dot"),
])
def test_windows_lookalikes(name: str, theanorc_env: str | None, needle: str) -> None:
    path = f"{WIN_HOME}\\{name}"
    found = win_outcome(windows(lookalikes=[path], theanorc_env=theanorc_env), "theanorc-lookalikes")
    assert found.status == "warn" and found.message == f"Theano will not read {path}"
    assert needle in found.details[0] and found.details[0].startswith(path)
    assert win_outcome(windows(lookalikes=[]), "theanorc-lookalikes").status == "ok"


@pytest.mark.parametrize("data", [
    "\ufeff[global]\r\ndevice = cuda\r\n".encode(),
    "[global]\r\ndevice = cuda\r\n".encode("utf-16"),
])
def test_windows_encoding_says_fails_to_parse_without_linux_quotes(tmp_path: Path, data: bytes) -> None:
    rc = probed(tmp_path, data, f"{WIN_HOME}\\.theanorc.txt")
    found = win_outcome(windows([rc]), "theanorc-encoding")
    assert found.status == "error"
    assert "fails to parse" in found.cause
    assert "MissingSectionHeaderError" not in found.cause and "UnicodeDecodeError" not in found.cause


def test_windows_non_ascii_utf8_is_read_in_the_locale_encoding(tmp_path: Path) -> None:
    rc = probed(tmp_path, "[global]\r\nbase_compiledir = C:\\Users\\Jos\u00e9\\cache\r\n".encode(),
                f"{WIN_HOME}\\.theanorc.txt")
    data = windows([rc])
    data["target"]["stages"]["interpreter"]["preferred_encoding"] = "cp1252"
    found = win_outcome(data, "theanorc-encoding")
    assert found.status == "warn" and "reads the file as cp1252" in found.cause
    data["target"]["stages"]["interpreter"]["preferred_encoding"] = "utf-8"
    assert win_outcome(data, "theanorc-encoding").status == "ok"


# ---- registry missing, effective vs overridden values -------------------------------------------


def test_unknown_keys_without_registry_only_look_for_removed_options(tmp_path: Path) -> None:
    rc = probed(tmp_path, b"[global]\ndevice = cuda\n\n[lib]\ncnmem = 0.8\n", f"{WIN_HOME}\\.theanorc.txt")
    data = windows([rc])
    data["target"]["stages"]["distributions"]["versions"]["Theano"] = "1.0.4"  # a release with no table
    found = win_outcome(data, "theanorc-unknown-keys")
    assert found.status == "warn" and "only the known removed options" in found.cause
    rc2 = probed(tmp_path, b"[global]\ndevice = cuda\nfloatx = float32\n", f"{WIN_HOME}\\.theanorc.txt")
    data2 = windows([rc2])
    data2["target"]["stages"]["distributions"]["versions"]["Theano"] = "1.0.4"
    found = win_outcome(data2, "theanorc-unknown-keys")
    assert found.status == "skipped" and "unavailable" in found.message


def test_unknown_keys_of_theano_105_are_judged_by_its_table_when_the_import_fails(tmp_path: Path) -> None:
    rc = probed(tmp_path, b"[global]\ndevice = cuda\nflaotx = float32\n\n[lib]\ncnmem = 0.8\n",
                f"{WIN_HOME}\\.theanorc.txt")
    found = win_outcome(windows([rc]), "theanorc-unknown-keys")
    assert found.status == "warn" and "judged against Theano 1.0.5's own list of options" in found.cause
    assert any("did you mean [global] floatX?" in d for d in found.details)
    assert any("cnmem" in d for d in found.details)


def test_device_gpu_in_a_file_overridden_by_theano_flags(tmp_path: Path) -> None:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["theanorc"]["files"] = [probed(tmp_path, b"[global]\ndevice = gpu0\n", "/home/bob/.theanorc")]
    data["target"]["stages"]["theano_config"]["values"]["device"] = {"value": "cuda", "source": "THEANO_FLAGS"}
    found = win_outcome(data, "theanorc-values")
    assert found.status == "warn" and "/home/bob/.theanorc: [global] device = gpu0" in found.message
    assert any("not in effect now" in d and "old GPU back-end" in d for d in found.details)
    # in effect: theano-device already reports it, this check does not count it twice
    live = copy.deepcopy(data)
    live["target"]["stages"]["theano_config"]["values"]["device"] = {"value": "gpu0",
                                                                     "source": "file:/home/bob/.theanorc"}
    found = win_outcome(live, "theanorc-values")
    assert found.status == "ok" and any("reported by theano-device" in d for d in found.details)
    assert win_outcome(live, "theano-device").status == "error"


def test_config_checks_skip_without_the_theanorc_section() -> None:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["theanorc"] = {"status": "error", "error": "PermissionError: no"}
    report = judge(data)
    for cid in ("theanorc-files", "theanorc-lookalikes", "theanorc-encoding", "theanorc-parse",
                "theanorc-inline-comment", "theanorc-unknown-keys", "theanorc-values"):
        found = next(r for r in report.results if r.id == cid)
        assert found.status == "skipped" and "PermissionError" in found.outcome.message, cid
