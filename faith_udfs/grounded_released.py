"""The numbers of the grounded judge's earlier rules, kept so their config series (and the
calibrations fitted for them) score as they did: `grounded-v12` (a greeting or thanks and four
words of any kind after it read as no claim), `grounded-v11` (an offer of help or a welcome
read as a claim), `grounded-v10` (a smiley or "..." read as a
claim), `grounded-v9` (a context's "235, 000" read as two words only), `grounded-v8` ("1,000"
read as two words), `grounded-v7` (units compared whatever their kind), `grounded-v6` (dates
read as names), `grounded-v5` (one opening interjection cut) and `grounded-v4` /
`grounded-v3` (openings read as words). grounded.py's GroundedV12Judge to GroundedV3Judge
weigh with them; `grounded-v13` (grounded.py) is the default."""

from __future__ import annotations

from faith_udfs.calibration import Cutoffs

GROUNDED_V12_RULES_VERSION = "grounded-v12"
GROUNDED_V11_RULES_VERSION = "grounded-v11"
GROUNDED_V10_RULES_VERSION = "grounded-v10"
GROUNDED_V9_RULES_VERSION = "grounded-v9"
GROUNDED_V8_RULES_VERSION = "grounded-v8"
GROUNDED_V7_RULES_VERSION = "grounded-v7"
GROUNDED_V6_RULES_VERSION = "grounded-v6"
GROUNDED_V5_RULES_VERSION = "grounded-v5"
GROUNDED_V4_RULES_VERSION = "grounded-v4"
GROUNDED_V3_RULES_VERSION = "grounded-v3"

# grounded-v5's numbers, written out: a refit of WEIGHTS must not move v5's series.
V5_WEIGHTS: dict[str, float] = {
    "intercept": -1.9289,
    "cov_all": 0.6107,
    "cov_best": 1.1419,
    "cov_second": -1.0578,
    "figure_missing": -1.0490,
    "figure_swapped": -0.4587,
    "name_missing": -0.8218,
    "negation": -0.1010,
    "short_gap": -0.3728,
    "log_words": 0.0979,
    "answer_cov": 1.6242,
}

# grounded-v4's (and v3's) numbers, fitted by bench/fit_grounded.py before v5 cut interjections.
V4_WEIGHTS: dict[str, float] = {
    "intercept": -1.9092,
    "cov_all": 0.6355,
    "cov_best": 1.1874,
    "cov_second": -1.1591,
    "figure_missing": -1.0549,
    "figure_swapped": -0.4416,
    "name_missing": -0.8554,
    "negation": -0.0582,
    "short_gap": -0.2384,
    "log_words": 0.1021,
    "answer_cov": 1.5649,
}

V5_CUTOFFS = Cutoffs(supported=0.56, silent=0.001)
V4_CUTOFFS = Cutoffs(supported=0.56, silent=0.001)

# grounded-v6 kept v5's numbers (its rules moved no dev-set verdict): a copy, which a refit of
# WEIGHTS (grounded.py) cannot move.
V6_WEIGHTS: dict[str, float] = dict(V5_WEIGHTS)
V6_CUTOFFS = V5_CUTOFFS

# grounded-v7 kept v5's numbers too (13 of the dev sets' 4,004 verdicts moved): a copy.
V7_WEIGHTS: dict[str, float] = dict(V5_WEIGHTS)
V7_CUTOFFS = V5_CUTOFFS

# grounded-v8 kept v5's numbers too (two dev-set verdicts moved): a copy.
V8_WEIGHTS: dict[str, float] = dict(V5_WEIGHTS)
V8_CUTOFFS = V5_CUTOFFS

# grounded-v9 kept v5's numbers too (23 dev-set cases' verdicts moved): a copy.
V9_WEIGHTS: dict[str, float] = dict(V5_WEIGHTS)
V9_CUTOFFS = V5_CUTOFFS

# grounded-v10 kept v5's numbers too (five dev-set cases' verdicts moved, QAGS's): a copy.
V10_WEIGHTS: dict[str, float] = dict(V5_WEIGHTS)
V10_CUTOFFS = V5_CUTOFFS

# grounded-v11 kept v5's numbers too (two dev-set cases' verdicts moved, BEGIN's): a copy.
V11_WEIGHTS: dict[str, float] = dict(V5_WEIGHTS)
V11_CUTOFFS = V5_CUTOFFS

# grounded-v12 kept v5's numbers too (no dev-set case's verdict moved): a copy.
V12_WEIGHTS: dict[str, float] = dict(V5_WEIGHTS)
V12_CUTOFFS = V5_CUTOFFS
