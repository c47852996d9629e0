"""cuDNN ops of the old GPU backend imported at module level, used when a GPU device is configured;
on the CPU the same block runs through the CPU ops."""
import os
import sys

import numpy as np
import theano
import theano.tensor as T
from theano.sandbox.cuda import dnn
from theano.sandbox.cuda.basic_ops import gpu_contiguous
from theano.tensor.signal.pool import pool_2d


def conv_pool(x, w):
    if theano.config.device != 'cpu':
        c = dnn.dnn_conv(gpu_contiguous(x), gpu_contiguous(w), 'valid', (1, 1), 'conv')
        return dnn.dnn_pool(T.nnet.relu(c), ws=(2, 2), stride=(2, 2))
    c = T.nnet.conv2d(x, w, border_mode='valid', subsample=(1, 1), filter_flip=True)
    return pool_2d(T.nnet.relu(c), ws=(2, 2), ignore_border=True, stride=(2, 2))


def main(out_dir):
    rng = np.random.RandomState(5)
    x = T.tensor4('x')
    w = theano.shared(rng.normal(0, 0.3, size=(4, 2, 3, 3)))
    out = conv_pool(x, w)
    gw = T.grad(T.sum(out ** 2), w)
    out_val, gw_val = theano.function([x], [out, gw])(rng.normal(size=(2, 2, 10, 10)))
    np.save(os.path.join(out_dir, 'out.npy'), out_val)
    np.save(os.path.join(out_dir, 'grad_w.npy'), gw_val)
    print('device {}'.format(theano.config.device))


if __name__ == '__main__':
    main(sys.argv[1])
