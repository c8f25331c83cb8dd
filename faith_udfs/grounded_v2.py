"""The grounded judge's second rules (`grounded-v2`), kept so its config series (and the
calibrations fitted for it) stay reproducible (`--judge grounded --model grounded-v2`):
grounded.py's features less `cov_second`, with the weights and cut-offs bench/fit_grounded.py
fitted for them. `grounded-v8` (grounded.py) is the default; v2 shares every rule of v3 but
these numbers."""

from __future__ import annotations

from faith_udfs.calibration import Cutoffs

GROUNDED_V2_RULES_VERSION = "grounded-v2"

# Fitted by bench/fit_grounded.py on the five dev sets (2026-11), without `cov_second`.
V2_WEIGHTS: dict[str, float] = {
    "intercept": -1.8369,
    "cov_all": 0.1494,
    "cov_best": 1.6363,
    "figure_missing": -1.0533,
    "figure_swapped": -0.4255,
    "name_missing": -0.8529,
    "negation": -0.1727,
    "short_gap": -0.2640,
    "log_words": 0.0760,
    "answer_cov": 1.5152,
}
V2_CUTOFFS = Cutoffs(supported=0.58, silent=0.001)
