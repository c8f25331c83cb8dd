"""What judge tokens cost: `--price-input` / `--price-output`, else a small built-in table.

Prices are USD per million tokens, as providers publish them. The table holds a few
well-known models' list prices (OpenAI's pricing page, standard tier, as of 2025); a provider
may charge otherwise (Azure, batch or cached-input discounts, a new price list), so give the
options to be exact. A dated model name (`gpt-4o-mini-2024-07-18`, `gpt-3.5-turbo-0125`)
takes its base name's price, unless the table lists the snapshot itself; any other name that
only starts with a listed one (`gpt-4o-realtime-preview`) has no price: a wrong price is worse
than "cost unknown".
"""

from __future__ import annotations

import re

# model: (USD per 1M prompt tokens, USD per 1M completion tokens)
BUILT_IN_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-2024-05-13": (5.00, 15.00),  # the first gpt-4o snapshot kept its launch price
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4-turbo": (10.00, 30.00),
    "gpt-3.5-turbo": (0.50, 1.50),
    # gpt-3.5-turbo's older snapshots kept their own (higher) prices; -0125 is the base's
    "gpt-3.5-turbo-1106": (1.00, 2.00),
    "gpt-3.5-turbo-0613": (1.50, 2.00),
    "gpt-3.5-turbo-0301": (1.50, 2.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
}


# A snapshot's date after the base name: -2024-07-18, or -0125 as gpt-3.5-turbo's were named.
_DATED = re.compile(r"^(?P<base>.+)-(?:\d{4}-\d{2}-\d{2}|\d{4})$")


def table_price(model: str | None) -> tuple[float, float] | None:
    """The built-in price of `model` (its exact name, else the name without a snapshot date),
    or None when the table does not know it."""
    if not model:
        return None
    name = model.strip().lower().rsplit("/", 1)[-1]  # "openai/gpt-4o-mini" (LiteLLM style)
    if name in BUILT_IN_PRICES:
        return BUILT_IN_PRICES[name]
    dated = _DATED.match(name)
    return BUILT_IN_PRICES.get(dated.group("base")) if dated else None


# OpenAI's Batch API bills half the chat-completions price for the same tokens.
BATCH_DISCOUNT = 0.5


def judge_prices(
    kind: str,
    model: str | None,
    price_input: float | None,
    price_output: float | None,
    mode: str | None = None,
) -> tuple[float | None, float | None]:
    """USD per million tokens (in, out) of a run's judge: each option given wins over the
    table (whose prices are halved in batch mode); an offline judge (grounded, lexical) makes
    no call and costs nothing."""
    if kind != "openai":
        return 0.0, 0.0
    listed = table_price(model)
    if listed is not None and mode == "batch":
        listed = (listed[0] * BATCH_DISCOUNT, listed[1] * BATCH_DISCOUNT)
    return (
        price_input if price_input is not None else (listed[0] if listed else None),
        price_output if price_output is not None else (listed[1] if listed else None),
    )


def cost_usd(
    prompt_tokens: int,
    completion_tokens: int,
    price_input: float | None,
    price_output: float | None,
) -> float | None:
    """Tokens at the prices (USD per million); None when either price is unknown."""
    if price_input is None or price_output is None:
        return None
    return (prompt_tokens * price_input + completion_tokens * price_output) / 1_000_000
