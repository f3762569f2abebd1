"""What the players' table accepts from the network, and how fast: every bound in one place.

A player's page is a client on the network: whatever it sends is bounded before it costs the GM's
server or kernel anything. A message is at most `MAX_BYTES` long and nests at most `MAX_DEPTH` deep
(counted on the raw text, before `json.loads` could recurse into it); each player may send `RATE`
actions a second (a burst of `BURST`), with at most `WAIT_PER_PLAYER` of theirs and `WAIT_TOTAL` of
everyone's waiting for the kernel at once, so one player flooding the table slows down nobody else
and never the GM's own cells. Each refusal is one line, and changes nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

MAX_BYTES = 64 * 1024  # a request body or a websocket message
MAX_DEPTH = 32  # JSON objects and arrays inside each other
RATE = 2.0  # a player's actions per second, on average
BURST = 4  # and at once
WAIT_PER_PLAYER = 4  # a player's actions waiting for the kernel
WAIT_TOTAL = 64  # everyone's
MAX_CLIENT_ID = 64  # the page's id of one action (its resends keep it)
MAX_PENDING_PER_PLAYER = 4  # a player's actions waiting for the GM's approval
MAX_PENDING_TOTAL = 64  # everyone's


class Refused(ValueError):
    """A message the table does not take: `status` is the HTTP answer, the text its one line."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


def depth(raw: str) -> int:
    """How deep the JSON text `raw` nests (objects and arrays), read without parsing it: brackets
    inside strings do not count; stops counting as soon as it passes `MAX_DEPTH`."""
    deepest = level = 0
    in_string = escaped = False
    for char in raw:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > MAX_DEPTH:
                    return deepest
        elif char in "]}":
            level -= 1
    return deepest


def parse(raw: bytes | str | None) -> Any:
    """A player's message as JSON data, once it is within the bounds; `Refused` (413: too long,
    400: too deep or not JSON) otherwise."""
    if raw is None:
        raw = b""
    if len(raw) > MAX_BYTES:
        raise Refused(413, f"the message is too long: {len(raw)} bytes, at most {MAX_BYTES}")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(400, "the message is not UTF-8 text") from None
    if len(raw.encode("utf-8")) > MAX_BYTES:
        raise Refused(413, f"the message is too long: more than {MAX_BYTES} bytes")
    if depth(raw) > MAX_DEPTH:
        raise Refused(400, f"the message nests too deep: more than {MAX_DEPTH} levels")
    try:
        return json.loads(raw) if raw.strip() else None
    except ValueError:
        raise Refused(400, "the message is not JSON") from None


def client_id(value: Any) -> str | None:
    """The page's id of an action, when it is a short printable text; None otherwise."""
    if isinstance(value, str) and 0 < len(value) <= MAX_CLIENT_ID and value.isprintable():
        return value
    return None


class Bucket:
    """A token bucket: `rate` tokens a second, at most `burst` kept; `take` spends one if there is one."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Gate:
    """Who may send an action now: each player's bucket, and how many actions wait for the kernel."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.buckets: dict[str, Bucket] = {}
        self.waiting: dict[str, int] = {}

    def admit(self, user: str) -> str | None:
        """None when `user` may send one more action now (counted as waiting until `done`); else the
        one line saying why not."""
        if sum(self.waiting.values()) >= WAIT_TOTAL:
            return "the GM's table is full of waiting actions; send it again in a moment"
        if self.waiting.get(user, 0) >= WAIT_PER_PLAYER:
            return f"you have {WAIT_PER_PLAYER} actions waiting already; wait for their answers"
        bucket = self.buckets.get(user)
        if bucket is None:
            bucket = self.buckets[user] = Bucket(clock=self.clock)
        if not bucket.take():
            return f"too fast: at most {RATE:g} actions a second; send it again in a moment"
        self.waiting[user] = self.waiting.get(user, 0) + 1
        return None

    def done(self, user: str) -> None:
        count = self.waiting.get(user, 0) - 1
        if count > 0:
            self.waiting[user] = count
        else:
            self.waiting.pop(user, None)
