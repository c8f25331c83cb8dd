"""The sample generator, by what it makes: knowledge base, orders, cases, tables."""
