# Runs inside a legacy environment (Python 2.7 or 3.x, with numpy): compares the .npy files of
# two folders and prints one JSON document; the test decides what is equal enough.
import json
import os
import sys

import numpy


def describe(a, b):
    if a.shape != b.shape or a.dtype != b.dtype:
        return {"same_type": False, "a": "%s %s" % (a.dtype, a.shape), "b": "%s %s" % (b.dtype, b.shape)}
    exact = bool(numpy.array_equal(a, b))
    if a.dtype.kind not in "fc":
        return {"same_type": True, "exact": exact, "ulps": 0.0 if exact else None}
    scale = max(float(numpy.max(numpy.abs(a))) if a.size else 0.0, 1.0)
    diff = float(numpy.max(numpy.abs(a.astype("float64") - b.astype("float64")))) if a.size else 0.0
    ulp = float(numpy.finfo(a.dtype).eps) * scale
    return {"same_type": True, "exact": exact, "max_abs": diff, "ulps": diff / ulp,
            "finite": bool(numpy.all(numpy.isfinite(a)))}


def main(first, second):
    names_a = sorted(n for n in os.listdir(first) if n.endswith(".npy"))
    names_b = sorted(n for n in os.listdir(second) if n.endswith(".npy"))
    arrays = {}
    for name in sorted(set(names_a) & set(names_b)):
        arrays[name] = describe(numpy.load(os.path.join(first, name)), numpy.load(os.path.join(second, name)))
    print(json.dumps({"only_first": sorted(set(names_a) - set(names_b)),
                      "only_second": sorted(set(names_b) - set(names_a)), "arrays": arrays}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
