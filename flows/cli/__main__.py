"""`python -m flows.cli`: the `faith` command."""

import sys

from flows.cli import main

sys.exit(main())
