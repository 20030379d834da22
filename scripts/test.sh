#!/usr/bin/env bash
# Builds SpMV Lab and runs the whole test suite (GPU tests skip visibly without a CUDA device).
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(scripts/deps.sh | grep '^export' || true)"
scripts/check-layering.sh
build=${SPMV_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)"
cd "$build"
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/spmvlab-xdg}
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
ctest --output-on-failure -j"$(nproc)"
