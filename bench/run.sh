#!/usr/bin/env bash
# bench/run.sh — kvserver beside redis-server, measured in one run (`make bench`, issue 5).
#
# Builds kvserver and the helpers under bench/, starts kvserver and redis-server on free loopback
# ports (persistence off, --maxclients 20000) and runs every measurement against both in
# alternation — kvserver, Redis, kvserver, Redis … — for ROUNDS rounds, because this machine is
# shared and noisy: only medians of the rounds and kvserver/Redis ratios of those medians from
# the same run are reported. Servers are restarted wherever state would leak between rounds.
# Prints a Markdown table and writes it, with the machine, versions and commands, to
# BENCHMARKS.md, the bytes-per-key chart to bench/bytes-per-key.svg, the bytes-per-element
# chart of hashes and sets to bench/bytes-per-element.svg, that of lists to
# bench/bytes-per-element-lists.svg and that of sorted sets to bench/bytes-per-element-zsets.svg.
#
#   1  throughput: redis-benchmark SET and GET at -P 1 and -P 16, PING_MBULK (every GET hits)
#   2  bytes per key: 1,000,000 SETs of 18-byte keys and 85-byte values via redis-cli --pipe
#   3  RSS per connection: idle after a PING, and holding part of a large SET
#   4  GET latency against key count, open loop (bench/loadgen)
#   5  bytes per key against value size, drawn by bench/chart
#   6  persistence (issue 18): BGSAVE and start-up load of 10,000,000 keys; peak memory during a
#      BGSAVE of 5,000,000 keys under a redis-benchmark SET load; SET/GET latency (bench/loadgen)
#      with and without a BGSAVE under that load — bench/persist drives the saves. Heavy: 3
#      rounds (P_ROUNDS), servers restarted for each
#   7  pub/sub (issue 19): PUBLISH to one channel with 1,000 subscribers — messages delivered per
#      server CPU-second (bench/pubsub); RSS per idle subscribed client, 10,000 connections each
#      SUBSCRIBEd to one of 10 channels (bench/conns -mode subscribe); a fresh server per round
#   8  hashes and sets (issue 20): used_memory and RSS delta per element of four shapes, each
#      loaded into a fresh server by bench/respgen | redis-cli --pipe — one hash of 1,000,000
#      fields, 100,000 hashes of 10 fields, one set of 1,000,000 members, 2,000 sets of 500
#      integers; ops per server CPU-second of redis-benchmark -t hset,sadd,spop -P 16, and of
#      HGET, SISMEMBER (loaded keys, every lookup a hit) and HGETALL of a 1,000-field hash;
#      memory in 3 rounds (HS_MEM_ROUNDS), drawn by bench/chart -bars
#   9  lists and blocked clients (issue 21): used_memory and RSS delta per element of one list
#      of 1,000,000 16-byte elements and per list of 100,000 lists of 10 (3 rounds, L_MEM_ROUNDS;
#      drawn by bench/chart -bars); ops per server CPU-second of redis-benchmark -t
#      lpush,rpush,lpop,rpop -P 16 and of its LRANGE_100/300/500/600 command lines; RSS and
#      used_memory per client of 10,000 clients blocked in BLPOP on distinct keys, over idle
#      connections and over the empty server, and the latency from an LPUSH to the blocked
#      client's reply (bench/blocked); a fresh server per round for the blocked clients
#  10  sorted sets (issue 22): used_memory and RSS delta per member of one sorted set of
#      1,000,000 members member:%010d (score i) and per set of 100,000 sorted sets zs:<i> of 10
#      members m0…m9 (scores 0…9), loaded by bench/zset | redis-cli --pipe (3 rounds,
#      Z_MEM_ROUNDS; drawn by bench/chart -bars); ops per server CPU-second of redis-benchmark -t
#      zadd,zpopmin -P 16 (ZPOPMIN as many as the ZADDs left), and of ZRANK of random members and
#      ZRANGE by rank from the middle of a loaded 1,000,000-member sorted set; and (10c) of GEOADD,
#      GEODIST and GEOSEARCH at -P 16 on a loaded geo set of 1,000,000 places
#  11  scripts (issue 23): EVALSHA of a script of three commands on one key (GET, INCR, EXPIRE),
#      the keys spread over 1,000,000 (-r), by redis-benchmark at -P 1 and -P 16 — ops/s and ops
#      per server CPU-second (target for kvserver ≥ 0.8× Redis); a fresh server per side, every
#      run checked free of error replies and counted in INFO commandstats
#  12  ACL (issue 24): redis-benchmark GET and SET at -P 16 on keys app:__rand_int__ as the
#      default user and as a user `app` (on >pw ~app:* +@read +@write, redis-benchmark --user app
#      -a pw) — ops per server CPU-second of each and the restricted/default ratio per server
#      (target within 3%); a fresh server per side, every run checked free of error replies and
#      counted in INFO commandstats
#
# Environment (defaults in parentheses; QUICK=1 lowers the counts for a ~2-minute smoke test):
#   ROUNDS (5)            rounds per measurement; figures that count need at least 5
#   ONLY ("1 2 3 4 5 6 7 8 9 10 11 12") which measurements to run
#   KVSERVER (build it)   run this binary as the kvserver side, e.g. /usr/bin/redis-server to
#                         check the script itself
#   OUT (BENCHMARKS.md)   report path; CHART (bench/bytes-per-key.svg) chart path
#   CHART8 (bench/bytes-per-element.svg) the chart of measurement 8's memory per element
#   CHART9 (bench/bytes-per-element-lists.svg) the chart of measurement 9's memory per element
#   CHART10 (bench/bytes-per-element-zsets.svg) the chart of measurement 10's memory per element
#   KEEP=1                keep the work directory (server logs, raw results) in /tmp
#   L_PARTS ("a b c")     the parts of measurement 9: a list memory, b list speed, c blocked
#                         clients (memory and wake-up latency); L_PARTS=b repeats the speed rows
#   Z_PARTS ("a b c")     the parts of measurement 10: a sorted-set memory, b sorted-set speed,
#                         c geo speed
#   SERVER_ARGS ("")      more directives for both servers, e.g. "--maxmemory 8gb
#                         --maxmemory-policy allkeys-lru": the memory limit set but not reached
# and the counts below (TP_N1, TP_N16, MEM_KEYS, IDLE_CONNS, LAT_RATE, P_ROUNDS, SAVE_KEYS,
# PS_SUBS, PS_MSGS, PS_IDLE, HS_FIELDS, HS_N, L_ELEMS, L_N, L_BLOCKED, L_WAKE_ROUNDS, Z_MEMBERS,
# Z_SETS, Z_N, Z_RANK_MEMBERS, Z_RANK_N, SC_N1, SC_N16, ACL_N, ACL_ROUNDS, …).
set -euo pipefail

# How the run was asked for, before the defaults below fill the variables in.
RUN_LINE="$(for v in QUICK ROUNDS ACL_ROUNDS ONLY L_PARTS Z_PARTS KVSERVER SERVER_ARGS; do [ -z "${!v:-}" ] || printf '%s=%q ' "$v" "${!v}"; done)bench/run.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
GO=${GO:-go}
QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then
  : "${ROUNDS:=2}" "${TP_N1:=20000}" "${TP_N16:=200000}" "${MEM_KEYS:=200000}"
  : "${IDLE_CONNS:=2000}" "${PARTIAL_CONNS:=200}" "${CONN_SETTLE:=2}"
  : "${LAT_BIG:=200000}" "${LAT_SECS:=3}" "${LAT_SETTLE:=1}" "${CHART_KEYS:=20000}" "${CHART_STEP:=64}"
  : "${SAVE_KEYS:=500000}" "${COW_KEYS:=300000}" "${SAVE_LAT_SECS:=3}"
  : "${PS_MSGS:=1000}" "${PS_IDLE:=2000}"
  : "${HS_FIELDS:=100000}" "${HS_HASHES:=10000}" "${HS_MEMBERS:=100000}" "${HS_INTSETS:=200}"
  : "${HS_KEYS:=20000}" "${HS_N:=200000}" "${HS_HGETALL_N:=2000}"
  : "${L_ELEMS:=100000}" "${L_LISTS:=10000}" "${L_N:=100000}" "${L_LRANGE_SCALE:=5}"
  : "${L_BLOCKED:=2000}" "${L_WAKE_ROUNDS:=2000}"
  : "${Z_MEMBERS:=100000}" "${Z_SETS:=10000}" "${Z_N:=100000}" "${Z_RANK_MEMBERS:=100000}" "${Z_RANK_N:=50000}"
  : "${Z_GEO_PLACES:=100000}" "${Z_GEO_N:=20000}"
  : "${SC_N1:=20000}" "${SC_N16:=100000}"
  : "${ACL_N:=200000}"
fi
ROUNDS=${ROUNDS:-5}
ONLY=${ONLY:-1 2 3 4 5 6 7 8 9 10 11 12}
SERVER_ARGS=${SERVER_ARGS:-}
TP_N1=${TP_N1:-300000}          # requests per redis-benchmark run at -P 1 (a few seconds each)
TP_N16=${TP_N16:-2000000}       # … and at -P 16
TP_KEYS=1000000                 # redis-benchmark -r: keys key:000000000000 … key:000000999999
MEM_KEYS=${MEM_KEYS:-1000000}   # item 2: keys of 18 bytes (key: + 14 digits), 85-byte values
IDLE_CONNS=${IDLE_CONNS:-10000}
PARTIAL_CONNS=${PARTIAL_CONNS:-1000}
PARTIAL_VALUE=100000            # the SET's value size …
PARTIAL_SENT=5000               # … of which each connection sends this many bytes of command
CONN_SETTLE=${CONN_SETTLE:-5}   # seconds after the last client spoke before RSS is read
LAT_RATE=${LAT_RATE:-20000}     # GETs per second, open loop: well below either server's limit
LAT_CONNS=${LAT_CONNS:-8}
LAT_SECS=${LAT_SECS:-10}        # per run, of which the first second is warmup
LAT_SMALL=${LAT_SMALL:-1000}
LAT_BIG=${LAT_BIG:-10000000}
LAT_SETTLE=${LAT_SETTLE:-5}     # seconds after loading, for Redis's incremental rehash to finish
CHART_KEYS=${CHART_KEYS:-200000}
CHART_STEP=${CHART_STEP:-8}     # value sizes 8, 8+step, … 512; keys of 16 bytes
P_ROUNDS=${P_ROUNDS:-$((ROUNDS < 3 ? ROUNDS : 3))} # rounds of item 6, which takes ~3 min per round
SAVE_KEYS=${SAVE_KEYS:-10000000} # 6a: keys saved and loaded (18-byte keys, 85-byte values)
COW_KEYS=${COW_KEYS:-5000000}   # 6b, 6c: keys preloaded and overwritten by the SET load
COW_CLIENTS=50                  # the SET load: redis-benchmark -c 50 -P 16, until stopped
COW_PIPE=16
COW_SETTLE=${COW_SETTLE:-2}     # seconds of SET load before measuring
SAVE_LAT_RATE=${SAVE_LAT_RATE:-5000} # 6c: loadgen's SETs and GETs (half each) per second …
SAVE_LAT_CONNS=${SAVE_LAT_CONNS:-4}  # … over this many connections …
SAVE_LAT_SECS=${SAVE_LAT_SECS:-10}   # … for this long without a save (the first second warmup)
PS_SUBS=${PS_SUBS:-1000}        # 7a: subscribers of the one channel …
PS_MSGS=${PS_MSGS:-5000}        # … messages published to it (PS_SUBS × PS_MSGS deliveries) …
PS_PUBLISHERS=${PS_PUBLISHERS:-4} # … from this many connections …
PS_PIPELINE=${PS_PIPELINE:-32}  # … each sending this many PUBLISHes before reading the replies …
PS_SIZE=${PS_SIZE:-16}          # … of this many bytes
PS_IDLE=${PS_IDLE:-10000}       # 7b: idle subscribed connections …
PS_CHANNELS=${PS_CHANNELS:-10}  # … spread over this many channels
HS_FIELDS=${HS_FIELDS:-1000000} # 8a: fields of the one big hash (field:%010d, 32-byte values) …
HS_HASHES=${HS_HASHES:-100000}  # … hashes hs:<i> of 10 fields f0…f9 with 16-byte values …
HS_MEMBERS=${HS_MEMBERS:-1000000} # … members of the one big set (member:%010d) …
HS_INTSETS=${HS_INTSETS:-2000}  # … sets iset:<i> of 500 integers
HS_SETTLE=${HS_SETTLE:-1.5}     # seconds before each memory reading: kvserver gives empty spans back once a second
HS_MEM_ROUNDS=${HS_MEM_ROUNDS:-$((ROUNDS < 3 ? ROUNDS : 3))} # rounds of 8a: its used_memory is the
                                # same every round, and a round takes ~25 s
HS_KEYS=${HS_KEYS:-100000}      # 8b: hashes hs:%012d and members of bigset (member:%012d) loaded
HS_N=${HS_N:-500000}            # requests per -P 16 run of HSET, SADD, SPOP, HGET, SISMEMBER …
HS_HGETALL_N=${HS_HGETALL_N:-5000} # … and of HGETALL of a 1,000-field hash
L_ELEMS=${L_ELEMS:-1000000}     # 9a: elements of the one big list (element:%08d, 16 bytes) …
L_LISTS=${L_LISTS:-100000}      # … lists ls:<i> of 10 elements of 16 bytes
L_MEM_ROUNDS=${L_MEM_ROUNDS:-$((ROUNDS < 3 ? ROUNDS : 3))} # rounds of 9a: used_memory is the same every round
L_N=${L_N:-1000000}             # 9b: requests per -P 16 run of LPUSH, RPUSH, LPOP, RPOP …
L_LRANGE_SCALE=${L_LRANGE_SCALE:-1} # … and of LRANGE_100/300/500/600 100,000, 40,000, 20,000, 20,000 ÷ this
L_BLOCKED=${L_BLOCKED:-10000}   # 9c: clients blocked in BLPOP, each on its own key
L_WAKE_ROUNDS=${L_WAKE_ROUNDS:-20000} # 9d: LPUSH → BLPOP reply rounds per run
L_PARTS=${L_PARTS:-a b c}       # parts of 9 to run: a memory, b speed, c blocked clients and wake-up
Z_MEMBERS=${Z_MEMBERS:-1000000} # 10a: members of the one big sorted set (member:%010d, score i) …
Z_SETS=${Z_SETS:-100000}        # … sorted sets zs:<i> of 10 members m0…m9, scores 0…9
Z_MEM_ROUNDS=${Z_MEM_ROUNDS:-$((ROUNDS < 3 ? ROUNDS : 3))} # rounds of 10a: used_memory is the same every round
Z_N=${Z_N:-1000000}             # 10b: requests per -P 16 run of ZADD (ZPOPMIN: as many as it left) …
Z_RANK_MEMBERS=${Z_RANK_MEMBERS:-1000000} # … members of the sorted set the rank runs read (member:%012d, score i) …
Z_RANK_N=${Z_RANK_N:-500000}    # … requests per -P 16 run of ZRANK and of ZRANGE by rank
Z_GEO_PLACES=${Z_GEO_PLACES:-1000000} # 10c: places of the loaded geo set (bench/zset -cmd geoadd: ~1 per km²) …
Z_GEO_N=${Z_GEO_N:-200000}      # … requests per -P 16 run of GEOADD, GEODIST and GEOSEARCH
Z_PARTS=${Z_PARTS:-a b c}       # parts of 10 to run: a memory, b speed, c geo speed
SC_N1=${SC_N1:-200000}          # 11: EVALSHA requests per run at -P 1 …
SC_N16=${SC_N16:-1000000}       # … and at -P 16
ACL_N=${ACL_N:-2000000}         # 12: requests per -P 16 run of GET and of SET, per user
# 12's rounds: its rounds differ by ±5% from one another while its target is a 3% ratio, so it
# takes more of them than the others (11 at the default ROUNDS, about four minutes).
ACL_ROUNDS=${ACL_ROUNDS:-$((ROUNDS * 2 + 1))}
VALUE=85                        # value size of items 1, 2, 4 and 6
OUT=${OUT:-$ROOT/BENCHMARKS.md}
CHART=${CHART:-$ROOT/bench/bytes-per-key.svg}
CHART8=${CHART8:-$ROOT/bench/bytes-per-element.svg}
CHART9=${CHART9:-$ROOT/bench/bytes-per-element-lists.svg}
CHART10=${CHART10:-$ROOT/bench/bytes-per-element-zsets.svg}
TICKS=$(getconf CLK_TCK)

WORK=$(mktemp -d /tmp/kvbench.XXXXXX)
RESULTS=$WORK/results.tsv       # metric, side, round, value
COMMANDS=$WORK/commands         # every command template run, deduplicated in the report
FAILURES=$WORK/failures
: >"$RESULTS"; : >"$COMMANDS"; : >"$FAILURES"

SIDES=(kv redis)
declare -A NAME=([kv]=kvserver [redis]=Redis) BIN PID PORT
declare -A LIVE=()              # pids of the servers this shell started and has not stopped
ATTEMPT=                        # pid of the running attempt's subshell
STARTED=$(date +%s)
ABORTED=1

exec 3>&2 # progress goes to fd 3, so that capturing an attempt's stderr keeps only its errors
say() { printf '[%s] %s\n' "$(date +%T)" "$*" >&3; }
note_cmd() { printf '%s\n' "$*" >>"$COMMANDS"; }

# ---- servers ---------------------------------------------------------------------------------

# free_port prints a loopback port nobody listens on, below Linux's ephemeral range (32768+)
# so that client sockets cannot take it.
free_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 12000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  echo "no free port found" >&2; return 1
}

# alive reports whether pid runs (a zombie does not).
alive() {
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

# launch starts side's server on port in the background, with further directives if given,
# setting PID and PORT; it does not wait. The log, $WORK/side-port.log, is appended to.
launch() {
  local side=$1 port=$2
  shift 2
  (cd "$WORK" && exec "${BIN[$side]}" --port "$port" --bind 127.0.0.1 --maxclients 20000 \
    --save "" --appendonly no $SERVER_ARGS "$@") >>"$WORK/$side-$port.log" 2>&1 </dev/null 3>&- &
  LIVE[$!]=1
  PID[$side]=$! PORT[$side]=$port
}

# start_server starts side's server on a free port, with further directives if given, and
# waits for PONG, setting PID and PORT. It checks every step itself so that callers may test it
# with if.
start_server() {
  local side=$1 port log pid
  shift
  for _ in 1 2 3; do # a port taken between the check and the bind: try another
    port=$(free_port) || return 1
    log=$WORK/$side-$port.log
    launch "$side" "$port" "$@"
    pid=${PID[$side]}
    for _ in $(seq 500); do
      [ "$(timeout 10 redis-cli -p "$port" PING 2>/dev/null)" = PONG ] && return 0
      alive "$pid" || break
      sleep 0.02
    done
    stop_server "$side"
    echo "${NAME[$side]} did not start on port $port (log: $log)" >&2
    tail -n 5 "$log" >&2 || true
    grep -qi "in use" "$log" || return 1
  done
  return 1
}

# stop_pid stops a server: SIGTERM, then SIGKILL after 10 s.
stop_pid() {
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 200); do alive "$pid" || break; sleep 0.05; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  unset "LIVE[$pid]"
}

stop_server() {
  local pid=${PID[$1]:-}
  [ -n "$pid" ] && stop_pid "$pid"
  PID[$1]=
}

stop_servers() {
  local pid
  for pid in "${!LIVE[@]}"; do stop_pid "$pid"; done
}

cleanup() {
  local rc=$?
  if [ -n "$ATTEMPT" ]; then
    pkill -TERM -P "$ATTEMPT" 2>/dev/null || true # the attempt's children, by parent pid
    kill -TERM "$ATTEMPT" 2>/dev/null || true
    wait "$ATTEMPT" 2>/dev/null || true
  fi
  stop_servers
  if [ "$ABORTED" = 1 ] || [ "${KEEP:-0}" = 1 ]; then
    say "work directory kept: $WORK (server logs, results.tsv)"
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# attempt runs "$@" in a subshell with set -e in force (an if would switch it off) and notes a
# failure instead of stopping the run; servers the subshell starts are stopped when it ends.
attempt() {
  local what=$1 err=$WORK/attempt.err
  shift
  (
    LIVE=()
    trap stop_servers EXIT
    trap 'exit 143' TERM
    "$@"
  ) 2>"$err" &
  ATTEMPT=$!
  if wait "$ATTEMPT"; then
    ATTEMPT=
    cat "$err" >&2
    return 0
  fi
  ATTEMPT=
  cat "$err" >&2
  failed "$what" "$err"
}

# failed notes a failed measurement, with the last line of the error file if one is given.
failed() {
  local why=
  [ -z "${2:-}" ] || why=$(grep -v '^[[:space:]]*$' "$2" | tail -n 1 || true)
  printf '%s%s\n' "$1" "${why:+: $why}" >>"$FAILURES"
  say "FAILED: $1${why:+: $why}"
}

# ---- probes --------------------------------------------------------------------------------

# cpu_ticks prints pid's user+system CPU time in clock ticks (/proc/PID/stat fields 14 and 15,
# counted after the parenthesised command name, which may hold spaces).
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }

# rss prints pid's resident set size in bytes.
rss() { awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$1/status"; }

# info_field prints a field of INFO <section>, failing when the server has no such field.
info_field() {
  local v
  v=$(timeout 30 redis-cli -p "$1" INFO "$2" | tr -d '\r' | awk -F: -v f="$3" '$1 == f { print $2 }')
  [ -n "$v" ] || { echo "INFO $2 has no $3" >&2; return 1; }
  echo "$v"
}

# record appends one figure: metric, side, round, value.
record() {
  [[ $4 =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]] || { echo "$1: not a number: '$4'" >&2; return 1; }
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$RESULTS"
}

# load_keys SETs n keys of prefix key: and width digits with value-byte values through
# redis-cli --pipe; the command is listed with the value size as shown (default: value). It
# checks every step itself so that callers may test it with if.
load_keys() {
  local side=$1 n=$2 width=$3 value=$4 shown=${5:-$4} out
  note_cmd "$HELPERS/respgen -n $n -prefix key: -width $width -value $shown | redis-cli -p \$PORT --pipe"
  out=$("$HELPERS/respgen" -n "$n" -prefix key: -width "$width" -value "$value" |
    timeout 900 redis-cli -p "${PORT[$side]}" --pipe 2>&1) || { echo "$out" >&2; return 1; }
  grep -q "errors: 0, replies: $n\$" <<<"$out" || { echo "$out" >&2; return 1; }
}

# ---- measurements ----------------------------------------------------------------------------

TP_TESTS=("set 1 $TP_N1" "get 1 $TP_N1" "set 16 $TP_N16" "get 16 $TP_N16" "ping_mbulk 1 $TP_N1")

# throughput_one runs one redis-benchmark test against a running server and records ops/s, ops
# per server CPU-second and p50/p99.
throughput_one() {
  local side=$1 test=$2 p=$3 n=$4 r=$5 t0 t1 csv rps p50 p99 cpu id
  t0=$(cpu_ticks "${PID[$side]}")
  csv=$(timeout 600 redis-benchmark -p "${PORT[$side]}" -c 50 -d "$VALUE" -r "$TP_KEYS" -n "$n" \
    -P "$p" -t "$test" --csv | grep -i "^\"$test\"" | tr -d '"')
  t1=$(cpu_ticks "${PID[$side]}")
  # test, rps, avg, min, p50, p95, p99, max (milliseconds)
  IFS=, read -r _ rps _ _ p50 _ p99 _ <<<"$csv"
  cpu=$(awk -v n="$n" -v t="$TICKS" -v d="$((t1 - t0))" 'BEGIN { if (d <= 0) exit 1; printf "%.0f", n * t / d }')
  id=tp_${test}_P$p
  record "${id}_ops" "$side" "$r" "$rps"
  record "${id}_cpu" "$side" "$r" "$cpu"
  record "${id}_p50" "$side" "$r" "$p50"
  record "${id}_p99" "$side" "$r" "$p99"
  say "  ${test^^} -P $p ${NAME[$side]}: $rps ops/s, $cpu ops/CPU-s, p50 $p50 ms, p99 $p99 ms"
}

# start_loaded starts both servers and loads n keys (key:%012d) with 85-byte values into each;
# a side that fails is left stopped and noted.
start_loaded() {
  local side
  for side in "${SIDES[@]}"; do start_loaded_one "$side" "$1"; done
}

start_loaded_one() {
  local side=$1 n=$2
  if ! { start_server "$side" && load_keys "$side" "$n" 12 "$VALUE"; } 2>"$WORK/start.err"; then
    cat "$WORK/start.err" >&2
    failed "${NAME[$side]}: start and load $n keys" "$WORK/start.err"
    stop_server "$side"
  fi
}

# revive restarts and reloads with n keys a long-running server that has exited, noting it; it
# fails when the side has no server.
revive() {
  local side=$1
  if [ -n "${PID[$side]:-}" ] && ! alive "${PID[$side]}"; then
    failed "${NAME[$side]} exited (log: $WORK/$side-${PORT[$side]}.log); restarted and reloaded"
    stop_server "$side"
    start_loaded_one "$side" "$2"
  fi
  [ -n "${PID[$side]:-}" ]
}

measure_throughput() {
  say "1. throughput: redis-benchmark, $TP_KEYS keys preloaded"
  start_loaded "$TP_KEYS"
  local r t side test p n
  for t in "${TP_TESTS[@]}"; do
    read -r test p n <<<"$t"
    note_cmd "redis-benchmark -p \$PORT -c 50 -d $VALUE -r $TP_KEYS -n $n -P $p -t $test --csv"
  done
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for t in "${TP_TESTS[@]}"; do
      read -r test p n <<<"$t"
      for side in "${SIDES[@]}"; do
        revive "$side" "$TP_KEYS" || continue
        attempt "throughput ${test^^} -P $p, ${NAME[$side]}, round $r" throughput_one "$side" "$test" "$p" "$n" "$r"
      done
    done
  done
  for side in "${SIDES[@]}"; do # every GET should have hit
    [ -n "${PID[$side]:-}" ] || continue
    local misses
    misses=$(info_field "${PORT[$side]}" stats keyspace_misses 2>/dev/null) || continue
    [ "$misses" = 0 ] || failed "${NAME[$side]}: $misses GETs missed in the throughput runs"
  done
  stop_server kv
  stop_server redis
}

# memory_round starts a fresh server, loads n keys and records the used_memory_dataset,
# used_memory and RSS deltas per key under the given metric prefix; it waits settle seconds
# before each reading.
memory_round() {
  local side=$1 n=$2 width=$3 value=$4 prefix=$5 r=$6 settle=$7 shown=${8:-$4}
  local port pid d0 u0 r0 d1 u1 r1 d u m
  start_server "$side"
  port=${PORT[$side]} pid=${PID[$side]}
  sleep "$settle"
  d0=$(info_field "$port" memory used_memory_dataset)
  u0=$(info_field "$port" memory used_memory)
  r0=$(rss "$pid")
  load_keys "$side" "$n" "$width" "$value" "$shown"
  sleep "$settle"
  d1=$(info_field "$port" memory used_memory_dataset)
  u1=$(info_field "$port" memory used_memory)
  r1=$(rss "$pid")
  stop_server "$side"
  d=$(per_key "$d0" "$d1" "$n")
  u=$(per_key "$u0" "$u1" "$n")
  m=$(per_key "$r0" "$r1" "$n")
  record "${prefix}_dataset" "$side" "$r" "$d"
  record "${prefix}_used" "$side" "$r" "$u"
  record "${prefix}_rss" "$side" "$r" "$m"
  [ "$prefix" != mem ] || say "  ${NAME[$side]}: $d dataset, $u used_memory, $m RSS bytes/key"
}

# per_key prints (after - before) / n with one decimal, or with $4 decimals.
per_key() { awk -v a="$1" -v b="$2" -v n="$3" -v d="${4:-1}" 'BEGIN { printf "%." d "f", (b - a) / n }'; }

measure_memory() {
  say "2. bytes per key: $MEM_KEYS keys of 18 bytes, $VALUE-byte values"
  note_cmd "redis-cli -p \$PORT INFO memory   # used_memory, used_memory_dataset before and after; VmRSS from /proc/PID/status"
  local r side
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for side in "${SIDES[@]}"; do
      attempt "bytes per key, ${NAME[$side]}, round $r" memory_round "$side" "$MEM_KEYS" 14 "$VALUE" mem "$r" 1
    done
  done
}

# conns_round starts a fresh server and records the RSS per connection that bench/conns reports.
conns_round() {
  local side=$1 mode=$2 n=$3 r=$4 out per
  start_server "$side"
  sleep 0.5
  out=$(timeout 600 "$HELPERS/conns" -addr "127.0.0.1:${PORT[$side]}" -pid "${PID[$side]}" -n "$n" -mode "$mode" \
    -value "$PARTIAL_VALUE" -sent "$PARTIAL_SENT" -channels "$PS_CHANNELS" -settle "${CONN_SETTLE}s")
  stop_server "$side"
  per=$(sed -n 's/.*per_conn_bytes=\([-0-9.]*\).*/\1/p' <<<"$out")
  record "conn_$mode" "$side" "$r" "$per"
  say "  ${NAME[$side]}, $n connections ($mode): $per bytes each"
}

measure_conns() {
  say "3. RSS per connection"
  note_cmd "$HELPERS/conns -addr 127.0.0.1:\$PORT -pid \$PID -n $IDLE_CONNS -mode ping -settle ${CONN_SETTLE}s"
  note_cmd "$HELPERS/conns -addr 127.0.0.1:\$PORT -pid \$PID -n $PARTIAL_CONNS -mode partial -value $PARTIAL_VALUE -sent $PARTIAL_SENT -settle ${CONN_SETTLE}s"
  local r side
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for side in "${SIDES[@]}"; do
      attempt "RSS per idle connection, ${NAME[$side]}, round $r" conns_round "$side" ping "$IDLE_CONNS" "$r"
    done
    for side in "${SIDES[@]}"; do
      attempt "RSS per partial-SET connection, ${NAME[$side]}, round $r" conns_round "$side" partial "$PARTIAL_CONNS" "$r"
    done
  done
}

# latency_one runs bench/loadgen against a running server and records p50, p99 and p99.9.
latency_one() {
  local side=$1 keys=$2 size=$3 r=$4 out v q
  out=$(timeout $((LAT_SECS + 60)) "$HELPERS/loadgen" -addr "127.0.0.1:${PORT[$side]}" -keys "$keys" -rate "$LAT_RATE" \
    -conns "$LAT_CONNS" -duration "${LAT_SECS}s" -warmup 1s)
  for q in p50 p99 p999 sendlag_p99; do
    v=$(sed -n "s/.* ${q}_us=\([0-9.]*\).*/\1/p" <<<"$out")
    record "lat_${size}_$q" "$side" "$r" "$v"
  done
  say "  ${NAME[$side]}: $out"
}

measure_latency() {
  local size keys r side
  note_cmd "$HELPERS/loadgen -addr 127.0.0.1:\$PORT -keys \$KEYS -rate $LAT_RATE -conns $LAT_CONNS -duration ${LAT_SECS}s -warmup 1s"
  for size in small big; do
    [ "$size" = small ] && keys=$LAT_SMALL || keys=$LAT_BIG
    say "4. GET latency, open loop at $LAT_RATE/s, $keys keys loaded"
    start_loaded "$keys"
    sleep "$LAT_SETTLE"
    for r in $(seq "$ROUNDS"); do
      say "round $r/$ROUNDS"
      for side in "${SIDES[@]}"; do
        revive "$side" "$keys" || continue
        attempt "GET latency with $keys keys, ${NAME[$side]}, round $r" latency_one "$side" "$keys" "$size" "$r"
      done
    done
    stop_server kv
    stop_server redis
  done
}

measure_chart() {
  say "5. bytes per key against value size: $CHART_KEYS keys of 16 bytes per size"
  local r size side
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for size in $(seq 8 "$CHART_STEP" 512); do
      for side in "${SIDES[@]}"; do
        attempt "bytes per key with $size-byte values, ${NAME[$side]}, round $r" \
          memory_round "$side" "$CHART_KEYS" 12 "$size" "chart_$size" "$r" 0.1 "\$SIZE"
      done
    done
  done
}

# field prints the value of key=value in a helper's output line, failing when there is none.
field() {
  local v
  v=$(tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p")
  [ -n "$v" ] || { echo "no $1= in: $2" >&2; return 1; }
  echo "$v"
}

# mb prints bytes in MB (10^6) with one decimal.
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# check_rdbcompression fails unless the server compresses its dumps, as Redis does by default.
check_rdbcompression() {
  local v
  v=$(timeout 30 redis-cli -p "${PORT[$1]}" CONFIG GET rdbcompression | tail -n 1)
  [ "$v" = yes ] || { echo "${NAME[$1]}: CONFIG GET rdbcompression is '$v', not yes" >&2; return 1; }
}

# save_round (6a) loads SAVE_KEYS keys into a fresh server, times a BGSAVE, restarts the server
# on the file and times the load from exec to the first PING not answered -LOADING, then checks
# DBSIZE. Only one side's dataset is in memory at a time.
save_round() {
  local side=$1 r=$2 dir=$WORK/rdb-$1 out port t0 save load size n busy
  rm -rf "$dir" && mkdir -p "$dir"
  start_server "$side" --dir "$dir" --dbfilename dump.rdb
  port=${PORT[$side]}
  check_rdbcompression "$side"
  load_keys "$side" "$SAVE_KEYS" 14 "$VALUE"
  out=$(timeout 1800 "$HELPERS/persist" bgsave -addr "127.0.0.1:$port")
  save=$(field save_s "$out")
  size=$(stat -c %s "$dir/dump.rdb")
  stop_server "$side"
  t0=$(date +%s%N)
  launch "$side" "$port" --dir "$dir" --dbfilename dump.rdb
  out=$(timeout 1800 "$HELPERS/persist" load -addr "127.0.0.1:$port" -pid "${PID[$side]}" -since "$t0")
  load=$(field load_s "$out") busy=$(field loading_replies "$out")
  n=$(timeout 30 redis-cli -p "$port" DBSIZE)
  stop_server "$side"
  rm -rf "$dir"
  [ "$n" = "$SAVE_KEYS" ] || { echo "${NAME[$side]}: DBSIZE $n after loading the dump of $SAVE_KEYS keys" >&2; return 1; }
  record p_save_s "$side" "$r" "$save"
  record p_load_s "$side" "$r" "$load"
  record p_rdb_mb "$side" "$r" "$(mb "$size")"
  say "  ${NAME[$side]}: BGSAVE $save s, load $load s ($busy PINGs answered -LOADING meanwhile), dump.rdb $(mb "$size") MB"
}

# cow_round (6b, 6c) preloads COW_KEYS keys into a fresh server and starts redis-benchmark
# overwriting them (SET -P 16, until stopped). Under that load it measures SET/GET latency with
# bench/loadgen for SAVE_LAT_SECS, then runs a BGSAVE (bench/persist sampling memory every 10 ms)
# while loadgen -window measures the requests meant to be sent during the save.
cow_round() {
  local side=$1 r=$2 dir=$WORK/rdb-$1 port pid bench lg out c0 c1 t0 t1 before peak q kind
  rm -rf "$dir" && mkdir -p "$dir"
  start_server "$side" --dir "$dir" --dbfilename dump.rdb
  port=${PORT[$side]} pid=${PID[$side]}
  load_keys "$side" "$COW_KEYS" 12 "$VALUE"
  timeout 1800 redis-benchmark -p "$port" -c "$COW_CLIENTS" -P "$COW_PIPE" -d "$VALUE" -r "$COW_KEYS" \
    -n 2000000000 -t set -q >/dev/null 2>&1 &
  bench=$!
  sleep "$COW_SETTLE"

  # Without a save.
  c0=$(info_field "$port" stats total_commands_processed) t0=$(date +%s%N)
  out=$(timeout $((SAVE_LAT_SECS + 60)) "$HELPERS/loadgen" -addr "127.0.0.1:$port" -keys "$COW_KEYS" \
    -set-pct 50 -value "$VALUE" -rate "$SAVE_LAT_RATE" -conns "$SAVE_LAT_CONNS" -duration "${SAVE_LAT_SECS}s" -warmup 1s)
  c1=$(info_field "$port" stats total_commands_processed) t1=$(date +%s%N)
  say "  ${NAME[$side]}, no save: $out"
  for q in get_p50 get_p99 set_p50 set_p99 sendlag_p99; do
    record "p_lat_${q}_nosave" "$side" "$r" "$(field "${q}_us" "$out")"
  done
  record p_cow_cmds_nosave "$side" "$r" "$(awk -v c="$((c1 - c0))" -v t="$((t1 - t0))" 'BEGIN { printf "%.0f", c * 1e9 / t }')"

  # During a BGSAVE.
  alive "$bench" || { echo "the SET load (redis-benchmark) ended early" >&2; return 1; }
  "$HELPERS/loadgen" -addr "127.0.0.1:$port" -keys "$COW_KEYS" -set-pct 50 -value "$VALUE" \
    -rate "$SAVE_LAT_RATE" -conns "$SAVE_LAT_CONNS" -duration 1800s -window >"$WORK/loadgen.out" &
  lg=$!
  if ! out=$(timeout 1800 "$HELPERS/persist" bgsave -addr "127.0.0.1:$port" -pid "$pid" -before 1s -notify "$lg"); then
    kill -TERM "$lg" 2>/dev/null || true
    wait "$lg" 2>/dev/null || true
    return 1
  fi
  wait "$lg" || { echo "loadgen -window failed" >&2; return 1; }
  alive "$bench" || { echo "the SET load (redis-benchmark) ended before the save did" >&2; return 1; }
  kill -TERM "$bench" 2>/dev/null || true
  wait "$bench" 2>/dev/null || true
  stop_server "$side"
  rm -rf "$dir"

  say "  ${NAME[$side]}, BGSAVE: $out"
  before=$(field rss_before "$out") peak=$(field rss_peak "$out")
  record p_cow_save_s "$side" "$r" "$(field save_s "$out")"
  record p_cow_cmds_save "$side" "$r" "$(field cmds_per_s "$out")"
  record p_cow_before_mb "$side" "$r" "$(mb "$before")"
  record p_cow_peak_mb "$side" "$r" "$(mb "$peak")"
  record p_cow_growth "$side" "$r" "$(awk -v a="$peak" -v b="$before" 'BEGIN { printf "%.3f", a / b }')"
  record p_cow_child_mb "$side" "$r" "$(mb "$(field children_dirty_peak "$out")")"
  q=$(field rdb_last_cow_size "$out")
  [ "$q" = -1 ] || record p_cow_cowsize_mb "$side" "$r" "$(mb "$q")"
  out=$(cat "$WORK/loadgen.out")
  say "  ${NAME[$side]}, during the save: $out"
  for q in get_p50 get_p99 set_p50 set_p99 sendlag_p99; do
    record "p_lat_${q}_save" "$side" "$r" "$(field "${q}_us" "$out")"
  done
  for kind in get set; do
    record "p_lat_${kind}_p99_growth" "$side" "$r" "$(awk -v a="$(field "${kind}_p99_us" "$out")" \
      -v b="$(median_round "p_lat_${kind}_p99_nosave" "$side" "$r")" 'BEGIN { if (b > 0) printf "%.2f", a / b }')"
  done
}

# median_round prints a metric's figure for one side and round.
median_round() { awk -F'\t' -v m="$1" -v s="$2" -v r="$3" '$1 == m && $2 == s && $3 == r { print $4 }' "$RESULTS"; }

measure_persist() {
  local r side
  say "6a. BGSAVE and load at start-up: $(commas "$SAVE_KEYS") keys of 18 bytes, $VALUE-byte values, $P_ROUNDS rounds"
  note_cmd "$HELPERS/persist bgsave -addr 127.0.0.1:\$PORT   # after loading $SAVE_KEYS keys (respgen -width 14) into a server started with --dir \$DIR --dbfilename dump.rdb"
  note_cmd "$HELPERS/persist load -addr 127.0.0.1:\$PORT -pid \$PID -since \$START_NS   # the server restarted on \$DIR/dump.rdb; then DBSIZE"
  for r in $(seq "$P_ROUNDS"); do
    say "round $r/$P_ROUNDS"
    for side in "${SIDES[@]}"; do
      attempt "BGSAVE and load of $SAVE_KEYS keys, ${NAME[$side]}, round $r" save_round "$side" "$r"
    done
  done
  say "6b, 6c. BGSAVE of $(commas "$COW_KEYS") keys under a SET load: memory, SET/GET latency with and without it"
  note_cmd "redis-benchmark -p \$PORT -c $COW_CLIENTS -P $COW_PIPE -d $VALUE -r $COW_KEYS -n 2000000000 -t set -q   # the SET load, after loading $COW_KEYS keys (respgen -width 12); stopped after the save"
  note_cmd "$HELPERS/loadgen -addr 127.0.0.1:\$PORT -keys $COW_KEYS -set-pct 50 -value $VALUE -rate $SAVE_LAT_RATE -conns $SAVE_LAT_CONNS -duration ${SAVE_LAT_SECS}s -warmup 1s   # without a save"
  note_cmd "$HELPERS/loadgen -addr 127.0.0.1:\$PORT -keys $COW_KEYS -set-pct 50 -value $VALUE -rate $SAVE_LAT_RATE -conns $SAVE_LAT_CONNS -duration 1800s -window &   # during the save:"
  note_cmd "$HELPERS/persist bgsave -addr 127.0.0.1:\$PORT -pid \$PID -before 1s -notify \$LOADGEN_PID"
  for r in $(seq "$P_ROUNDS"); do
    say "round $r/$P_ROUNDS"
    for side in "${SIDES[@]}"; do
      attempt "BGSAVE under a SET load, ${NAME[$side]}, round $r" cow_round "$side" "$r"
    done
  done
}

# pubsub_round (7a) starts a fresh server, runs bench/pubsub against it and records the
# messages delivered per server CPU-second and per second.
pubsub_round() {
  local side=$1 r=$2 out ticks cpu
  start_server "$side"
  out=$(timeout 900 "$HELPERS/pubsub" -addr "127.0.0.1:${PORT[$side]}" -pid "${PID[$side]}" -subs "$PS_SUBS" \
    -msgs "$PS_MSGS" -publishers "$PS_PUBLISHERS" -pipeline "$PS_PIPELINE" -size "$PS_SIZE")
  stop_server "$side"
  ticks=$(field server_cpu_ticks "$out")
  cpu=$(awk -v n="$(field delivered "$out")" -v t="$TICKS" -v d="$ticks" 'BEGIN { if (d <= 0) exit 1; printf "%.0f", n * t / d }')
  record ps_pub_cpu "$side" "$r" "$cpu"
  record ps_pub_rate "$side" "$r" "$(field delivered_per_s "$out")"
  say "  ${NAME[$side]}: $out, $cpu delivered per CPU-s"
}

measure_pubsub() {
  local r side
  say "7. pub/sub: PUBLISH to 1 channel with $(commas "$PS_SUBS") subscribers; RSS per idle subscribed client"
  note_cmd "$HELPERS/pubsub -addr 127.0.0.1:\$PORT -pid \$PID -subs $PS_SUBS -msgs $PS_MSGS -publishers $PS_PUBLISHERS -pipeline $PS_PIPELINE -size $PS_SIZE"
  note_cmd "$HELPERS/conns -addr 127.0.0.1:\$PORT -pid \$PID -n $PS_IDLE -mode subscribe -channels $PS_CHANNELS -settle ${CONN_SETTLE}s"
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for side in "${SIDES[@]}"; do
      attempt "PUBLISH to $PS_SUBS subscribers, ${NAME[$side]}, round $r" pubsub_round "$side" "$r"
    done
    for side in "${SIDES[@]}"; do
      attempt "RSS per idle subscribed client, ${NAME[$side]}, round $r" conns_round "$side" subscribe "$PS_IDLE" "$r"
    done
  done
}

# The shapes of 8a: metric id | respgen arguments | element count | element | label | the
# command whose answer checks the load (the element count, or 500 for one of the intsets).
hs_shapes() {
  HS_SHAPES=(
    "hash1m|-cmd hset -key bighash -prefix field: -width 10 -value 32 -n $HS_FIELDS|$HS_FIELDS|field|one hash of $(commas "$HS_FIELDS") fields field:%010d, 32-byte values|HLEN bighash"
    "hash10|-cmd hsetn -prefix hs: -width 0 -fields 10 -value 16 -n $HS_HASHES|$HS_HASHES|hash|$(commas "$HS_HASHES") hashes hs:<i> of 10 fields f0…f9, 16-byte values|DBSIZE"
    "set1m|-cmd sadd -key bigset -prefix member: -width 10 -n $HS_MEMBERS|$HS_MEMBERS|member|one set of $(commas "$HS_MEMBERS") members member:%010d|SCARD bigset"
    "intset|-cmd saddint -prefix iset: -width 0 -members 500 -n $HS_INTSETS|$((HS_INTSETS * 500))|member|$(commas "$HS_INTSETS") sets iset:<i> of 500 integers (i, i+$(commas "$HS_INTSETS"), …)|SCARD iset:0"
  )
}

# gen_load runs respgen (or the generator GEN_TOOL names, e.g. zset) with the given arguments
# (-n n among them) into side's server through redis-cli --pipe, and fails unless all n commands
# were answered without an error.
gen_load() {
  local side=$1 n=$2 out tool=${GEN_TOOL:-respgen}
  shift 2
  note_cmd "$HELPERS/$tool $* | redis-cli -p \$PORT --pipe"
  # redis-cli exits 1 when a reply was an error: the summary line decides.
  out=$("$HELPERS/$tool" "$@" | timeout 900 redis-cli -p "${PORT[$side]}" --pipe 2>&1) || true
  grep -q "errors: 0, replies: $n\$" <<<"$out" ||
    { echo "$(grep -o -m 1 -E "(ERR|WRONGTYPE)[^']*('[^']*')?" <<<"$out" | head -n 1) — $(tail -n 1 <<<"$out")" >&2; return 1; }
}

# hs_memory_round (8a, 9a) loads one shape into a fresh server and records the used_memory and
# RSS deltas per element under <prefix>_<id> (prefix hs unless given), after checking the count
# the shape's command answers.
hs_memory_round() {
  local side=$1 spec=$2 r=$3 prefix=${4:-hs} id args elems el label check cmds want port pid u0 r0 u1 r1 got
  IFS='|' read -r id args elems el label check <<<"$spec"
  start_server "$side"
  port=${PORT[$side]} pid=${PID[$side]}
  # MEMORY PURGE before each reading, on both servers: kvserver's used_memory counts the Go
  # heap live at its last collection, which moves by ±300 KB with when that ran (a tenth of a
  # byte per element of the million-element shapes, 7% of the intsets' 4.2); the purge runs a
  # collection there, and makes Redis's jemalloc give back its dirty pages.
  redis-cli -p "$port" MEMORY PURGE >/dev/null
  sleep "$HS_SETTLE"
  u0=$(info_field "$port" memory used_memory)
  r0=$(rss "$pid")
  # shellcheck disable=SC2086 # args is a word list
  set -- $args
  cmds=${args##*-n }
  gen_load "$side" "$cmds" "$@"
  redis-cli -p "$port" MEMORY PURGE >/dev/null
  sleep "$HS_SETTLE"
  u1=$(info_field "$port" memory used_memory)
  r1=$(rss "$pid")
  # shellcheck disable=SC2086 # check is a command line
  got=$(timeout 30 redis-cli -p "$port" $check)
  stop_server "$side"
  want=$([ "$id" = intset ] && echo 500 || echo "$cmds")
  [ "$got" = "$want" ] || { echo "${NAME[$side]}: $check answered '$got' after loading $label, not $want" >&2; return 1; }
  # Two decimals: the per-integer target, 4.2, needs the second.
  record "${prefix}_${id}_used" "$side" "$r" "$(per_key "$u0" "$u1" "$elems" 2)"
  record "${prefix}_${id}_rss" "$side" "$r" "$(per_key "$r0" "$r1" "$elems" 2)"
  say "  ${NAME[$side]}, $label: $(per_key "$u0" "$u1" "$elems" 2) used_memory, $(per_key "$r0" "$r1" "$elems" 2) RSS bytes per $el"
}

# hs_load (8b) starts side's server and loads the keys the speed runs read: HS_KEYS hashes
# hs:%012d of 10 fields (16-byte values), one set bigset of HS_KEYS members member:%012d — the
# names redis-benchmark's __rand_int__ makes — and a hash h1000 of 1,000 fields field:%010d with
# 32-byte values. A side that fails is left stopped and noted.
hs_load() {
  local side=$1
  if ! { start_server "$side" &&
    gen_load "$side" "$HS_KEYS" -cmd hsetn -prefix hs: -width 12 -fields 10 -value 16 -n "$HS_KEYS" &&
    gen_load "$side" "$HS_KEYS" -cmd sadd -key bigset -prefix member: -width 12 -n "$HS_KEYS" &&
    gen_load "$side" 1000 -cmd hset -key h1000 -prefix field: -width 10 -value 32 -n 1000; } 2>"$WORK/start.err"; then
    cat "$WORK/start.err" >&2
    failed "${NAME[$side]}: start and load the keys of the speed runs" "$WORK/start.err"
    stop_server "$side"
  fi
}

# hs_custom_one runs redis-benchmark with a command line of its own at -P 16 against a running
# server and records ops/s and ops per server CPU-second under <id>_ops and <id>_cpu (8b: id
# hs_<name>, 9b: l_lrange_<n>), checking that no lookup missed (keyspace_misses unchanged); a
# command line with __rand_int__ gets -r HS_KEYS.
hs_custom_one() {
  local side=$1 id=$2 n=$3 r=$4 m0 m1 t0 t1 csv rps cpu rand=()
  shift 4
  [[ $* != *__rand_int__* ]] || rand=(-r "$HS_KEYS")
  m0=$(info_field "${PORT[$side]}" stats keyspace_misses)
  t0=$(cpu_ticks "${PID[$side]}")
  csv=$(timeout 600 redis-benchmark -p "${PORT[$side]}" -c 50 -n "$n" -P 16 "${rand[@]}" --csv "$@" | sed -n 2p | tr -d '"')
  t1=$(cpu_ticks "${PID[$side]}")
  m1=$(info_field "${PORT[$side]}" stats keyspace_misses)
  [ "$m0" = "$m1" ] || { echo "${NAME[$side]}: $((m1 - m0)) lookups of $* missed" >&2; return 1; }
  IFS=, read -r _ rps _ <<<"$csv"
  cpu=$(awk -v n="$n" -v t="$TICKS" -v d="$((t1 - t0))" 'BEGIN { if (d <= 0) exit 1; printf "%.0f", n * t / d }')
  record "${id}_ops" "$side" "$r" "$rps"
  record "${id}_cpu" "$side" "$r" "$cpu"
  say "  $* -P 16 ${NAME[$side]}: $rps ops/s, $cpu ops/CPU-s"
}

# The issue's targets for kvserver's used_memory per element of each shape of 8a.
declare -A HS_TARGET=([hash1m]=72 [hash10]=290 [set1m]=38 [intset]=4.2)
HS_TESTS=(hset sadd spop)
HS_CUSTOM=("hget|$HS_N|HGET hs:__rand_int__ f3" "sismember|$HS_N|SISMEMBER bigset member:__rand_int__" "hgetall|$HS_HGETALL_N|HGETALL h1000")

measure_hashes_sets() {
  local r side spec id args elems el label n cmd test
  hs_shapes
  say "8a. hashes and sets: used_memory and RSS per element, a fresh server per shape and round, $HS_MEM_ROUNDS rounds"
  note_cmd "redis-cli -p \$PORT MEMORY PURGE; sleep $HS_SETTLE; redis-cli -p \$PORT INFO memory   # 8a: used_memory before and after loading a shape, VmRSS from /proc/PID/status; then HLEN, SCARD or DBSIZE checked"
  for r in $(seq "$HS_MEM_ROUNDS"); do
    say "round $r/$HS_MEM_ROUNDS"
    for spec in "${HS_SHAPES[@]}"; do
      IFS='|' read -r id args elems el label _ <<<"$spec"
      for side in "${SIDES[@]}"; do
        attempt "$label, ${NAME[$side]}, round $r" hs_memory_round "$side" "$spec" "$r"
      done
    done
  done
  say "8b. hashes and sets: speed at -P 16, $(commas "$HS_KEYS") hashes and set members loaded"
  for test in "${HS_TESTS[@]}"; do
    note_cmd "redis-benchmark -p \$PORT -c 50 -d $VALUE -r $TP_KEYS -n $HS_N -P 16 -t $test --csv"
  done
  for spec in "${HS_CUSTOM[@]}"; do
    IFS='|' read -r id n cmd <<<"$spec"
    note_cmd "redis-benchmark -p \$PORT -c 50 -n $n -P 16$([[ $cmd != *__rand_int__* ]] || echo " -r $HS_KEYS") --csv $cmd"
  done
  for side in "${SIDES[@]}"; do hs_load "$side"; done
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for test in "${HS_TESTS[@]}"; do
      for side in "${SIDES[@]}"; do
        [ -n "${PID[$side]:-}" ] || continue
        attempt "${test^^} -P 16, ${NAME[$side]}, round $r" throughput_one "$side" "$test" 16 "$HS_N" "$r"
      done
    done
    for spec in "${HS_CUSTOM[@]}"; do
      IFS='|' read -r id n cmd <<<"$spec"
      for side in "${SIDES[@]}"; do
        [ -n "${PID[$side]:-}" ] || continue
        # shellcheck disable=SC2086 # cmd is a command line
        attempt "$cmd -P 16, ${NAME[$side]}, round $r" hs_custom_one "$side" "hs_$id" "$n" "$r" $cmd
      done
    done
  done
  stop_server kv
  stop_server redis
}

# The shapes of 9a, as HS_SHAPES: metric id | respgen arguments | element count | element |
# label | the command whose answer checks the load.
l_shapes() {
  L_SHAPES=(
    "list1m|-cmd rpush -key biglist -prefix element: -width 8 -n $L_ELEMS|$L_ELEMS|element|one list of $(commas "$L_ELEMS") 16-byte elements element:%08d|LLEN biglist"
    "list10|-cmd rpushn -prefix ls: -width 0 -elems 10 -value 16 -n $L_LISTS|$L_LISTS|list|$(commas "$L_LISTS") lists ls:<i> of 10 16-byte elements|DBSIZE"
  )
}

# The issue's targets for kvserver's used_memory per element of 9a's shapes (none for list10).
declare -A L_TARGET=([list1m]=18.2)
L_TESTS=(lpush rpush lpop rpop)
# LRANGE_<n>: redis-benchmark's own command line for -t lrange_<n> (LRANGE mylist 0 <n-1>, but
# 0 499 for lrange_500), run as a custom command so that the server's CPU time does not include
# the LPUSH of n elements that -t lrange_<n> runs first; requests per run before L_LRANGE_SCALE.
L_LRANGE=("100|100000|LRANGE mylist 0 99" "300|40000|LRANGE mylist 0 299" "500|20000|LRANGE mylist 0 499" "600|20000|LRANGE mylist 0 599")
L_FILL=1000 # elements redis-benchmark -t lpush leaves in mylist for the LRANGE runs

# l_load (9b) starts side's server and fills mylist with L_FILL elements of VALUE bytes through
# redis-benchmark's own LPUSH. A side that fails is left stopped and noted.
l_load() {
  local side=$1
  if ! { start_server "$side" &&
    timeout 600 redis-benchmark -p "${PORT[$side]}" -c 1 -n "$L_FILL" -d "$VALUE" -t lpush -q >/dev/null &&
    l_check_fill "$side"; } 2>"$WORK/start.err"; then
    cat "$WORK/start.err" >&2
    failed "${NAME[$side]}: start and fill mylist for the list speed runs" "$WORK/start.err"
    stop_server "$side"
  fi
}

# l_check_fill fails unless mylist holds L_FILL elements: the LRANGE runs read its first 600,
# and every round's pops take exactly what its pushes added.
l_check_fill() {
  local n
  n=$(timeout 30 redis-cli -p "${PORT[$1]}" LLEN mylist)
  [ "$n" = "$L_FILL" ] || { echo "${NAME[$1]}: LLEN mylist is '$n', not $L_FILL" >&2; return 1; }
}

# blocked_round (9c) runs bench/blocked -mode idle, then -mode blocked, each against a fresh
# server, and records RSS and used_memory per connection over the empty server for both, and
# the blocked clients' over the idle connections' of the same round.
blocked_round() {
  local side=$1 r=$2 mode out
  local -A rss used
  for mode in idle blocked; do
    start_server "$side"
    sleep 0.5
    out=$(timeout 900 "$HELPERS/blocked" -mode "$mode" -addr "127.0.0.1:${PORT[$side]}" -pid "${PID[$side]}" \
      -n "$L_BLOCKED" -settle "${CONN_SETTLE}s")
    stop_server "$side"
    rss[$mode]=$(field rss_per_conn "$out") used[$mode]=$(field used_per_conn "$out")
    record "l_rss_${mode}_per_conn" "$side" "$r" "${rss[$mode]}"
    record "l_used_${mode}_per_conn" "$side" "$r" "${used[$mode]}"
    say "  ${NAME[$side]}: $out"
  done
  record l_rss_blocked_over_idle "$side" "$r" "$((rss[blocked] - rss[idle]))"
  record l_used_blocked_over_idle "$side" "$r" "$((used[blocked] - used[idle]))"
}

# wake_round (9d) starts a fresh server, runs bench/blocked -mode wake against it and records
# the LPUSH → BLPOP reply latency percentiles.
wake_round() {
  local side=$1 r=$2 out f
  start_server "$side"
  out=$(timeout 900 "$HELPERS/blocked" -mode wake -addr "127.0.0.1:${PORT[$side]}" -rounds "$L_WAKE_ROUNDS")
  stop_server "$side"
  for f in wake_p50_us wake_p99_us wake_p999_us lpush_p50_us; do
    record "l_$f" "$side" "$r" "$(field "$f" "$out")"
  done
  say "  ${NAME[$side]}: $out"
}

# measure_lists runs the parts of measurement 9 that L_PARTS names.
measure_lists() {
  l_shapes
  [[ " $L_PARTS " != *" a "* ]] || measure_lists_memory
  [[ " $L_PARTS " != *" b "* ]] || measure_lists_speed
  [[ " $L_PARTS " != *" c "* ]] || measure_lists_blocked
}

measure_lists_memory() {
  local r side spec
  say "9a. lists: used_memory and RSS per element, a fresh server per shape and round, $L_MEM_ROUNDS rounds"
  note_cmd "redis-cli -p \$PORT MEMORY PURGE; sleep $HS_SETTLE; redis-cli -p \$PORT INFO memory   # 9a: used_memory before and after loading a shape, VmRSS from /proc/PID/status; then LLEN or DBSIZE checked"
  for r in $(seq "$L_MEM_ROUNDS"); do
    say "round $r/$L_MEM_ROUNDS"
    for spec in "${L_SHAPES[@]}"; do
      for side in "${SIDES[@]}"; do
        attempt "$(cut -d'|' -f5 <<<"$spec"), ${NAME[$side]}, round $r" hs_memory_round "$side" "$spec" "$r" l
      done
    done
  done
}

measure_lists_speed() {
  local r side spec id n cmd test
  say "9b. lists: speed at -P 16"
  note_cmd "redis-benchmark -p \$PORT -c 1 -n $L_FILL -d $VALUE -t lpush -q   # 9b: fills mylist once, before the rounds; LLEN mylist checked before each round's LRANGE runs"
  for test in "${L_TESTS[@]}"; do
    note_cmd "redis-benchmark -p \$PORT -c 50 -d $VALUE -r $TP_KEYS -n $L_N -P 16 -t $test --csv"
  done
  for spec in "${L_LRANGE[@]}"; do
    IFS='|' read -r id n cmd <<<"$spec"
    note_cmd "redis-benchmark -p \$PORT -c 50 -n $((n / L_LRANGE_SCALE)) -P 16 --csv $cmd"
  done
  for side in "${SIDES[@]}"; do l_load "$side"; done
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for test in "${L_TESTS[@]}"; do # pushes of n at each end, then pops of n at each end
      for side in "${SIDES[@]}"; do
        [ -n "${PID[$side]:-}" ] || continue
        attempt "${test^^} -P 16, ${NAME[$side]}, round $r" throughput_one "$side" "$test" 16 "$L_N" "$r"
      done
    done
    for side in "${SIDES[@]}"; do
      [ -n "${PID[$side]:-}" ] || continue
      attempt "LLEN mylist before the LRANGE runs, ${NAME[$side]}, round $r" l_check_fill "$side"
    done
    for spec in "${L_LRANGE[@]}"; do
      IFS='|' read -r id n cmd <<<"$spec"
      for side in "${SIDES[@]}"; do
        [ -n "${PID[$side]:-}" ] || continue
        # shellcheck disable=SC2086 # cmd is a command line
        attempt "LRANGE_$id -P 16, ${NAME[$side]}, round $r" hs_custom_one "$side" "l_lrange_$id" "$((n / L_LRANGE_SCALE))" "$r" $cmd
      done
    done
  done
  stop_server kv
  stop_server redis
}

measure_lists_blocked() {
  local r side
  say "9c, 9d. blocked clients: $(commas "$L_BLOCKED") in BLPOP on distinct keys; LPUSH → BLPOP reply latency"
  note_cmd "$HELPERS/blocked -mode idle -addr 127.0.0.1:\$PORT -pid \$PID -n $L_BLOCKED -settle ${CONN_SETTLE}s"
  note_cmd "$HELPERS/blocked -mode blocked -addr 127.0.0.1:\$PORT -pid \$PID -n $L_BLOCKED -settle ${CONN_SETTLE}s"
  note_cmd "$HELPERS/blocked -mode wake -addr 127.0.0.1:\$PORT -rounds $L_WAKE_ROUNDS"
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for side in "${SIDES[@]}"; do
      attempt "$(commas "$L_BLOCKED") clients blocked in BLPOP, ${NAME[$side]}, round $r" blocked_round "$side" "$r"
    done
    for side in "${SIDES[@]}"; do
      attempt "LPUSH to a client blocked in BLPOP, ${NAME[$side]}, round $r" wake_round "$side" "$r"
    done
  done
}

# The shapes of 10a, as HS_SHAPES (loaded by bench/zset, GEN_TOOL=zset): metric id | zset
# arguments | element count | element | label | the command whose answer checks the load.
z_shapes() {
  Z_SHAPES=(
    "zset1m|-cmd zadd -key bigzset -prefix member: -width 10 -n $Z_MEMBERS|$Z_MEMBERS|member|one sorted set of $(commas "$Z_MEMBERS") members member:%010d, score i|ZCARD bigzset"
    "zset10|-cmd zaddn -prefix zs: -width 0 -members 10 -n $Z_SETS|$Z_SETS|sorted set|$(commas "$Z_SETS") sorted sets zs:<i> of 10 members m0…m9, scores 0…9|DBSIZE"
  )
}

# The issue's targets for kvserver's used_memory per element of 10a's shapes.
declare -A Z_TARGET=([zset1m]=64 [zset10]=110)
Z_TESTS=(zadd zpopmin)
# 10b's command lines (id|command|how the set was built) on the loaded sorted sets bigzset
# and bigzsetr (members member:%012d, as __rand_int__ makes them, score i): ZRANK of a random
# member (every one present), ZRANGE of 10 ranks from the middle. The two sets hold the same,
# but bigzset was built by ZADDs in ascending order and bigzsetr in a random order, as a set
# built over time is: the order in which a skiplist's nodes were allocated decides how many of
# a rank walk's reads hit the cache. Last, ZCARD of bigzsetr: a sorted-set command that finds
# the key and answers an integer, and nothing else — each server's floor, the cost per command
# of reading, parsing, dispatching and writing at -P 16, which bounds what an index can gain
# (a ZRANGE can be no cheaper than it: kvserver/Redis ≤ Redis's ZRANGE cost / kvserver's ZCARD).
z_rank() {
  local mid=$((Z_RANK_MEMBERS / 2))
  Z_RANK=("zrank|ZRANK bigzset member:__rand_int__|added in ascending order"
    "zrange|ZRANGE bigzset $mid $((mid + 9))|added in ascending order"
    "zrankr|ZRANK bigzsetr member:__rand_int__|added in random order"
    "zranger|ZRANGE bigzsetr $mid $((mid + 9))|added in random order"
    "zcard|ZCARD bigzsetr|added in random order")
}

# z_rank_target is the target text of a 10b row: the rank runs' ≥ 2×, none for the floor.
z_rank_target() {
  if [ "$1" = zcard ]; then echo " (the per-command floor: no target)"; else echo " (target ≥ 2.0× Redis)"; fi
}

# z_load (10b) starts side's server and loads bigzset (ascending) and bigzsetr (the same
# members and scores, in bench/zset -shuffle's order) for the rank runs, checking the rank of
# the last member of each. A side that fails is left stopped and noted.
z_load() {
  local side=$1
  if ! { start_server "$side" &&
    GEN_TOOL=zset gen_load "$side" "$Z_RANK_MEMBERS" -cmd zadd -key bigzset -prefix member: -width 12 -n "$Z_RANK_MEMBERS" &&
    GEN_TOOL=zset gen_load "$side" "$Z_RANK_MEMBERS" -cmd zadd -key bigzsetr -prefix member: -width 12 -n "$Z_RANK_MEMBERS" -shuffle &&
    z_check_last "$side" bigzset && z_check_last "$side" bigzsetr; } 2>"$WORK/start.err"; then
    cat "$WORK/start.err" >&2
    failed "${NAME[$side]}: start and load bigzset for the sorted-set speed runs" "$WORK/start.err"
    stop_server "$side"
  fi
}

# z_check_last checks that the last member of side's sorted set key has the last rank.
z_check_last() {
  local side=$1 key=$2 got
  got=$(timeout 30 redis-cli -p "${PORT[$side]}" ZRANK "$key" "$(printf 'member:%012d' $((Z_RANK_MEMBERS - 1)))") &&
    { [ "$got" = $((Z_RANK_MEMBERS - 1)) ] || { echo "${NAME[$side]}: ZRANK of the last member of $key is '$got'" >&2; false; }; }
}

# z_pop_one (10b) runs ZPOPMIN -P 16 for as many requests as myzset has members (what that
# round's ZADDs left), so that every request pops one, and checks that it is empty after.
z_pop_one() {
  local side=$1 r=$2 n left
  n=$(timeout 30 redis-cli -p "${PORT[$side]}" ZCARD myzset)
  [ "$n" -gt 0 ] || { echo "${NAME[$side]}: ZCARD myzset is '$n' after the ZADD run" >&2; return 1; }
  throughput_one "$side" zpopmin 16 "$n" "$r"
  left=$(timeout 30 redis-cli -p "${PORT[$side]}" ZCARD myzset)
  [ "$left" = 0 ] || { echo "${NAME[$side]}: ZCARD myzset is '$left' after ZPOPMIN" >&2; return 1; }
}

# measure_zsets runs the parts of measurement 10 that Z_PARTS names.
measure_zsets() {
  z_shapes
  [[ " $Z_PARTS " != *" a "* ]] || measure_zsets_memory
  [[ " $Z_PARTS " != *" b "* ]] || measure_zsets_speed
  [[ " $Z_PARTS " != *" c "* ]] || measure_geo_speed
}

# 10c's command lines on the loaded geo set geo (places place:%012d, as __rand_int__ makes
# them, about one per km² over 10°E–20°E, 35°N–45°N): GEOADD moving a random place (an
# update: the member exists), GEODIST of a random place to place 0, GEOSEARCH of the 10 nearest
# within 5 km of a point (about 90 places in the circle).
z_geo() {
  Z_GEO=("geoadd|GEOADD geo 15.5 40.5 place:__rand_int__" "geodist|GEODIST geo place:__rand_int__ place:000000000000 km"
    "geosearch|GEOSEARCH geo FROMLONLAT 15 40 BYRADIUS 5 km ASC COUNT 10")
}

# geo_load (10c) starts side's server and loads geo, checking its size. A side that fails is
# left stopped and noted.
geo_load() {
  local side=$1 got
  if ! { start_server "$side" &&
    GEN_TOOL=zset gen_load "$side" "$Z_GEO_PLACES" -cmd geoadd -key geo -prefix place: -width 12 -n "$Z_GEO_PLACES" &&
    got=$(timeout 30 redis-cli -p "${PORT[$side]}" ZCARD geo) &&
    { [ "$got" = "$Z_GEO_PLACES" ] || { echo "${NAME[$side]}: ZCARD geo is '$got'" >&2; false; }; }; } 2>"$WORK/start.err"; then
    cat "$WORK/start.err" >&2
    failed "${NAME[$side]}: start and load geo for the geo speed runs" "$WORK/start.err"
    stop_server "$side"
  fi
}

measure_geo_speed() {
  local r side spec id cmd
  z_geo
  say "10c. geo: speed at -P 16, geo of $(commas "$Z_GEO_PLACES") places loaded"
  for spec in "${Z_GEO[@]}"; do
    IFS='|' read -r id cmd <<<"$spec"
    note_cmd "redis-benchmark -p \$PORT -c 50 -n $Z_GEO_N -P 16$([[ $cmd != *__rand_int__* ]] || echo " -r $Z_GEO_PLACES") --csv $cmd"
  done
  for side in "${SIDES[@]}"; do geo_load "$side"; done
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for spec in "${Z_GEO[@]}"; do
      IFS='|' read -r id cmd <<<"$spec"
      for side in "${SIDES[@]}"; do
        [ -n "${PID[$side]:-}" ] || continue
        # hs_custom_one's -r is HS_KEYS: here the places of geo.
        # shellcheck disable=SC2086 # cmd is a command line
        HS_KEYS=$Z_GEO_PLACES attempt "$cmd -P 16, ${NAME[$side]}, round $r" hs_custom_one "$side" "z_$id" "$Z_GEO_N" "$r" $cmd
      done
    done
  done
  stop_server kv
  stop_server redis
}

measure_zsets_memory() {
  local r side spec
  say "10a. sorted sets: used_memory and RSS per element, a fresh server per shape and round, $Z_MEM_ROUNDS rounds"
  note_cmd "redis-cli -p \$PORT MEMORY PURGE; sleep $HS_SETTLE; redis-cli -p \$PORT INFO memory   # 10a: used_memory before and after loading a shape, VmRSS from /proc/PID/status; then ZCARD or DBSIZE checked"
  for r in $(seq "$Z_MEM_ROUNDS"); do
    say "round $r/$Z_MEM_ROUNDS"
    for spec in "${Z_SHAPES[@]}"; do
      for side in "${SIDES[@]}"; do
        GEN_TOOL=zset attempt "$(cut -d'|' -f5 <<<"$spec"), ${NAME[$side]}, round $r" hs_memory_round "$side" "$spec" "$r" z
      done
    done
  done
}

measure_zsets_speed() {
  local r side spec id cmd test
  z_rank
  say "10b. sorted sets: speed at -P 16, bigzset and bigzsetr of $(commas "$Z_RANK_MEMBERS") members loaded"
  note_cmd "redis-benchmark -p \$PORT -c 50 -d $VALUE -r $TP_KEYS -n $Z_N -P 16 -t zadd --csv"
  note_cmd "redis-benchmark -p \$PORT -c 50 -d $VALUE -r $TP_KEYS -n \$(ZCARD myzset) -P 16 -t zpopmin --csv   # 10b: ZCARD myzset is 0 after"
  for spec in "${Z_RANK[@]}"; do
    IFS='|' read -r id cmd _ <<<"$spec"
    note_cmd "redis-benchmark -p \$PORT -c 50 -n $Z_RANK_N -P 16$([[ $cmd != *__rand_int__* ]] || echo " -r $Z_RANK_MEMBERS") --csv $cmd"
  done
  for side in "${SIDES[@]}"; do z_load "$side"; done
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for side in "${SIDES[@]}"; do
      [ -n "${PID[$side]:-}" ] || continue
      attempt "ZADD -P 16, ${NAME[$side]}, round $r" throughput_one "$side" zadd 16 "$Z_N" "$r"
    done
    for side in "${SIDES[@]}"; do
      [ -n "${PID[$side]:-}" ] || continue
      attempt "ZPOPMIN -P 16, ${NAME[$side]}, round $r" z_pop_one "$side" "$r"
    done
    for spec in "${Z_RANK[@]}"; do
      IFS='|' read -r id cmd _ <<<"$spec"
      for side in "${SIDES[@]}"; do
        [ -n "${PID[$side]:-}" ] || continue
        # hs_custom_one's -r is HS_KEYS: here the members of bigzset.
        # shellcheck disable=SC2086 # cmd is a command line
        HS_KEYS=$Z_RANK_MEMBERS attempt "$cmd -P 16, ${NAME[$side]}, round $r" hs_custom_one "$side" "z_$id" "$Z_RANK_N" "$r" $cmd
      done
    done
  done
  stop_server kv
  stop_server redis
}

# SC_SCRIPT is measurement 11's script: three commands on its one key, as a rate limiter or a
# counter with a lifetime would run them.
SC_SCRIPT="redis.call('GET', KEYS[1]) local n = redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], 3600) return n"
SC_TESTS=("1 $SC_N1" "16 $SC_N16")

# sc_load loads SC_SCRIPT into side's server and prints its SHA1, checked against sha1sum's.
sc_load() {
  local side=$1 sha want
  sha=$(timeout 30 redis-cli -p "${PORT[$side]}" SCRIPT LOAD "$SC_SCRIPT")
  want=$(printf '%s' "$SC_SCRIPT" | sha1sum | cut -d' ' -f1)
  [ "$sha" = "$want" ] || { echo "${NAME[$side]}: SCRIPT LOAD answered '$sha', want $want" >&2; return 1; }
  echo "$sha"
}

# cmdstat_calls prints the calls of INFO commandstats' cmdstat_<name> (0 when never called).
cmdstat_calls() {
  timeout 30 redis-cli -p "$1" INFO commandstats | tr -d '\r' |
    awk -F'[:,=]' -v f="cmdstat_$2" '$1 == f { print $3; found = 1 } END { if (!found) print 0 }'
}

# sc_one runs one redis-benchmark EVALSHA run of n requests at -P p against side's server and
# records ops/s, ops per server CPU-second and p50/p99; a run with an error reply, or whose
# EVALSHA calls INFO commandstats does not count, fails.
sc_one() {
  local side=$1 sha=$2 p=$3 n=$4 r=$5 port=${PORT[$1]} e0 e1 c0 c1 t0 t1 csv rps p50 p99 cpu id
  e0=$(info_field "$port" stats total_error_replies)
  c0=$(cmdstat_calls "$port" evalsha)
  t0=$(cpu_ticks "${PID[$side]}")
  csv=$(timeout 600 redis-benchmark -p "$port" -c 50 -n "$n" -P "$p" -r "$TP_KEYS" --csv \
    EVALSHA "$sha" 1 key:__rand_int__ | sed -n 2p | tr -d '"')
  t1=$(cpu_ticks "${PID[$side]}")
  e1=$(info_field "$port" stats total_error_replies)
  c1=$(cmdstat_calls "$port" evalsha)
  [ "$e0" = "$e1" ] || { echo "${NAME[$side]}: $((e1 - e0)) error replies during EVALSHA -P $p" >&2; return 1; }
  [ "$((c1 - c0))" = "$n" ] || { echo "${NAME[$side]}: $((c1 - c0)) EVALSHA calls counted, want $n" >&2; return 1; }
  # test, rps, avg, min, p50, p95, p99, max (milliseconds)
  IFS=, read -r _ rps _ _ p50 _ p99 _ <<<"$csv"
  cpu=$(awk -v n="$n" -v t="$TICKS" -v d="$((t1 - t0))" 'BEGIN { if (d <= 0) exit 1; printf "%.0f", n * t / d }')
  id=sc_evalsha_P$p
  record "${id}_ops" "$side" "$r" "$rps"
  record "${id}_cpu" "$side" "$r" "$cpu"
  record "${id}_p50" "$side" "$r" "$p50"
  record "${id}_p99" "$side" "$r" "$p99"
  say "  EVALSHA -P $p ${NAME[$side]}: $rps ops/s, $cpu ops/CPU-s, p50 $p50 ms, p99 $p99 ms"
}

measure_scripts() {
  local r side t p n
  declare -A sha=()
  say "11. scripts: EVALSHA of GET, INCR, EXPIRE on one key, -r $TP_KEYS, a fresh server per side"
  note_cmd "redis-cli -p \$PORT SCRIPT LOAD \"$SC_SCRIPT\"   # 11: \$SHA, checked against sha1sum's"
  for t in "${SC_TESTS[@]}"; do
    read -r p n <<<"$t"
    note_cmd "redis-benchmark -p \$PORT -c 50 -n $n -P $p -r $TP_KEYS --csv EVALSHA \$SHA 1 key:__rand_int__   # 11: INFO total_error_replies unchanged and commandstats' evalsha calls += $n checked"
  done
  for side in "${SIDES[@]}"; do
    if ! { start_server "$side" && sha[$side]=$(sc_load "$side"); } 2>"$WORK/start.err"; then
      cat "$WORK/start.err" >&2
      failed "${NAME[$side]}: start and SCRIPT LOAD" "$WORK/start.err"
      stop_server "$side"
    fi
  done
  for r in $(seq "$ROUNDS"); do
    say "round $r/$ROUNDS"
    for t in "${SC_TESTS[@]}"; do
      read -r p n <<<"$t"
      for side in "${SIDES[@]}"; do
        [ -n "${PID[$side]:-}" ] || continue
        attempt "EVALSHA -P $p, ${NAME[$side]}, round $r" sc_one "$side" "${sha[$side]}" "$p" "$n" "$r"
      done
    done
  done
  stop_server kv
  stop_server redis
}

# ACL_RULES are measurement 12's restricted user's rules: its keys and commands limited, as a
# service's own user would be, but every command the benchmark sends allowed.
ACL_RULES="on >pw ~app:* +@read +@write"
ACL_VALUE=$(printf '%*s' "$VALUE" '' | tr ' ' v) # SET's value: VALUE bytes
ACL_USERS=(default app)
ACL_TESTS=(set get)

# acl_setup makes the user app on side's server and checks that it can log in and read.
acl_setup() {
  local side=$1 port=${PORT[$1]} out
  # shellcheck disable=SC2086 # the rules are words
  out=$(timeout 30 redis-cli -p "$port" ACL SETUSER app $ACL_RULES)
  [ "$out" = OK ] || { echo "${NAME[$side]}: ACL SETUSER app: $out" >&2; return 1; }
  out=$(timeout 30 redis-cli -p "$port" --user app --pass pw --no-auth-warning EXISTS app:probe)
  [ "$out" = 0 ] || { echo "${NAME[$side]}: EXISTS app:probe as app: $out" >&2; return 1; }
}

# noperm_count prints INFO errorstats' count of NOPERM replies (0 when none).
noperm_count() {
  timeout 30 redis-cli -p "$1" INFO errorstats | tr -d '\r' |
    awk -F'[:=]' '$1 == "errorstat_NOPERM" { print $3; found = 1 } END { if (!found) print 0 }'
}

# acl_one runs one redis-benchmark run of n requests at -P 16 of test (set or get, on keys
# app:__rand_int__) as user against side's server and records ops/s and ops per server
# CPU-second. A run with an error reply fails, but for the NOPERMs of redis-benchmark's own
# CONFIG GET save and appendonly at its start (app may not run CONFIG; at most 2); so does a run
# whose calls INFO commandstats does not count.
acl_one() {
  local side=$1 user=$2 test=$3 n=$4 r=$5 port=${PORT[$1]} e0 e1 n0 n1 c0 c1 t0 t1 csv rps cpu id
  local -a auth=() cmd=(GET app:__rand_int__)
  [ "$user" = default ] || auth=(--user "$user" -a pw)
  [ "$test" = get ] || cmd=(SET app:__rand_int__ "$ACL_VALUE")
  e0=$(info_field "$port" stats total_error_replies)
  n0=$(noperm_count "$port")
  c0=$(cmdstat_calls "$port" "$test")
  t0=$(cpu_ticks "${PID[$side]}")
  csv=$(timeout 600 redis-benchmark -p "$port" "${auth[@]}" -c 50 -n "$n" -P 16 -r "$TP_KEYS" --csv \
    "${cmd[@]}" 2>/dev/null | sed -n 2p | tr -d '"')
  t1=$(cpu_ticks "${PID[$side]}")
  e1=$(info_field "$port" stats total_error_replies)
  n1=$(noperm_count "$port")
  c1=$(cmdstat_calls "$port" "$test")
  [ "$((e1 - e0))" = "$((n1 - n0))" ] && [ "$((n1 - n0))" -le 2 ] ||
    { echo "${NAME[$side]}: $((e1 - e0)) error replies ($((n1 - n0)) NOPERM) during ${test^^} as $user" >&2; return 1; }
  [ "$((c1 - c0))" = "$n" ] || { echo "${NAME[$side]}: $((c1 - c0)) ${test^^} calls counted as $user, want $n" >&2; return 1; }
  IFS=, read -r _ rps _ <<<"$csv"
  cpu=$(awk -v n="$n" -v t="$TICKS" -v d="$((t1 - t0))" 'BEGIN { if (d <= 0) exit 1; printf "%.0f", n * t / d }')
  id=acl_${user}_$test
  record "${id}_ops" "$side" "$r" "$rps"
  record "${id}_cpu" "$side" "$r" "$cpu"
  say "  ${test^^} -P 16 as $user, ${NAME[$side]}: $rps ops/s, $cpu ops/CPU-s"
}

measure_acl() {
  local r side user test
  say "12. ACL: GET and SET -P 16 on app:__rand_int__ as default and as app ($ACL_RULES), a fresh server per side, $ACL_ROUNDS rounds"
  note_cmd "redis-cli -p \$PORT ACL SETUSER app $ACL_RULES   # 12"
  for test in "${ACL_TESTS[@]}"; do
    for user in "${ACL_USERS[@]}"; do
      note_cmd "redis-benchmark -p \$PORT$([ "$user" = default ] || echo " --user app -a pw") -c 50 -n $ACL_N -P 16 -r $TP_KEYS --csv $([ "$test" = get ] && echo "GET app:__rand_int__" || echo "SET app:__rand_int__ <$VALUE bytes>")   # 12: INFO total_error_replies unchanged (app: but for ≤ 2 NOPERMs to redis-benchmark's CONFIG GET) and commandstats' $test calls += $ACL_N checked"
    done
  done
  for side in "${SIDES[@]}"; do
    if ! { start_server "$side" && acl_setup "$side"; } 2>"$WORK/start.err"; then
      cat "$WORK/start.err" >&2
      failed "${NAME[$side]}: start and ACL SETUSER app" "$WORK/start.err"
      stop_server "$side"
    fi
  done
  for r in $(seq "$ACL_ROUNDS"); do
    say "round $r/$ACL_ROUNDS"
    # The users take turns going first (default, app in odd rounds; app, default in even
    # ones), so that neither gains from running after the other (a warmer table, fewer
    # inserts).
    local users=("${ACL_USERS[@]}")
    [ $((r % 2)) = 1 ] || users=("${ACL_USERS[1]}" "${ACL_USERS[0]}")
    for test in "${ACL_TESTS[@]}"; do
      for user in "${users[@]}"; do
        for side in "${SIDES[@]}"; do
          [ -n "${PID[$side]:-}" ] || continue
          attempt "ACL ${test^^} -P 16 as $user, ${NAME[$side]}, round $r" acl_one "$side" "$user" "$test" "$ACL_N" "$r"
        done
      done
    done
  done
  stop_server kv
  stop_server redis
}

# ---- report --------------------------------------------------------------------------------

# median prints the median of a metric's rounds for a side, or nothing.
median() {
  awk -F'\t' -v m="$1" -v s="$2" '$1 == m && $2 == s { print $4 }' "$RESULTS" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# fmt_num formats a number: int (with thousands separators), or f1/f2/f3 decimals.
fmt_num() {
  [ -n "$2" ] || { echo "—"; return; }
  awk -v f="$1" -v x="$2" 'BEGIN {
    if (f != "int") { printf "%." substr(f, 2) "f\n", x; exit }
    s = sprintf("%.0f", x < 0 ? -x : x); out = ""
    while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
    print (x < 0 ? "-" : "") s out }'
}

# ratio prints a / b, or — when either is missing or a ratio would mean nothing (a < 0, b ≤ 0:
# the differences of 9c may be negative).
ratio() {
  if [ -z "$1" ] || [ -z "$2" ]; then echo "—"; return; fi
  awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0 || a < 0) print "—"; else printf "%.2f\n", a / b }'
}

commas() { fmt_num int "$1"; }

# The table's rows: metric id, format, label.
ROWS=()
row() { ROWS+=("$1|$2|$3"); }
define_rows() {
  local t test p n up kind q
  for t in "${TP_TESTS[@]}"; do
    read -r test p n <<<"$t"
    up=${test^^}
    row "tp_${test}_P${p}_ops" int "$up -P $p: ops/s"
    row "tp_${test}_P${p}_cpu" int "$up -P $p: ops per server CPU-second"
    row "tp_${test}_P${p}_p50" f3 "$up -P $p: p50 latency, ms"
    row "tp_${test}_P${p}_p99" f3 "$up -P $p: p99 latency, ms"
  done
  row mem_dataset f1 "Bytes per key, $(commas "$MEM_KEYS") keys: used_memory_dataset delta / keys"
  row mem_used f1 "Bytes per key, $(commas "$MEM_KEYS") keys: used_memory delta / keys"
  row mem_rss f1 "Bytes per key, $(commas "$MEM_KEYS") keys: RSS delta / keys"
  row conn_ping int "RSS per idle connection, bytes ($(commas "$IDLE_CONNS") connections after a PING)"
  row conn_partial int "RSS per connection holding $(commas "$PARTIAL_SENT") bytes of a $(commas "$PARTIAL_VALUE")-byte SET, bytes ($(commas "$PARTIAL_CONNS") connections)"
  for size in small big; do
    [ "$size" = small ] && n=$LAT_SMALL || n=$LAT_BIG
    row "lat_${size}_p50" f1 "GET p50, $(commas "$n") keys, open loop, µs"
    row "lat_${size}_p99" f1 "GET p99, $(commas "$n") keys, open loop, µs"
    row "lat_${size}_p999" f1 "GET p99.9, $(commas "$n") keys, open loop, µs"
    row "lat_${size}_sendlag_p99" f1 "loadgen's own lateness sending, p99, $(commas "$n") keys, µs"
  done
  row lat_growth f2 "GET p99.9 with $(commas "$LAT_BIG") keys ÷ with $(commas "$LAT_SMALL") keys"
  n=$(commas "$SAVE_KEYS")
  row p_save_s f2 "BGSAVE of $n keys, s, command to completion (target ≤ 1.0× Redis)"
  row p_load_s f2 "Load of that dump.rdb at start-up, s, exec to the first PING not -LOADING (target ≤ 1.0× Redis)"
  row p_rdb_mb f1 "dump.rdb of $n keys, MB"
  n=$(commas "$COW_KEYS")
  row p_cow_before_mb int "RSS just before BGSAVE, $n keys under the SET load, MB"
  row p_cow_peak_mb int "Peak memory during that BGSAVE, MB (RSS; Redis: parent's RSS + child's Private_Dirty)"
  row p_cow_growth f2 "Peak memory during BGSAVE ÷ just before (target for kvserver ≤ 1.10)"
  row p_cow_child_mb int "… of which the fork child's Private_Dirty at its peak, MB"
  row p_cow_cowsize_mb int "rdb_last_cow_size after that BGSAVE, MB"
  row p_cow_save_s f2 "BGSAVE of $n keys under the SET load, s"
  row p_cow_cmds_nosave int "Commands/s processed under the SET load, no save"
  row p_cow_cmds_save int "Commands/s processed under the SET load, during BGSAVE"
  for kind in set get; do
    for q in p50 p99; do
      row "p_lat_${kind}_${q}_nosave" f1 "${kind^^} $q under the SET load, no save, open loop, µs"
      row "p_lat_${kind}_${q}_save" f1 "${kind^^} $q under the SET load, during BGSAVE, open loop, µs"
    done
    row "p_lat_${kind}_p99_growth" f2 "${kind^^} p99 during BGSAVE ÷ without"
  done
  row p_lat_sendlag_p99_nosave f1 "loadgen's own lateness sending, p99, SET load, no save, µs"
  row p_lat_sendlag_p99_save f1 "loadgen's own lateness sending, p99, SET load, during BGSAVE, µs"
  n=$(commas "$PS_SUBS")
  row ps_pub_cpu int "PUBLISH to 1 channel with $n subscribers: messages delivered per server CPU-second (target ≥ 1.0× Redis)"
  row ps_pub_rate int "PUBLISH to 1 channel with $n subscribers: messages delivered per second"
  row conn_subscribe int "RSS per idle subscribed client, bytes ($(commas "$PS_IDLE") connections on $PS_CHANNELS channels; target for kvserver ≤ 1.5 KB)"
  hs_shapes
  local spec id el label f
  for spec in "${HS_SHAPES[@]}"; do
    IFS='|' read -r id _ _ el label _ <<<"$spec"
    f=f1
    [ "$id" != intset ] || f=f2 # its target, 4.2, needs the second decimal
    row "hs_${id}_used" "$f" "${label^}: used_memory delta per $el (target for kvserver ≤ ${HS_TARGET[$id]})"
    row "hs_${id}_rss" "$f" "${label^}: RSS delta per $el"
  done
  for test in "${HS_TESTS[@]}"; do
    row "tp_${test}_P16_ops" int "${test^^} -P 16 (redis-benchmark -t $test): ops/s"
    row "tp_${test}_P16_cpu" int "${test^^} -P 16 (redis-benchmark -t $test): ops per server CPU-second (target ≥ 1.0× Redis)"
  done
  for spec in "${HS_CUSTOM[@]}"; do
    IFS='|' read -r id _ label <<<"$spec"
    row "hs_${id}_ops" int "$label -P 16: ops/s"
    row "hs_${id}_cpu" int "$label -P 16: ops per server CPU-second (target ≥ 1.0× Redis)"
  done
  l_shapes
  for spec in "${L_SHAPES[@]}"; do
    IFS='|' read -r id _ _ el label _ <<<"$spec"
    row "l_${id}_used" f2 "${label^}: used_memory delta per $el${L_TARGET[$id]:+ (target for kvserver ≤ ${L_TARGET[$id]})}"
    row "l_${id}_rss" f2 "${label^}: RSS delta per $el"
  done
  for test in "${L_TESTS[@]}"; do
    row "tp_${test}_P16_ops" int "${test^^} -P 16 (redis-benchmark -t $test): ops/s"
    row "tp_${test}_P16_cpu" int "${test^^} -P 16 (redis-benchmark -t $test): ops per server CPU-second (target ≥ 1.0× Redis)"
  done
  for spec in "${L_LRANGE[@]}"; do
    IFS='|' read -r id _ label <<<"$spec"
    row "l_lrange_${id}_ops" int "LRANGE_$id ($label) -P 16: ops/s"
    row "l_lrange_${id}_cpu" int "LRANGE_$id ($label) -P 16: ops per server CPU-second (target ≥ 1.0× Redis)"
  done
  n=$(commas "$L_BLOCKED")
  row l_rss_blocked_per_conn int "RSS per client blocked in BLPOP, over the empty server, bytes ($n clients on distinct keys; target for kvserver ≤ 1.5 KB)"
  row l_rss_idle_per_conn int "RSS per idle connection after a PING, over the empty server, bytes ($n connections)"
  row l_rss_blocked_over_idle int "RSS per client blocked in BLPOP minus RSS per idle connection, bytes"
  row l_used_blocked_per_conn int "used_memory per client blocked in BLPOP, over the empty server, bytes"
  row l_used_idle_per_conn int "used_memory per idle connection after a PING, over the empty server, bytes"
  row l_used_blocked_over_idle int "used_memory per client blocked in BLPOP minus per idle connection, bytes"
  row l_wake_p50_us f1 "LPUSH → reply of the client blocked in BLPOP on that key, p50, µs"
  row l_wake_p99_us f1 "LPUSH → reply of the client blocked in BLPOP on that key, p99, µs"
  row l_wake_p999_us f1 "LPUSH → reply of the client blocked in BLPOP on that key, p99.9, µs"
  row l_lpush_p50_us f1 "LPUSH → its own reply, read after the blocked client's, p50, µs"
  z_shapes
  for spec in "${Z_SHAPES[@]}"; do
    IFS='|' read -r id _ _ el label _ <<<"$spec"
    row "z_${id}_used" f2 "${label^}: used_memory delta per $el (target for kvserver ≤ ${Z_TARGET[$id]})"
    row "z_${id}_rss" f2 "${label^}: RSS delta per $el"
  done
  for test in "${Z_TESTS[@]}"; do
    row "tp_${test}_P16_ops" int "${test^^} -P 16 (redis-benchmark -t $test): ops/s"
    row "tp_${test}_P16_cpu" int "${test^^} -P 16 (redis-benchmark -t $test): ops per server CPU-second (target ≥ 1.0× Redis)"
  done
  z_rank
  for spec in "${Z_RANK[@]}"; do
    IFS='|' read -r id label built <<<"$spec"
    row "z_${id}_ops" int "$label -P 16, $(commas "$Z_RANK_MEMBERS") members $built: ops/s"
    row "z_${id}_cpu" int "$label -P 16, $(commas "$Z_RANK_MEMBERS") members $built: ops per server CPU-second$(z_rank_target "$id")"
  done
  z_geo
  for spec in "${Z_GEO[@]}"; do
    IFS='|' read -r id label <<<"$spec"
    row "z_${id}_ops" int "$label -P 16, $(commas "$Z_GEO_PLACES") places: ops/s"
    row "z_${id}_cpu" int "$label -P 16, $(commas "$Z_GEO_PLACES") places: ops per server CPU-second"
  done
  for t in "${SC_TESTS[@]}"; do
    read -r p _ <<<"$t"
    row "sc_evalsha_P${p}_ops" int "EVALSHA of GET, INCR, EXPIRE -P $p: ops/s"
    row "sc_evalsha_P${p}_cpu" int "EVALSHA of GET, INCR, EXPIRE -P $p: ops per server CPU-second (target ≥ 0.8× Redis)"
    row "sc_evalsha_P${p}_p50" f3 "EVALSHA of GET, INCR, EXPIRE -P $p: p50 latency, ms"
    row "sc_evalsha_P${p}_p99" f3 "EVALSHA of GET, INCR, EXPIRE -P $p: p99 latency, ms"
  done
  for test in "${ACL_TESTS[@]}"; do
    row "acl_default_${test}_cpu" int "${test^^} -P 16 on app:*, default user: ops per server CPU-second"
    row "acl_app_${test}_cpu" int "${test^^} -P 16 on app:*, user app (~app:* +@read +@write): ops per server CPU-second"
    row "acl_ratio_${test}" f3 "${test^^} -P 16: user app ÷ default user, ops per server CPU-second (target ≥ 0.97)"
    row "acl_default_${test}_ops" int "${test^^} -P 16 on app:*, default user: ops/s"
    row "acl_app_${test}_ops" int "${test^^} -P 16 on app:*, user app: ops/s"
  done
}

# side_median is median, plus the derived latency growth.
side_median() {
  if [ "$1" = lat_growth ]; then
    local big small
    big=$(median lat_big_p999 "$2") small=$(median lat_small_p999 "$2")
    [ -n "$big" ] && [ -n "$small" ] && ratio "$big" "$small"
    return 0
  fi
  if [[ $1 == acl_ratio_* ]]; then # measurement 12: the restricted user's median over the default's
    local app def
    app=$(median "acl_app_${1#acl_ratio_}_cpu" "$2") def=$(median "acl_default_${1#acl_ratio_}_cpu" "$2")
    [ -n "$app" ] && [ -n "$def" ] && awk -v a="$app" -v b="$def" 'BEGIN { if (b > 0) printf "%.3f\n", a / b }'
    return 0
  fi
  median "$1" "$2"
}

table() {
  local spec id f label a b
  echo "| Measurement | kvserver | Redis | kvserver/Redis |"
  echo "|---|--:|--:|--:|"
  for spec in "${ROWS[@]}"; do
    IFS='|' read -r id f label <<<"$spec"
    [[ $id != *sendlag* ]] || continue # a check on the generator, listed with every round only
    a=$(side_median "$id" kv) b=$(side_median "$id" redis)
    [ -n "$a$b" ] || continue
    echo "| $label | $(fmt_num "$f" "$a") | $(fmt_num "$f" "$b") | $(ratio "$a" "$b") |"
  done
}

# chart_tsv prints the chart's data: series, value size, median bytes per key.
chart_tsv() {
  local kind side size v
  for kind in used rss; do
    for side in "${SIDES[@]}"; do
      for size in $(seq 8 "$CHART_STEP" 512); do
        v=$(median "chart_${size}_$kind" "$side")
        [ -z "$v" ] || printf '%s %s\t%s\t%s\n' "${NAME[$side]}" "$([ $kind = used ] && echo used_memory || echo RSS)" "$size" "$v"
      done
    done
  done
}

chart_table() {
  local size
  echo "| value bytes | kvserver used_memory | Redis used_memory | kvserver RSS | Redis RSS |"
  echo "|--:|--:|--:|--:|--:|"
  for size in $(seq 8 "$CHART_STEP" 512); do
    echo "| $size | $(fmt_num f1 "$(median "chart_${size}_used" kv)") | $(fmt_num f1 "$(median "chart_${size}_used" redis)") | $(fmt_num f1 "$(median "chart_${size}_rss" kv)") | $(fmt_num f1 "$(median "chart_${size}_rss" redis)") |"
  done
}

# chart8_tsv prints measurement 8's chart data: series, shape, median bytes per element, for the
# shapes with a Redis used_memory figure, the one every bar is drawn against.
chart8_tsv() {
  local spec id el name kind side v
  hs_shapes
  for spec in "${HS_SHAPES[@]}"; do
    IFS='|' read -r id _ _ el _ _ <<<"$spec"
    [ -n "$(median "hs_${id}_used" redis)" ] || continue
    case $id in # the labels of the table, shortened to fit under a group of bars
      hash1m) name="1 hash of $(commas "$HS_FIELDS") fields" ;;
      hash10) name="$(commas "$HS_HASHES") hashes of 10 fields" ;;
      set1m) name="1 set of $(commas "$HS_MEMBERS") members" ;;
      intset) name="$(commas "$HS_INTSETS") sets of 500 integers" ;;
    esac
    for kind in used rss; do
      for side in "${SIDES[@]}"; do
        v=$(median "hs_${id}_$kind" "$side")
        [ -z "$v" ] || printf '%s %s\t%s\t%s\n' "${NAME[$side]}" "$([ $kind = used ] && echo used_memory || echo RSS)" "$name, per $el (target ${HS_TARGET[$id]})" "$v"
      done
    done
  done
}

# draw_chart8 draws measurement 8's memory per element into CHART8.
draw_chart8() {
  chart8_tsv | "$HELPERS/chart" -bars -ref "Redis used_memory" \
    -title "Bytes per element of hashes and sets, as a percentage of Redis's used_memory" \
    -ylabel "% of Redis's used_memory; labels: bytes per element" >"$CHART8"
}

# chart9_tsv prints measurement 9's chart data: series, shape, median bytes per element, for the
# shapes with a Redis used_memory figure.
chart9_tsv() {
  local spec id el name kind side v
  l_shapes
  for spec in "${L_SHAPES[@]}"; do
    IFS='|' read -r id _ _ el _ _ <<<"$spec"
    [ -n "$(median "l_${id}_used" redis)" ] || continue
    case $id in
      list1m) name="1 list of $(commas "$L_ELEMS") elements of 16 bytes, per element (target ${L_TARGET[$id]})" ;;
      list10) name="$(commas "$L_LISTS") lists of 10 elements of 16 bytes, per list" ;;
    esac
    for kind in used rss; do
      for side in "${SIDES[@]}"; do
        v=$(median "l_${id}_$kind" "$side")
        [ -z "$v" ] || printf '%s %s\t%s\t%s\n' "${NAME[$side]}" "$([ $kind = used ] && echo used_memory || echo RSS)" "$name" "$v"
      done
    done
  done
}

# draw_chart9 draws measurement 9's memory per element into CHART9.
draw_chart9() {
  chart9_tsv | "$HELPERS/chart" -bars -ref "Redis used_memory" \
    -title "Bytes per element of lists, as a percentage of Redis's used_memory" \
    -ylabel "% of Redis's used_memory; labels: bytes" >"$CHART9"
}

# chart10_tsv prints measurement 10's chart data: series, shape, median bytes per element, for
# the shapes with a Redis used_memory figure.
chart10_tsv() {
  local spec id el name kind side v
  z_shapes
  for spec in "${Z_SHAPES[@]}"; do
    IFS='|' read -r id _ _ el _ _ <<<"$spec"
    [ -n "$(median "z_${id}_used" redis)" ] || continue
    case $id in
      zset1m) name="1 sorted set of $(commas "$Z_MEMBERS") members, per member (target ${Z_TARGET[$id]})" ;;
      zset10) name="$(commas "$Z_SETS") sorted sets of 10 members, per sorted set (target ${Z_TARGET[$id]})" ;;
    esac
    for kind in used rss; do
      for side in "${SIDES[@]}"; do
        v=$(median "z_${id}_$kind" "$side")
        [ -z "$v" ] || printf '%s %s\t%s\t%s\n' "${NAME[$side]}" "$([ $kind = used ] && echo used_memory || echo RSS)" "$name" "$v"
      done
    done
  done
}

# draw_chart10 draws measurement 10's memory per element into CHART10.
draw_chart10() {
  chart10_tsv | "$HELPERS/chart" -bars -ref "Redis used_memory" \
    -title "Bytes per element of sorted sets, as a percentage of Redis's used_memory" \
    -ylabel "% of Redis's used_memory; labels: bytes" >"$CHART10"
}

# rounds_table lists every round's figure of the table's measurements.
rounds_table() {
  local spec id f label side
  echo "| Measurement | server | rounds, in order |"
  echo "|---|---|---|"
  for spec in "${ROWS[@]}"; do
    IFS='|' read -r id f label <<<"$spec"
    for side in "${SIDES[@]}"; do
      local vals
      vals=$(awk -F'\t' -v m="$id" -v s="$side" '$1 == m && $2 == s { printf "%s%s", sep, $4; sep = ", " }' "$RESULTS")
      [ -z "$vals" ] || echo "| $label | ${NAME[$side]} | $vals |"
    done
  done
}

write_report() {
  local elapsed=$1 t load_end chart_rel chart8_rel chart9_rel chart10_rel
  load_end=$(cut -d' ' -f1-3 /proc/loadavg)
  chart_rel=$(realpath --relative-to="$(dirname "$OUT")" "$CHART")
  chart8_rel=$(realpath --relative-to="$(dirname "$OUT")" "$CHART8")
  chart9_rel=$(realpath --relative-to="$(dirname "$OUT")" "$CHART9")
  chart10_rel=$(realpath --relative-to="$(dirname "$OUT")" "$CHART10")
  t=$(table)
  {
    echo "# Benchmarks: kvserver beside Redis"
    echo
    echo "Written by \`make bench\` (\`bench/run.sh\`) on $(date -u '+%Y-%m-%d %H:%M UTC') in $((elapsed / 60)) min $((elapsed % 60)) s."
    echo "$ROUNDS rounds$(grep -q '^p_' "$RESULTS" && echo " ($P_ROUNDS for persistence)")$(grep -q '^hs_.*_used' "$RESULTS" && echo " ($HS_MEM_ROUNDS for the memory of hashes and sets)")$(grep -q '^l_list.*_used' "$RESULTS" && echo " ($L_MEM_ROUNDS for the memory of lists)")$(grep -q '^z_zset.*_used' "$RESULTS" && echo " ($Z_MEM_ROUNDS for the memory of sorted sets)"), kvserver then Redis in each, servers on loopback with persistence off and"
    echo "\`--maxclients 20000\`. Every figure is the median of the rounds; the ratio is kvserver's median over"
    echo "Redis's from this same run. The machine is shared and noisy: compare ratios, not absolute figures"
    echo "across runs."
    [ "$QUICK" = 1 ] && printf '\n**QUICK=1: a smoke test with small counts and %s rounds, not figures that count.**\n' "$ROUNDS"
    [ "$KV_NOTE" = "" ] || printf '\n**The kvserver side was %s.**\n' "$KV_NOTE"
    echo
    echo "$t"
    echo
    echo "- Throughput: \`redis-benchmark -c 50 -d $VALUE -r $TP_KEYS\` against a server holding all $(commas "$TP_KEYS") keys it"
    echo "  uses (\`key:%012d\`), so every GET hits; -P 1 runs send $(commas "$TP_N1") requests, -P 16 runs $(commas "$TP_N16")."
    echo "  Ops per server CPU-second: requests ÷ the server's utime+stime (/proc/PID/stat) over the run."
    echo "- Bytes per key: deltas of INFO memory and VmRSS (/proc/PID/status) over a fresh server's, after"
    echo "  \`redis-cli --pipe\` SETs of keys \`key:%014d\` (18 bytes) with $VALUE-byte values."
    echo "- Connections: RSS over a fresh server's, read ${CONN_SETTLE} s after the last client spoke (\`bench/conns\`)."
    echo "- Latency: \`bench/loadgen\`, GETs of loaded keys (\`key:%012d\`, $VALUE-byte values) at Poisson arrivals,"
    echo "  $(commas "$LAT_RATE")/s over $LAT_CONNS connections for $LAT_SECS s (the first second is warmup), latency from"
    echo "  each request's intended send time; servers restarted and loaded for each key count. The"
    echo "  generator's own lateness in sending (listed with every round below) shows the rounds in which"
    echo "  the machine, not the server, set the tail: run with more ROUNDS when it is busy."
    if grep -q '^ps_\|^conn_subscribe' "$RESULTS"; then
      echo "- Pub/sub: \`bench/pubsub\` opens $(commas "$PS_SUBS") RESP2 connections SUBSCRIBEd to one channel (PUBSUB NUMSUB"
      echo "  checked), then $PS_PUBLISHERS connections PUBLISH $(commas "$PS_MSGS") messages of $PS_SIZE bytes, $PS_PIPELINE per write, every reply"
      echo "  checked to be the subscriber count; delivered = messages counted by the subscribers, per second"
      echo "  and per server CPU-second (utime+stime from the first PUBLISH until every subscriber had every"
      echo "  message; the clients share the machine). Idle subscribed clients: \`bench/conns -mode subscribe\`,"
      echo "  each connection SUBSCRIBEd to one of $PS_CHANNELS channels, RSS over a fresh server's read ${CONN_SETTLE} s after."
    fi
    if grep -q '^hs_\|^tp_hset' "$RESULTS"; then
      echo "- Hashes and sets: each shape loaded into a fresh server by \`bench/respgen -cmd … | redis-cli --pipe\`"
      echo "  (every command answered without an error, then HLEN, SCARD or DBSIZE checked); used_memory and"
      echo "  VmRSS deltas over the fresh server's, each read $HS_SETTLE s after a MEMORY PURGE (a Go collection in kvserver, jemalloc's dirty pages given back in Redis), per element (per field, per hash, per"
      echo "  member), $HS_MEM_ROUNDS rounds$([ -f "$CHART8" ] && [ -n "$(chart8_tsv)" ] && echo ", drawn below"). Speed: one server per side loaded with $(commas "$HS_KEYS") hashes \`hs:%012d\` of 10 fields (16-byte"
      echo "  values), a set \`bigset\` of $(commas "$HS_KEYS") members \`member:%012d\` and a hash \`h1000\` of 1,000 fields; HSET,"
      echo "  SADD and SPOP are redis-benchmark's own tests (-d $VALUE -r $(commas "$TP_KEYS"), on its keys myhash and myset,"
      echo "  SPOP after SADD in each round); HGET and SISMEMBER read the loaded keys through __rand_int__ (-r"
      echo "  $(commas "$HS_KEYS"), keyspace_misses checked unchanged). $(commas "$HS_N") requests per run, $(commas "$HS_HGETALL_N") for HGETALL."
    fi
    if grep -q '^l_\|^tp_lpush' "$RESULTS"; then
      echo "- Lists: each shape loaded into a fresh server by \`bench/respgen -cmd rpush|rpushn … | redis-cli --pipe\`"
      echo "  (every command answered without an error, then LLEN or DBSIZE checked), used_memory and VmRSS"
      echo "  deltas read as for hashes and sets (MEMORY PURGE, $HS_SETTLE s), $L_MEM_ROUNDS rounds. Redis 7.0.15 keeps a small list"
      echo "  as a quicklist of one node; 7.2 and kvserver as one listpack. Speed: one server per side, \`mylist\`"
      echo "  filled with $(commas "$L_FILL") elements by redis-benchmark's LPUSH, then in each round redis-benchmark -t lpush, rpush, lpop,"
      echo "  rpop (-d $VALUE, $(commas "$L_N") requests each: the pops take what the pushes added; LLEN checked before the LRANGE runs)"
      echo "  and its LRANGE_100/300/500/600 command lines (LRANGE mylist 0 99, 0 299, 0 499, 0 599) run as"
      echo "  custom commands, so that the server's CPU time leaves out the LPUSH of -n elements -t lrange_<n>"
      echo "  runs first. Blocked clients (\`bench/blocked\`, a fresh server each): $(commas "$L_BLOCKED") connections each sending"
      echo "  BLPOP key:<i> 0 (INFO blocked_clients checked, no reply and no close checked, every client woken"
      echo "  by an LPUSH afterwards and its reply checked), and as many idle connections after a PING; RSS and"
      echo "  used_memory read ${CONN_SETTLE} s after the last client spoke, over the fresh server's; blocked minus idle"
      echo "  from the same round. Wake-up: one client in BLPOP (blocked_clients polled to 1 first), another"
      echo "  sends LPUSH; time from that write until the blocked client has read its reply, $(commas "$L_WAKE_ROUNDS") rounds"
      echo "  per run, percentiles of each run, medians of the runs."
    fi
    if grep -q '^z_\|^tp_zadd' "$RESULTS"; then
      echo "- Sorted sets: each shape loaded into a fresh server by \`bench/zset -cmd zadd|zaddn … | redis-cli --pipe\`"
      echo "  (every command answered without an error, then ZCARD or DBSIZE checked), used_memory and VmRSS"
      echo "  deltas read as for hashes and sets (MEMORY PURGE, $HS_SETTLE s), $Z_MEM_ROUNDS rounds; the big one is a skiplist"
      echo "  in both servers, the small ones listpacks. Speed: one server per side holding \`bigzset\`, $(commas "$Z_RANK_MEMBERS")"
      echo "  members \`member:%012d\` with score i (ZRANK of its last member checked); in each round"
      echo "  redis-benchmark -t zadd ($(commas "$Z_N") requests, \`ZADD myzset __rand_int__ element:__rand_int__\`: -r $(commas "$TP_KEYS") makes the score random too), then -t zpopmin"
      echo "  for exactly as many requests as myzset then has members (ZCARD 0 checked after), then"
      echo "  \`ZRANK bigzset member:__rand_int__\` (-r $(commas "$Z_RANK_MEMBERS"): every member present) and \`ZRANGE bigzset"
      echo "  $((Z_RANK_MEMBERS / 2)) $((Z_RANK_MEMBERS / 2 + 9))\` (10 ranks from the middle), the same on \`bigzsetr\` (the same members added in a"
      echo "  random order), and \`ZCARD bigzsetr\` (each server's per-command floor), $(commas "$Z_RANK_N") requests each, as custom commands."
      echo "  Geo: one server per side holding \`geo\`, $(commas "$Z_GEO_PLACES") places \`place:%012d\` loaded by \`bench/zset -cmd geoadd\`"
      echo "  (about one per km² over 10°E–20°E, 35°N–45°N; ZCARD checked); in each round \`GEOADD geo 15.5 40.5"
      echo "  place:__rand_int__\`, \`GEODIST geo place:__rand_int__ place:000000000000 km\` and \`GEOSEARCH geo FROMLONLAT"
      echo "  15 40 BYRADIUS 5 km ASC COUNT 10\`, $(commas "$Z_GEO_N") requests each at -P 16 (INFO keyspace_misses unchanged)."
    fi
    if grep -q '^sc_' "$RESULTS"; then
      echo "- Scripts: one fresh server per side; \`SCRIPT LOAD\` of \`$SC_SCRIPT\`"
      echo "  (its SHA1 checked), then in each round \`redis-benchmark -c 50 -r $(commas "$TP_KEYS") --csv EVALSHA \$SHA 1 key:__rand_int__\`,"
      echo "  $(commas "$SC_N1") requests at -P 1 and $(commas "$SC_N16") at -P 16: every call runs GET, INCR and EXPIRE on one of"
      echo "  $(commas "$TP_KEYS") keys; INFO total_error_replies unchanged and commandstats' EVALSHA calls checked after each run."
    fi
    if grep -q '^acl_' "$RESULTS"; then
      echo "- ACL ($ACL_ROUNDS rounds: its rounds differ by more than its 3% target): one fresh server per side with a"
      echo "  user \`app\` made by \`ACL SETUSER app $ACL_RULES\`; in each"
      echo "  round \`redis-benchmark -c 50 -P 16 -r $(commas "$TP_KEYS") --csv\` of \`SET app:__rand_int__ <$VALUE bytes>\` and of"
      echo "  \`GET app:__rand_int__\`, $(commas "$ACL_N") requests each, as the default user and as app (\`--user app -a pw\`),"
      echo "  the default user first in odd rounds and app first in even ones;"
      echo "  INFO total_error_replies unchanged (but for app's NOPERMs to redis-benchmark's own CONFIG GET at its"
      echo "  start, at most 2) and commandstats' calls checked after each run. The ratio rows"
      echo "  are app's median over the default user's on the same server (target ≥ 0.97: within 3%)."
    fi
    if grep -q '^p_' "$RESULTS"; then
      echo "- Persistence ($P_ROUNDS rounds: each takes minutes): servers started with \`--dir \$DIR --dbfilename dump.rdb\`"
      echo "  (rdbcompression yes, checked). BGSAVE: \`bench/persist\` sends it and polls INFO persistence every 10 ms"
      echo "  until \`rdb_bgsave_in_progress:0\` (Redis notices its child's end in its cron, up to 100 ms late);"
      echo "  load: the server restarted on the file, timed from its start to the first PING answered"
      echo "  PONG, not -LOADING (polled every 10 ms), then DBSIZE checked. $(commas "$SAVE_KEYS") keys \`key:%014d\`, one"
      echo "  server's dataset in memory at a time. Under load: $(commas "$COW_KEYS") keys \`key:%012d\` preloaded, then"
      echo "  \`redis-benchmark -c $COW_CLIENTS -P $COW_PIPE -t set -r $COW_KEYS\` overwriting them throughout; memory sampled"
      echo "  every 10 ms from /proc: the server's VmRSS plus its children's Private_Dirty (smaps_rollup), that"
      echo "  is, for Redis the fork child's copy-on-write copies; \"just before\" is a reading taken as BGSAVE is"
      echo "  sent. Latency: \`bench/loadgen\` SETs and GETs (half each) of those keys at $(commas "$SAVE_LAT_RATE")/s, open loop"
      echo "  over $SAVE_LAT_CONNS connections, for $SAVE_LAT_SECS s without a save, and with \`-window\` for exactly the span"
      echo "  of the BGSAVE (\`bench/persist -notify\`). Commands/s count the load's and the probes' commands."
    fi
    if [ -s "$FAILURES" ]; then
      echo
      echo "## Failures"
      echo
      sed 's/^/- /' "$FAILURES"
    fi
    if [ -f "$CHART" ] && [ -n "$(chart_tsv)" ]; then
      echo
      echo "## Bytes per key against value size"
      echo
      echo "$(commas "$CHART_KEYS") keys of 16 bytes for each value size, each on a fresh server: used_memory and RSS"
      echo "deltas per key (medians of $ROUNDS rounds). The steps are the allocators' size classes."
      echo
      echo "![Bytes per key against value size]($chart_rel)"
      echo
      echo "<details><summary>The chart's figures</summary>"
      echo
      chart_table
      echo
      echo "</details>"
    fi
    if [ -f "$CHART8" ] && [ -n "$(chart8_tsv)" ]; then
      echo
      echo "## Bytes per element of hashes and sets"
      echo
      echo "The four shapes of the table's hash and set memory rows, each loaded into a fresh server:"
      echo "used_memory and RSS deltas per element (medians of $HS_MEM_ROUNDS rounds). Each bar is drawn as a"
      echo "percentage of Redis's used_memory for its shape, since the shapes' figures differ by two orders"
      echo "of magnitude, and labelled with its bytes per element; the targets are kvserver's used_memory."
      echo
      echo "![Bytes per element of hashes and sets]($chart8_rel)"
    fi
    if [ -f "$CHART9" ] && [ -n "$(chart9_tsv)" ]; then
      echo
      echo "## Bytes per element of lists"
      echo
      echo "The list shapes of the table, each loaded into a fresh server: used_memory and RSS deltas per"
      echo "element of the big list and per list of the small ones (medians of $L_MEM_ROUNDS rounds), each bar drawn as"
      echo "a percentage of Redis's used_memory for its shape and labelled with its bytes."
      echo
      echo "![Bytes per element of lists]($chart9_rel)"
    fi
    if [ -f "$CHART10" ] && [ -n "$(chart10_tsv)" ]; then
      echo
      echo "## Bytes per element of sorted sets"
      echo
      echo "The sorted-set shapes of the table, each loaded into a fresh server: used_memory and RSS deltas"
      echo "per member of the big sorted set and per sorted set of the small ones (medians of $Z_MEM_ROUNDS rounds),"
      echo "each bar drawn as a percentage of Redis's used_memory for its shape and labelled with its bytes."
      echo
      echo "![Bytes per element of sorted sets]($chart10_rel)"
    fi
    echo
    echo "## Machine"
    echo
    echo "- CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), nproc $(nproc)"
    echo "- Memory: $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "- Kernel: $(uname -sr); transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
    echo "- Open files limit: $(ulimit -n) (Redis lowers maxclients to the limit − 32 when it is below 20,032)"
    echo "- Load average (1, 5, 15 min) at start: $LOAD_START; at end: $load_end"
    echo
    echo "## Versions"
    echo
    echo "- kvserver: $KV_VERSION"
    echo "- redis-server: $(redis-server --version)"
    echo "- $(redis-benchmark --version); $(redis-cli --version)"
    echo "- Go: $($GO version)"
    echo
    echo "## Commands"
    echo
    echo "Servers (\$PORT a free loopback port, chosen anew at each start):"
    echo
    echo '```'
    echo "${BIN[kv]} --port \$PORT --bind 127.0.0.1 --maxclients 20000 --save \"\" --appendonly no $SERVER_ARGS"
    echo "${BIN[redis]} --port \$PORT --bind 127.0.0.1 --maxclients 20000 --save \"\" --appendonly no $SERVER_ARGS"
    echo '```'
    ! grep -q '^p_' "$RESULTS" || printf '\n(with `--dir $DIR --dbfilename dump.rdb` added for the persistence measurements)\n'
    echo
    echo "Measurements, in the order first run (helpers built from \`bench/\` into \$BIN):"
    echo
    echo '```'
    awk '!seen[$0]++' "$COMMANDS" | sed "s|$HELPERS/|\$BIN/|g"
    echo '```'
    echo
    echo "Run: \`$RUN_LINE\`"
    echo
    echo "<details><summary>Every round</summary>"
    echo
    rounds_table
    echo
    echo "</details>"
  } >"$OUT"
  echo "$t"
}

# ---- main ------------------------------------------------------------------------------------

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
# Redis needs maxclients + 32 descriptors; raise the soft limit as far as the hard one allows.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
[ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge 20032 ] ||
  say "note: open files limit $(ulimit -n) < 20032: Redis will lower maxclients to $(($(ulimit -n) - 32))"
for tool in redis-server redis-cli redis-benchmark; do
  command -v "$tool" >/dev/null || { echo "$tool not found: run scripts/deps.sh --bench" >&2; exit 1; }
done

HELPERS=$WORK/bin
say "building the helpers (bench/loadgen, conns, respgen, chart, persist, pubsub, blocked, zset) into $HELPERS"
$GO build -o "$HELPERS/" ./bench/loadgen ./bench/conns ./bench/respgen ./bench/chart ./bench/persist ./bench/pubsub ./bench/blocked ./bench/zset
KV_NOTE=
if [ -n "${KVSERVER:-}" ]; then
  BIN[kv]=$(command -v "$KVSERVER")
  KV_NOTE="$KVSERVER (KVSERVER override), not a kvserver build"
  KV_VERSION="override: $("${BIN[kv]}" --version 2>/dev/null | head -n 1)"
else
  say "building kvserver"
  $GO build -o bin/kvserver ./cmd/kvserver
  BIN[kv]=$ROOT/bin/kvserver
  KV_VERSION="$(bin/kvserver --version 2>/dev/null | head -n 1), git $(git rev-parse --short HEAD)$(
    [ -z "$(git status --porcelain -- . ':!BENCHMARKS.md' ':!bench/bytes-per-key.svg' ':!bench/bytes-per-element.svg' ':!bench/bytes-per-element-lists.svg' ':!bench/bytes-per-element-zsets.svg' 2>/dev/null)" ] ||
      echo ' with uncommitted changes'), built by run.sh"
fi
BIN[redis]=$(command -v redis-server)

# probe_kvserver checks that kvserver starts and that its INFO process_id is the pid whose /proc
# figures the measurements read.
probe_kvserver() {
  local id
  start_server kv
  id=$(info_field "${PORT[kv]}" server process_id)
  [ "$id" = "${PID[kv]}" ] || { echo "INFO process_id $id is not the server's pid ${PID[kv]}" >&2; return 1; }
}
attempt "kvserver: start, INFO server with process_id" probe_kvserver

for m in $ONLY; do
  case $m in
    1) measure_throughput ;;
    2) measure_memory ;;
    3) measure_conns ;;
    4) measure_latency ;;
    5) measure_chart ;;
    6) measure_persist ;;
    7) measure_pubsub ;;
    8) measure_hashes_sets ;;
    9) measure_lists ;;
    10) measure_zsets ;;
    11) measure_scripts ;;
    12) measure_acl ;;
    *) echo "ONLY: unknown measurement $m" >&2; exit 2 ;;
  esac
done

define_rows
mkdir -p "$(dirname "$OUT")" "$(dirname "$CHART")" "$(dirname "$CHART8")" "$(dirname "$CHART9")" "$(dirname "$CHART10")"
if [ -n "$(chart_tsv)" ]; then
  chart_tsv | "$HELPERS/chart" -title "Bytes per key against value size ($(commas "$CHART_KEYS") keys of 16 bytes)" \
    -xlabel "value size, bytes" -ylabel "bytes per key" -xstep 64 >"$CHART"
fi
[ -z "$(chart8_tsv)" ] || draw_chart8
[ -z "$(chart9_tsv)" ] || draw_chart9
[ -z "$(chart10_tsv)" ] || draw_chart10
write_report "$(($(date +%s) - STARTED))"
say "wrote $OUT$([ -f "$CHART" ] && echo ", $CHART")$([ -f "$CHART8" ] && [ -n "$(chart8_tsv)" ] && echo ", $CHART8")$([ -f "$CHART9" ] && [ -n "$(chart9_tsv)" ] && echo ", $CHART9")$([ -f "$CHART10" ] && [ -n "$(chart10_tsv)" ] && echo ", $CHART10")"
[ ! -s "$FAILURES" ] || { say "some measurements failed: see $OUT"; exit 1; }
ABORTED=0
