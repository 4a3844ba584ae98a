"""The dice derivations: how a labelled roll's faces come from the campaign's
secret, by version. docs/dice.md is the same specification for an auditor who
reimplements it in another language.

A derivation is a stream of faces for one roll, `STREAMS[version](secret,
turn, label)`, read die by die: `.face(sides)` gives the next die's face,
1..sides (`4d6+1d8` reads faces of 6, 6, 6, 6 then 8 sides). Each turn
records the version it was played with (turn.yaml's `dice`, absent = 0), and
`pbp verify` and `pbp audit` replay it with that version. A version, once
released, never changes: a new derivation is a new version.

Version 1 (every campaign set up since it exists) is defined by pbp alone,
from HMAC-SHA256 (RFC 2104, FIPS 180-4), so it gives the same faces on any
Python and in any language:

- key: the campaign's secret, encoded in UTF-8;
- block i (i = 0, 1, 2...): HMAC-SHA256(key, message_i), 32 bytes, where
  message_i is the UTF-8 encoding of
      "pbp-dice-v1" LF turn LF label LF i
  (LF the byte 0x0A; turn and i in decimal ASCII, turn with a leading "-"
  when negative, no leading zeros; the label as the roll log writes it,
  `lucy.fouille.2`). turn and i hold no LF, so the message reads back into
  one (turn, label, i) only, whatever the label holds;
- the stream: block 0, block 1, block 2... concatenated, read front to back;
- a die of s faces (1 <= s <= 2**24) reads k bytes, k the smallest number
  >= 1 with 256**k >= s, as an unsigned big-endian integer x. With
  limit = 256**k - (256**k mod s), when x < limit the face is (x mod s) + 1;
  otherwise x is dropped and the next k bytes are read (rejection sampling:
  every face exactly equally likely, no modulo bias);
- the dice of a roll are read from the same stream one after the other, in
  the order `sides` gives.

Version 0 (archives made before version 1) is CPython's: a Mersenne Twister
(`random.Random`) seeded with the big-endian integer of the 8-byte BLAKE2b
digest of "secret 0x1F turn 0x1F label", each face `randint(1, s)`. Python
does not promise to keep `randint`'s algorithm: it is kept here, frozen, so
that the archives played with it still replay on the Pythons that keep it.
"""

from __future__ import annotations

#: the derivation new campaigns are set up with
VERSION = 1
#: the largest die a derivation is specified for (the notation allows fewer)
MAX_SIDES = 2 ** 24

_TAG_V1 = b"pbp-dice-v1"


class StreamV0:
    """Version 0, frozen: CPython's `random.Random.randint` (see above)."""

    def __init__(self, secret: str, turn: int, label: str):
        # random and hashlib are imported by the first roll: a command that reads
        # dice expressions (a scenario's weapons) and rolls none does not load them
        import hashlib
        import random

        digest = hashlib.blake2b(f"{secret}\x1f{turn}\x1f{label}".encode(), digest_size=8).digest()
        self._randint = random.Random(int.from_bytes(digest, "big")).randint

    def face(self, sides: int) -> int:
        return self._randint(1, sides)


class StreamV1:
    """Version 1: the HMAC-SHA256 stream of (secret; turn, label), each die
    by rejection sampling (see above)."""

    def __init__(self, secret: str, turn: int, label: str):
        import hmac

        self._digest = hmac.digest
        self._key = secret.encode("utf-8")
        self._head = _TAG_V1 + b"\n" + str(turn).encode("ascii") + b"\n" + label.encode("utf-8") + b"\n"
        self._buffer, self._pos, self._block = b"", 0, 0

    def _next_block(self) -> None:
        """The next block after the bytes not read yet."""
        block = self._digest(self._key, self._head + str(self._block).encode("ascii"), "sha256")
        self._buffer, self._pos, self._block = self._buffer[self._pos:] + block, 0, self._block + 1

    def face(self, sides: int) -> int:
        if not 1 <= sides <= MAX_SIDES:
            raise ValueError(f"a die of {sides} faces is outside dice version 1 (1 to {MAX_SIDES})")
        size = 1 if sides <= 256 else 2 if sides <= 65536 else 3
        span = 256 ** size
        limit = span - span % sides
        while True:
            if self._pos + size > len(self._buffer):
                self._next_block()
            x = int.from_bytes(self._buffer[self._pos:self._pos + size], "big")
            self._pos += size
            if x < limit:
                return x % sides + 1


#: version -> the stream of one roll's faces: `STREAMS[v](secret, turn, label).face(sides)`
STREAMS = {0: StreamV0, 1: StreamV1}


def faces_v0(secret: str, turn: int, label: str, sides) -> tuple[int, ...]:
    stream = StreamV0(secret, turn, label)
    return tuple(stream.face(s) for s in sides)


def faces_v1(secret: str, turn: int, label: str, sides) -> tuple[int, ...]:
    stream = StreamV1(secret, turn, label)
    return tuple(stream.face(s) for s in sides)


def recorded(record: dict) -> int:
    """The dice version a turn's record (turn.yaml) says it was played with:
    absent (an archive made before versions were recorded) is 0."""
    return record.get("dice", 0) if isinstance(record, dict) else 0
