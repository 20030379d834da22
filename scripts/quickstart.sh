#!/usr/bin/env bash
# Quick start: install what is missing, build everything this machine supports, then run the
# main job on a built-in default: the explorer on a display, otherwise the command-line tour.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(scripts/deps.sh | grep '^export' || true)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x build/gui/spmvlab-gui ]; then
  exec build/gui/spmvlab-gui "$@"
fi
exec build/cli/spmvlab tour "$@"
