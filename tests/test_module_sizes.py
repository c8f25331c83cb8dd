"""No product module over 450 lines (house rule; issue 21 found three back over it): a module
that grows past the limit is split by concern, with names that say what each part is."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("faith_udfs", "flows", "schemas")
MOST_LINES = 450


def lines_of(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_product_module_is_over_the_limit() -> None:
    sizes = {
        str(path.relative_to(ROOT)): lines_of(path)
        for room in PRODUCT
        for path in (ROOT / room).rglob("*.py")
    }
    assert len(sizes) > 100, "the product's modules were found"
    over = {name: n for name, n in sizes.items() if n > MOST_LINES}
    assert over == {}, f"modules over {MOST_LINES} lines: split them by concern"
