#!/usr/bin/env bash
# The GPU benchmark of docs/benchmarks/: every kernel variant and cuSPARSE baseline, single and
# double precision, on the generated large matrices of issue 3 and on a directory of .mtx files.
# Run on the GPU machine after a build with the CLI (scripts/device_check.sh builds test_gpu;
# this script builds spmvlab itself):
#
#   scripts/bench_gpu.sh [build-dir] [matrix-dir]     results go to $OUT (or build-dir/bench)
#
# LARGE=0 skips the generated large matrices (LARGE_LIST="gen:... gen:..." replaces them,
# WARM=0 skips their warm-L2 run); a matrix-dir that does not exist skips the
# collection. Writes bench_large_{cold,warm}.json, bench_collection.json (+ .csv) and report.md
# (`spmvlab report`). Large matrices: pde100, pde150 (ELLG paper's 7-point Laplacian), blocks5
# with 500k rows (DLR2-like), a 1M-row power law, onefull 200k (the pJDS worst case).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-device}
dir=${2:-.mtx}
out=${OUT:-$build/bench}
mkdir -p "$out"
prefix="$PWD/.deps/deps/usr;$PWD/.deps/catch2/usr;$PWD/.deps/cli11/usr;$PWD/.deps/json/usr"
if [ ! -f "$build/build.ninja" ]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_BUILD_GUI=OFF \
        -DSPMV_BUILD_TUTORIALS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_PREFIX_PATH=$prefix" \
        >"$out/configure.log" 2>&1 || { tail "$out/configure.log"; exit 1; }
fi
cmake --build "$build" -j"$(nproc)" --target spmvlab >"$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
S="$build/cli/spmvlab"
# Two 1M-row power laws: the generator's default lengths (1..500, mean 4.1: x is gathered from
# L2) and min-len=4,max-len=1000 (mean 20: 20M scattered gathers, ~240 MB of matrix).
large=(gen:pde:size=100 gen:pde:size=150 gen:blocks5:block-rows=100000,blocks=8
       gen:powerlaw:rows=1000000 gen:powerlaw:rows=1000000,min-len=4,max-len=1000
       gen:onefull:n=200000)
if [ -n "${LARGE_LIST:-}" ]; then read -r -a large <<<"$LARGE_LIST"; fi
nvidia-smi --query-gpu=name,driver_version,memory.total,ecc.mode.current,clocks.max.memory \
    --format=csv || true
# SELL-C-sigma with sigma chosen per matrix (--sigma auto: the smallest sigma of 1, 32, 64, ...
# whose padding is within 2 % of nnz of the least; pde100 gets 1, the power law a large window).
# Formats that would need more than 4 GiB (ELLPACK of the power law: 11 GiB) are not built.
common=(--precision both --sigma auto --max-format-mib 4096)
if [ "${LARGE:-1}" = 1 ]; then
echo "== large matrices, L2 flushed before every repetition"
"$S" bench --gpu "${common[@]}" "${large[@]}" --json-out "$out/bench_large_cold.json" \
    --csv-out "$out/bench_large_cold.csv" >"$out/bench_large_cold.txt" 2>"$out/bench_large_cold.err"
echo "rc=$?"; tail -n 3 "$out/bench_large_cold.err"
if [ "${WARM:-1}" = 1 ]; then
echo "== large matrices, warm L2 (back-to-back repetitions)"
"$S" bench --gpu --warm "${common[@]}" "${large[@]}" --json-out "$out/bench_large_warm.json" \
    >"$out/bench_large_warm.txt" 2>"$out/bench_large_warm.err"
echo "rc=$?"
fi
fi
if [ -d "$dir" ]; then
    echo "== collection $dir"
    "$S" bench --gpu "${common[@]}" --min-time "${MIN_TIME:-10}" --min-reps 20 "$dir" \
        --json-out "$out/bench_collection.json" --csv-out "$out/bench_collection.csv" \
        >"$out/bench_collection.txt" 2>"$out/bench_collection.err"
    echo "rc=$? (non-zero when some files could not be read; see bench_collection.err)"
fi
reports=()
for f in bench_large_cold bench_large_warm bench_collection; do
    [ -f "$out/$f.json" ] && reports+=("$out/$f.json")
done
"$S" report "${reports[@]}" >"$out/report.md"
grep -E "^- |^## |^### " "$out/report.md"
