"""redis-py with ACL users (issue 24): Redis(username=..., password=...) logs in with AUTH user
pass; see kvcheck.py. The Go test makes the user app (on >pw ~app:* +@read +@write) first."""

import redis

from kvcheck import client, expect, main


def username(port):
    """A client of app reads and writes app:*; other keys and commands raise NoPermissionError,
    a wrong password the WRONGPASS error."""
    r = client(port, username="app", password="pw")
    expect(r.set("app:1", "v"), True, "SET app:1 as app")
    expect(r.get("app:1"), b"v", "GET app:1 as app")
    try:
        r.get("other")
        raise AssertionError("GET other as app: no error")
    except redis.exceptions.NoPermissionError:
        pass
    try:
        r.config_get("maxmemory")
        raise AssertionError("CONFIG GET as app: no error")
    except redis.exceptions.NoPermissionError as e:
        assert "config|get" in str(e), f"CONFIG GET as app: {e}"
    # A pipeline runs as the same user: the denied command is its error among the results.
    with r.pipeline(transaction=False) as pipe:
        pipe.get("app:1").get("other").incr("app:n")
        got = pipe.execute(raise_on_error=False)
    expect(got[0], b"v", "pipelined GET app:1")
    assert isinstance(got[1], redis.exceptions.NoPermissionError), f"pipelined GET other: {got[1]!r}"
    expect(got[2], 1, "pipelined INCR app:n")

    bad = client(port, username="app", password="nope")
    try:
        bad.ping()
        raise AssertionError("PING with a wrong password: no error")
    except (redis.exceptions.AuthenticationError, redis.exceptions.ResponseError) as e:
        # redis-py 4.3 raises the WRONGPASS reply as a ResponseError, later ones as
        # AuthenticationError.
        assert "invalid username-password pair" in str(e), f"wrong password: {e!r}"

    admin = client(port)
    entries = admin.acl_log()
    reasons = sorted((e["reason"], e["object"]) for e in entries)
    expect(reasons, [("auth", "AUTH"), ("command", "config|get"), ("key", "other")], "ACL LOG (reason, object)")
    for e in entries:
        expect(e["username"], "app", "ACL LOG username")


if __name__ == "__main__":
    main({"username": username})
