"""The nightly run: score what is new, then check the judge on the golden set."""
