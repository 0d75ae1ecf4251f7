#!/usr/bin/env bash
# bench/soak.sh — the memory limit under churn (issue 17): kvserver (or KVSERVER=redis-server)
# with maxmemory and allkeys-lru, written to for SOAK_SECS by several redis-benchmark processes
# at once: values of 16 B to 4 KB (several slab classes churn), a third of the writes with a
# TTL of 10 or 30 s, eviction running all the time. At the end it prints used_memory, RSS, their ratio
# against the issue's bound (RSS ≤ 1.15 × used_memory + 16 MiB), mem_fragmentation_ratio,
# evicted_keys and expired_keys.
#
#   SOAK_SECS (600)        how long the writers run
#   MAXMEMORY (256mb)      the limit
#   KVSERVER (bin/kvserver) the server to soak; /usr/bin/redis-server for the reference
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
SOAK_SECS=${SOAK_SECS:-600}
MAXMEMORY=${MAXMEMORY:-256mb}
BIN=${KVSERVER:-$ROOT/bin/kvserver}
[ -n "${KVSERVER:-}" ] || go build -o bin/kvserver ./cmd/kvserver

WORK=$(mktemp -d /tmp/kvsoak.XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(cd "$WORK" && exec "$BIN" --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no \
  --maxmemory "$MAXMEMORY" --maxmemory-policy allkeys-lru) >"$WORK/server.log" 2>&1 &
SERVER=$!
WRITERS=()
cleanup() {
  for p in "${WRITERS[@]}"; do kill "$p" 2>/dev/null || true; done
  kill "$SERVER" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
for _ in $(seq 100); do [ "$(redis-cli -p "$PORT" PING 2>/dev/null)" = PONG ] && break; sleep 0.05; done

# One writer per value size; two of the six set a short TTL (a third of the writes).
for spec in 16:0 100:10 300:0 1000:0 2500:30 4000:0; do
  size=${spec%%:*} ttl=${spec##*:}
  value=$(head -c "$size" /dev/zero | tr '\0' v)
  expire=()
  [ "$ttl" = 0 ] || expire=(EX "$ttl")
  timeout "$SOAK_SECS" redis-benchmark -p "$PORT" -q -P 16 -c 4 -n 2000000000 -r 5000000 \
    SET "k$size:__rand_int__" "$value" "${expire[@]}" >/dev/null 2>&1 &
  WRITERS+=($!)
done
wait "${WRITERS[@]}" 2>/dev/null || true
WRITERS=()
sleep 2 # the last evictions and a cron tick

info() { redis-cli -p "$PORT" INFO "$1" | tr -d '\r' | sed -n "s/^$2://p"; }
used=$(info memory used_memory)
rss=$(info memory used_memory_rss)
frag=$(info memory mem_fragmentation_ratio)
evicted=$(info stats evicted_keys)
expired=$(info stats expired_keys)
keys=$(redis-cli -p "$PORT" DBSIZE)
bound=$(python3 -c "print(int(1.15 * $used + 16 * 1024 * 1024))")
echo "server: $("$BIN" --version | head -1)"
echo "soak: ${SOAK_SECS}s, maxmemory $MAXMEMORY allkeys-lru, 6 writers (16 B - 4 KB values, 2 with TTLs of 10 and 30 s)"
echo "used_memory $used, RSS $rss, RSS/used $(python3 -c "print(round($rss / $used, 3))"), bound 1.15 x used + 16 MiB = $bound: $([ "$rss" -le "$bound" ] && echo within || echo OVER)"
echo "mem_fragmentation_ratio $frag, evicted_keys $evicted, expired_keys $expired, keys $keys"
