#!/usr/bin/env bash
# Installs the Debian 12 packages SpMV Lab builds with, only those that are missing.
# CUDA is optional and comes from NVIDIA's toolkit in /usr/local/cuda (never installed here).
# Usage: scripts/deps.sh [--quick|--quick-gui|package...]
#   no argument   every package the whole project and its test suite build with (scripts/test.sh)
#   --quick       only what the command line needs (scripts/quickstart.sh without a display)
#   --quick-gui   that and Qt 6 for the explorer (scripts/quickstart.sh on a display)
#   package...    only those packages (scripts/sanitize.sh asks for the Clang 16 ones alone, so
#                 that a local sanitizer run does not pull in Qt)
set -euo pipefail
# clang-16 + libclang-rt-16-dev (ASan, UBSan, libFuzzer; Debian 12's default clang 14 cannot
# compile libstdc++ 12's <source_location>) are installed by scripts/sanitize.sh when the test
# suite first needs them, so that the quick start does not download a second compiler.
# catch2 is in the command line's group because the configure step asks for it (a small
# header-only package); MPI, Python and the X server for the GUI tests wait for the test command.
quick=(cmake ninja-build g++ catch2 nlohmann-json3-dev libcli11-dev libmetis-dev libboost-graph-dev
       fonts-dejavu-core libarchive-dev zlib1g-dev libcurl4-openssl-dev libssl-dev libcairo2-dev)
gui=(qt6-base-dev qt6-charts-dev qt6-svg-dev libgl-dev)
rest=(libopenmpi-dev openmpi-bin xvfb xauth
      python3 python3-dev python3-venv pybind11-dev python3-numpy python3-scipy python3-jsonschema)
pkgs=("${quick[@]}" "${gui[@]}" "${rest[@]}")
case "${1:-}" in
  --quick) pkgs=("${quick[@]}") ;;
  --quick-gui) pkgs=("${quick[@]}" "${gui[@]}") ;;
  "") ;;
  *) pkgs=("$@") ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "spmvlab: installing missing Debian packages: ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "spmvlab: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo_cmd=(sudo)
  fi
  for attempt in 1 2 3 4 5; do   # apt's lock may be held briefly by another process
    if "${sudo_cmd[@]}" apt-get update -qq && \
       DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"; then
      break
    fi
    [ "$attempt" = 5 ] && { echo "spmvlab: apt-get failed" >&2; exit 1; }
    sleep 10
  done
fi
# nvcc is usually not on PATH in a fresh shell even when the toolkit is installed.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "export PATH=/usr/local/cuda/bin:\$PATH"
fi
