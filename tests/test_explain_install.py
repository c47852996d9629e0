"""`explain` on install-time messages: what pip, setuptools, numpy.distutils, conda and apt print
when the pins of an old Theano stack meet a newer machine. Each log is the upstream message as
the tool prints it; the comment names the upstream file (at its tag) or the document."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.explain_tables import assert_sourced, first_cause
from theanodoctor.explain import explain_text

# pip >= 22 frames a failed build like this (pip 24.0 src/pip/_internal/exceptions.py:364, :403).
PIP_FRAME = (
    "  error: subprocess-exited-with-error\n"
    "  \n"
    "  × python setup.py egg_info did not run successfully.\n"
    "  │ exit code: 1\n"
    "  ╰─> [{n} lines of output]\n"
    "{output}"
    "      [end of output]\n"
    "  \n"
    "  note: This error originates from a subprocess, and is likely not a problem with pip.\n"
    "error: metadata-generation-failed\n"
    "\n"
    "× Encountered error while generating package metadata.\n")


def framed(*lines: str) -> str:
    return PIP_FRAME.format(n=len(lines), output="".join(f"      {line}\n" for line in lines))


CASES = [
    # setuptools v58.0.4 setuptools/dist.py:296, setuptools/_distutils/core.py:113
    (framed("error in anyjson setup command: use_2to3 is invalid."), "setuptools-2to3-removed"),
    # pip 24.0 src/pip/_internal/resolution/resolvelib/factory.py:692, :697, :710
    ("Collecting Theano==1.0.5\n"
     "ERROR: Ignored the following versions that require a different python version: 1.22.0 Requires-Python >=3.8\n"
     "ERROR: Could not find a version that satisfies the requirement numpy==1.22.0 (from versions: 1.3.0, 1.4.1, "
     "1.19.4, 1.19.5)\n"
     "ERROR: No matching distribution found for numpy==1.22.0\n", "pip-requires-python"),
    # the same message without skipped versions: the pin has no file for this Python
    ("ERROR: Could not find a version that satisfies the requirement tensorflow==1.15.5 (from versions: 2.12.0, "
     "2.13.0, 2.14.0)\nERROR: No matching distribution found for tensorflow==1.15.5\n", "pip-version-not-found"),
    # pip 24.0 factory.py:710 with a name that is not on PyPI (pygpu is on conda-forge)
    ("ERROR: Could not find a version that satisfies the requirement pygpu==0.7.6 (from versions: none)\n"
     "ERROR: No matching distribution found for pygpu==0.7.6\n", "pygpu-missing"),
    # pip 24.0 src/pip/_internal/resolution/legacy/resolver.py:107 (pip 9 to 20)
    ("Collecting scipy==1.5.4\n  Using cached scipy-1.5.4.tar.gz (25.2 MB)\n"
     "ERROR: Package 'scipy' requires a different Python: 2.7.18 not in '>=3.6'\n", "pip-requires-python"),
    # numpy v1.22.0 setup.py: the version gate pip < 9 does not read from the metadata
    ("    Traceback (most recent call last):\n      File \"<string>\", line 1, in <module>\n"
     "      File \"/tmp/pip-build-Xq3/numpy/setup.py\", line 28, in <module>\n"
     "        raise RuntimeError(\"Python version >= 3.8 required.\")\n"
     "    RuntimeError: Python version >= 3.8 required.\n", "pip-requires-python"),
    # https://github.com/pypa/get-pip templates/default.py
    ("$ python get-pip.py\nERROR: This script does not work on Python 2.7 The minimum supported Python version is "
     "3.7. Please use https://bootstrap.pypa.io/pip/2.7/get-pip.py instead.\n", "pip-too-new-for-python"),
    # pip 24.0 NEWS.rst:2229 (19.0 removed it); optparse's message
    ("\nUsage:   \n  pip install [options] <requirement specifier> [package-index-options] ...\n\n"
     "no such option: --process-dependency-links\n", "pip-option-removed"),
    ("pip install: error: no such option: --allow-external\n", "pip-option-removed"),
    # pip 24.0 src/pip/_internal/exceptions.py:668 (PEP 668, Debian 12)
    ("error: externally-managed-environment\n\n× This environment is externally managed\n╰─> To install Python "
     "packages system-wide, try apt install\n    python3-xyz, where xyz is the package you are trying to\n"
     "    install.\n", "pip-externally-managed"),
    # https://pypi.org/help/#tls-deprecation
    ("Collecting theano\n  Could not fetch URL https://pypi.python.org/simple/theano/: There was a problem confirming "
     "the ssl certificate: [SSL: TLSV1_ALERT_PROTOCOL_VERSION] tlsv1 alert protocol version (_ssl.c:590) - skipping\n"
     "  Could not find a version that satisfies the requirement theano (from versions: )\n"
     "No matching distribution found for theano\n", "pip-old-tls"),
    # setuptools v65.5.0 setuptools/msvc.py:243
    (framed("building 'h5py.defs' extension",
            "error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\": "
            "https://visualstudio.microsoft.com/visual-cpp-build-tools/"), "msvc-build-tools-missing"),
    # scipy v1.2.1 scipy/linalg/setup.py
    (framed("  File \"scipy/linalg/setup.py\", line 20, in configuration",
            "    raise NotFoundError('no lapack/blas resources found')",
            "numpy.distutils.system_info.NotFoundError: no lapack/blas resources found"),
     "source-build-needs-blas-fortran"),
    # numpy v1.16.6 numpy/distutils/command/build_clib.py
    ("    building 'dfftpack' library\n    error: library dfftpack has Fortran sources but no Fortran compiler found\n"
     "    ----------------------------------------\n"
     "Command \"/usr/bin/python3 -u -c \"import setuptools, tokenize;__file__='/tmp/pip-install-a1/scipy/setup.py'\" "
     "install --record /tmp/pip-record-b2/install-record.txt\" failed with error code 1 in "
     "/tmp/pip-install-a1/scipy/\n",
     "source-build-needs-blas-fortran"),
    # a setup.py importing numpy at its top under pip's build isolation (PEP 518)
    (framed("Traceback (most recent call last):", "  File \"<string>\", line 2, in <module>",
            "  File \"/tmp/pip-install-8k/lasagne_0a/setup.py\", line 4, in <module>",
            "    import numpy", "ModuleNotFoundError: No module named 'numpy'"), "build-dependency-missing"),
    # a package whose release is Python 2 only, built by Python 3
    (framed("Traceback (most recent call last):", "  File \"<string>\", line 36, in <module>",
            "  File \"/tmp/pip-install-w7/nolearn_5f/setup.py\", line 12",
            "    print 'Installing nolearn'", "    ^",
            "SyntaxError: Missing parentheses in call to 'print'. Did you mean print('Installing nolearn')?"),
     "package-python2-only"),
    # gcc under pip: Python.h missing (the build's output)
    ("  building 'theano.scan_module.scan_perform' extension\n"
     "  x86_64-linux-gnu-gcc -pthread -fPIC -I/usr/include/python3.8 -c scan_perform.c\n"
     "  scan_perform.c:4:10: fatal error: Python.h: No such file or directory\n"
     "  error: command 'x86_64-linux-gnu-gcc' failed with exit status 1\n"
     "  ERROR: Failed building wheel for Theano\n"
     "ERROR: Could not build wheels for Theano, which is required to install pyproject.toml-based projects\n",
     "python-headers-missing"),
    # Python 3.12 under pip: an old pin's build imports distutils / pkgutil.ImpImporter
    (framed("  File \"/usr/local/lib/python3.12/site-packages/setuptools/build_meta.py\", line 311, in run_setup",
            "  File \"/tmp/pip-install-3x/scipy_c1/setup.py\", line 31, in <module>",
            "    from numpy.distutils.core import setup",
            "ModuleNotFoundError: No module named 'numpy.distutils'"), "python-too-new"),
    ("  Getting requirements to build wheel ... error\n" + framed(
        "  File \"/tmp/pip-build-env-1/overlay/lib/python3.12/site-packages/pkg_resources/__init__.py\", line 2172",
        "    register_finder(pkgutil.ImpImporter, find_on_path)",
        "AttributeError: module 'pkgutil' has no attribute 'ImpImporter'. Did you mean: 'zipimporter'?"),
     "python-too-new-for-code"),  # the removed name inside an old setuptools (tests/test_explain_pylibs.py)
    # conda 4.14.0 conda/exceptions.py:609
    ("Collecting package metadata (current_repodata.json): done\nSolving environment: failed\n\n"
     "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
     "  - pygpu=0.6.9\n\nCurrent channels:\n\n  - https://repo.anaconda.com/pkgs/main/osx-arm64\n",
     "conda-package-not-in-channels"),
    # conda 4.14.0 conda/exceptions.py:37
    ("Solving environment: failed\n\nResolvePackageNotFound: \n  - python=2.7\n", "conda-package-not-in-channels"),
    # conda 4.14.0 conda/exceptions.py:688
    ("Found conflicts! Looking for incompatible packages.\n"
     "UnsatisfiableError: The following specifications were found\nto be incompatible with the existing python "
     "installation in your environment:\n\nSpecifications:\n\n  - theano=1.0.1 -> python[version='>=2.7,<2.8.0a0|"
     ">=3.5,<3.6.0a0|>=3.6,<3.7.0a0']\n\nYour python: python=3.9\n", "conda-unsatisfiable"),
    # conda 4.1.6 conda/resolve.py:71
    ("UnsatisfiableSpecifications:\nThe following specifications were found to be in conflict:\n"
     "  - theano ==0.7.0 -> python 2.6*|2.7*|3.3*|3.4*\n  - python 3.5*\n"
     "Use \"conda info <package>\" to see the dependencies for each package.\n", "conda-unsatisfiable"),
    # mamba (and conda's libmamba solver): libmamba's MSolver::problems_to_str and libsolv's problem text
    ("Encountered problems while solving:\n  - package theano-1.0.3-py27_0 requires python >=2.7,<2.8.0a0, but none "
     "of the providers can be installed\n", "conda-unsatisfiable"),
    ("% mamba install pymc3=3.11\nEncountered problems while solving:\n  - nothing provides mkl-service needed by "
     "pymc3-3.11.0-pyhd8ed1ab_0\n", "conda-package-not-in-channels"),
    ("Problem: nothing provides theano-pymc 1.0.11 needed by pymc3-3.10.0-pyhd8ed1ab_0\n",
     "conda-package-not-in-channels"),
    # the Nix cc-wrapper's purity check (https://github.com/NixOS/nixpkgs/pull/160155)
    ("impure path `/run/user/1000/theano/lazylinker_ext/lazylinker_ext.so' used in link\n",
     "nix-cc-wrapper-impure-path"),
    # Theano from the Nix store failing its first compilation (https://github.com/NixOS/nixpkgs/pull/99516)
    (framed("You can find the C code in this temporary file: /run/user/1000/theano_compilation_error_fvjx9y_e",
            "  File \"/nix/store/pf0dk0bj-python3-3.7.6-env/lib/python3.7/site-packages/theano/gof/lazylinker_c.py\", "
            "line 81, in <module>", "    actual_version, force_compile, _need_reload))",
            "ImportError: Version check of the existing lazylinker compiled file. Looking for version 0.211, but found "
            "None."), "nix-cc-wrapper-impure-path"),
    # apt's cacheset.cc
    ("Reading package lists... Done\nBuilding dependency tree... Done\nE: Unable to locate package python-theano\n",
     "apt-package-unavailable"),
    ("Package 'python-pygpu' has no installation candidate\n", "apt-package-unavailable"),
    # setuptools v65.5.0 setuptools/_distutils/spawn.py:64; CPython 2.7 Lib/distutils/spawn.py
    (framed("building 'h5py._conv' extension", "gcc -pthread -fPIC -I/usr/include/python3.7m -c h5py/_conv.c",
            "error: command 'gcc' failed: No such file or directory"), "build-compiler-missing"),
    ("    unable to execute 'x86_64-linux-gnu-gcc': No such file or directory\n"
     "    error: command 'x86_64-linux-gnu-gcc' failed with exit status 1\n", "build-compiler-missing"),
    # https://github.com/yaml/pyyaml/issues/601: PyYAML 5.4.1's setup.py under Cython 3
    ("  Getting requirements to build wheel ... error\n" + framed(
        "running egg_info", "  File \"<string>\", line 271, in get_source_files",
        "  File \"/tmp/pip-build-env-1/overlay/lib/python3.9/site-packages/setuptools/_distutils/cmd.py\", "
        "line 107, in __getattr__", "    raise AttributeError(attr)", "AttributeError: cython_sources"),
     "cython3-old-package-build"),
    # pip 24.0 src/pip/_internal/resolution/resolvelib/factory.py:776-778, :809
    ("ERROR: Cannot install -r requirements.txt (line 2) and numpy==1.13.3 because these package versions have "
     "conflicting dependencies.\n\nThe conflict is caused by:\n    The user requested numpy==1.13.3\n"
     "    scipy 1.5.4 depends on numpy>=1.14.5\n\nERROR: ResolutionImpossible: for help visit "
     "https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts\n",
     "pip-pins-conflict"),
    # pip 24.0 src/pip/_internal/req/req_uninstall.py:512-514
    ("  Attempting uninstall: PyYAML\n    Found existing installation: PyYAML 3.12\n"
     "ERROR: Cannot uninstall 'PyYAML'. It is a distutils installed project and thus we cannot accurately "
     "determine which files belong to it which would lead to only a partial uninstall.\n", "pip-distutils-installed"),
    # Theano/Theano#6304: Theano 0.10.0beta1's CTC op links warp-ctc without -Wl,-rpath
    ("('The following error happened while compiling the node', GpuConnectionistTemporalClassification"
     "{compute_grad=True}(GpuContiguous.0, /placeholder, /placeholder), '\\n', 'libwarpctc.so: cannot open "
     "shared object file: No such file or directory')\n", "warp-ctc-not-on-loader-path"),
    # mcf06/theano_ctc#14: a wrapper of warp-ctc's first API, compiled by nvcc against warp-ctc 2
    ("mod.cu(569): error: identifier \"ctcComputeInfo\" is undefined\n", "warp-ctc-api-changed"),
    # ... and by g++ (Kaldi-CTC's wording of the same)
    ("ctc-nnet-update.cc:200:3: error: 'ctcComputeInfo' was not declared in this scope\n", "warp-ctc-api-changed"),
    # easybuilders/easybuild-easyconfigs#6378: the EasyBuild framework's get_easyblock_class; the
    # missing module is EasyBuild's own easybuild.easyblocks.theano, not Theano
    ("EasyBuildError: 'Failed to process easyconfig /home/u/easyconfigs/t/Theano/Theano-1.0.0-intel-2017b-"
     "Python-2.7.14.eb: Failed to obtain class for EB_Theano easyblock (not available?): No module named "
     "theano'\n", "easybuild-easyblock-missing"),
    # pip 9.0.3 pip/index.py:502 ('Could not find a version that satisfies the requirement %s (from versions:
    # %s)'): `sklearn` on PyPI is a placeholder of version 0.0 (https://pypi.org/project/sklearn/)
    ("Collecting sklearn>=0.17.1 (from -r requirements.txt (line 5))\n"
     "  Could not find a version that satisfies the requirement sklearn>=0.17.1 (from -r requirements.txt "
     "(line 5)) (from versions: 0.0)\nNo matching distribution found for sklearn>=0.17.1 (from -r "
     "requirements.txt (line 5))\n", "pip-name-differs-from-module"),
    # pip 9.0.3 pip/req/req_set.py:244: a Dockerfile's pinned CPython 3.6 wheel in a Python 2.7 image
    ("cntk-2.1-cp36-cp36m-linux_x86_64.whl is not a supported wheel on this platform.\n", "pip-version-not-found"),
    # setuptools v40.0.0 setuptools/command/easy_install.py:1143: `python setup.py install` of Keras
    # fetching h5py 2.5.0, built from source without HDF5's headers
    ("/tmp/easy_install-9FmuOc/h5py-2.5.0/h5py/api_compat.h:27:10: fatal error: 'hdf5.h' file not found\n"
     "#include \"hdf5.h\"\n         ^\n1 error generated.\n"
     "error: Setup script exited with error: command 'cc' failed with exit status 1\n", "pip-build-failed"),
]


@pytest.mark.parametrize(("text", "cause"), CASES, ids=[f"{i:02d}-{c}" for i, (_, c) in enumerate(CASES)])
def test_an_install_time_message_names_its_cause_first(text, cause):
    assert first_cause(text) == [cause]


def test_every_install_finding_carries_an_openable_source_and_a_remedy():
    assert_sourced(CASES)


def test_pips_summary_is_a_consequence_of_the_reason_the_build_printed():
    found = explain_text(CASES[0][0]).findings
    assert [f.cause for f in found][:2] == ["setuptools-2to3-removed", "pip-build-failed"]
    assert found[1].consequence_of == "setuptools-2to3-removed"


def test_pips_summary_alone_names_no_cause():
    alone = framed("error: command 'gcc' failed with exit code 1")
    assert first_cause(alone) == []
    assert "pip-build-failed" in [f.cause for f in explain_text(alone).findings]


def test_a_wheel_build_pip_recovered_from_is_no_cause_of_a_later_error():
    recovered = ("  Running setup.py bdist_wheel for Theano ... error\n  Failed building wheel for Theano\n"
                 "  Running setup.py clean for Theano\nFailed to build Theano\nInstalling collected packages: Theano\n"
                 "  Running setup.py install for Theano ... done\nSuccessfully installed Theano-1.0.5\n")
    later = "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\nKeyError: 'lr'\n"
    assert first_cause(recovered + later) == []
    finding = explain_text(recovered).findings[0]
    assert finding.cause == "pip-build-failed" and finding.logged


def test_no_version_at_all_is_only_a_hint_that_asks_what_would_decide():
    log = ("ERROR: Could not find a version that satisfies the requirement lasagne==0.2 (from versions: none)\n"
           "ERROR: No matching distribution found for lasagne==0.2\n")
    finding = explain_text(log).findings[0]
    assert finding.cause == "pip-version-not-found" and finding.confidence == "low" and finding.asks


def test_the_versions_pip_could_use_reach_the_evidence():
    finding = explain_text(CASES[2][0]).recognised[0]
    assert finding.values["requirement"] == "tensorflow==1.15.5"
    assert any("2.12.0, 2.13.0, 2.14.0" in e.note for e in finding.evidence)


def test_pips_verbose_link_lines_and_a_numpy_import_outside_a_build_are_no_install_causes():
    # `pip -v` logs every link it skips for Requires-Python, also when the install succeeds
    verbose = ("  Link requires a different Python (3.6.15 not in: '>=3.7'): https://files.pythonhosted.org/"
               "packages/numpy-1.21.6.zip\nSuccessfully installed numpy-1.19.5\n")
    assert "pip-requires-python" not in [f.cause for f in explain_text(verbose).findings]
    own = "Traceback (most recent call last):\n  File \"train.py\", line 1, in <module>\n" \
          "ModuleNotFoundError: No module named 'numpy'\n"
    assert "build-dependency-missing" not in [f.cause for f in explain_text(own).recognised]


def test_a_print_statement_in_the_users_own_code_stays_python2_code():
    own = ("  File \"train.py\", line 12\n    print 'epoch', epoch\n    ^\n"
           "SyntaxError: Missing parentheses in call to 'print'. Did you mean print('epoch', epoch)?\n")
    assert first_cause(own) == ["python2-code-on-python3"]


def test_a_missing_wheel_package_is_harmless_when_pip_falls_back():
    log = ("  Running setup.py bdist_wheel for lasagne ... error\n  usage: -c [global_opts] cmd1 [cmd1_opts]\n"
           "  error: invalid command 'bdist_wheel'\n  Failed building wheel for lasagne\n"
           "  Running setup.py install for lasagne ... done\nSuccessfully installed Lasagne-0.2.dev1\n")
    found = explain_text(log).findings
    assert [f.cause for f in found][:1] == ["wheel-package-missing"] and found[0].logged
    later = "Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\nKeyError: 'lr'\n"
    assert first_cause(log + later) == []


def test_an_option_this_pip_lacks_names_the_release_only_where_the_text_decides():
    newer = explain_text("pip install: error: no such option: --break-system-packages\n").findings
    assert [(f.cause, f.confidence) for f in newer] == [("pip-option-unknown", "high")]
    other = explain_text("pip install: error: no such option: --use-feature\n").findings
    assert [(f.cause, f.confidence) for f in other] == [("pip-option-unknown", "low")] and other[0].asks
    removed = explain_text("pip install: error: no such option: --allow-external\n").findings
    assert [f.cause for f in removed] == ["pip-option-removed"]


def test_distutils_missing_from_a_build_is_python_312_only_where_the_log_shows_that_python():
    # before 3.12 the text has other roots (Debian's python3-distutils, a numpy 2 build environment)
    py311 = framed("  File \"/usr/lib/python3.11/site-packages/setuptools/build_meta.py\", line 311, in run_setup",
                   "  File \"/tmp/pip-install-3x/scipy_c1/setup.py\", line 31, in <module>",
                   "ModuleNotFoundError: No module named 'numpy.distutils'")
    assert "python-too-new" not in [f.cause for f in explain_text(py311).recognised]


def test_conda_removes_packages_not_found_is_no_channel_problem():
    log = ("PackagesNotFoundError: The following packages are missing from the target environment:\n"
           "  - theano\n")
    assert "conda-package-not-in-channels" not in [f.cause for f in explain_text(log).findings]


def test_a_failed_first_compilation_outside_the_nix_store_is_no_nix_problem():
    text = ("  File \"/usr/lib/python3/dist-packages/theano/gof/lazylinker_c.py\", line 81, in <module>\n"
            "    actual_version, force_compile, _need_reload))\nImportError: Version check of the existing lazylinker "
            "compiled file. Looking for version 0.211, but found None.\n")
    assert "nix-cc-wrapper-impure-path" not in {f.cause for f in explain_text(text).findings}


def test_a_git_url_that_cannot_be_reached(tmp_path):
    import shutil
    import subprocess

    git = shutil.which("git")
    assert git, "the tests need git"
    # nothing listens on port 1: the real git client's message for an unreachable git daemon
    done = subprocess.run([git, "clone", "git://127.0.0.1:1/Theano.git", str(tmp_path / "theano")],
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode != 0 and "fatal: unable to connect to 127.0.0.1:" in done.stderr
    log = "$ git clone git://127.0.0.1:1/Theano.git\n" + done.stderr
    assert first_cause(log) == ["git-protocol-unreachable"]
    # git prints these words only from its git:// transport: named where the log shows no URL too
    assert first_cause(done.stderr) == ["git-protocol-unreachable"]
    # git's https and ssh transports fail in other words, which are not this cause
    for other in ("fatal: unable to access 'https://github.com/Theano/Theano.git/': Failed to connect to "
                  "github.com port 443: Connection timed out\n",
                  "ssh: connect to host github.com port 22: Connection timed out\n"
                  "fatal: Could not read from remote repository.\n"):
        assert first_cause(other) != ["git-protocol-unreachable"]
    # GitHub's refusal since 2022 (its text as the blog and the threads quote it)
    github = ("$ pip install git+git://github.com/Theano/Theano.git\n"
              "fatal: remote error:\n  The unauthenticated git protocol on port 9418 is no longer supported.\n"
              "Please see https://github.blog/2021-09-01-improving-git-protocol-security-github/ "
              "for more information.\n")
    assert first_cause(github) == ["git-protocol-unreachable"]
    assert_sourced([(github, "git-protocol-unreachable"), (log, "git-protocol-unreachable")])


def test_real_linker_without_the_check_symbol(tmp_path):
    import shutil
    import subprocess

    gcc = shutil.which("gcc")
    assert gcc, "the tests need gcc"
    # a unit test of libgpuarray's calling what newer Check headers call, linked with no Check that has it
    source = tmp_path / "check_array.c"
    source.write_text("void _ck_assert_failed(const char *file, int line, const char *expr, ...);\n"
                      "int main(void) { _ck_assert_failed(\"check_array.c\", 1, \"x\"); return 0; }\n")
    done = subprocess.run([gcc, str(source), "-o", str(tmp_path / "check_array")], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode != 0 and "undefined reference to `_ck_assert_failed'" in done.stderr
    assert first_cause(done.stderr) == ["libgpuarray-libcheck-too-old"]
    # the same symbol in another project's build (nothing of libgpuarray in the log) is only a hint
    other = done.stderr.replace("check_array", "sanity")
    assert [(f.cause, f.confidence) for f in explain_text(other).findings][:1] == [
        ("libgpuarray-libcheck-too-old", "low")]


def test_real_cython_3_refuses_an_old_pyxs_division(legacy_python, tmp_path):
    import os
    import subprocess

    from tests import legacy_envs

    # pygpu 0.7's collectives.pyx divides sizes with `/`: integer division under Cython 0.29's
    # Python 2 default, a double under Cython 3's language_level 3str
    python = legacy_python("healthy37")
    (tmp_path / "collectives.pyx").write_text("def split(size_t n, size_t parts):\n    cdef size_t chunk\n"
                                              "    chunk = n / parts\n    return chunk\n")

    def cythonize(release: str) -> subprocess.CompletedProcess[str]:
        path = legacy_envs.release(python, f"cython=={release}")
        return subprocess.run([python, "-m", "cython", "collectives.pyx"], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(path)})

    assert cythonize("0.29.37").returncode == 0
    three = cythonize("3.0.10")
    log = three.stdout + three.stderr
    assert three.returncode != 0 and "Cannot assign type 'double' to 'size_t'" in log
    found = [(f.cause, f.confidence) for f in explain_text(log).findings]
    assert found[:1] == [("cython3-old-package-build", "medium")]


def test_theano_and_theano_pymc_lay_out_theano_differently(legacy_env):
    # the two distributions install the same `theano` folder with other files: a traceback through
    # original Theano's scan_module and Theano-PyMC's compile/function package is a folder of both
    from pathlib import Path

    def site(name: str) -> Path:
        return next(Path(legacy_env(name)).glob("lib/python3.*/site-packages/theano"))

    theano, pymc = site("healthy37"), site("pymc39")
    assert (theano / "compile" / "pfunc.py").is_file() and (theano / "scan_module").is_dir()
    assert (pymc / "compile" / "function" / "pfunc.py").is_file() and not (pymc / "scan_module").exists()
    assert "Unknown parameter type" in (pymc / "compile" / "function" / "pfunc.py").read_text(encoding="utf-8")
    mixed = ('  File "/usr/local/lib/python3.7/dist-packages/theano/scan_module/scan.py", line 849, in scan\n'
             '  File "/usr/local/lib/python3.7/dist-packages/theano/compile/function/pfunc.py", line 427, in pfunc\n'
             "TypeError: Unknown parameter type: <class 'theano.tensor.var.TensorVariable'>\n")
    assert first_cause(mixed) == ["theano-install-broken"]
    assert_sourced([(mixed, "theano-install-broken")])


def test_a_withdrawn_conda_forge_build_is_no_missing_package():
    # conda-forge withdraws a broken build by making it depend on `package_has_been_revoked`
    text = "Problem: nothing provides package_has_been_revoked needed by gfortran_linux-64-7.2.0-24\n"
    assert ("conda-package-not-in-channels", "medium") not in \
        [(f.cause, f.confidence) for f in explain_text(text).findings]


def test_a_theano_folder_left_without_its_init_is_named(tmp_path: Path) -> None:
    (tmp_path / "site" / "theano").mkdir(parents=True)
    # what PyMC3 3.11.4 prints when `theano` has no __version__ (pymc3/__init__.py:34-45), here with a
    # real interpreter's namespace package: a `theano` folder without its __init__.py
    code = ("import theano\nif not hasattr(theano, '__version__'):\n"
            "    print('The imported Theano(-PyMC) module is broken.')\n"
            "    print(f'It was imported from {theano.__spec__.submodule_search_locations}')\n"
            "theano.config\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(tmp_path / "site")})
    log = proc.stdout + proc.stderr
    assert "It was imported from _NamespacePath([" in log and "has no attribute 'config'" in log, log
    assert [(f.cause, f.confidence) for f in explain_text(log).findings][:1] == [("theano-install-broken", "high")]
    # PyMC3's message where a package was found: its Theano is not the one PyMC3 needs
    package = log.replace("_NamespacePath(['", "['")
    assert [(f.cause, f.confidence) for f in explain_text(package).findings][:1] == [
        ("pymc3-needs-theano-pymc", "medium")]
