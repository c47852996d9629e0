from sknn.backend import lasagne
