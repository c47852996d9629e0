# A conv + pool block that uses cuDNN through the old GPU backend when it is there and falls
# back to the CPU ops when it is not (the pattern of Lasagne's and many papers' layers).
import os
import sys

import numpy
import theano
import theano.tensor as T
import theano.sandbox.cuda
from theano.sandbox.cuda import dnn
from theano.sandbox.cuda.dnn import dnn_available
from theano.tensor.signal.pool import pool_2d


def conv_pool(x, w):
    if dnn.dnn_available():
        c = dnn.dnn_conv(x, w, border_mode='valid', subsample=(1, 1))
        return dnn.dnn_pool(T.nnet.relu(c), ws=(2, 2), stride=(2, 2))
    c = T.nnet.conv2d(x, w, border_mode='valid', subsample=(1, 1))
    return pool_2d(T.nnet.relu(c), (2, 2), ignore_border=True)


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
    numpy.save(os.path.join(out_dir, 'used_cudnn.npy'),
               numpy.array([dnn_available(), theano.sandbox.cuda.dnn.dnn_available()]))
    print 'cuDNN: %s' % dnn_available()


if __name__ == '__main__':
    main(sys.argv[1])
