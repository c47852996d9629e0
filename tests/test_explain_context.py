"""What `explain` reads from the whole log (explain/context.py) and how the causes' conditions on
those facts change a finding (explain/judge.py, kb_conditions.py).

The logs are rebuilt from real output: the real interpreters' banners and tracebacks, `pip list`
of the cached legacy environments, real bash reporting a killed job, and Theano's and
libgpuarray's messages as their sources at a tag print them."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable

import pytest

from tests import legacy_envs
from tests.explain_tables import string_constants
from theanodoctor import kb_causes, kb_conditions, knowledge
from theanodoctor.explain import explain_text
from theanodoctor.explain.context import Fact
from theanodoctor.explain.judge import judge
from theanodoctor.explain.result import Finding
from theanodoctor.render.explain import render_explanation

# Theano rel-0.9.0 theano/sandbox/cuda/__init__.py:624 and rel-1.0.5 theano/gpuarray/__init__.py:124, 170
OLD_BANNER = "Using gpu device 0: GeForce GTX 980 Ti (CNMeM is disabled, cuDNN 5105)"
NEW_BANNER = "Mapped name None to device cuda0: GeForce GTX 1080 Ti (0000:01:00.0)"
CUDNN_IN_USE = "Using cuDNN version 7402 on context None"
# rel-1.0.5 theano/gpuarray/dnn.py:179-188 (the two string literals joined as printed)
CUDNN_MORE_RECENT = ("UserWarning: Your cuDNN version is more recent than Theano. If you encounter problems, try "
                     "updating Theano or downgrading cuDNN to a version >= v5 and <= v7.")
# rel-0.9.0 theano/sandbox/cuda/__init__.py:520 (the old back-end could not start)
OLD_NO_NVCC = ("ERROR (theano.sandbox.cuda): nvcc compiler not found on $PATH. Check your nvcc installation and "
               "try again.")
# g++'s error where Python's pyconfig.h (Windows only) defines hypot as _hypot (github.com/Theano/Theano/issues/4926)
HYPOT = "{root}/include/c++/cmath:1157:11: error: '::hypot' has not been declared"
LINUX_FRAME = '  File "/home/ana/proj/train.py", line 12, in <module>'
WINDOWS_FRAME = ('  File "C:\\Users\\ana\\Anaconda3\\lib\\site-packages\\theano\\gof\\cmodule.py", line 2325, '
                 "in compile_str")


def _first(text: str) -> tuple[str, str] | None:
    found = explain_text(text).findings
    return (found[0].cause, found[0].confidence) if found else None


def _finding(text: str, cause: str) -> Finding:
    return next(f for f in explain_text(text).findings if f.cause == cause)


def _shown(text: str) -> dict[str, str]:
    return {f.name: f.value for f in explain_text(text).shown}


# -- the facts ------------------------------------------------------------------------------------

def test_backends_and_cudnn_in_use_are_read_from_their_banners():
    assert _shown(OLD_BANNER) == {"backend": "old", "cudnn": "5105"}
    # a GPU name with parentheses of its own (rel-0.9.0 theano/sandbox/cuda/__init__.py:624)
    assert _shown("Using gpu device 0: TITAN X (Pascal) (CNMeM is disabled, cuDNN 5110)") == \
        {"backend": "old", "cudnn": "5110"}
    new = _shown(f"{NEW_BANNER}\n{CUDNN_IN_USE}\n")
    assert (new["backend"], new["cudnn"]) == ("new", "7402")
    assert "backend" not in _shown("THEANO_FLAGS=device=cuda0 python train.py")  # asked for, not shown in use


def test_the_real_interpreters_banner_and_traceback_paths_give_the_python(legacy_python: Callable[[str], str]):
    python = legacy_python("healthy37")
    banner = subprocess.run([python, "-i"], stdin=subprocess.DEVNULL, capture_output=True, text=True).stderr
    failed = subprocess.run([python, "-c", "import json; json.loads('x')"], capture_output=True, text=True).stderr
    assert "lib/python3.7/json" in failed
    assert _shown(banner)["python"] == _shown(failed)["python"] == "3.7"
    assert _shown(banner)["platform"] == "linux"  # "[GCC ...] on linux"


def test_pip_list_of_a_real_env_gives_theano_and_numpy(legacy_python: Callable[[str], str]):
    listed = subprocess.run([legacy_python("numpy124"), "-m", "pip", "list"], capture_output=True, text=True).stdout
    shown = _shown(listed)
    assert (shown["theano"], shown["numpy"][:4]) == ("1.0.5", "1.24")


def test_installed_versions_read_from_paths_pip_and_prints(legacy_python: Callable[[str], str]):
    # what the API-era lookup takes as installed (explain/api_era.py): printed, never only said
    lines = ('  File "/usr/lib/python2.7/site-packages/Theano-0.8.2-py2.7.egg/theano/__init__.py", line 3\n'
             "Successfully installed Keras-2.2.4 Keras-Applications-1.0.8 Theano-PyMC-1.1.2\n"
             ">>> lasagne.__version__\n'0.2.dev1'\n")
    shown = {f.name: f for f in explain_text(lines).shown}
    assert {k: shown[k].value for k in ("theano", "keras", "lasagne")} == \
        {"theano": "0.8.2", "keras": "2.2.4", "lasagne": "0.2.dev1"}
    assert not any(shown[k].said for k in ("theano", "keras", "lasagne"))
    two = explain_text(lines + "Requirement already satisfied: theano in ./lib/python3.7/site-packages (1.0.4)\n")
    assert "theano" not in {f.name for f in two.shown}  # two versions shown: neither is claimed
    assert set(dict(two.unclear)["theano"]) == {"0.8.2", "1.0.4"}
    frozen = subprocess.run([legacy_python("healthy37"), "-m", "pip", "freeze"], capture_output=True, text=True).stdout
    theano = {f.name: f for f in explain_text(frozen).shown}["theano"]
    assert (theano.value, theano.said) == ("1.0.5", False)
    assert "theano" not in _shown("theano.__version__ >= '0.9'\n")  # a comparison in code, not a print


def test_a_release_the_prose_names_without_a_space_is_a_claim():
    """`Keras2.0.3` in a post is what the post says is installed (a claim, never a printed version);
    only a full three-part version is read so (`keras2` and `Theano1.0` are not)."""
    text = "When I tried the code under Keras2.0.3 and theano1.0.1, it fails\n"
    shown = {f.name: f for f in explain_text(text).shown}
    assert {k: (shown[k].value, shown[k].said) for k in ("keras", "theano")} == \
        {"keras": ("2.0.3", True), "theano": ("1.0.1", True)}
    assert not {"keras", "theano"} & set(_shown("I use keras2 with Theano1.0 on numpy1\n"))


@pytest.mark.parametrize("line", [
    # Theano rel-1.0.5 theano/configdefaults.py:560-561: a version Theano announces, not the installed one
    "UserWarning: DeprecationWarning: there is no c++ compiler.This is deprecated and with Theano 0.11 a c++ "
    "compiler will be mandatory",
    # rel-0.10.0beta1 theano/sandbox/cuda/__init__.py:5-9, raised by Theano 0.10 and later
    "SkipTest: You are importing theano.sandbox.cuda. This is the old GPU back-end and is removed from Theano. "
    "Use Theano 0.9 to use it.",
    "The aliases was originally deprecated in NumPy 1.20; for more details and guidance see the original release",
    "* Aesara/Theano Version: 2.3.8",
])
def test_versions_a_message_prescribes_are_not_taken_as_installed(line):
    assert not {"theano", "numpy"} & set(_shown(line))


def test_a_log_with_two_platforms_or_two_pythons_decides_nothing():
    both = explain_text(f"{LINUX_FRAME}\n{WINDOWS_FRAME}\n")
    assert "platform" not in {f.name for f in both.shown}
    assert dict(both.unclear)["platform"] == ("linux", "windows")
    assert "python" not in _shown("/usr/lib/python2.7/os.py\n/usr/lib/python3.6/os.py\n")
    assert _shown("/usr/lib/python3/dist-packages/x.py\n/usr/lib/python3.6/os.py\n")["python"] == "3.6"


def test_macos_is_read_from_users_paths_but_not_from_a_windows_users_folder():
    assert _shown('  File "/Users/ana/proj/train.py", line 3, in <module>')["platform"] == "macos"
    assert _shown('  File "C:/Users/ana/proj/train.py", line 3, in <module>')["platform"] == "windows"


def test_macos_own_python_is_read_from_its_site_packages_folder():
    # Apple's system Python keeps third-party packages under /Library/Python/X.Y/site-packages
    shown = _shown("/Library/Python/2.7/site-packages/theano/tensor/basic.pyc in make_node(self, x, shp)\n")
    assert shown["python"] == "2.7"
    assert "python" not in _shown("/Library/Frameworks/R.framework/Versions/3.6/library\n")


def test_a_job_bash_reports_killed_counts_as_a_failed_run(tmp_path):
    script = tmp_path / "train.sh"
    script.write_text('sh -c "kill -9 \\$\\$"\n')
    said = subprocess.run(["bash", str(script)], capture_output=True, text=True).stderr
    assert " Killed " in said
    assert explain_text(said).shown[-1].value.startswith("the run failed")
    assert not any(f.name == "run" for f in explain_text("Killed by the user's request").shown)


def test_the_facts_are_in_json_and_text_without_touching_the_existing_keys():
    explanation = explain_text(f"{LINUX_FRAME}\n{NEW_BANNER}\nRuntimeError: boom\n")
    data = json.loads(json.dumps(explanation.to_dict()))
    assert data["log_shows"]["backend"] == {"value": "new", "line": 2, "text": NEW_BANNER}
    assert {"recognised", "findings", "significant_lines", "final_exception", "exit_code"} <= set(data)
    assert "the new GPU back-end in use (line 2:" in render_explanation(explanation)


# -- the conditions -------------------------------------------------------------------------------

@pytest.mark.parametrize("condition, facts, expected", [
    ("python < 3", {"python": "2.7"}, True),
    ("python >= 3.7", {"python": "3"}, None),  # the log shows only the major
    ("python >= 3.7", {"python": "2"}, False),
    ("theano >= 0.10.0b1", {"theano": "0.10.0beta3"}, True),
    ("theano >= 0.10.0b1", {"theano": "0.9.0.dev4"}, False),
    ("platform = windows", {}, None),
    ("cudnn", {"cudnn": "7402"}, True),
])
def test_a_condition_holds_fails_or_is_unknown(condition, facts, expected):
    assert kb_conditions.holds(kb_conditions.parse(condition), facts) is expected


CAUSE = "causes:\n  - {id: a, title: t, cause: c, remedy: r, fix: none, source: x.io/s, %s}\n"


@pytest.mark.parametrize("field, message", [
    ("needs: ['os = windows']", r"causes.yaml:2: `needs`: 'os = windows' is not `FACT OP VALUE`"),
    ("excludes: ['platform = beos']", r"`excludes`: 'platform = beos': platform is compared with = or !="),
    ("confirmed_by: ['numpy >= one']", r"`confirmed_by`: 'numpy >= one': 'one' is not a version"),
])
def test_a_bad_condition_is_refused_at_load(fake_profiles, field, message):
    fake_profiles["causes.yaml"] = CAUSE % field
    fake_profiles["signatures.yaml"] = "signatures: []\n"
    with pytest.raises(knowledge.KnowledgeError, match=message):
        kb_causes.causes()


def test_an_old_backend_cause_is_only_a_possibility_where_the_new_back_end_is_in_use():
    log = f"{OLD_NO_NVCC}\n"
    assert _first(log) == ("old-backend-nvcc-missing", "high")
    judged = _finding(f"{NEW_BANNER}\n{log}", "old-backend-nvcc-missing")
    assert judged.confidence == "low"
    assert judged.context == (f"The log shows the new GPU back-end in use (line 1: {NEW_BANNER}): this cause does "
                              "not arise with the new GPU back-end.",)
    assert _finding(f"Successfully installed theano-1.0.4\n{log}", "old-backend-nvcc-missing").confidence == "low"
    assert _first(f"Successfully installed theano-0.9.0\n{log}") == ("old-backend-nvcc-missing", "high")
    # what only the post's prose says is shown, but decides nothing (posters often run another release)
    claimed = explain_text(f"I have installed Theano 1.0.4.\n{log}")
    assert claimed.findings[0].confidence == "high"
    assert claimed.shown[0].says() == "Theano 1.0.4 (as the post says, line 1: I have installed Theano 1.0.4.)"


def test_a_windows_cause_is_only_a_possibility_on_a_linux_machine():
    mingw = HYPOT.format(root="C:/mingw-w64/x86_64-7.2.0-posix-seh-rt_v5-rev1/mingw64/lib/gcc/x86_64-w64-mingw32/7.2.0")
    assert _first(mingw) == ("mingw-hypot", "high")
    judged = _finding(f"{LINUX_FRAME}\n{HYPOT.format(root='/usr')}\n", "mingw-hypot")
    assert judged.confidence == "low"
    assert "a Linux machine (line 1:" in judged.context[0] and "needs a Windows machine" in judged.context[0]


def test_gpu_out_of_memory_is_only_a_possibility_in_a_cpu_only_run():
    # the old back-end's allocation error (rel-0.9.0 theano/sandbox/cuda/cuda_ndarray.cu:144)
    oom = "MemoryError: Error allocating 400000000 bytes of device memory (out of memory)."
    flags = "THEANO_FLAGS=device=cpu,floatX=float32 python train.py"
    judged = _finding(f"{flags}\n{oom}\n", "gpu-out-of-memory")
    assert judged.confidence == "low"
    assert judged.context[0].endswith("this cause does not arise with a CPU-only run (device=cpu, no GPU in use).")
    # code that starts the old back-end itself (theano.sandbox.cuda.use) shows its banner: then it is a GPU run
    assert _first(f"{flags}\n{OLD_BANNER}\n{oom}\n") == ("gpu-out-of-memory", "high")


def test_keras_on_tensorflow_is_contradicted_by_keras_own_theano_line():
    # keras/backend/__init__.py prints which back-end it loads (https://github.com/keras-team/keras/issues/3794)
    error = "AttributeError: module 'keras.backend' has no attribute 'theano'"
    assert _first(f"Using TensorFlow backend.\n{error}\n") == ("keras-backend-tensorflow", "high")
    judged = _finding(f"Using Theano backend.\n{error}\n", "keras-backend-tensorflow")
    assert judged.confidence == "low"
    assert "Keras running on its Theano back-end (line 1: Using Theano backend.)" in judged.context[0]


def test_numpy_bool_alias_is_contradicted_by_an_older_numpy_shown(legacy_python: Callable[[str], str]):
    failed = subprocess.run([legacy_python("numpy124"), "-c", "import theano"], capture_output=True, text=True).stderr
    assert _first(failed)[0] == "numpy-bool-alias"
    listed = subprocess.run([legacy_python("numpy124"), "-m", "pip", "list"], capture_output=True, text=True).stdout
    assert _finding(listed + failed, "numpy-bool-alias").confidence != "low"
    older = subprocess.run([legacy_python("healthy37"), "-m", "pip", "list"], capture_output=True, text=True).stdout
    assert _finding(older + failed, "numpy-bool-alias").confidence == "low"  # numpy 1.16 has np.bool


def test_the_more_recent_cudnn_warning_is_informational_when_cudnn_is_in_use():
    alone = _finding(CUDNN_MORE_RECENT, "cudnn-too-new")
    assert alone.remedy == kb_causes.causes()["cudnn-too-new"].remedy
    used = _finding(f"{CUDNN_MORE_RECENT}\n{NEW_BANNER}\n{CUDNN_IN_USE}\n", "cudnn-too-new")
    assert used.remedy == ("The log shows cuDNN 7402 in use (line 3: Using cuDNN version 7402 on context None): "
                           "this warning is informational, nothing needs changing for it.")
    assert used.warning


def test_theano_080s_more_recent_cudnn_words_with_the_old_banner(legacy_python: Callable[[str], str]):
    # Theano 0.8.0's (and 0.8.1's) warning above cuDNN 4100, read from the real release's
    # theano/sandbox/cuda/__init__.py (its three string literals are one constant)
    init = legacy_envs.release(legacy_python("healthy37"), "Theano==0.8.0") / "theano" / "sandbox" / "cuda"
    words = next(text for text in string_constants(init / "__init__.py") if "more recent" in text)
    assert words.startswith("Your CuDNN version is more recent then Theano.")
    banner = "Using gpu device 7: GeForce GTX TITAN X (CNMeM is disabled, CuDNN 5005)"
    warned = f"/opt/env/lib/python2.7/site-packages/theano/sandbox/cuda/__init__.py:600: UserWarning: {words}\n"
    assert _first(warned) == ("cudnn-too-new", "medium")
    used = _finding(f"{banner}\n{warned}  warnings.warn(warn)\nUsing Theano backend.\n", "cudnn-too-new")
    assert used.informational and "cuDNN 5005 in use" in used.remedy


def test_a_warning_is_no_answer_to_a_failed_run_once_what_explained_it_is_contradicted():
    # the old back-end started (its banner), warned, and the run then died of something the catalogue lacks
    log = ("WARNING (theano.sandbox.cuda): The cuda backend is deprecated and will be removed in the next release "
           f"(v0.10).  Please switch to the gpuarray backend.\n{OLD_BANNER}\n"
           "UserWarning: Your cuDNN version is more recent than the one Theano officially supports. If you see any "
           "problems, try updating Theano or downgrading cuDNN to version 5.1.\n"
           "Traceback (most recent call last):\n  File \"/home/ana/rllab/run.py\", line 3, in <module>\n"
           "ZeroDivisionError: division by zero\n")
    assert explain_text(log).recognised == ()
    deprecated = _finding(log, "old-gpu-backend")
    assert (deprecated.confidence, deprecated.informational, deprecated.fix) == ("low", True, None)
    assert deprecated.remedy.startswith("The log shows the old GPU back-end in use")


def test_the_old_backends_deprecation_is_informational_while_it_runs_and_comes_after_other_warnings():
    deprecated = ("WARNING (theano.sandbox.cuda): The cuda backend is deprecated and will be removed in the next "
                  "release (v0.10).  Please switch to the gpuarray backend.\n")
    alone = _finding(deprecated, "old-gpu-backend")
    assert alone.confidence == "medium" and not alone.informational and alone.fix == "theanorc-device"
    running = explain_text(f"{deprecated}{OLD_BANNER}\n").findings
    assert [(f.cause, f.confidence, f.informational, f.fix) for f in running] == [
        ("old-gpu-backend", "medium", True, None)]
    # a warning that asks for a change is named before it
    floatx = ("WARNING (theano.sandbox.cuda): CudaNdarrayType only supports dtype float32 for now. Tried using "
              "dtype float64 for variable None\n")
    both = explain_text(f"{deprecated}{OLD_BANNER}\n{floatx}").findings
    assert [f.cause for f in both] == ["floatx-not-float32-on-old-gpu", "old-gpu-backend"]
    # the flag itself, where the old back-end started, is no removed back-end: contradicted, not informational
    flag = _finding(f"$ THEANO_FLAGS=device=gpu python train.py\n{OLD_BANNER}\n", "old-gpu-backend")
    assert flag.confidence == "low" and not flag.informational
    assert flag.context[0].startswith("The log shows the old GPU back-end in use")


def test_a_harmless_warning_comes_after_an_informational_one_and_one_that_asks_for_a_change():
    # scikit-learn 0.18's notice about its own module says nothing of the set-up; the cuDNN warning does
    sklearn = ("/opt/anaconda2/lib/python2.7/site-packages/sklearn/cross_validation.py:44: DeprecationWarning: This "
               "module was deprecated in version 0.18 in favor of the model_selection module into which all the "
               "refactored classes and functions are moved. This module will be removed in 0.20.\n")
    log = f"{sklearn}{CUDNN_MORE_RECENT}\n{NEW_BANNER}\n{CUDNN_IN_USE}\n"
    assert [(f.cause, f.informational) for f in explain_text(log).findings] == [
        ("cudnn-too-new", True), ("library-code-deprecation-warning", False)]
    # a warning that asks for a change comes before a harmless one printed above it
    moved = ("/env/lib/python2.7/site-packages/theano/tensor/signal/downsample.py:6: UserWarning: downsample module "
             "has been moved to the theano.tensor.signal.pool module.\n")
    blas = "WARNING (theano.tensor.blas): Using NumPy C-API based implementation for BLAS functions.\n"
    assert [f.cause for f in explain_text(moved + blas).findings] == ["blas-numpy-fallback", "downsample-moved-warning"]


def test_the_harmless_flag_is_validated_at_load(fake_profiles: dict[str, str]) -> None:
    fake_profiles["causes.yaml"] = ("causes:\n  - {id: a, title: t, cause: c, remedy: r, fix: none, harmless: maybe, "
                                    "source: x.io/s}\n")
    with pytest.raises(knowledge.KnowledgeError, match=r"causes.yaml:2: `harmless` must be true or false"):
        kb_causes.causes()


def _cause(**conditions: tuple[kb_conditions.Condition, ...]) -> kb_causes.Cause:
    return kb_causes.Cause("c", "t", "why", "remedy", None, (), False, "x.io/s", **conditions)


def _low(asks: tuple[str, ...] = ("the numpy version",)) -> Finding:
    return Finding("c", "t", "why", "remedy", None, "low", (), ("s",), {}, "x.io/s", asks=asks)


def test_a_low_finding_is_raised_when_the_log_answers_what_it_asks():
    cause = _cause(confirmed_by=(kb_conditions.parse("numpy >= 1.24"),))
    numpy = Fact("numpy", "1.24.4", 3, "numpy      1.24.4")
    raised = judge([_low()], {"c": cause}, {"numpy": numpy}, {"c"}, failed=True)[0]
    assert (raised.confidence, raised.context) == ("medium", (
        "The log answers what this cause asks: it shows numpy 1.24.4 (line 3: numpy      1.24.4).",))
    older = Fact("numpy", "1.21.6", 3, "numpy      1.21.6")
    assert judge([_low()], {"c": cause}, {"numpy": older}, {"c"}, failed=True)[0].confidence == "low"
    # low for another reason than a missing fact (a context the log lacks): it stays low
    assert judge([_low()], {"c": cause}, {"numpy": numpy}, set(), failed=True)[0].confidence == "low"


def test_the_python_of_the_banner_refines_the_numpy_pin(legacy_python: Callable[[str], str]):
    python = legacy_python("numpy124")
    banner = subprocess.run([python, "-i"], stdin=subprocess.DEVNULL, capture_output=True, text=True).stderr
    failed = subprocess.run([python, "-c", "import theano"], capture_output=True, text=True).stderr
    version = _shown(banner)["python"]
    # without the traceback's site-packages paths, only the banner names the Python
    message = "\n".join(line for line in failed.splitlines() if "site-packages" not in line)
    assert _finding(message, "numpy-bool-alias").details == ()
    finding = _finding(banner + message, "numpy-bool-alias")
    assert finding.details[0].startswith(f"Python {version} (from this log): ")


def test_the_platform_is_read_from_theanos_real_compiledir_name(legacy_python: Callable[[str], str], theano_home):
    said = subprocess.run([legacy_python("healthy37"), "-c", "import theano; print(theano.config.compiledir)"],
                          capture_output=True, text=True, timeout=600).stdout.strip()
    assert "/compiledir_Linux-" in said
    assert _shown(f"Problem occurred during compilation with the command line below: see {said}/tmp/mod.cpp")[
        "platform"] == "linux"
    assert _shown("C:\\Theano\\compiledir_Windows-10-10.0.19041-SP0-Intel64_Family_6\\tmp")["platform"] == "windows"


def test_a_log_with_two_kinds_of_environment_shows_both_and_does_not_crash():
    log = ('  File "/home/ana/miniconda3/envs/py27/lib/python2.7/site-packages/theano/__init__.py", line 1\n'
           '  File "/usr/lib/python2.7/dist-packages/six.py", line 2\n'
           "ImportError: cannot import name raise_from\n")
    shown = {f.name: f for f in explain_text(log).shown}
    assert shown["environment"].value == "conda, system Python"
    assert shown["environment"].line == 1
