# A small MLP whose helpers use theano.compat.six, as pylearn2-era code did.
import os
import sys

import numpy
import theano
import theano.tensor as T
from theano.compat import six
from theano.compat.six.moves import xrange, reduce
from theano.compat.six import string_types, iteritems
import theano.compat.six.moves.cPickle as pickle


def init_params(rng, sizes):
    params = {}
    for i in xrange(len(sizes) - 1):
        params['W%d' % i] = theano.shared(rng.normal(0, 0.1, size=(sizes[i], sizes[i + 1])))
        params['b%d' % i] = theano.shared(numpy.zeros(sizes[i + 1]))
    return params


def forward(params, x, n_layers):
    h = x
    for i in xrange(n_layers):
        h = T.tanh(T.dot(h, params['W%d' % i]) + params['b%d' % i])
    return h


def main(out_dir):
    rng = numpy.random.RandomState(7)
    sizes = [5, 7, 3]
    params = init_params(rng, sizes)
    x = T.dmatrix('x')
    y = forward(params, x, len(sizes) - 1)
    l2 = reduce(lambda a, b: a + b, [T.sum(p ** 2) for name, p in iteritems(params) if name.startswith('W')])
    cost = T.mean(y ** 2) + 1e-3 * l2
    names = sorted(params)
    grads = T.grad(cost, [params[n] for n in names])
    f = theano.function([x], [y, cost] + grads)
    x_val = rng.uniform(-1, 1, size=(4, 5))
    values = f(x_val)
    labels = ['y', 'cost'] + ['grad_' + n for n in names]
    assert all(isinstance(label, string_types) for label in labels)
    for label, value in six.moves.zip(labels, values):
        numpy.save(os.path.join(out_dir, label + '.npy'), value)
    # the parameters survive a pickle round trip through six's cPickle
    restored = pickle.loads(pickle.dumps(dict((n, p.get_value()) for n, p in iteritems(params)), 2))
    numpy.save(os.path.join(out_dir, 'W0_pickled.npy'), restored['W0'])
    print 'saved %d arrays' % (len(values) + 1)


if __name__ == '__main__':
    main(sys.argv[1])
