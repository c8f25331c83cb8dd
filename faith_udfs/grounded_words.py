"""Word rules of the grounded judge: which sentences claim nothing, and the words it compares.

Words are the lexical judge's content words (same normalisation, same stop words) plus what
matching across paraphrase needs: "n't" read as "not", and words cut to a common stem.
"""

from __future__ import annotations

import re
from functools import cache

import polars as pl

from faith_udfs.list_rows import as_lists
from faith_udfs.words import STOP_WORDS, WORD_PATTERN, normalized

# Words are compared on a crude, language-light stem: a common inflection cut off, then the
# first STEM_LENGTH letters ("delivered", "delivery", "deliveries" meet). Numbers stay whole.
STEM_LENGTH = 6
INFLECTION = r"(?:ings|ing|ies|ied|ed|es|s)$"
_INFLECTION = re.compile(INFLECTION)

# "can't" -> "ca not", "won't" -> "wo not": the stubs are not words.
_CONTRACTION_STUBS = frozenset({"ca", "wo", "sha"})
GROUNDED_STOP_WORDS = frozenset(STOP_WORDS | _CONTRACTION_STUBS)

NEGATIONS = frozenset("no not never none nobody nothing neither nor cannot without unable".split())
# Number words that state an amount ("one" is left out: mostly a pronoun).
NUMBER_WORDS = frozenset(
    """two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty
    hundred hundreds thousand thousands million millions billion billions trillion dozen
    twice half""".split()
)

# Sentences that claim nothing about the world: refusals and remarks about the answer itself.
# Matched case-insensitively on the normalised sentence.
_NOT = r"(?: not|n't|n’t)"
_REFUSAL = (
    r"\b(?:(?:unable to|cannot|can ?not|can't|can’t|could" + _NOT + r") "
    r"(?:answer|determine|be determined|be answered)"
    r"|i (?:am unable to|cannot|can't|can’t|could" + _NOT + r") (?:find|tell|say|provide)"
    r"|(?:not enough|insufficient) (?:relevant |specific )?information"
    r"|there (?:is|was) no (?:relevant |specific )?information"
    r"|(?:passages?|context|documents?|sources?|texts?|articles?) (?:do|does|did)" + _NOT + " "
    r"(?:provide|contain|mention|specify|say|include|state|give|discuss|address)"
    r"|i do" + _NOT + r" know|as an ai\b)"
)
_LEAD = r"^\W*(?:here (?:is|are)|here's|below (?:is|are)|the following (?:is|are))\b"
# An answer's opening lead-in up to its colon ("Here is a summary of the news in 116 words:");
# the seed's splitter does not end a sentence at a colon, so it is cut off before splitting.
LEAD_IN_PATTERN = f"(?i){_LEAD}[^:.!?]*:\\s*"
# A sentence that is only a lead-in or a summary marker. `[^:]*(?::\s*)?$` is `[^:]*:?\s*$`
# (the same sentences) that Python's `re` (the one-case twin) reads in linear time: the other
# split a run of white space every way ("Here are", 10,000 spaces and tabs, ": : x": 3 s).
_META = _LEAD + r"[^:]*(?::\s*)?$" + r"|^\W*(?:in )?(?:summary|to summari[sz]e|overall)\W*$"
NON_CLAIM_PATTERN = f"(?i)(?:{_REFUSAL}|{_META})"

# A short courtesy ("Thanks for your patience!", "Happy to help!", "Anything else?") states
# nothing a context could support: not a claim (v2; v1 judged them `idk`).
PLEASANTRY_PATTERN = (
    r"(?i)^\W*(?:thanks?|thank you|happy to help|glad to help|you['’]?re welcome"
    r"|hope (?:this|that|it) helps|anything else|hello|hi|hey)\b(?:\W+\w+){0,4}\W*$"
)
# v4: the courtesies chat models close or open with ("I hope this helps!", "Let me know if you
# have any other questions.", "Great question!"), whole sentences; a policy such as "Feel free
# to return it within 30 days." is still a claim.
COURTESY_PATTERN = (
    r"(?i)^\W*(?:i hope (?:this|that|it|my answer) (?:helps|answers|clarifies)"
    r"|(?:please )?let me know\b|(?:please )?feel free to (?:ask|reach out|contact|get in touch"
    r"|let me know)|if you have any (?:other |more |further |additional )?questions"
    r"|is there anything else|(?:sure|certainly|absolutely|of course|great question"
    r"|good question|no problem|good luck|i['’]m glad (?:to|i could) help"
    r"|have a (?:great|nice|good|wonderful) day)\W*$)"
)


def without_lead_in(answer: pl.Expr) -> pl.Expr:
    """The answer without an opening "Here is a summary of ...:" (it claims nothing)."""
    return answer.str.replace(LEAD_IN_PATTERN, "")


# v5: a reply's opening interjection ("Yes, ...", "Sure! ...", "Of course, ...") states no fact,
# yet it is a word the context lacks and the rarest there is: it cost a chat bot's claims their
# support ("Yes, it shipped on 3 March." fell to the cut-off). "No" is a negation and stays. The
# words that are more than interjections ("well", "great") count only before punctuation. A
# hyphen counts only before a space: "Well-known brands ..." and "Yes-men ..." open no reply.
INTERJECTION_PATTERN = (
    r"(?i)^\W*(?:(?:yes|yeah|yep|yup|ok|okay|oh|ah|hmm|um|uh|wow)(?:[\s,;:!.–—]|-+\s)+"
    r"|(?:sure|absolutely|certainly|definitely|of course|indeed|alright|well|great)"
    r"\s*(?:[,;:!.–—]|-+\s)+\s*)"
)


# v6: v5's cut, read again (a review found where it failed). Openings stack ("Yes, of course,
# ..."): one is cut at a time, up to OPENINGS_CUT. Ellipses and full-width marks are
# punctuation. Only white space may come before one: "(Yes, ...)" and '"Yes," said ...' are
# quotes, not openings. An opening word with no punctuation after it is cut only when written
# "yes" or "Yes" and followed by a lower-case word ("Yes it shipped", "oh i see"): "Oh Sehun was
# born ..." names a person, "OK has no state income tax" a state. The lower-case letter is
# matched (Rust's regex has no look-ahead) and given back by the replacement.
_OPENING_PUNCT = r"[,;:!.…！，：；–—]"
_OPENING_SEP = rf"(?:{_OPENING_PUNCT}|-+\s)"
_OPENING_WORDS = r"yes|yeah|yep|yup|ok|okay|oh|ah|hmm|um|uh|wow"
_POLITE_WORDS = r"sure|absolutely|certainly|definitely|of\s+course|indeed|alright|well|great"
_BARE_WORDS = "|".join(f"[{w[0].upper()}{w[0]}]{w[1:]}" for w in _OPENING_WORDS.split("|"))
OPENING_PATTERN = (
    rf"(?i)^\s*(?:(?:{_OPENING_WORDS}|{_POLITE_WORDS})\s*{_OPENING_SEP}(?:\s|{_OPENING_SEP})*"
    rf"|(?-i:{_BARE_WORDS})\s+(?-i:([a-z])))"
)
# What the replacement keeps: the lower-case letter after a bare opening word (group 1).
OPENING_KEPT = "${1}"
OPENINGS_CUT = 4


def without_opening(sentence: pl.Expr) -> pl.Expr:
    """v6: the sentence without its opening interjections (OPENING_PATTERN, at most
    OPENINGS_CUT of them), when what is left still holds a content word ("Yes, of course, it
    shipped." -> "it shipped."; "Oh Sehun was born in 1994." stays as it is)."""
    opens = sentence.str.contains(OPENING_PATTERN)
    # Only the sentences that open with one are cut (the rest take ""): each cut copies them.
    rest = _openings_cut(pl.when(opens).then(sentence).otherwise(pl.lit("")))
    return when_it_says(sentence, rest)


def without_openings(sentences: pl.Series) -> pl.Series:
    """without_opening of each sentence of each list of `sentences`, cheaper: only the
    sentences that open are cut, and each is cut once (the expression computes its cut again
    for the choice after the content-word test: a third of a chat batch's claims step)."""
    flat = sentences.explode()
    rows = flat.str.contains(OPENING_PATTERN).fill_null(False).arg_true()
    if rows.len() == 0:
        return sentences
    opening = flat.gather(rows)
    # _openings_cut, each cut after the first only while some sentence still opens (a chat
    # bot's "Yes, " is one): a cut of a sentence that does not open leaves it as it is.
    rest = opening.str.replace(OPENING_PATTERN, OPENING_KEPT)
    for _ in range(OPENINGS_CUT - 1):
        if not rest.str.contains(OPENING_PATTERN).any():
            break
        rest = rest.str.replace(OPENING_PATTERN, OPENING_KEPT)
    cut = (
        pl.DataFrame({"sentence": opening, "rest": rest})
        .select(pl.when(_says_something(pl.col("rest"))).then("rest").otherwise("sentence"))
        .to_series()
    )
    return as_lists(flat.scatter(rows, cut), sentences)


def _openings_cut(sentence: pl.Expr) -> pl.Expr:
    """The sentence with its openings cut, up to OPENINGS_CUT of them, one at a time."""
    for _ in range(OPENINGS_CUT):
        sentence = sentence.str.replace(OPENING_PATTERN, OPENING_KEPT)
    return sentence


def without_interjection(sentence: pl.Expr) -> pl.Expr:
    """v5: the sentence without its opening interjection, when what is left still holds a
    content word ("Yes, order A17 shipped." -> "order A17 shipped."; "Yes!" stays as it is)."""
    opens = sentence.str.contains(INTERJECTION_PATTERN)
    rest = sentence.str.replace(INTERJECTION_PATTERN, "")
    # Only the sentences that open with one are split into words (the rest take ""): the
    # words were most of a support bot's claims' cost, whose sentences rarely open so.
    said = pl.when(opens).then(rest).otherwise(pl.lit(""))
    return when_it_says(sentence, said)


def when_it_says(sentence: pl.Expr, rest: pl.Expr) -> pl.Expr:
    """`rest` (the sentence cut, or "" where nothing was cut) when it holds a content word,
    else the sentence as it is."""
    return pl.when(_says_something(rest)).then(rest).otherwise(sentence)


def _says_something(text: pl.Expr) -> pl.Expr:
    """Whether the text holds a content word."""
    words = text.str.to_lowercase().str.extract_all(WORD_PATTERN)
    return words.list.eval(~pl.element().is_in(list(GROUNDED_STOP_WORDS))).list.any()


# v11: a letter or a digit of any script; a sentence without one ("😊", ":)", "...", "—") says
# nothing a context could support or contradict. Not citations.ALNUM_PATTERN: Rust's `\w`
# holds marks and the zero-width joiner, which emoji are written with ("❤️", "👨‍👩‍👧").
WORDED_PATTERN = r"[\p{L}\p{N}]"


def is_worded(sentence: pl.Expr) -> pl.Expr:
    """v11: whether the sentence holds a letter or a digit (WORDED_PATTERN): one that does not
    is an emoji, an emoticon or punctuation, no claim."""
    return sentence.str.contains(WORDED_PATTERN)


# v11: a bot announcing its next step, a whole sentence: "Let me check that for you.", "I'll
# look into it.", "One moment, please.", "I'm checking your order now." It states nothing a
# context could hold (an agent says it before a tool call, then answers), yet was a claim the
# context lacked, `no`. Its object may be only a few plain words (_OBJECT): "Let me check why
# the refund failed." says the refund failed, and "Let me check: your order has shipped.",
# "Please wait 5 minutes." and "Wait for the email." stay claims.
_OBJECT = (
    r"(?:\s+(?:that|this|it|them|for|you|up|into|on|at|in|now|right|away|quickly|again|the"
    r"|your|my|our|a|an|of|order|orders|status|details|information|account|system|records"
    r"|tracking|ticket|request|case|latest|quick)){0,6}"
)
_ANNOUNCED = (
    r"(?:let me|i['’]ll|i will|i am going to|i['’]m going to|allow me to)(?: just| quickly)?"
    r" (?:check|look|see|find out|search|pull up|review|investigate)"
    r"|(?:i am|i['’]m) (?:checking|looking)"
)
_WAITING = (
    r"(?:just |please )?(?:one|a) (?:moment|second|minute|sec)"
    r"|(?:please )?(?:hold on|bear with me)|please wait|wait a (?:moment|second|minute|sec)"
    r"|give me (?:a|one) (?:moment|second|minute|sec)"
)
ANNOUNCEMENT_PATTERN = (
    r"(?i)^\W*(?:(?:ok|okay|sure|alright|all right|certainly|of course)\W+)?"
    rf"(?:(?:{_ANNOUNCED}){_OBJECT}"
    rf"|(?:{_WAITING})(?:\W+please)?(?:\W+while (?:{_ANNOUNCED}|i (?:check|look)){_OBJECT})?)"
    r"\W*$"
)


# v11: a bare refusal to help, a whole sentence ("I'm sorry, but I can't assist with that.",
# what OpenAI's models say as a refusal): it claims nothing, yet only refusals to answer
# ("I cannot answer that.") were no claims, so it was `no` and its answer scored 0. "I can't
# help with refunds over 500 euros." states a policy: a claim.
DECLINE_PATTERN = (
    r"(?i)^\W*(?:(?:i['’]m |i am )?(?:so |very )?sorry\W+(?:but\W+)?)?"
    r"i (?:can['’]?t|cannot|can not|am unable to|['’]m unable to|am not able to|won['’]t"
    r"|will not) (?:help|assist|do|comply|provide help)"
    r"(?:\s+(?:you|with|that|this|it|the|your|request|here|at|all|on|one|further))*\W*$"
)


def states_something(sentence: pl.Expr) -> pl.Expr:
    """v11: whether a sentence is a claim at all: it holds a letter or a digit (is_worded), is
    no announcement of the bot's next step (ANNOUNCEMENT_PATTERN) and no bare refusal to help
    (DECLINE_PATTERN)."""
    return (
        is_worded(sentence)
        & ~sentence.str.contains(ANNOUNCEMENT_PATTERN)
        & ~sentence.str.contains(DECLINE_PATTERN)
    )


def is_claim(sentence: pl.Expr) -> pl.Expr:
    """False for refusals ("Unable to answer based on the passages") and meta sentences
    ("Here is a summary of the passages:"): they state nothing a context could support."""
    return ~sentence.str.contains(NON_CLAIM_PATTERN)


def stem(word: pl.Expr) -> pl.Expr:
    """A crude stem: a common inflection cut off ("breaks" -> "break"), then the first
    STEM_LENGTH letters ("delivered", "delivery" -> "delive")."""
    return (
        pl.when(word.str.len_chars() > 4)
        .then(word.str.replace(INFLECTION, ""))
        .otherwise(word)
        .str.slice(0, STEM_LENGTH)
    )


@cache
def negation_stems() -> tuple[str, ...]:
    """`stem` of each of NEGATIONS, computed once."""
    return tuple(pl.select(stem(pl.lit(pl.Series(sorted(NEGATIONS))))).to_series().to_list())


def word_stem(word: str) -> str:
    """`stem` of one word, in Python (the one-case paths' twin)."""
    cut = _INFLECTION.sub("", word, count=1) if len(word) > 4 else word
    return cut[:STEM_LENGTH]


def _tokens(text: pl.Expr, *, cased: bool) -> pl.Expr:
    """Each (`normalized`) text's words, "n't" read as "not"; `cased` keeps the capitals after
    the first word (a capital left marks a name), else all are lower-cased."""
    text = text.str.replace_all(r"(?i)n['’]t\b", " not")
    if not cased:
        return text.str.to_lowercase().str.extract_all(WORD_PATTERN)
    text = text.str.strip_chars_start()
    text = text.str.head(1).str.to_lowercase() + text.str.slice(1)
    return text.str.extract_all(WORD_PATTERN)


def word_rows(texts: pl.DataFrame, text: str, by: str, *, specifics: bool) -> pl.DataFrame:
    """One row per distinct word of each `by` group's text: `by`, `word` (a 64-bit hash of its
    stem; figures are kept whole), `negation`, and with `specifics` (claims need it, truths
    do not) `specific`: a figure, amount or name."""
    token = pl.col("token")
    figure = token.str.contains(r"\d") | token.is_in(list(NUMBER_WORDS))
    # A capitalised word after the first is read as a name ("in Berlin"); an all-capitals one
    # is not (acronyms are often spelled out).
    name = pl.col("cased").str.contains(r"^\p{Lu}") & ~pl.col("cased").str.contains(r"^\p{Lu}+$")
    tokens = (
        normalized(texts, text)
        .select(by, cased=_tokens(pl.col(text), cased=specifics))
        .explode("cased")
        .drop_nulls("cased")
        .with_columns(token_hash=pl.col("cased").hash())
    )
    # Each distinct token is read once (case, stop word, stem, figure, name), not each
    # occurrence: a knowledge base's words repeat (550k truth tokens of 200k generated
    # cases are 58k distinct).
    distinct = (
        tokens.select("token_hash", "cased")
        .unique("token_hash")
        .with_columns(token=pl.col("cased").str.to_lowercase() if specifics else pl.col("cased"))
        .filter(~token.is_in(list(GROUNDED_STOP_WORDS)))
        .with_columns(stemmed=pl.when(figure).then(token).otherwise(stem(token)))
        .select(
            "token_hash",
            word=pl.col("stemmed").hash(),
            negation=_is_negation(pl.col("stemmed")),
            **({"specific": figure | name} if specifics else {}),
        )
    )
    # an inner join: stop words are not in `distinct`
    words = tokens.select(by, "token_hash").join(distinct, on="token_hash")
    if not specifics:
        return words.filter(_one_key(by).is_first_distinct()).select(by, "word", "negation")
    return (
        words.group_by(_one_key(by).alias("one_key"))
        .agg(pl.col(by, "word", "negation").first(), pl.col("specific").any())
        .drop("one_key")
    )


def _one_key(by: str) -> pl.Expr:
    """(`by`, `word`) as one 64-bit key: a one-column unique is twice as fast as two."""
    return (pl.col(by) * 0x9E3779B97F4A7C15).xor(pl.col("word"))


def _is_negation(stemmed: pl.Expr) -> pl.Expr:
    """Whether a stem is a negation's: a function of the stem, so one word has one answer."""
    return stemmed.is_in(list(negation_stems()))
