"""``python -m commands``: the ``escoba`` command without installing its script."""

import sys

from . import main

sys.exit(main())
