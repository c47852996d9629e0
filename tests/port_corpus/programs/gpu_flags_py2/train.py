# A training step set up for the old GPU backend: device=gpu and lib.cnmem in THEANO_FLAGS
# before theano is imported, and theano.sandbox.cuda.use() to pick the card.
import os
os.environ['THEANO_FLAGS'] = 'mode=FAST_RUN,device=gpu0,floatX=float32,lib.cnmem=0.75,nvcc.fastmath=True'
import sys

import numpy
import theano
import theano.sandbox.cuda
import theano.tensor as T

theano.sandbox.cuda.use('gpu0')


def main(out_dir):
    rng = numpy.random.RandomState(11)
    floatX = theano.config.floatX
    W = theano.shared(rng.normal(0, 0.2, size=(6, 4)).astype(floatX), name='W')
    b = theano.shared(numpy.zeros(4, dtype=floatX), name='b')
    x = T.matrix('x')
    y = T.ivector('y')
    p = T.nnet.softmax(T.dot(x, W) + b)
    cost = T.nnet.categorical_crossentropy(p, y).mean()
    gW, gb = T.grad(cost, [W, b])
    lr = numpy.asarray(0.1, dtype=floatX)
    train = theano.function([x, y], cost, updates=[(W, W - lr * gW), (b, b - lr * gb)])
    x_val = rng.normal(size=(8, 6)).astype(floatX)
    y_val = rng.randint(0, 4, size=8).astype('int32')
    costs = [train(x_val, y_val) for _ in range(5)]
    numpy.save(os.path.join(out_dir, 'costs.npy'), numpy.array(costs))
    numpy.save(os.path.join(out_dir, 'W.npy'), W.get_value())
    numpy.save(os.path.join(out_dir, 'floatX.npy'), numpy.array([floatX == 'float32']))
    print 'device %s, final cost %f' % (theano.config.device, costs[-1])


if __name__ == '__main__':
    main(sys.argv[1])
