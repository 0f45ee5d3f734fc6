"""Slow salted hashes of secrets (a parent's PIN, a pupil's PIN, a teacher's password).

``scrypt$n$r$p$salt$hash``: the cost parameters and the salt are stored beside the
hash, so a stronger cost later applies to new hashes while old ones still verify.
The comparison is constant-time (:func:`hmac.compare_digest`). A hash never leaves
the storage package: stores take the typed secret and answer yes or no.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["PIN_COST", "PASSWORD_COST", "hash_secret", "secret_matches", "waste_time"]

#: About 50 ms a try here: guessing 10,000 PINs takes minutes, one check stays instant.
PIN_COST = {"n": 2**14, "r": 8, "p": 1}
#: A teacher's password guards a whole class: twice the work (about 100 ms, 32 MiB).
PASSWORD_COST = {"n": 2**15, "r": 8, "p": 1}
_MAXMEM = 64 * 1024 * 1024


def hash_secret(secret: str, cost: dict[str, int] = PIN_COST) -> str:
    """``scrypt$n$r$p$salt$hash`` of ``secret``, with a fresh random salt."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(secret.encode(), salt=salt, maxmem=_MAXMEM, **cost)
    return "scrypt${n}${r}${p}$".format(**cost) + f"{salt.hex()}${digest.hex()}"


def secret_matches(secret: str, stored: str) -> bool:
    """Whether ``secret`` is the one ``stored`` (by :func:`hash_secret`) was made from."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        again = hashlib.scrypt(secret.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r),
                               p=int(p), maxmem=_MAXMEM)
    except ValueError:
        return False
    return hmac.compare_digest(again.hex(), digest)


_DUMMY: dict[str, str] = {}


def waste_time(cost: dict[str, int] = PASSWORD_COST) -> None:
    """As long as a check, for an account that does not exist: the answer's timing does
    not tell whether a name has an account."""
    key = repr(sorted(cost.items()))
    if key not in _DUMMY:
        _DUMMY[key] = hash_secret("not a password", cost)
    secret_matches("still not a password", _DUMMY[key])
