#!/usr/bin/env bash
# Instructions per simulated round, counted by valgrind (callgrind): unlike a
# clock, the count does not change with the load on a shared machine.
#   bash bench/rounds_instructions.sh [GAMES]     (default 60; about 40 s)
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-60}"
py=.venv/bin/python
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$py" bench/rounds_workload.py "$1" 2>&1; }
with=$(count "$games")
without=$(count 0)
rounds=$(echo "$with" | awk '/^rounds/ {print $2}')
a=$(echo "$with" | awk '/Collected/ {print $4}')
b=$(echo "$without" | awk '/Collected/ {print $4}')
echo "$rounds rounds: $(( (a - b) / rounds )) instructions per round"
