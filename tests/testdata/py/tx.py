"""redis-py's pipelines and transactions (MULTI/EXEC, WATCH) against a server; see kvcheck.py.

Only string and generic key commands: the ones every kvserver build has."""

import threading

import redis

from kvcheck import client, expect, main


def pipeline(port):
    """The default pipeline(): transaction=True, so MULTI, the commands, EXEC in one write."""
    r = client(port)
    r.set("counter", 10)
    with r.pipeline() as pipe:
        pipe.set("a", "1").incr("counter").incrby("counter", 5).get("a")
        pipe.mset({"x": "1", "y": "2"}).mget("x", "y", "missing")
        pipe.append("s", "hello").append("s", " world").getrange("s", 0, 4).strlen("s")
        pipe.expire("s", 100).ttl("s").getdel("x")
        pipe.delete("a", "y").exists("a", "x", "y", "s")
        got = pipe.execute()
    expect(got, [True, 11, 16, b"1", True, [b"1", b"2", None], 5, 11, b"hello", 11,
                 True, 100, b"1", 2, 1], "pipeline() results")
    expect(r.get("counter"), b"16", "counter after EXEC")

    # An error at run time (INCR of text) is one result among the others; the rest ran.
    with r.pipeline() as pipe:
        pipe.set("b", "2").incr("s").get("b")
        got = pipe.execute(raise_on_error=False)
    expect(got[0], True, "SET before the failing INCR")
    assert isinstance(got[1], redis.ResponseError), f"INCR of text: got {got[1]!r}"
    expect(str(got[1]), "value is not an integer or out of range", "INCR of text")
    expect(got[2], b"2", "GET after the failing INCR")

    # With raise_on_error (the default) the same error is raised, after the whole EXEC ran.
    with r.pipeline() as pipe:
        pipe.set("c", "3").incr("s")
        try:
            pipe.execute()
        except redis.ResponseError as e:
            assert "not an integer" in str(e), f"raised {e}"
        else:
            raise AssertionError("execute() of a failing INCR raised nothing")
    expect(r.get("c"), b"3", "SET in the transaction whose INCR failed")

    # An error while queueing (wrong arity) aborts the whole transaction: EXECABORT, nothing ran.
    with r.pipeline() as pipe:
        pipe.set("d", "4").execute_command("GET")
        try:
            pipe.execute()
        except redis.ResponseError as e:
            assert "wrong number of arguments" in str(e), f"raised {e}"
        else:
            raise AssertionError("execute() of a wrong-arity command raised nothing")
    expect(r.exists("d"), 0, "key set in the aborted transaction")

    # The connection went back to the pool in a clean state: no MULTI left open.
    expect(r.ping(), True, "PING after the aborted transaction")
    expect(r.get("b"), b"2", "GET after the aborted transaction")


def pipeline_no_transaction(port):
    """pipeline(transaction=False): the commands pipelined as they are, no MULTI/EXEC."""
    r = client(port)
    with r.pipeline(transaction=False) as pipe:
        for i in range(100):
            pipe.set(f"k{i}", i)
        pipe.incr("k7").mget("k1", "k2", "missing").dbsize().incr("k1", 0)
        pipe.set("k3", "text").incr("k3")  # an error, in the middle
        pipe.get("k99")
        got = pipe.execute(raise_on_error=False)
    expect(got[:100], [True] * 100, "100 SETs")
    expect(got[100:105], [8, [b"1", b"2", None], 100, 1, True], "INCR, MGET, DBSIZE, INCRBY 0, SET")
    assert isinstance(got[105], redis.ResponseError) and "not an integer" in str(got[105]), f"INCR: {got[105]!r}"
    expect(got[106], b"99", "GET after the error")


def transaction_watch(port):
    """r.transaction(func, 'key'): WATCH, read, MULTI/EXEC; retried when another client
    changed the key between WATCH and EXEC."""
    r = client(port)
    other = client(port)
    r.set("balance", 100)
    calls = []

    def withdraw(pipe):
        balance = int(pipe.get("balance"))  # immediate mode after WATCH
        calls.append(balance)
        if len(calls) == 1:
            other.incrby("balance", 50)  # touches the watched key: this EXEC must fail
        pipe.multi()
        pipe.set("balance", balance - 30)
        pipe.append("log", f"withdrew from {balance};")

    got = r.transaction(withdraw, "balance")
    expect(calls, [100, 150], "balances read (the first attempt retried)")
    expect(got, [True, 18], "EXEC of the retried transaction")
    expect(r.get("balance"), b"120", "balance")
    expect(r.get("log"), b"withdrew from 150;", "log")

    # value_from_callable returns func's value; no change in between, so no retry.
    calls.clear()

    def read_and_double(pipe):
        v = int(pipe.get("balance"))
        calls.append(v)
        pipe.multi()
        pipe.set("balance", v * 2)
        return v * 2

    expect(r.transaction(read_and_double, "balance", value_from_callable=True), 240, "returned value")
    expect(calls, [120], "attempts without interference")
    expect(r.get("balance"), b"240", "balance doubled")

    # A WATCHed key touched by another client makes EXEC answer nil: WatchError.
    with r.pipeline() as pipe:
        pipe.watch("balance", "other")
        other.set("other", "x")
        pipe.multi()
        pipe.set("balance", 0)
        try:
            pipe.execute()
        except redis.WatchError:
            pass
        else:
            raise AssertionError("EXEC after a watched key changed raised no WatchError")
    expect(r.get("balance"), b"240", "balance after the failed EXEC")

    # Many clients incrementing through WATCH/MULTI/EXEC lose no update.
    r.set("n", 0)
    workers, each = 4, 25

    def work():
        c = client(port)

        def incr(pipe):
            v = int(pipe.get("n"))
            pipe.multi()
            pipe.set("n", v + 1)

        for _ in range(each):
            c.transaction(incr, "n")

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expect(r.get("n"), str(workers * each).encode(), "n after concurrent WATCH increments")


if __name__ == "__main__":
    main({f.__name__: f for f in (pipeline, pipeline_no_transaction, transaction_watch)})
