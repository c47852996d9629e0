#!/bin/sh
# Plain shell step: prove the Theano environment, then run the real job.
#
#   THEANO_ENV=/opt/envs/theano37 examples/ci/preflight.sh python train.py
#
# When theanodoctor is not on PATH it is installed into a venv of its own (THEANODOCTOR_VENV):
# that works on externally managed system Pythons (Debian 12, Ubuntu 24.04), where
# `pip install --user` is refused, and never touches the Theano environment. Then it runs
# `theanodoctor preflight`, and runs the command given only when it passed. JUnit XML is
# written to preflight-junit.xml for whatever collects test reports.
set -eu

: "${THEANO_ENV:?set THEANO_ENV to the Theano environment (folder or interpreter)}"
: "${THEANODOCTOR_SPEC:=theanodoctor}"   # the PyPI name, a wheel file or a git URL
: "${THEANODOCTOR_VENV:=$HOME/.theanodoctor}"  # where the doctor is installed when missing
: "${PREFLIGHT_DEVICE:=cuda}"            # cpu on a machine without a GPU

if ! command -v theanodoctor >/dev/null 2>&1; then
    if [ ! -x "$THEANODOCTOR_VENV/bin/theanodoctor" ]; then
        python3 -m venv "$THEANODOCTOR_VENV"
        "$THEANODOCTOR_VENV/bin/pip" install --quiet "$THEANODOCTOR_SPEC"
    fi
    PATH="$THEANODOCTOR_VENV/bin:$PATH"
fi

status=0
theanodoctor preflight --python "$THEANO_ENV" --device "$PREFLIGHT_DEVICE" --junit preflight-junit.xml || status=$?
case $status in
    0) ;;
    1) echo "preflight: the environment is not ready (see above); not starting the job" >&2; exit 1 ;;
    2) echo "preflight: usage error (check THEANO_ENV and the options)" >&2; exit 2 ;;
    *) echo "preflight: the doctor could not finish (exit $status): probe or smoke test crashed or timed out" >&2
       exit "$status" ;;
esac

if [ "$#" -gt 0 ]; then
    exec "$@"
fi
