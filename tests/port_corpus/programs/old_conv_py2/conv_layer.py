# A LeNet-style convolution with the old theano.tensor.nnet.conv.conv2d (image_shape,
# filter_shape, border_mode, subsample), as the Theano 0.6-0.8 tutorials wrote it.
# Saves outputs and gradients as .npy.
import os
import sys

import numpy
import theano
import theano.tensor as T
from theano.tensor.nnet import conv


class ConvLayer(object):
    def __init__(self, rng, input, filter_shape, image_shape, border_mode='valid', subsample=(1, 1)):
        fan_in = numpy.prod(filter_shape[1:])
        bound = numpy.sqrt(6. / fan_in)
        self.W = theano.shared(numpy.asarray(rng.uniform(-bound, bound, size=filter_shape),
                                             dtype=input.dtype), borrow=True)
        self.output = conv.conv2d(input=input, filters=self.W, filter_shape=filter_shape,
                                  image_shape=image_shape, border_mode=border_mode, subsample=subsample)


def main(out_dir):
    rng = numpy.random.RandomState(23455)
    outputs = {}
    for dtype in ('float64', 'float32'):
        image_shape = (2, 3, 9, 8)
        x_val = rng.uniform(-1, 1, size=image_shape).astype(dtype)
        x = T.tensor4('x', dtype=dtype)
        layers = {
            'valid': ConvLayer(rng, x, (4, 3, 3, 2), image_shape),
            'full': ConvLayer(rng, x, (4, 3, 3, 2), image_shape, border_mode='full'),
            'valid_sub22': ConvLayer(rng, x, (5, 3, 2, 3), image_shape, 'valid', (2, 2)),
            'full_sub21': ConvLayer(rng, x, (2, 3, 4, 4), image_shape, 'full', (2, 1)),
        }
        # positional shapes, and no shapes at all
        w = theano.shared(rng.uniform(-1, 1, size=(3, 3, 2, 2)).astype(dtype))
        exprs = {'positional': T.nnet.conv.conv2d(x, w, image_shape, (3, 3, 2, 2), 'valid', (1, 2)),
                 'no_shapes': conv.conv2d(x, w)}
        for name, layer in layers.iteritems():
            exprs[name] = layer.output
        params = [layers[n].W for n in sorted(layers)] + [w]
        names = sorted(exprs)
        cost = sum(T.sum(T.tanh(exprs[n])) for n in names)
        grads = T.grad(cost, [x] + params)
        f = theano.function([x], [exprs[n] for n in names] + grads)
        values = f(x_val)
        labels = names + ['grad_x'] + ['grad_W_%d' % i for i in range(len(params))]
        for name, value in zip(labels, values):
            outputs['%s_%s' % (dtype, name)] = value
    for name, value in outputs.items():
        numpy.save(os.path.join(out_dir, name + '.npy'), value)
    print 'saved %d arrays' % len(outputs)


if __name__ == '__main__':
    main(sys.argv[1])
