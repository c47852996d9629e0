"""theanodoctor: diagnose, repair and prove legacy Theano GPU environments."""

__version__ = "0.1.0"
