"""An HTTP client that never reads more of an answer than `--max-reply-bytes`: the body is
streamed through a counter that gives up past the cap, so a 100 MB reply is never held whole
(nor parsed). Its error is the cause of the client's connection error; `too_large` finds it.
A redirect to another origin is refused here too (redirects.py).

Answers are asked uncompressed; one compressed all the same (a server ignoring
`Accept-Encoding: identity`) is decompressed here, piece by piece, and the cap counts what it
expands to: 2 MB of gzip expand to 2 GB, which the client's own decoding held whole."""

from __future__ import annotations

import contextlib
import functools
import ssl
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar
from typing import Any

import httpx2
import openai

# httpx2's own decoders, from a private module: public API decodes only whole bodies. They
# yield bounded pieces (its ZlibDecompressor), which the cap needs; pinned in requirements.lock,
# and tests/flows/judges/test_hostile_answers.py fails if a new version moves them.
from httpx2._decoders import SUPPORTED_DECODERS, MultiDecoder

from flows.judges.endpoint.redirects import REDIRECT_STATUSES, RedirectRefused, other_origin
from flows.judges.endpoint.reply_cap import DEFAULT_MAX_REPLY_BYTES, ReplyTooLarge, too_large
from flows.scrub import scrub

__all__ = [
    "DEFAULT_MAX_REPLY_BYTES",
    "RedirectRefused",
    "ReplyTooLarge",
    "answer_limit",
    "capped_client",
    "shared_tls",
    "too_large",
]

# A request's own cap, for the requests made under `answer_limit` (a Batch API result file is
# as large as its batch); else the client's.
_REQUEST_LIMIT: ContextVar[int | None] = ContextVar("faith_answer_limit", default=None)


@functools.cache
def shared_tls() -> ssl.SSLContext:
    """The process's one TLS context for judge endpoints (the system's CAs, SSL_CERT_FILE):
    loading the CA bundle cost ~50 ms of CPU for every judge a process made. Read once, at
    the first judge."""
    return httpx2.create_ssl_context()


def capped_client(limit: int, timeout: float) -> openai.DefaultAsyncHttpxClient:
    """The openai client's default HTTP client, its answers capped at `limit` bytes and asked
    uncompressed (a compressed body's size says nothing of what it expands to)."""
    return openai.DefaultAsyncHttpxClient(
        transport=_CappedTransport(httpx2.AsyncHTTPTransport(verify=shared_tls()), limit),
        timeout=timeout,
        headers={"Accept-Encoding": "identity"},
    )


@contextlib.contextmanager
def answer_limit(limit: int) -> Iterator[None]:
    """The requests made in this block (on this task) are capped at `limit` bytes instead."""
    token = _REQUEST_LIMIT.set(limit)
    try:
        yield
    finally:
        _REQUEST_LIMIT.reset(token)


class _CappedTransport(httpx2.AsyncBaseTransport):
    def __init__(self, inner: httpx2.AsyncBaseTransport, limit: int) -> None:
        self._inner = inner
        self._limit = limit

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        limit = _REQUEST_LIMIT.get() or self._limit
        response = await self._inner.handle_async_request(request)
        location = response.headers.get("location")
        if response.status_code in REDIRECT_STATUSES and location is not None:
            target = other_origin(str(request.url), location)
            if target is not None:  # followed, the prompts would go where no one said
                await response.aclose()
                raise RedirectRefused(scrub(target)[:200])  # server text, as its body
        declared = response.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await response.aclose()
            raise ReplyTooLarge(limit, int(declared))
        codings = [
            coding.strip().lower()
            for coding in response.headers.get_list("content-encoding", split_commas=True)
        ]
        codings = [coding for coding in codings if coding not in ("", "identity")]
        if codings:  # decoded here, under the cap; the client must not decode it again
            del response.headers["content-encoding"]
        response.stream = _CappedStream(response.stream, limit, codings)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class _CappedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: Any, limit: int, codings: list[str]) -> None:
        self._inner = inner
        self._limit = limit
        # named in the cap's error by the codings decoded alone: any other is the server's
        # text (a key it echoes, lower-cased past any scrub), and nothing decoded it
        self._codings = ", ".join(coding for coding in codings if coding in SUPPORTED_DECODERS)
        # decodes in pieces of at most 1 MiB, so a bomb is stopped a piece past the cap
        self._decoder = MultiDecoder(codings) if codings else None

    async def __aiter__(self) -> AsyncIterator[bytes]:
        read = 0
        async for chunk in self._inner:
            for piece in self._decoder.decode(chunk) if self._decoder else (chunk,):
                read += len(piece)
                if read > self._limit:
                    raise ReplyTooLarge(self._limit, encoding=self._codings)
                yield piece
        for piece in self._decoder.flush() if self._decoder else ():
            read += len(piece)
            if read > self._limit:
                raise ReplyTooLarge(self._limit, encoding=self._codings)
            yield piece

    async def aclose(self) -> None:
        await self._inner.aclose()
