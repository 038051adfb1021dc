"""``python -m spidersolve.search.build``: compile the native search kernel (``native.py``)."""

import sys

from .native import main

if __name__ == "__main__":
    sys.exit(main())
