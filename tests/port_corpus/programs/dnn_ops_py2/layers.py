# cuDNN ops of the old GPU backend imported at module level (as DCGAN-era code did), used when
# a GPU device is configured; on the CPU the same block runs through the CPU ops.
import os
import sys

import numpy
import theano
import theano.tensor as T
from theano.sandbox.cuda.dnn import dnn_conv, dnn_pool
from theano.sandbox.cuda.basic_ops import gpu_contiguous, host_from_gpu
from theano.tensor.signal.pool import pool_2d


def conv_pool(x, w):
    if theano.config.device != 'cpu':
        c = dnn_conv(gpu_contiguous(x), gpu_contiguous(w), border_mode='full', subsample=(1, 1))
        return host_from_gpu(dnn_pool(T.nnet.relu(c), (2, 2), (2, 2)))
    c = T.nnet.conv2d(x, w, border_mode='full', subsample=(1, 1))
    return pool_2d(T.nnet.relu(c), (2, 2), True, (2, 2))


def main(out_dir):
    rng = numpy.random.RandomState(5)
    x = T.tensor4('x')
    w = theano.shared(rng.normal(0, 0.3, size=(4, 2, 3, 3)))
    out = conv_pool(x, w)
    gw = T.grad(T.sum(out ** 2), w)
    f = theano.function([x], [out, gw])
    out_val, gw_val = f(rng.normal(size=(2, 2, 10, 10)))
    numpy.save(os.path.join(out_dir, 'out.npy'), out_val)
    numpy.save(os.path.join(out_dir, 'grad_w.npy'), gw_val)
    print 'device %s' % theano.config.device


if __name__ == '__main__':
    main(sys.argv[1])
