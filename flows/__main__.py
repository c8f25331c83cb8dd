"""`python -m flows`: the `faith` command."""

import sys

from flows.cli import main

sys.exit(main())
