"""The dice commitment: the seed is fixed when the campaign is made, and can be checked at the end.

At creation the campaign stores SHA-256 of the seed written in decimal followed by
the 64 hex digits of a random salt. Every despatch prints that digest; neither the
seed nor the salt ever leaves the umpire's file (the salt too: with it, a seed of 31
bits could be found by trying them all). At the end the umpire reveals both, and
anyone can check them against the digest,

    printf '%s%s' SEED SALT | sha256sum

and replay every rolled die of the records they hold from that seed.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

SALT_HEX = 64
_SALT = re.compile(r"[0-9a-f]{64}")
NO_COMMITMENT = "this campaign was made before dice commitments, so its seed was never committed: only the replay of its dice can be checked"


def new_salt() -> str:
    return secrets.token_hex(SALT_HEX // 2)


def digest(seed: int, salt: str) -> str:
    """SHA-256 of the decimal seed followed by the salt (fixed length, so the pair reads one way only)."""
    return hashlib.sha256(f"{seed}{salt}".encode("ascii")).hexdigest()


def check_salt(salt: str) -> str:
    """The salt as 64 lower-case hex digits; ValueError (one sentence) otherwise."""
    cleaned = salt.strip().lower()
    if not _SALT.fullmatch(cleaned):
        raise ValueError(f"a salt is {SALT_HEX} hex digits (as `adjutant dice reveal` prints it)")
    return cleaned


def matches(commitment: str, seed: int, salt: str) -> bool:
    return hmac.compare_digest(commitment, digest(seed, check_salt(salt)))
