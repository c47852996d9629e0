"""theano.tensor.signal.pool.pool_2d with Theano 0.8's keyword names (ds, st, padding); Theano 0.9
renamed them to ws, stride, pad. Saves every output and gradient as .npy."""
import os
import sys

import numpy as np
import theano
import theano.tensor as T
from theano.tensor.signal.pool import pool_2d
from theano.tensor.signal import pool


def main(out_dir):
    rng = np.random.RandomState(42)
    x_val = rng.normal(size=(3, 2, 8, 6)).astype('float32')
    x = T.ftensor4('x')
    outs = {}
    for mode in ('max', 'sum', 'average_inc_pad', 'average_exc_pad'):
        outs[mode + '_ds22'] = pool_2d(x, ds=(2, 2), ignore_border=True, mode=mode)
        outs[mode + '_ds33_st12'] = pool.pool_2d(x, ds=(3, 3), st=(1, 2), ignore_border=False, mode=mode)
        outs[mode + '_ds32_st22_pad21'] = pool_2d(input=x, ds=(3, 2), st=(2, 2), padding=(2, 1),
                                                  ignore_border=True, mode=mode)
    names = sorted(outs)
    # Theano 0.8 and 0.9 have no gradient for average_exc_pad with padding
    graded = [n for n in names if n != 'average_exc_pad_ds32_st22_pad21']
    exprs = [outs[n] for n in names]
    grads = [T.grad(T.sum(outs[n] ** 2), x) for n in graded]
    f = theano.function([x], exprs + grads)
    values = f(x_val)
    for name, value in zip(names + ['grad_' + n for n in graded], values):
        np.save(os.path.join(out_dir, name + '.npy'), value)
    print('saved {} arrays'.format(len(values)))


if __name__ == '__main__':
    main(sys.argv[1])
