"""A small MLP whose helpers use theano.compat.six, as code written for both Pythons did."""
import os
import sys

import numpy as np
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
        params['b%d' % i] = theano.shared(np.zeros(sizes[i + 1]))
    return params


def forward(params, x, n_layers):
    h = x
    for i in xrange(n_layers):
        h = T.tanh(T.dot(h, params['W%d' % i]) + params['b%d' % i])
    return h


def main(out_dir):
    rng = np.random.RandomState(7)
    sizes = [5, 7, 3]
    params = init_params(rng, sizes)
    x = T.dmatrix('x')
    y = forward(params, x, len(sizes) - 1)
    l2 = reduce(lambda a, b: a + b, [T.sum(p ** 2) for name, p in iteritems(params) if name.startswith('W')])
    cost = T.mean(y ** 2) + 1e-3 * l2
    names = sorted(params)
    grads = T.grad(cost, [params[n] for n in names])
    values = theano.function([x], [y, cost] + grads)(rng.uniform(-1, 1, size=(4, 5)))
    labels = ['y', 'cost'] + ['grad_' + n for n in names]
    assert all(isinstance(label, string_types) for label in labels)
    for label, value in six.moves.zip(labels, values):
        np.save(os.path.join(out_dir, label + '.npy'), value)
    restored = pickle.loads(pickle.dumps({n: p.get_value() for n, p in iteritems(params)}, 2))
    np.save(os.path.join(out_dir, 'W0_pickled.npy'), restored['W0'])
    print('saved {} arrays'.format(len(values) + 1))


if __name__ == '__main__':
    main(sys.argv[1])
