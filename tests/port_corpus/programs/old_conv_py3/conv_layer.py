"""A LeNet-style convolution with the old theano.tensor.nnet.conv.conv2d (image_shape, filter_shape,
border_mode, subsample). Saves outputs and gradients as .npy."""
import os
import sys

import numpy as np
import theano
import theano.tensor as T
from theano.tensor.nnet import conv


class ConvLayer:
    def __init__(self, rng, input, filter_shape, image_shape, border_mode='valid', subsample=(1, 1)):
        bound = np.sqrt(6. / np.prod(filter_shape[1:]))
        self.W = theano.shared(rng.uniform(-bound, bound, size=filter_shape).astype(input.dtype), borrow=True)
        self.output = conv.conv2d(input=input, filters=self.W, filter_shape=filter_shape,
                                  image_shape=image_shape, border_mode=border_mode, subsample=subsample)


def main(out_dir):
    rng = np.random.RandomState(23455)
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
        w = theano.shared(rng.uniform(-1, 1, size=(3, 3, 2, 2)).astype(dtype))
        exprs = {'positional': T.nnet.conv.conv2d(x, w, image_shape, (3, 3, 2, 2), 'valid', (1, 2)),
                 'no_shapes': conv.conv2d(x, w)}
        exprs.update({name: layer.output for name, layer in layers.items()})
        params = [layers[n].W for n in sorted(layers)] + [w]
        names = sorted(exprs)
        cost = sum(T.sum(T.tanh(exprs[n])) for n in names)
        grads = T.grad(cost, [x] + params)
        values = theano.function([x], [exprs[n] for n in names] + grads)(x_val)
        labels = names + ['grad_x'] + ['grad_W_{}'.format(i) for i in range(len(params))]
        for name, value in zip(labels, values):
            outputs['{}_{}'.format(dtype, name)] = value
    for name, value in outputs.items():
        np.save(os.path.join(out_dir, name + '.npy'), value)
    print('saved {} arrays'.format(len(outputs)))


if __name__ == '__main__':
    main(sys.argv[1])
