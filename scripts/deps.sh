#!/usr/bin/env bash
# Installs what building, running and testing kvserver need on a fresh Debian machine, and only
# what is missing: redis-tools (redis-cli, redis-benchmark) for the tests, and with --bench also
# redis-server for the side-by-side comparison. Go itself must already be on the PATH.
set -euo pipefail

want_bench=0
[ "${1:-}" = "--bench" ] && want_bench=1

if ! command -v go >/dev/null 2>&1; then
  echo "deps: Go is not on the PATH; install Go 1.26 or newer from go.dev first" >&2
  exit 1
fi

missing=()
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
command -v redis-benchmark >/dev/null 2>&1 || missing+=(redis-tools)
if [ "$want_bench" = 1 ]; then
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
# Debian starts redis-server as a service on install; the bench starts its own on free ports.
if [ "$want_bench" = 1 ] && command -v systemctl >/dev/null 2>&1; then
  $sudo systemctl stop redis-server >/dev/null 2>&1 || true
fi
