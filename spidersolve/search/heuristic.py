"""The search's heuristic weights (see ``_kernels.evaluate``)."""

from . import _kernels as K

_W = [0] * K.N_WEIGHTS
_W[K.W_FACE_DOWN] = 3
_W[K.W_BREAK] = 3
_W[K.W_MIXED] = 2
_W[K.W_EMPTY] = 4
_W[K.W_REMOVED] = 30
_W[K.W_DEAL_LEFT] = 0
_W[K.W_DEPTH] = 1
_W[K.W_DOWN_RUN] = 0
_W[K.W_LOOSE] = 0
_W[K.W_GOOD] = 0
DEFAULT_WEIGHTS = tuple(_W)

# The order in which the frontier heaps (one per number of deals left) are served.
DEFAULT_SCHEDULE = (0, 1, 2, 3, 4, 5)
