"""redis-py's Lua script users against a server (issue 23); see kvcheck.py.

Lock: acquire, extend, reacquire, release, and another token's release and extend refused;
register_script: EVALSHA with the EVAL / SCRIPT LOAD fallback, in a pipeline too."""

import threading

import redis
from redis.exceptions import LockError, LockNotOwnedError

from kvcheck import TIMEOUT, client, expect, main


def lock(port):
    """Lock's acquire / extend / reacquire / release, all Lua scripts of redis-py."""
    r = client(port)
    r.script_flush()
    lk = r.lock("resource", timeout=10)
    assert lk.acquire(blocking=False), "acquire of a free lock"
    token = lk.local.token
    expect(r.get("resource"), token, "the lock's key holds its token")
    assert lk.owned() and lk.locked(), "owned() and locked() after acquire"
    assert 9000 < r.pttl("resource") <= 10000, f"PTTL after acquire: {r.pttl('resource')}"

    # Another Lock on the same name cannot take it.
    other = r.lock("resource", timeout=10)
    assert not other.acquire(blocking=False), "a second acquire of a held lock"
    assert not other.owned(), "owned() of the lock that failed to acquire"

    # extend adds to the TTL; replace_ttl sets it; reacquire resets it to the timeout.
    assert lk.extend(5), "extend"
    assert 14000 < r.pttl("resource") <= 15000, f"PTTL after extend(5): {r.pttl('resource')}"
    assert lk.extend(30, replace_ttl=True), "extend(replace_ttl=True)"
    assert 29000 < r.pttl("resource") <= 30000, f"PTTL after extend(30, replace_ttl): {r.pttl('resource')}"
    assert lk.reacquire(), "reacquire"
    assert 9000 < r.pttl("resource") <= 10000, f"PTTL after reacquire: {r.pttl('resource')}"

    # A Lock holding another token may neither release nor extend it; the key is untouched.
    impostor = r.lock("resource", timeout=10)
    impostor.local.token = b"not-the-owner"
    try:
        impostor.release()
    except LockNotOwnedError:
        pass
    else:
        raise AssertionError("release with another token succeeded")
    impostor.local.token = b"not-the-owner"  # release() forgot it
    try:
        impostor.extend(10)
    except LockNotOwnedError:
        pass
    else:
        raise AssertionError("extend with another token succeeded")
    impostor.local.token = b"not-the-owner"
    try:
        impostor.reacquire()
    except LockNotOwnedError:
        pass
    else:
        raise AssertionError("reacquire with another token succeeded")
    expect(r.get("resource"), token, "the key after the impostor's attempts")

    # The owner releases it; the key is gone and a second release is an error.
    lk.release()
    expect(r.exists("resource"), 0, "the key after release")
    try:
        lk.release()
    except LockError:
        pass
    else:
        raise AssertionError("a second release succeeded")

    # A released lock whose key another client took meanwhile: do_release refuses.
    assert lk.acquire(blocking=False), "acquire after release"
    r.set("resource", "stolen")
    try:
        lk.do_release(lk.local.token)
    except LockNotOwnedError:
        pass
    else:
        raise AssertionError("release of a stolen lock succeeded")
    expect(r.get("resource"), b"stolen", "the stolen key after the refused release")
    r.delete("resource")

    # A blocking acquire waits for a release from another thread.
    holder = r.lock("resource", timeout=10)
    assert holder.acquire(blocking=False), "the holder's acquire"
    got = []
    waiter = threading.Thread(
        target=lambda: got.append(client(port).lock("resource", timeout=10, sleep=0.01).acquire(
            blocking=True, blocking_timeout=TIMEOUT)))
    waiter.start()
    holder.release()
    waiter.join(TIMEOUT + 1)
    expect(got, [True], "the waiting thread's acquire after the release")

    # With a context manager, and a lock that expired by itself cannot be extended.
    with r.lock("ctx", timeout=10) as held:
        assert held.owned(), "owned() inside with"
    expect(r.exists("ctx"), 0, "the key after with")
    short = r.lock("short", timeout=0.05)
    assert short.acquire(blocking=False), "acquire of a short lock"
    r.delete("short")  # as if it had expired
    try:
        short.extend(1)
    except LockNotOwnedError:
        pass
    else:
        raise AssertionError("extend of an expired lock succeeded")


def register_script(port):
    """register_script's EVALSHA, reloaded after SCRIPT FLUSH; scripts in a pipeline."""
    r = client(port)
    incr = r.register_script(
        "local v = redis.call('INCRBY', KEYS[1], ARGV[1]) "
        "if v > tonumber(ARGV[2]) then return redis.error_reply('LIMIT over ' .. ARGV[2]) end "
        "return v")
    expect(incr(keys=["n"], args=[5, 100]), 5, "first call (EVALSHA, NOSCRIPT, then EVAL)")
    expect(incr(keys=["n"], args=[5, 100]), 10, "second call")
    expect(r.script_exists(incr.sha), [True], "SCRIPT EXISTS after the calls")
    r.script_flush()
    expect(r.script_exists(incr.sha), [False], "SCRIPT EXISTS after SCRIPT FLUSH")
    expect(incr(keys=["n"], args=[1, 100]), 11, "a call after SCRIPT FLUSH")
    try:
        incr(keys=["n"], args=[100, 100])
    except redis.ResponseError as e:
        expect(str(e), "LIMIT over 100", "the script's error reply")
    else:
        raise AssertionError("error_reply raised nothing")

    # In a pipeline the scripts are loaded first (SCRIPT EXISTS / SCRIPT LOAD), then EVALSHA.
    r.script_flush()
    with r.pipeline() as pipe:
        incr(keys=["p"], args=[2, 100], client=pipe)
        incr(keys=["p"], args=[3, 100], client=pipe)
        pipe.get("p")
        expect(pipe.execute(), [2, 5, b"5"], "scripts in a MULTI/EXEC pipeline")
    with r.pipeline(transaction=False) as pipe:
        incr(keys=["p"], args=[1, 100], client=pipe)
        pipe.eval("return {KEYS[1], ARGV[1]}", 1, "k", "a")
        expect(pipe.execute(), [6, [b"k", b"a"]], "scripts in a pipeline without MULTI")

    # Functions through redis-py, when the server has them.
    r.function_flush()
    expect(r.function_load("#!lua name=pylib\nredis.register_function('pyf', function(keys, args) "
                           "return redis.call('SET', keys[1], args[1]) end)"), b"pylib", "FUNCTION LOAD")
    expect(r.fcall("pyf", 1, "fk", "fv"), b"OK", "FCALL")
    expect(r.get("fk"), b"fv", "the key FCALL set")


if __name__ == "__main__":
    main({"lock": lock, "register_script": register_script})
