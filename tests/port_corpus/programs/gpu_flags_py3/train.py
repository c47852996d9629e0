"""A training step set up for the old GPU backend: device=gpu and lib.cnmem in THEANO_FLAGS before
theano is imported, and theano.sandbox.cuda.use() to pick the card."""
import os
os.environ["THEANO_FLAGS"] = "mode=FAST_RUN,device=gpu,floatX=float32,lib.cnmem=1,nvcc.flags=-use_fast_math"
import sys

import numpy as np
import theano
import theano.sandbox.cuda
import theano.tensor as T

theano.sandbox.cuda.use("gpu")


def main(out_dir):
    rng = np.random.RandomState(11)
    floatX = theano.config.floatX
    W = theano.shared(rng.normal(0, 0.2, size=(6, 4)).astype(floatX), name="W")
    b = theano.shared(np.zeros(4, dtype=floatX), name="b")
    x = T.matrix("x")
    y = T.ivector("y")
    p = T.nnet.softmax(T.dot(x, W) + b)
    cost = T.nnet.categorical_crossentropy(p, y).mean()
    gW, gb = T.grad(cost, [W, b])
    lr = np.asarray(0.1, dtype=floatX)
    train = theano.function([x, y], cost, updates=[(W, W - lr * gW), (b, b - lr * gb)])
    x_val = rng.normal(size=(8, 6)).astype(floatX)
    y_val = rng.randint(0, 4, size=8).astype("int32")
    costs = [train(x_val, y_val) for _ in range(5)]
    np.save(os.path.join(out_dir, "costs.npy"), np.array(costs))
    np.save(os.path.join(out_dir, "W.npy"), W.get_value())
    np.save(os.path.join(out_dir, "floatX.npy"), np.array([floatX == "float32"]))
    print("device {}, final cost {:f}".format(theano.config.device, float(costs[-1])))


if __name__ == '__main__':
    main(sys.argv[1])
