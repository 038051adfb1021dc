"""The search's heuristic weights (see ``_kernels.evaluate``)."""

from . import _kernels as K

_W = [0] * K.N_WEIGHTS
_W[K.W_FACE_DOWN] = 3
_W[K.W_BREAK] = 2
_W[K.W_MIXED] = 1
_W[K.W_EMPTY] = 3
_W[K.W_REMOVED] = 20
_W[K.W_DEAL_LEFT] = 15
_W[K.W_DEPTH] = 0
_W[K.W_DOWN_RUN] = 0
DEFAULT_WEIGHTS = tuple(_W)
