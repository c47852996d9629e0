# -*- coding: utf-8 -*-
"""Real Theano work, run *inside* the target interpreter by ``theanodoctor smoke-test``.

Run as ``python target_smoke.py COOKIE CONFIG_JSON`` where CONFIG_JSON is
``{"stages": [NAME, ...], "size": 2048, "repeats": 3}``. Standard library only at the top
(numpy and Theano are imported by the stages); must parse on Python 2.7 ... 3.13: no f-strings,
annotations, walrus, keyword-only arguments, dict/set comprehensions.

Same cookie protocol as the facts probe (``theanodoctor/probe/target_probe.py``), with
``smoke_version`` in every document:

- ``{"running": NAME}`` before stage NAME, ``{"stages": {NAME: {...}}}`` after it,
  ``{"done": true}`` at the end. The host restarts the script for the remaining stages when a
  stage crashes or hangs, so every stage record is written as soon as it exists.

The ``import`` stage always runs first; each later stage records ``ok``, ``error``
({type, message}), ``compile_s``, ``first_run_s``, ``run_s`` (median of ``repeats`` runs after
the first), ``ops`` (op names of the compiled graph), ``on_gpu`` and what was said meanwhile.
"""
import json
import logging
import os
import sys
import time

if sys.version_info[0] == 2:
    from StringIO import StringIO
    TEXT = unicode  # noqa: F821
else:
    from io import StringIO
    TEXT = str

SMOKE_VERSION = 1
COOKIE = sys.argv[1] if len(sys.argv) > 1 else ""
OUT = sys.stdout
MAX_SAID = 8000

if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]  # our folder must not shadow anything the target imports


def text(value):
    try:
        if isinstance(value, TEXT):
            return value
        if isinstance(value, bytes):
            return value.decode("utf-8", "replace")
        return TEXT(value)
    except Exception:
        return "<unprintable %s>" % type(value).__name__


def emit(doc):
    doc["smoke_version"] = SMOKE_VERSION
    try:
        payload = json.dumps(doc, ensure_ascii=True, sort_keys=True, default=text)
    except Exception as exc:
        payload = json.dumps({"smoke_version": SMOKE_VERSION, "error": "not serialisable: " + text(exc)})
    OUT.write(COOKIE[::-1] + payload + COOKIE + "\n")
    OUT.flush()


class LogLines(logging.Handler):
    def __init__(self):
        logging.Handler.__init__(self)
        self.lines = []
        self.setFormatter(logging.Formatter("%(levelname)s (%(name)s): %(message)s"))

    def emit(self, record):
        try:
            self.lines.append(self.format(record))
        except Exception:
            self.lines.append(text(getattr(record, "msg", record)))


LOG = LogLines()
logging.getLogger("theano").addHandler(LOG)


def tail(value):
    value = text(value)
    return value if len(value) <= MAX_SAID else "[...]" + value[-MAX_SAID:]


def message_of(exc):
    """Theano raises compile errors with several args (text, node, text): join them, so the
    compiler's own lines stay lines instead of a tuple's repr."""
    try:
        args = getattr(exc, "args", ())
        if len(args) > 1:
            return "".join(text(a) for a in args)
        return text(exc)
    except Exception:
        return repr(exc)


def run_stage(name, func, config, state):
    emit({"running": name})
    first_log = len(LOG.lines)
    saved = (sys.stdout, sys.stderr)
    buffers = (StringIO(), StringIO())
    sys.stdout, sys.stderr = buffers
    started = time.time()
    try:
        result = func(config, state)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit from a broken package is a result too
        result = {"ok": False, "error": {"type": type(exc).__name__, "message": message_of(exc)}}
    finally:
        sys.stdout, sys.stderr = saved
    result.setdefault("ok", True)
    result.setdefault("error", None)
    result["elapsed_s"] = round(time.time() - started, 4)
    result["log"] = LOG.lines[first_log:]
    result["stdout"] = tail(buffers[0].getvalue())
    result["stderr"] = tail(buffers[1].getvalue())
    emit({"stages": {name: result}})
    return result


# -- measuring a compiled function ----------------------------------------------------------------

def graph_ops(fn):
    """Op and type names of a compiled function's graph (inner graphs of scan included)."""
    names = []
    todo = [fn.maker.fgraph]
    while todo:
        graph = todo.pop()
        for node in graph.toposort():
            names.append(type(node.op).__name__)
            for var in node.inputs + node.outputs:
                names.append(type(var.type).__name__)
            inner = getattr(node.op, "fn", None)
            maker = getattr(inner, "maker", None)
            if maker is not None and getattr(maker, "fgraph", None) is not None:
                todo.append(maker.fgraph)
    unique = []
    for n in names:
        if n not in unique:
            unique.append(n)
    return unique


def on_gpu(ops):
    for name in ops:
        if name.startswith("Gpu"):
            return True
    return False


def median(values):
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2.0


def measure(build, call, config):
    """Compile with ``build()`` -> fn, then call ``call(fn)`` once plus ``repeats`` times."""
    started = time.time()
    fn = build()
    compiled = time.time()
    out = call(fn)
    first = time.time() - compiled
    times = []
    for _ in range(max(1, int(config.get("repeats", 3)))):
        begin = time.time()
        out = call(fn)
        times.append(time.time() - begin)
    ops = graph_ops(fn)
    return out, {"compile_s": round(compiled - started, 4), "first_run_s": round(first, 5),
                 "run_s": round(median(times), 5), "ops": ops, "on_gpu": on_gpu(ops)}


def close(out, ref, tol):
    import numpy
    out = numpy.asarray(out, dtype="float64")
    ref = numpy.asarray(ref, dtype="float64")
    if out.shape != ref.shape:
        return False, "shape %s, expected %s" % (out.shape, ref.shape)
    scale = max(float(numpy.abs(ref).max()), 1e-12) if ref.size else 1.0
    err = float(numpy.abs(out - ref).max()) / scale if ref.size else 0.0
    if not err <= tol:  # NaN fails too
        return False, "max relative error %.3g exceeds %.3g" % (err, tol)
    return True, "max relative error %.3g" % err


def checked(result, out, ref, tol):
    ok, detail = close(out, ref, tol)
    result["check"] = detail
    if not ok:
        result["ok"] = False
        result["error"] = {"type": "WrongResult", "message": "result differs from numpy: " + detail}
    return result


# -- stages ---------------------------------------------------------------------------------------

def stage_import(config, state):
    import numpy
    import theano
    state["numpy"], state["theano"] = numpy, theano
    cfg = theano.config
    found = {"numpy": numpy.__version__, "theano": getattr(theano, "__version__", None),
             "python": "%d.%d.%d" % tuple(sys.version_info[:3])}
    for key in ("device", "floatX", "base_compiledir", "compiledir", "mode", "init_gpu_device"):
        try:
            found[key] = text(getattr(cfg, key))
        except Exception:
            found[key] = None
    try:
        import theano.gpuarray
        found["pygpu_activated"] = bool(getattr(theano.gpuarray, "pygpu_activated", False))
    except Exception as exc:
        found["pygpu_activated"] = False
        found["gpuarray_error"] = text(exc)
    return found


def rng(seed):
    import numpy
    return numpy.random.RandomState(seed)


def stage_matmul(config, state):
    numpy, theano = state["numpy"], state["theano"]
    T = theano.tensor
    n = int(config.get("size", 2048))
    a = rng(1).rand(n, n).astype("float32")
    b = rng(2).rand(n, n).astype("float32")
    x, y = T.matrix("x", dtype="float32"), T.matrix("y", dtype="float32")
    out, result = measure(lambda: theano.function([x, y], T.dot(x, y)), lambda f: f(a, b), config)
    result["size"] = n
    checked(result, out, numpy.dot(a, b), 1e-4)
    if result["on_gpu"] and result["ok"]:
        result["cpu"] = cpu_matmul(theano, T, x, y, a, b, config)
    return result


def cpu_matmul(theano, T, x, y, a, b, config):
    """The same matmul with the GPU optimisations excluded, for the speed-up."""
    try:
        mode = theano.compile.get_default_mode().excluding("gpuarray")
        _, timing = measure(lambda: theano.function([x, y], T.dot(x, y), mode=mode),
                            lambda f: f(a, b), config)
        return {"ok": not timing["on_gpu"], "run_s": timing["run_s"],
                "compile_s": timing["compile_s"], "on_gpu": timing["on_gpu"]}
    except Exception as exc:
        return {"ok": False, "error": text(exc)}


def conv_reference(numpy, x, w):
    """Valid convolution (filters flipped, as conv2d's default filter_flip=True) in numpy."""
    n, c, h, wd = x.shape
    k, _, fh, fw = w.shape
    flipped = w[:, :, ::-1, ::-1]
    out = numpy.zeros((n, k, h - fh + 1, wd - fw + 1), dtype="float64")
    for u in range(fh):
        for v in range(fw):
            patch = x[:, :, u:u + h - fh + 1, v:v + wd - fw + 1].astype("float64")
            out += numpy.einsum("ncij,kc->nkij", patch, flipped[:, :, u, v].astype("float64"))
    return out


def stage_conv(config, state):
    numpy, theano = state["numpy"], state["theano"]
    T = theano.tensor
    from theano.tensor.nnet import conv2d
    x = rng(3).rand(1, 3, 64, 64).astype("float32")
    w = rng(4).rand(4, 3, 5, 5).astype("float32")
    xs, ws = T.tensor4("x", dtype="float32"), T.tensor4("w", dtype="float32")
    expr = conv2d(xs, ws, input_shape=(1, 3, 64, 64), filter_shape=(4, 3, 5, 5), border_mode="valid")
    out, result = measure(lambda: theano.function([xs, ws], expr), lambda f: f(x, w), config)
    result["shape"] = list(numpy.shape(out))
    result["cudnn"] = any(name.startswith("GpuDnn") for name in result["ops"])
    return checked(result, out, conv_reference(numpy, x, w), 1e-4)


def stage_elemwise(config, state):
    numpy, theano = state["numpy"], state["theano"]
    T = theano.tensor
    a = rng(5).rand(300, 200).astype("float32")
    b = rng(6).rand(200, 300).astype("float32")
    c = rng(7).rand(200).astype("float32")
    x, y = T.matrix("x", dtype="float32"), T.matrix("y", dtype="float32")
    v = T.vector("v", dtype="float32")
    expr = T.tanh(x * 2 + y.dimshuffle(1, 0)) * T.exp(-abs(x)) + v.dimshuffle("x", 0) - 1
    out, result = measure(lambda: theano.function([x, y, v], expr), lambda f: f(a, b, c), config)
    ref = numpy.tanh(a * 2 + b.T) * numpy.exp(-numpy.abs(a)) + c[None, :] - 1
    return checked(result, out, ref, 1e-5)


def stage_softmax_xent(config, state):
    numpy, theano = state["numpy"], state["theano"]
    T = theano.tensor
    a = (rng(8).rand(64, 10) * 4).astype("float32")
    labels = rng(9).randint(0, 10, size=64).astype("int32")
    x, t = T.matrix("x", dtype="float32"), T.ivector("t")
    loss = T.nnet.categorical_crossentropy(T.nnet.softmax(x), t).mean()
    out, result = measure(lambda: theano.function([x, t], loss), lambda f: f(a, labels), config)
    e = numpy.exp(a - a.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    ref = -numpy.log(p[numpy.arange(64), labels]).mean()
    return checked(result, out, ref, 1e-5)


def stage_grad(config, state):
    numpy, theano = state["numpy"], state["theano"]
    T = theano.tensor
    r = rng(10)
    data = r.randn(128, 20).astype("float32")
    labels = (data[:, 0] + data[:, 1] > 0).astype("int32")
    w = theano.shared(numpy.zeros((20, 2), dtype="float32"), name="w")
    b = theano.shared(numpy.zeros(2, dtype="float32"), name="b")
    x, t = T.matrix("x", dtype="float32"), T.ivector("t")
    loss = T.nnet.categorical_crossentropy(T.nnet.softmax(T.dot(x, w) + b), t).mean()
    gw, gb = T.grad(loss, [w, b])
    lr = numpy.float32(0.5)
    updates = [(w, w - lr * gw), (b, b - lr * gb)]
    losses = []

    def step(f):
        value = float(f(data, labels))
        losses.append(value)
        return value

    _, result = measure(lambda: theano.function([x, t], loss, updates=updates), step, config)
    result["losses"] = [round(v, 6) for v in losses]
    finite = all(v == v and abs(v) != float("inf") for v in losses)
    if not finite or not losses[-1] < losses[0]:
        result["ok"] = False
        result["error"] = {"type": "WrongResult",
                           "message": "loss did not decrease: %s" % ", ".join("%.4g" % v for v in losses)}
    return result


def stage_scan(config, state):
    theano = state["theano"]
    T = theano.tensor
    a = (rng(11).rand(50) + 0.5).astype("float32")
    v = T.vector("v", dtype="float32")
    outputs, updates = theano.scan(lambda prior, base: prior * base, outputs_info=T.ones_like(v),
                                   non_sequences=v, n_steps=5)
    out, result = measure(lambda: theano.function([v], outputs[-1], updates=updates),
                          lambda f: f(a), config)
    return checked(result, out, a.astype("float64") ** 5, 1e-5)


STAGES = (("matmul", stage_matmul), ("conv", stage_conv), ("elemwise", stage_elemwise),
          ("softmax_xent", stage_softmax_xent), ("grad", stage_grad), ("scan", stage_scan))


def main():
    try:
        config = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    except ValueError:
        config = {}
    wanted = config.get("stages") or [name for name, _ in STAGES]
    state = {}
    imported = run_stage("import", stage_import, config, state)
    if imported["ok"]:
        for name, func in STAGES:
            if name in wanted:
                run_stage(name, func, config, state)
    emit({"done": True})
    return 0


if __name__ == "__main__":
    sys.exit(main())
