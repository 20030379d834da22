#!/usr/bin/env bash
# Session 24's device batch (issue 37; one H200): the nonzero-tiled CSR kernel csr_tiled
# (docs/benchmarks/h200_tiled_2026-11-29).
#   strip  tiled_bench (the session-23 prototype and the library's csr_tiled) on the default
#          power law, the lengths 4-1000 law and onefull 200k, and Nsight Compute on csr_tiled's
#          two kernels (DP). (The session's strip, aligned and start-bit bench kernels ran here
#          first; their records are in the folder above.)
#   lib    the library kernel csr_tiled: tests, sanitizers, bench records (see the step)
#   check  sanitizers on every csr_tiled case; the held-out half b with every own variant
# Usage (device machine, repository root with .deps): SPMV_COMMIT=<sha> RESULTS=DIR \
#   bash scripts/experiments/s24.sh STEP
set -uo pipefail
out=${RESULTS:-out-s24}
what=${1:-strip}
mkdir -p "$out"
S=build-device/cli/spmvlab
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,ecc.mode.current \
    --format=csv > "$out/gpu.csv"
echo "commit ${SPMV_COMMIT:-unknown} $(date -u +%FT%TZ)" > "$out/commit.txt"
if [ "$what" = strip ]; then
    source scripts/device_build.sh
    device_build "$out/logs" tiled_bench || exit 1
    B=build-device/kernels/bench/tiled_bench
    $B 1 500 > "$out/mask_default.txt" 2>&1; echo "rc=$?"
    $B 4 1000 > "$out/mask_minlen4.txt" 2>&1; echo "rc=$?"
    $B onefull > "$out/mask_onefull.txt" 2>&1; echo "rc=$?"
    timeout 120 ncu --section SpeedOfLight --section Occupancy --section LaunchStats \
        --section SchedulerStats --section MemoryWorkloadAnalysis --kernel-name-base demangled \
        -k "regex:csr_tiled_kernel|csr_tiled_fixup" --launch-skip 20 --launch-count 2 \
        $B 1 500 > "$out/ncu_csr_tiled.txt" 2>&1; echo "ncu rc=$?"
    grep -E "check|MASK|WRONG" "$out"/mask_*.txt | grep -v " ok$" | head -20
    grep -vE "check" "$out"/mask_*.txt
fi
if [ "$what" = lib ]; then
    # the library's csr_tiled: its tests (host plan, [gpu], every variant on the zoo), memcheck,
    # then the records the model's constants are fitted on (a, b, fitlarge: csr_tiled alone, as
    # docs/benchmarks/h200_calib_2026-11-28/run.sh made them for every other variant) and the
    # large matrices with every variant and cuSPARSE in one run.
    source scripts/device_build.sh
    device_build "$out/logs" spmvlab test_gpu test_kernels_host || exit 1
    build-device/tests/test_kernels_host "[csr_tiled]" > "$out/test_kernels_host.txt" 2>&1
    echo "test_kernels_host [csr_tiled] rc=$?"; tail -n 2 "$out/test_kernels_host.txt"
    build-device/tests/test_gpu "[csr_tiled]" > "$out/test_gpu_tiled.txt" 2>&1
    echo "test_gpu [csr_tiled] rc=$?"; tail -n 3 "$out/test_gpu_tiled.txt"
    timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 build-device/tests/test_gpu \
        "csr_tiled: the result is bitwise reproducible","csr_tiled: rows exactly at chunk boundaries, every S","csr_tiled: many empty rows" \
        > "$out/memcheck_tiled.txt" 2>&1
    echo "memcheck rc=$?"; tail -n 3 "$out/memcheck_tiled.txt"
    timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 build-device/tests/test_gpu \
        "csr_tiled: rows exactly at chunk boundaries, every S" > "$out/racecheck_tiled.txt" 2>&1
    echo "racecheck rc=$?"; tail -n 3 "$out/racecheck_tiled.txt"
    timeout 280 build-device/tests/test_gpu > "$out/test_gpu_all.txt" 2>&1
    echo "test_gpu (all) rc=$?"; tail -n 3 "$out/test_gpu_all.txt"
    all=csr,csr_vector,coo,ell,ellr,ellg,hyb,jds,jds_csr,pjds,pellr,biell,bijad,sell,sell_split,pellr_split,pjds_split,csr_merge,ell_xs,sell_xs,sell_i16,csr_adaptive,csr_tiled,cusparse_csr_alg1,cusparse_csr_alg2,cusparse_coo_alg1,cusparse_coo_alg2,cusparse_sell
    part() {  # part NAME FORMATS ARGS...
        local name=$1 formats=$2 t0=$SECONDS
        shift 2
        mkdir -p "$out/$name"
        "$S" bench --gpu --precision both --sigma auto --max-format-mib 4096 --formats "$formats" \
            "$@" --json-out "$out/$name/bench.json" --csv-out "$out/$name/bench.csv" \
            > "$out/$name/bench.txt" 2> "$out/$name/bench.err"
        echo "part $name rc=$? $((SECONDS - t0)) s"
    }
    part large "$all" --min-time 100 --min-reps 50 gen:pde:size=100 gen:pde:size=150 \
        gen:blocks5:block-rows=100000,blocks=8 gen:powerlaw:rows=1000000 \
        gen:powerlaw:rows=1000000,min-len=4,max-len=1000 gen:onefull:n=200000
    part fitlarge csr_tiled --min-time 100 --min-reps 50 gen:pde:size=80 gen:pde:size=120 \
        gen:blocks5:block-rows=60000,blocks=8,seed=7 gen:powerlaw:rows=500000,seed=7 \
        gen:powerlaw:rows=2000000,min-len=2,max-len=200,seed=7 \
        gen:powerlaw:rows=400000,min-len=8,max-len=2000,seed=7 gen:onefull:n=100000 \
        gen:banded:n=1000000,bandwidth=8,offdiags=2,seed=7 gen:random:rows=500000,nnz-per-row=12,seed=7
    part a csr_tiled --min-time 10 --min-reps 20 .mtx/a
    part b csr_tiled --min-time 10 --min-reps 20 .mtx/b
fi
if [ "$what" = check ]; then
    # the sanitizers on every csr_tiled case (by tag), and the held-out collection half (b) with
    # every own variant in one run, so that the advisor's validation compares csr_tiled with
    # the others measured alike
    source scripts/device_build.sh
    device_build "$out/logs" spmvlab test_gpu || exit 1
    timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 build-device/tests/test_gpu \
        "[csr_tiled]" > "$out/memcheck_tiled.txt" 2>&1
    echo "memcheck rc=$?"; tail -n 3 "$out/memcheck_tiled.txt"
    timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 build-device/tests/test_gpu \
        "[csr_tiled]" > "$out/racecheck_tiled.txt" 2>&1
    echo "racecheck rc=$?"; tail -n 3 "$out/racecheck_tiled.txt"
    own=csr,csr_vector,coo,ell,ellr,ellg,hyb,jds,jds_csr,pjds,pellr,biell,bijad,sell,sell_split,pellr_split,pjds_split,csr_merge,ell_xs,sell_xs,sell_i16,csr_adaptive,csr_tiled
    mkdir -p "$out/b_all"
    t0=$SECONDS
    timeout 280 "$S" bench --gpu --precision both --sigma auto --max-format-mib 4096 --formats "$own" \
        --min-time 10 --min-reps 20 .mtx/b --json-out "$out/b_all/bench.json" \
        > "$out/b_all/bench.txt" 2> "$out/b_all/bench.err"
    echo "b_all rc=$? $((SECONDS - t0)) s"; tail -n 2 "$out/b_all/bench.err"
fi
