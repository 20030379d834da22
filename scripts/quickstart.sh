#!/usr/bin/env bash
# Quick start: install what is missing, build only what the main job needs, then run it on a
# built-in default: on a display the explorer (spmvlab-gui, with the spmvlab command line beside
# it), otherwise the command-line tour (spmvlab alone). Everything else (tests, tutorials,
# benchmarks, the Python module) is built by scripts/test.sh, into the same build directory.
# Without a GPU the kernels are not compiled here (they would have nothing to run on; the views
# and the tour use the CPU paths and the model, labelled so); scripts/test.sh compiles them when
# nvcc is there. The time it takes on a fresh 2-core Debian 12 machine is in README.md.
# Usage: scripts/quickstart.sh [arguments for spmvlab-gui, or for spmvlab tour]
set -euo pipefail
cd "$(dirname "$0")/.."
display= group=--quick
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  display=1 group=--quick-gui
fi
eval "$(scripts/deps.sh $group | grep '^export' || true)"
cuda=OFF
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  cuda=ON
else
  echo "spmvlab: no GPU found: building without CUDA (the CPU paths and the model; scripts/test.sh compiles the kernels)"
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_ENABLE_CUDA=$cuda >/dev/null
targets=(spmvlab)
if [ -n "$display" ] && grep -q '^Qt6_DIR:PATH=/' build/CMakeCache.txt; then
  targets+=(spmv_gui)
fi
echo "spmvlab: building ${targets[*]} (scripts/test.sh builds the rest)"
cmake --build build -j"$(nproc)" --target "${targets[@]}"
if [ -n "$display" ] && [ -x build/gui/spmvlab-gui ]; then
  exec build/gui/spmvlab-gui "$@"
fi
exec build/cli/spmvlab tour "$@"
