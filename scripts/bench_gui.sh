#!/usr/bin/env bash
# Benchmark (not a test): how long the explorer takes to open and draw a 1M-row, 10M-nonzero
# matrix (pattern raster + row-length histogram), in the real window (offscreen) and for the
# Qt-free parts alone. Results go to stdout; docs/benchmarks/gui.md records them.
#   scripts/bench_gui.sh [--rows N] [--per-row K] [--repeat R]
# The matrix file (~335 MB) is written once to /tmp/spmvlab_bench_1M_10M.mtx.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SPMV_BUILD_DIR:-build-gui}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_BUILD_GUI=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target bench_gui bench_viz
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/spmvlab-xdg}
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/gui/bench_viz" "$@"
"$build/gui/bench_gui" "$@" 2>&1 | grep -v propagateSizeHints
