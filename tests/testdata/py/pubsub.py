"""redis-py's pub/sub (SUBSCRIBE, PSUBSCRIBE, PUBLISH, PUBSUB) against a server; see kvcheck.py."""

import threading

import redis

from kvcheck import TIMEOUT, client, expect, main, next_message, skip, wait_until


def subscribe(port):
    """p = r.pubsub(); p.subscribe('ch'); r.publish('ch', 'x'); p.get_message(timeout=…)."""
    r = client(port)
    p = r.pubsub()
    p.subscribe("ch", "other")
    expect(next_message(p), {"type": "subscribe", "pattern": None, "channel": b"ch", "data": 1}, "first confirmation")
    expect(next_message(p), {"type": "subscribe", "pattern": None, "channel": b"other", "data": 2}, "second confirmation")

    expect(r.publish("ch", "x"), 1, "PUBLISH receivers")
    expect(next_message(p), {"type": "message", "pattern": None, "channel": b"ch", "data": b"x"}, "message")
    expect(r.publish("nobody", "y"), 0, "PUBLISH to a channel nobody subscribed")
    # Binary payloads arrive byte for byte, in the order published.
    payloads = [b"", b"\x00\r\n\xff", b"z" * 100_000] + [str(i).encode() for i in range(50)]
    for data in payloads:
        expect(r.publish("other", data), 1, "PUBLISH receivers")
    for data in payloads:
        expect(next_message(p), {"type": "message", "pattern": None, "channel": b"other", "data": data}, "message")

    # PUBSUB's view of the subscription.
    expect(sorted(r.pubsub_channels()), [b"ch", b"other"], "PUBSUB CHANNELS")
    expect(r.pubsub_numsub("ch", "nobody"), [(b"ch", 1), (b"nobody", 0)], "PUBSUB NUMSUB")
    expect(r.pubsub_numpat(), 0, "PUBSUB NUMPAT")

    # PING in the subscribed state answers a pong message (RESP2: ["pong", ""]).
    p.ping()
    expect(next_message(p), {"type": "pong", "pattern": None, "channel": None, "data": b""}, "pong")

    p.unsubscribe("ch")
    expect(next_message(p), {"type": "unsubscribe", "pattern": None, "channel": b"ch", "data": 1}, "unsubscribe")
    expect(r.publish("ch", "gone"), 0, "PUBLISH after UNSUBSCRIBE")
    p.unsubscribe()
    expect(next_message(p), {"type": "unsubscribe", "pattern": None, "channel": b"other", "data": 0}, "last unsubscribe")
    expect(r.pubsub_channels(), [], "PUBSUB CHANNELS after unsubscribing")

    # Out of the subscribed state the connection takes ordinary commands again.
    conn = p.connection
    conn.send_command("SET", "after", "1")
    expect(conn.read_response(), b"OK", "SET on the unsubscribed connection")
    p.close()


def psubscribe(port):
    """Pattern subscriptions: pmessage with the pattern, one delivery per matching pattern."""
    r = client(port)
    p = r.pubsub(ignore_subscribe_messages=True)
    p.psubscribe("news.*", "news.[ab]*")
    p.subscribe("news.art")
    # The confirmations are skipped, but reading them tells the subscriptions are in place.
    for _ in range(3):
        expect(p.get_message(timeout=TIMEOUT), None, "a confirmation, ignored")
    expect(r.pubsub_numpat(), 2, "PUBSUB NUMPAT")

    expect(r.publish("news.art", "1"), 3, "receivers: two patterns and the channel")
    got = [next_message(p) for _ in range(3)]
    expect(sorted((m["type"], m["pattern"] or b"") for m in got),
           [("message", b""), ("pmessage", b"news.*"), ("pmessage", b"news.[ab]*")], "deliveries")
    for m in got:
        expect((m["channel"], m["data"]), (b"news.art", b"1"), "channel and data")

    expect(r.publish("news.sport", "2"), 1, "receivers: one pattern")
    expect(next_message(p), {"type": "pmessage", "pattern": b"news.*", "channel": b"news.sport", "data": b"2"}, "pmessage")
    expect(r.publish("weather", "3"), 0, "receivers: none")

    p.punsubscribe("news.*")
    # Its confirmation is ignored, and another connection's PUBLISH may overtake it: wait for it.
    wait_until(lambda: r.pubsub_numpat() == 1, "PUBSUB NUMPAT 1 after PUNSUBSCRIBE news.*")
    expect(r.publish("news.sport", "4"), 0, "receivers after PUNSUBSCRIBE")
    expect(r.publish("news.bart", "5"), 1, "receivers: the other pattern")
    expect(next_message(p), {"type": "pmessage", "pattern": b"news.[ab]*", "channel": b"news.bart", "data": b"5"}, "pmessage")
    p.close()


def handlers(port):
    """Handlers run by run_in_thread: every message of several publishers arrives once."""
    r = client(port)
    p = r.pubsub()
    got = []
    done = threading.Event()
    publishers, each = 3, 100

    def on_message(msg):
        got.append(msg["data"])
        if len(got) == publishers * each:
            done.set()

    p.subscribe(**{"jobs": on_message})
    p.psubscribe(**{"ignored.*": on_message})
    # Wait for both subscriptions before publishing.
    for _ in range(2):
        m = next_message(p)
        assert m["type"] in ("subscribe", "psubscribe"), f"confirmation: {m!r}"
    worker = p.run_in_thread(sleep_time=0.01, daemon=True)

    def publish(n):
        c = client(port)
        for i in range(each):
            expect(c.publish("jobs", f"{n}:{i}"), 1, "receivers")

    threads = [threading.Thread(target=publish, args=(n,)) for n in range(publishers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert done.wait(TIMEOUT), f"{len(got)} of {publishers * each} messages arrived"
    worker.stop()
    worker.join(TIMEOUT)
    want = sorted(f"{n}:{i}".encode() for n in range(publishers) for i in range(each))
    expect(sorted(got), want, "messages received")
    for n in range(publishers):
        mine = [m for m in got if m.startswith(f"{n}:".encode())]
        expect(mine, [f"{n}:{i}".encode() for i in range(each)], f"publisher {n}'s messages in order")


def resp3(port):
    """protocol=3 (redis-py 5 and later): pub/sub messages arrive as RESP3 pushes."""
    major = int(redis.__version__.split(".")[0])
    if major < 5:
        skip(f"redis-py {redis.__version__} speaks RESP2 only (protocol=3 came in 5.0)")
    r = client(port, protocol=3)
    p = r.pubsub()
    p.subscribe("ch")
    expect(next_message(p)["type"], "subscribe", "confirmation")
    expect(r.publish("ch", "x"), 1, "PUBLISH receivers")
    expect(next_message(p), {"type": "message", "pattern": None, "channel": b"ch", "data": b"x"}, "message")
    # Ordinary commands still answer on the RESP3 client, also between messages.
    expect(r.set("k", "v"), True, "SET")
    expect(r.publish("ch", "y"), 1, "PUBLISH receivers")
    expect(r.get("k"), b"v", "GET")
    expect(next_message(p), {"type": "message", "pattern": None, "channel": b"ch", "data": b"y"}, "second message")
    p.close()


if __name__ == "__main__":
    main({f.__name__: f for f in (subscribe, psubscribe, handlers, resp3)})
