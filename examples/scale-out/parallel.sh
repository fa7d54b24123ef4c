#!/bin/sh
# parallel.sh - N shards of a ravel search with GNU parallel on one
# machine (or, with parallel's --sshlogin, several), then ravel merge.
#
#     examples/scale-out/parallel.sh 8 ./lastzero 15
#
# PARALLEL_SEQ numbers the jobs from 1; --shard auto/N reads it. Results
# go to $OUT (default ./ravel-shards). Exit status: ravel merge's.
set -eu
n=$1
shift
OUT=${OUT:-ravel-shards}
RAVEL=${RAVEL:-ravel}
mkdir -p "$OUT"
# Each job's exit status 1 (a bug, in its summary) is not a failure of
# the job; ravel merge reports the bug.
seq "$n" | parallel --will-cite -j "${JOBS:-$(nproc)}" \
    "$RAVEL" run --shard "auto/$n" --strategy dpor --executions 0 --jobs 1 \
    --json --fingerprints-file "$OUT/fp.{}" -- "$@" ">" "$OUT/summary.{}.json" \
    "||" test '$?' -le 1
exec "$RAVEL" merge "$OUT"/summary.*.json
