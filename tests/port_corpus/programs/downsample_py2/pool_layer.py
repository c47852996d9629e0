# Pooling the way Theano 0.7/0.8 code wrote it: theano.tensor.signal.downsample.max_pool_2d,
# whose `mode` also did sum and average pooling. Saves every output and gradient as .npy.
import os
import sys

import numpy
import theano
import theano.tensor as T
from theano.tensor.signal import downsample
from theano.tensor.signal.downsample import max_pool_2d

MODES = ['max', 'sum', 'average_inc_pad', 'average_exc_pad']


def build(x):
    outs = {}
    for mode in MODES:
        for ib in (True, False):
            # keywords, non-overlapping windows
            outs['%s_ds22_ib%d' % (mode, ib)] = downsample.max_pool_2d(x, ds=(2, 2), ignore_border=ib, mode=mode)
            # positional (input, ds, ignore_border, st), overlapping windows
            outs['%s_ds32_st21_ib%d' % (mode, ib)] = downsample.max_pool_2d(x, (3, 2), ib, (2, 1), mode=mode)
        # zero padding needs ignore_border=True
        outs['%s_ds33_st22_pad11' % mode] = max_pool_2d(x, ds=(3, 3), st=(2, 2), padding=(1, 1),
                                                        ignore_border=True, mode=mode)
    # ignore_border left out: Theano warns and uses False
    outs['max_ds22_default_border'] = max_pool_2d(x, (2, 2))
    return outs


def main(out_dir):
    rng = numpy.random.RandomState(1234)
    x_val = rng.uniform(-1, 1, size=(2, 3, 7, 9)).astype('float32')
    x = T.ftensor4('x')
    outs = build(x)
    names = sorted(outs)
    exprs = [outs[n] for n in names]
    # gradient of a non-linear function of each output, as training would take it (Theano 0.8
    # has no gradient for average_exc_pad with padding)
    graded = [n for n in names if not n.startswith('average_exc_pad_') or 'pad11' not in n]
    grads = [T.grad(T.sum(T.sin(outs[n]) * 1.5), x) for n in graded]
    f = theano.function([x], exprs + grads)
    values = f(x_val)
    for name, value in zip(names + ['grad_' + n for n in graded], values):
        numpy.save(os.path.join(out_dir, name + '.npy'), value)
    print 'saved %d arrays' % len(values)


if __name__ == '__main__':
    main(sys.argv[1])
