#!/usr/bin/env bash
# Regenerates docs/replication.md from the committed records (run from anywhere; SPMVLAB
# overrides the binary, default build/cli/spmvlab). The record list is the one the document
# names at its top; add a folder here when new records are committed.
#   h100x2_2026-11-25/run_a is left out: its README documents two exchange faults that were
#   fixed after it was recorded.
set -euo pipefail
cd "$(dirname "$0")/.."
S=${SPMVLAB:-build/cli/spmvlab}
B=docs/benchmarks
"$S" replicate $B/h100_2026-11-26/a/bench.json $B/h100_2026-11-26/b/bench.json \
    $B/h100_2026-11-26/large/bench.json $B/h100_2026-11-26/fitlarge/bench.json \
    --matrices ../shared/matrices \
    --solver-records $B/h100_2026-11-26/i21 $B/h100_2026-11-22/fused_pq/check_8c698ed \
    $B/h200_2026-11-26/s16/solve $B/h200_2026-11-28/solve $B/h100x2_2026-11-25/run_b \
    $B/h100x2_2026-11-25/run_c $B/h100x4_2026-11-25/run_d/records \
    --dist-records $B/h100x2_2026-11-25/run_b $B/h100x2_2026-11-25/run_c \
    $B/h100x4_2026-11-25/run_d/records $B/modes_2026-11-28/h200x2 $B/modes_2026-11-28/h200x4 \
    --out docs/replication.md "$@"
