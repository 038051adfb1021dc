"""The search's frontier heap and growable buffers: plain arrays, numba kernels.

A heap is an int64 array ``heap[:size]`` kept as a binary min-heap; the
caller holds ``size`` and grows the array (``grow``) before a push that
would not fit.
"""

import numpy as np

from .._jit import njit
from ..state._board import JIT


@njit(**JIT)
def heap_push(heap, size, key):
    """Push ``key`` onto ``heap[:size]`` (which must have room); returns the new size."""
    i = size
    heap[i] = key
    while i > 0:
        parent = (i - 1) >> 1
        if heap[parent] <= key:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = key
    return size + 1


@njit(**JIT)
def heap_pop(heap, size):
    """Take the smallest key off ``heap[:size]`` (size > 0); the new size is size - 1."""
    top = heap[0]
    size -= 1
    last = heap[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= last:
            break
        heap[i] = heap[child]
        i = child
    if size > 0:
        heap[i] = last
    return top


@njit(**JIT)
def grow(arr):
    """A copy of the 1-d ``arr`` twice as long (the new half uninitialised)."""
    out = np.empty(arr.shape[0] * 2, arr.dtype)
    out[: arr.shape[0]] = arr
    return out


@njit(**JIT)
def grow_rows(arr):
    """A copy of the 2-d ``arr`` with twice the rows (the new ones uninitialised)."""
    grown = np.empty((arr.shape[0] * 2, arr.shape[1]), arr.dtype)
    grown[: arr.shape[0]] = arr
    return grown
