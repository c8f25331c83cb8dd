"""Words the knowledge base and the orders are made of."""

from __future__ import annotations

import re

# The judge's own word rules, so what the data is built to test is what the judge reads.
from faith_udfs.words import STOP_WORDS, WORD_PATTERN

_WORD = re.compile(WORD_PATTERN)
# A subset of the lexical judge's stop words. Checking with fewer stop words is stricter, so
# what the build checks here (no new words, disjoint vocabularies) also holds for the judge.
_STOP = frozenset(
    "a an the is are was were be been to of in on at by for and or it its we our you your i my "
    "this that will can with from as has have had do does".split()
)
# The judge's stop words plus the negations and "may" it keeps as content words. A
# contradiction's changed word must be outside this set, so that any reasonable judge sees
# the change as a changed fact.
_FUNCTION_WORDS = STOP_WORDS | {"may", "no", "nor", "not"}

_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
_DAYS = tuple(str(d) for d in range(1, 29))
_CARRIERS = ("courier", "DHL", "UPS", "DPD", "GLS", "Hermes")
_CITIES = (
    "Berlin", "Hamburg", "Munich", "Cologne", "Vienna", "Zurich", "Paris", "Lyon", "Madrid",
    "Milan", "Amsterdam", "Rotterdam", "Brussels", "Copenhagen", "Oslo", "Stockholm", "Prague",
    "Warsaw", "Dublin", "Lisbon",
)  # fmt: skip
_COUNTRIES = (
    "Germany", "Austria", "Switzerland", "France", "Spain", "Italy", "Belgium", "Denmark",
    "Norway", "Sweden", "Poland", "Ireland", "Portugal", "Finland", "Czechia",
)  # fmt: skip
_STREETS = ("Hauptstrasse", "Market Street", "Station Road", "Lindenallee", "Harbour Street")
_PLANS = ("Basic", "Plus", "Premium", "Business", "Family", "Student")
_METHODS = ("card", "PayPal", "Klarna", "SEPA")
_PRODUCTS = (
    ("X200", "laptop"), ("Aria", "headphones"), ("Pulse", "smartwatch"), ("Nimbus", "router"),
    ("Vega", "tablet"), ("Orbit", "speaker"), ("K9", "blender"), ("Luma", "lamp"),
    ("Atlas", "backpack"), ("Zen", "kettle"), ("Nova", "phone"), ("Echo", "earbuds"),
    ("Terra", "bike"), ("Polar", "fridge"), ("Swift", "vacuum"),
)  # fmt: skip
_PARTS = ("battery", "screen", "motor", "charger", "keyboard")
_CATEGORIES = (
    "Shoes", "Headphones", "Laptops", "Phones", "Toys", "Books", "Mattresses", "Bikes",
    "Kettles", "Jackets", "Watches", "Printers",
)  # fmt: skip
_VOUCHER_WORDS = ("SPRING", "SUMMER", "AUTUMN", "WINTER", "WELCOME", "SAVE", "FLASH", "VIP")
_FEATURES = (
    "24/7 phone support", "free express shipping", "priority email support",
    "extended returns", "free gift wrapping", "early access to sales",
)  # fmt: skip

# Sentences no passage supports (the judge's `idk`) and small talk; the build checks that
# none of their words occurs anywhere in the knowledge base.
_UNSUPPORTED = (
    "It arrives tomorrow.", "Our team will call you back.",
    "You will receive a confirmation text shortly.", "A manager has approved an exception.",
    "We have added a small present as an apology.", "This is the fastest option available.",
    "Everything should be sorted out soon.", "I have escalated this to our specialists.",
    "A replacement has been reserved.", "The delay was caused by bad weather.",
    "You qualify for a loyalty bonus.", "Our new app makes this much easier.",
    "Someone from accounting will contact you.", "This happens quite rarely.",
    "Your ticket has been marked urgent.", "Most customers hear back the same afternoon.",
    "We see no problem on our side.", "Our logistics team is looking into it.",
    "It was probably left with a neighbour.", "A technician will visit on Tuesday.",
)  # fmt: skip
_OPENERS = ("Thanks for reaching out!", "Good question!", "Thanks for your patience.")
_CLOSERS = (
    "Happy to help!", "Have a great day!", "Hope this helps!", "Anything else I can do?",
    "Glad I could help.", "You're welcome.", "Thanks!", "Sorry for the trouble.", "We are sorry.",
)  # fmt: skip
