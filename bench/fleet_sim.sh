#!/bin/sh
# Simulation: thousands of small images on shared layers (Zipf-like bases, runtime layers, one app layer
# each) pushed to a local docker-registry, audited by 1, 2 and 4 --shard processes sharing one
# redis-server: images a minute, CPU, blob GETs against distinct layers, Redis memory, claim waits.
# Usage: bench/fleet_sim.sh BUILD_DIR [IMAGES...]   (default: 1000 10000; SHARDS="1 2 4")
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [IMAGES...]" >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
exec python3 "$here/fleet_sim.py" "$build" "$@"
