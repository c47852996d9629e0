"""`scan` on real files in real folders: each reader, the code's syntax trees (Python 2 and 3),
the markers and framework pairings, the date, and the folders that are not what they seem."""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli_helpers import doctor
from theanodoctor.scan import ScanResult, scan_repo

DAY = datetime.date(2017, 6, 30)


def scan(root: Path, files: dict[str, str], as_of: datetime.date | None = DAY) -> ScanResult:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return scan_repo(root, as_of=as_of)


def specs(result: ScanResult, subject: str, strength: str | None = None) -> set[str]:
    return {c.spec for c in result.constraints if c.subject == subject and strength in (None, c.strength)}


def where(result: ScanResult, subject: str, spec: str) -> str:
    found = [c for c in result.constraints if c.subject == subject and c.spec == spec]
    assert found, f"no {subject} {spec} in {[(c.subject, c.spec) for c in result.constraints]}"
    return found[0].evidence[0].where()


# -- packaging metadata -----------------------------------------------------------------------

def test_requirements_pins_includes_urls_and_markers(tmp_path):
    result = scan(tmp_path, {
        "requirements.txt": "# deps\nTheano==0.8.2  # the one that worked\nnumpy\n-r extra/more.txt\n"
                            "-e git+https://github.com/Lasagne/Lasagne.git@61b1ad1#egg=Lasagne\n"
                            "pywin32; sys_platform == 'win32'\n--index-url https://example.org/simple\n",
        "extra/more.txt": "scipy<0.17\n-r ../requirements.txt\n",  # an include loop is read once
    })
    declared = {r.name: r.spec for r in result.requirements}
    assert declared == {"theano": "==0.8.2", "numpy": "", "scipy": "<0.17",
                        "lasagne": "git+https://github.com/Lasagne/Lasagne.git@61b1ad1#egg=Lasagne"}
    assert where(result, "theano", "==0.8.2") == "requirements.txt:2"
    assert where(result, "scipy", "<0.17") == "extra/more.txt:1"
    assert (result.theano_min, result.theano_max) == ("0.8.2", "0.8.2")
    assert [f.name for f in result.frameworks] == ["lasagne"]


def test_setup_py_is_read_as_a_tree_never_run(tmp_path):
    marker = tmp_path / "ran"
    result = scan(tmp_path, {"setup.py": (
        f"import os\nopen({str(marker)!r}, 'w').close()\n"
        "REQS = ['Theano>=0.9', 'Keras==1.2.2']\n"
        "setup(name='m', install_requires=REQS, python_requires='>=2.7,<3',\n"
        "      classifiers=['Programming Language :: Python :: 2.7', 'Programming Language :: Python :: 2'])\n")})
    assert not marker.exists()
    assert specs(result, "theano") == {">=0.9", ">=0.8"}  # Keras 1.2.2's Theano backend needs signal.pool
    assert specs(result, "keras") >= {"==1.2.2"}
    assert specs(result, "python") == {">=2.7,<3", "==2.*"}
    assert result.python_major == 2 and result.theano_min == "0.9.0" and result.theano_max is None


def test_python2_setup_py_goes_through_the_python2_parser(tmp_path):
    result = scan(tmp_path, {"setup.py": "print 'installing'\nsetup(name='m', install_requires=['theano==0.7'],\n"
                                         "      classifiers=['Programming Language :: Python :: 3'])\n"})
    assert specs(result, "theano") == {"==0.7"}
    assert where(result, "python", "==3.*") == "setup.py:3"  # what the file claims, beside
    assert result.python_major == 2  # what its syntax proves


def test_setup_cfg_pyproject_and_pipfile(tmp_path):
    result = scan(tmp_path, {
        "setup.cfg": "[options]\npython_requires = >=3.6\ninstall_requires =\n    theano>=1.0.4\n    pymc3==3.8\n",
        "pyproject.toml": "[tool.poetry.dependencies]\npython = \"^3.7\"\nnumpy = \"~1.16\"\n",
        "Pipfile": "[packages]\nscipy = \"==1.2.1\"\n\n[requires]\npython_version = \"3.7\"\n",
    })
    assert specs(result, "theano") >= {">=1.0.4"} and specs(result, "pymc3") == {"==3.8"}
    assert specs(result, "python") >= {">=3.6", ">=3.7,<4", "==3.7.*"}
    assert specs(result, "numpy") == {"~=1.16"} and specs(result, "scipy") == {"==1.2.1"}
    assert result.python_major == 3


def test_conda_environment_file(tmp_path):
    result = scan(tmp_path, {"environment.yml": "name: old\nchannels: [defaults]\ndependencies:\n"
                                                "  - python=2.7\n  - theano=0.8.2\n  - numpy\n"
                                                "  - pip:\n    - lasagne==0.1\n"})
    assert specs(result, "python") == {"==2.7.*"} and where(result, "python", "==2.7.*") == "environment.yml:4"
    assert "==0.8.2.*" in specs(result, "theano", "stated")
    assert specs(result, "theano", "hard") == {"<0.9"}  # Lasagne 0.1 imports signal.downsample
    assert result.python_major == 2 and (result.theano_min, result.theano_max) == ("0.8.2", "0.8.2")


def test_dockerfile_images_installs_and_flags(tmp_path):
    result = scan(tmp_path, {"docker/Dockerfile": (
        "FROM nvidia/cuda:8.0-cudnn5-devel-ubuntu16.04\n"
        "# RUN pip install keras==2.0.0\n"
        "RUN pip install --upgrade pip && \\\n    pip install Theano==0.9.0 \\\n        h5py\n"
        "ENV THEANO_FLAGS=device=gpu,floatX=float32,lib.cnmem=0.8\n")})
    assert specs(result, "cuda") == {"==8.0.*"} and specs(result, "cudnn") == {"==5.*"}
    assert {r.name for r in result.requirements} == {"theano", "h5py"}  # not pip itself, not the comment
    assert where(result, "theano", "==0.9.0") == "docker/Dockerfile:3"
    assert where(result, "theano", "<0.10") == "docker/Dockerfile:6"  # device=gpu: the old backend
    assert specs(result, "theano", "soft") == {">=0.8,<0.10"}  # lib.cnmem
    assert (result.theano_min, result.theano_max) == ("0.9.0", "0.9.0")


def test_theanorc_files_and_a_broken_one(tmp_path):
    result = scan(tmp_path, {".theanorc": "[global]\ndevice = gpu0\nfloatX = float32\n\n[nvcc]\nfastmath = True\n",
                             "conf/theanorc": "device = cuda\n"})
    assert where(result, "theano", "<0.10") == ".theanorc:2"
    assert specs(result, "theano", "soft") == {"<0.10"}  # nvcc.fastmath
    assert any(p.file == "conf/theanorc" and "section" not in p.message and "refuse" in p.message
               for p in result.problems)


def test_flags_in_code_and_scripts_but_not_in_comments(tmp_path):
    result = scan(tmp_path, {
        "run.py": "import os\n# THEANO_FLAGS='device=gpu'\nos.environ['THEANO_FLAGS'] = 'device=cuda0,floatX=float32'\n"
                  "os.environ['KERAS_BACKEND'] = 'theano'\nimport keras\n",
        "train.sh": "#!/bin/sh\nTHEANO_FLAGS=mode=FAST_RUN,device=gpu1 python run.py\n",
        "other.py": "x = 'a=b,c=d'\n",
    })
    assert where(result, "theano", "<0.10") == "train.sh:2"
    assert all(e.file != "run.py" or e.line != 2 for c in result.constraints for e in c.evidence)
    assert specs(result, "keras", "hard") == {"<2.4"}  # Keras on Theano: 2.3.1 was the last with it


def test_readme_sentences(tmp_path):
    result = scan(tmp_path, {"README.md": "# Model\nTested with Theano 0.8.2 and Lasagne 0.2.dev1.\n"
                                          "This code requires Theano 0.7 or later and Python 2.7 or 3.4.\n"
                                          "## Requirements\n- numpy 1.11\n- CUDA 8\n"
                                          "Install with `pip install nolearn==0.6.0`.\n"})
    assert specs(result, "theano") == {"==0.8.2", ">=0.7"}
    assert specs(result, "numpy") == {">=1.11"} and specs(result, "cuda") == {">=8"}
    assert not specs(result, "python")  # "2.7 or 3.4" pins neither major
    assert {r.name: r.spec for r in result.requirements} == {"nolearn": "==0.6.0"}


# -- the code --------------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "print 'epoch', 3", "try:\n    pass\nexcept ValueError, e:\n    pass", "x = `3`", "mode = 0777",
    "s = ur'\\d'", "exec 'x = 1'", "if 1 <> 2: pass", "n = 10L", "raise ValueError, 'bad'",
    "f = lambda (k, v): k",
])
def test_python2_only_syntax_is_recognised(tmp_path, line):
    result = scan(tmp_path, {"m.py": "import theano\nfrom theano.tensor.signal import downsample\n" + line + "\n"})
    assert result.python_major == 2 and result.python2_files == 1
    assert result.python_evidence[0].file == "m.py" and result.python_evidence[0].line >= 3
    assert result.theano_max == "0.8.2"  # the imports are read from the Python 2 tree too


@pytest.mark.parametrize("line", ["y = f'{x}'", "def f(a: int) -> int: return a", "def g(*, k): pass",
                                  "z = a @ b", "async def h(): pass"])
def test_python3_only_syntax_is_recognised(tmp_path, line):
    result = scan(tmp_path, {"m.py": "x = 1\n" + line + "\n"})
    assert result.python_major == 3 and result.python_evidence[0].where() == "m.py:2"


def test_code_neither_major_needs(tmp_path):
    result = scan(tmp_path, {"m.py": "from __future__ import print_function\nprint('x', end='')\n"})
    assert result.python_major is None and not result.python_evidence


def test_markers_through_aliases_calls_and_keywords(tmp_path):
    result = scan(tmp_path, {
        "a.py": "import theano.tensor as T\n\ndef f(x):\n    return T.signal.pool.pool_2d(x, ws=(2, 2))\n",
        "b.py": "from theano.tensor.signal.pool import pool_2d\ny = pool_2d(x, ds=(2, 2))\n",
        "c.py": "import theano\n# theano.tensor.signal.downsample is gone, see docs\n"
                "s = 'theano.sandbox.cuda'\nh = theano.tensor.nnet.relu(x)\n",
    })
    assert where(result, "theano", ">=0.9") == "a.py:4"  # pool_2d(ws=) is 0.9's signature
    assert specs(result, "theano", "hard") == {">=0.9", ">=0.8"}  # signal.pool, nnet.relu; no comment, no string
    assert (result.theano_min, result.theano_max) == ("0.9.0", None)


def test_a_guarded_import_is_soft(tmp_path):
    result = scan(tmp_path, {
        "gpu.py": "try:\n    import theano.sandbox.cuda as cuda\nexcept ImportError:\n    cuda = None\n",
        "tests/test_gpu.py": "from theano.sandbox.cuda import dnn\n",
    })
    assert specs(result, "theano", "soft") == {"<0.10", ">=0.7,<0.10"} and not specs(result, "theano", "hard")
    assert (result.theano_min, result.theano_max) == (None, None)


def test_a_name_bound_in_try_or_to_two_modules_is_soft_where_used(tmp_path):
    result = scan(tmp_path, {"gpu.py": (
        "try:\n    from theano import gpuarray as gpu\nexcept ImportError:\n"
        "    from theano.sandbox import gpuarray as gpu\nenabled = gpu.pygpu_activated\n"
        "try:\n    from theano.sandbox.cuda import cuda_ndarray\nexcept ImportError:\n    cuda_ndarray = None\n\n"
        "def load(content):\n    return cuda_ndarray.cuda_ndarray.CudaNdarray(content)\n")})
    assert not specs(result, "theano", "hard")
    assert specs(result, "theano", "soft") == {">=0.9", "<0.10"}


def test_hard_markers_win_over_contradicting_pins(tmp_path):
    result = scan(tmp_path, {"requirements.txt": "theano>=1.0\n",
                             "m.py": "from theano.tensor.signal import downsample\n"})
    assert result.theano_max == "0.8.2" and result.theano_min is None
    assert any("contradict" in p.message for p in result.problems)


def test_lasagne_git_master_is_read_at_the_repositorys_date(tmp_path):
    files = {"requirements.txt": "https://github.com/Lasagne/Lasagne/archive/master.zip\n", "m.py": "import lasagne\n"}
    early = scan(tmp_path / "early", files, as_of=datetime.date(2015, 10, 1))
    late = scan(tmp_path / "late", files, as_of=datetime.date(2018, 6, 1))
    assert specs(early, "theano", "hard") == {"<0.9"}  # master still imported signal.downsample
    assert specs(late, "theano") == {">=0.8", "==0.8.2"}
    assert (late.theano_min, late.theano_max) == ("0.8.2", "0.8.2")


def test_keras_without_theano_is_not_held_to_the_theano_backend(tmp_path):
    result = scan(tmp_path, {"m.py": "import keras\n", "keras.json": '{"backend": "tensorflow"}\n'})
    assert [f.name for f in result.frameworks] == ["keras"] and not specs(result, "keras")


def test_pymc3_pins_pick_their_theano_flavour(tmp_path):
    old = scan(tmp_path / "old", {"requirements.txt": "pymc3==3.6\n"})
    new = scan(tmp_path / "new", {"requirements.txt": "pymc3==3.10.0\n"})
    assert specs(old, "theano") == {">=1.0.0"} and old.theano_min == "1.0.0"
    assert specs(new, "theano-pymc") == {"==1.0.11"} and not specs(new, "theano")


def test_own_modules_and_which_run_code_when_imported(tmp_path):
    result = scan(tmp_path, {"model/__init__.py": "", "model/layers.py": "", "setup.py": "",
                             "train.py": "import theano\nN = 3\nfit(load(), epochs=N)\n",
                             "layers.py": '"""Layers."""\nimport theano\nSIZE = (2, 2)\ntry:\n    import cPickle\n'
                                          'except ImportError:\n    import pickle as cPickle\n\ndef f(x):\n'
                                          '    return x\n\nif __name__ == "__main__":\n    f(1)\n',
                             "tests/__init__.py": "", "src/pkg/__init__.py": "", "scripts/run.py": ""})
    assert [(m.name, m.path, m.runs_at_import) for m in result.modules] == [
        ("layers", "layers.py", False), ("model", "model", False), ("pkg", "src/pkg", False),
        ("train", "train.py", True)]


# -- the date ---------------------------------------------------------------------------------

def test_date_from_git_then_files_then_option(tmp_path):
    git = shutil.which("git")
    assert git, "git is needed to build the repository this test reads"
    (tmp_path / "m.py").write_text("import theano\n")
    env = {**os.environ, "GIT_COMMITTER_DATE": "2016-05-17T12:00:00+00:00", "GIT_AUTHOR_DATE": "2016-05-17T12:00:00",
           "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "old"]):
        subprocess.run([git, "-C", str(tmp_path), *args], check=True, env=env, timeout=60)
    dated = scan_repo(tmp_path)
    assert (dated.as_of, dated.as_of_source) == ("2016-05-17", "git")
    assert scan_repo(tmp_path, as_of=DAY).as_of == "2017-06-30"
    shutil.rmtree(tmp_path / ".git")
    (tmp_path / "CHANGES.md").write_text("")  # not a file scan reads
    (tmp_path / "README").write_text("Released 2016-02-01.\n")
    os.utime(tmp_path / "m.py", (1420070400, 1420070400))  # 2015-01-01
    os.utime(tmp_path / "README", (1420070400, 1420070400))
    undated = scan_repo(tmp_path)
    assert (undated.as_of, undated.as_of_source) == ("2016-02-01", "files")


# -- folders that are not what they seem -------------------------------------------------------

def test_not_a_python_project(tmp_path):
    result = scan(tmp_path, {"notes.txt": "hello\n", "data/x.csv": "1,2\n"}, as_of=None)
    assert result.python_files == 0 and not result.requirements and result.python_major is None
    assert result.notes and "not look like a Python project" in result.notes[0]


def test_unreadable_binary_huge_and_looping_files(tmp_path):
    (tmp_path / "requirements.txt").symlink_to(tmp_path / "gone.txt")  # dangling
    (tmp_path / "model.py").write_bytes(b"import theano\x00\x01\x02" * 10)
    (tmp_path / "requirements-big.txt").write_text("numpy\n" * 400_000)
    (tmp_path / "loop").symlink_to(tmp_path)  # a folder loop
    (tmp_path / "self.py").symlink_to(tmp_path / "self.py")  # a file loop
    os.mkfifo(tmp_path / "setup.py")  # reading it would block forever
    (tmp_path / "ok.py").write_text("from theano.tensor.signal import downsample\n")
    result = scan_repo(tmp_path, as_of=DAY)
    problems = {p.file: p.message for p in result.problems}
    assert "cannot read" in problems["requirements.txt"]
    assert "binary" in problems["model.py"] and "too large" in problems["requirements-big.txt"]
    assert "a loop" in problems["loop"] and "loop" in problems["self.py"]
    assert "not a regular file" in problems["setup.py"]
    assert result.theano_max == "0.8.2"  # the rest is still read


def test_cli_text_json_and_usage_errors(tmp_path):
    (tmp_path / "m.py").write_text("import theano.sandbox.cuda\nprint 'x'\n")
    text = doctor("scan", str(tmp_path), "--as-of", "2016-01-01", env={"NO_COLOR": "1"})
    assert text.code == 0 and "Theano" in text.out and "m.py:1" in text.out and "parse only as Python 2" in text.out
    document = doctor("scan", str(tmp_path), "-f", "json").json()
    assert document["schema_version"] and document["scan"]["python"]["major"] == 2
    assert document["scan"]["theano"]["max"] == "0.9.0" and document["scan"]["as_of_source"] == "files"
    missing = doctor("scan", str(tmp_path / "nope"), "-f", "json")
    assert missing.code == 2 and missing.json()["error"]["kind"] == "usage"
    assert doctor("scan", str(tmp_path), "--as-of", "yesterday").code == 2


def test_python2_code_gets_the_last_python2_releases_of_its_libraries(tmp_path):
    old = scan(tmp_path / "old", {"m.py": "import numpy as np\nfrom sklearn import svm\nprint 'x'\n",
                                  "requirements.txt": "scipy\n"})
    new = scan(tmp_path / "new", {"m.py": "import numpy as np\nfrom sklearn import svm\nprint('x')\n"})
    assert {(c.subject, c.spec) for c in old.constraints if c.strength == "hard" and c.subject != "python"} == {
        ("numpy", "<=1.16.6"), ("scipy", "<=1.2.3"), ("scikit-learn", "<=0.20.4")}
    assert where(old, "scikit-learn", "<=0.20.4") == "m.py:2"
    assert not specs(new, "numpy") and not specs(new, "scikit-learn")


def test_a_vendored_copy_of_theano_is_not_read_as_the_repositorys_code(tmp_path):
    result = scan(tmp_path, {"libs/Theano/theano/__init__.py": "from theano.sandbox.cuda import dnn\n",
                             "libs/Theano/theano/configdefaults.py": "",
                             "libs/Theano/doc/install.txt": "Theano 1.0.0 requires Python 2.7 or 3.4\n",
                             "train.py": "import theano.tensor.signal.pool\n"})
    assert specs(result, "theano") == {">=0.8"}
    assert any(p.file == "libs/Theano" and "Theano's own source" in p.message for p in result.problems)
