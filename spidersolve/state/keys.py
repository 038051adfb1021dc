"""The hash keys of ``_hashing``, fixed by ``KEY_SEED``, and a copy of them on disk.

``CARD_KEYS[variant, slot, card, face_down]`` (uint64[2, CAP, 64, 2]) and
``STOCK_KEYS[variant, deal, card]`` (uint64[2, 5, 64]) are the first outputs
of numpy's PCG64 generator seeded with ``KEY_SEED``. Every hash, and so every
node count and noise draw of the search, depends on them, so they never
change.

Making them needs ``numpy.random``, whose import takes about 0.013 s of every
solving command's start. So ``make setup`` writes them once to ``KEYS_FILE``
beside this module (``python -m spidersolve.state.keys``), and a command
loads that file (0.3 ms) when its SHA-256 is ``KEYS_SHA256``, the digest of
the generated keys; otherwise (no file, a damaged or stale one) the keys are
generated as before. Either way they are the same keys (tested).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import numpy as np

from ._board import CAP

KEY_SEED = 0x5D1DE5
CARD_SHAPE = (2, CAP, 64, 2)
STOCK_SHAPE = (2, 5, 64)
KEYS_FILE = Path(__file__).with_name(f"_keys_{KEY_SEED:x}.npy")
# SHA-256 of the generated keys' bytes, CARD_KEYS then STOCK_KEYS (C order, little-endian)
KEYS_SHA256 = "cef28bf798eafbceac7090ad7c4fb25943050b6ee13e68818795ef5044b15b57"


def generate_keys() -> tuple[np.ndarray, np.ndarray]:
    """(CARD_KEYS, STOCK_KEYS) from numpy's PCG64 seeded with ``KEY_SEED``."""
    rng = np.random.Generator(np.random.PCG64(KEY_SEED))
    card_keys = rng.integers(0, 2**64, size=CARD_SHAPE, dtype=np.uint64, endpoint=False)
    stock_keys = rng.integers(0, 2**64, size=STOCK_SHAPE, dtype=np.uint64, endpoint=False)
    return card_keys, stock_keys


def _flat(card_keys: np.ndarray, stock_keys: np.ndarray) -> np.ndarray:
    return np.concatenate([card_keys.ravel(), stock_keys.ravel()]).astype("<u8")


def keys_digest(card_keys: np.ndarray, stock_keys: np.ndarray) -> str:
    """The SHA-256 (hex) of the keys as ``KEYS_FILE`` holds them."""
    return _digest(_flat(card_keys, stock_keys))


def _digest(flat: np.ndarray) -> str:
    return hashlib.sha256(flat.tobytes()).hexdigest()


def load_keys(path: Path = KEYS_FILE) -> tuple[np.ndarray, np.ndarray]:
    """The keys from ``path`` when it holds exactly them, else generated."""
    try:
        flat = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return generate_keys()
    n_card = int(np.prod(CARD_SHAPE))
    if (
        flat.dtype != np.dtype("<u8")
        or flat.shape != (n_card + int(np.prod(STOCK_SHAPE)),)
        or _digest(flat) != KEYS_SHA256
    ):
        return generate_keys()
    flat = flat.astype(np.uint64)
    return flat[:n_card].reshape(CARD_SHAPE), flat[n_card:].reshape(STOCK_SHAPE)


def write_keys(path: Path = KEYS_FILE) -> None:
    """Write the generated keys to ``path`` (atomically)."""
    from ..files import write_atomic

    flat = _flat(*generate_keys())
    write_atomic(path, lambda handle: np.save(handle, flat, allow_pickle=False))


def main() -> int:
    write_keys()
    return 0


if __name__ == "__main__":
    sys.exit(main())
