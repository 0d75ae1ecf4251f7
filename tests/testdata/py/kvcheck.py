"""Shared by the redis-py scripts that tests/redispy_test.go runs with Debian's /usr/bin/python3.

A script is run as `python3 SCRIPT PORT CASE`: it connects to 127.0.0.1:PORT, runs the function
named CASE and exits 0 when every check held. A failed check raises AssertionError (exit 1, the
traceback and the values on stderr); a case that cannot run here calls skip(reason) (exit 77,
which the Go test turns into t.Skip).
"""

import sys
import time

import redis

SKIP_STATUS = 77
TIMEOUT = 10.0  # seconds: any single wait for a reply or a message


def skip(reason):
    """Ends the script with the skip status, reason on stdout."""
    print(reason)
    sys.exit(SKIP_STATUS)


def expect(got, want, what):
    """Fails with both values unless got == want."""
    assert got == want, f"{what}: got {got!r}, want {want!r}"


def client(port, **kwargs):
    """A client of 127.0.0.1:port that never waits longer than TIMEOUT."""
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=TIMEOUT, **kwargs)


def wait_until(cond, what):
    """Polls cond every 10 ms until it holds; fails after TIMEOUT."""
    deadline = time.monotonic() + TIMEOUT
    while not cond():
        assert time.monotonic() < deadline, f"after {TIMEOUT}s: {what}"
        time.sleep(0.01)


def next_message(pubsub, ignore_subscribe_messages=False):
    """The next message of pubsub, waiting up to TIMEOUT for it; fails when none arrives."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no pub/sub message within {TIMEOUT}s"
        msg = pubsub.get_message(ignore_subscribe_messages=ignore_subscribe_messages, timeout=left)
        if msg is not None:
            return msg


def main(cases):
    """Runs the case named by argv[2] against the port argv[1]."""
    if len(sys.argv) != 3 or sys.argv[2] not in cases:
        sys.exit(f"usage: {sys.argv[0]} PORT CASE, CASE one of {', '.join(sorted(cases))}")
    cases[sys.argv[2]](int(sys.argv[1]))
    print("ok")
