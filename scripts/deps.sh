#!/usr/bin/env bash
# Installs what building, running and testing kvserver need on a fresh Debian machine, and only
# what is missing: redis-tools (redis-cli, redis-benchmark), redis-server (the reference the
# tests compare INFO and the bench compares speed with), prometheus-redis-exporter (the
# exporter the tests run against both), redis-sentinel (the tests have it monitor kvserver) and
# python3-redis (redis-py, the client the tests run against both, with Debian's /usr/bin/python3:
# a python3 earlier on the PATH, e.g. pyenv's, does not see it). Go itself must already be on
# the PATH.
#
# Debian starts redis-server (on 6379), redis-sentinel (on 26379) and the exporter (on 9121) as
# services when they are installed; the tests and the bench start their own on free ports. So
# the services are kept from starting during the install (policy-rc.d, when the machine has none
# of its own) and stopped and disabled after it: nothing this script installs keeps running or
# holds 6379.
#
# --bench is accepted for older callers: everything is installed either way.
set -euo pipefail

if ! command -v go >/dev/null 2>&1; then
  echo "deps: Go is not on the PATH; install Go 1.26 or newer from go.dev first" >&2
  exit 1
fi

missing=()
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
command -v redis-benchmark >/dev/null 2>&1 || missing+=(redis-tools)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v prometheus-redis-exporter >/dev/null 2>&1 || command -v redis_exporter >/dev/null 2>&1 ||
  missing+=(prometheus-redis-exporter)
[ -x /usr/bin/redis-sentinel ] || missing+=(redis-sentinel)
/usr/bin/python3 -c 'import redis' >/dev/null 2>&1 || missing+=(python3-redis)
[ ${#missing[@]} -eq 0 ] && exit 0
# redis-tools may be listed twice.
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "deps: installing ${missing[*]}" >&2

# policy-rc.d exit 101 tells invoke-rc.d and deb-systemd-invoke not to start the packages'
# services. Only ours is removed afterwards; a machine's own is left alone.
policy=/usr/sbin/policy-rc.d
ours_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod 755 "$policy"
  ours_policy=1
fi
# An if, not `[ … ] && rm`: a false test as the trap's last command would be the script's
# exit status when the machine has a policy-rc.d of its own.
cleanup() { if [ "$ours_policy" = 1 ]; then $sudo rm -f "$policy"; fi; }
trap cleanup EXIT

$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null

# Whatever started anyway (a policy-rc.d of the machine's own that allows it), stop it, and
# keep it from starting at boot.
for svc in redis-server redis-sentinel prometheus-redis-exporter; do
  case " ${missing[*]} " in *" $svc "*) ;; *) continue ;; esac
  if [ -d /run/systemd/system ]; then
    $sudo systemctl disable --now "$svc" >/dev/null 2>&1 || true
  else
    $sudo service "$svc" stop >/dev/null 2>&1 || true
    $sudo update-rc.d "$svc" disable >/dev/null 2>&1 || true
  fi
done
if redis-cli -p 6379 ping >/dev/null 2>&1; then
  echo "deps: note: a server still answers on 6379 (not one this script started); the tests use free ports" >&2
fi
