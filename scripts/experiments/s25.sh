#!/usr/bin/env bash
# Session 25's device batch (issue 37; one H200).
#   tiled  the library's csr_tiled after session 24's last changes (its y store through
#          launch.cuh's axpby_store, the shared degenerate shapes): its and csr_merge's GPU
#          tests and memcheck; then four builds of csr_tiled timed in alternation against
#          cuSPARSE on the power laws and onefull (docs/benchmarks/h200_tiled_2026-11-29 has
#          the lengths 4-1000 law in SP at 0.997x the fastest baseline):
#            a  the committed kernel (x gathered through the read-only path, __ldg)
#            b  x gathered with an L2 evict_last hint in streaming launches (launch.cuh's
#               ld_x / x_policy, as the slice kernels do): s25/tiled_b.patch
#            c  b, and the plan's start words and chunk rows loaded evict-first too:
#               s25/tiled_c.patch
#            d  b with S = 8 steps (256 nonzeros per warp) by default: s25/tiled_d.patch
#          Each variant is the working tree's csr_tiled.cu / csr_tiled.hpp with its patch
#          applied, built into the same build tree (one file recompiles), its spmvlab binary kept.
#   lookback  tiled_bench's one-kernel prototype (no fix-up: the warp at a cut row's end looks
#          back over its pieces) on both power laws and onefull; the prototype is in the
#          bench at 0977f09 only (removed after, docs/benchmarks/h200_floor_2026-11-29)
#   floor  lookback, then e (s25/tiled_e.patch: the tile kernel's carveout at the largest L1) against a, three
#          rounds; then Nsight Compute on csr_tiled and cuSPARSE CSR ALG1 on the lengths 4-1000
#          law, both precisions (what both are bound by)
# Usage (device machine, repository root with .deps): SPMV_COMMIT=<sha> RESULTS=DIR \
#   bash scripts/experiments/s25.sh STEP
set -uo pipefail
out=${RESULTS:-out-s25}
what=${1:-tiled}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,ecc.mode.current \
    --format=csv > "$out/gpu.csv"
echo "commit ${SPMV_COMMIT:-unknown} $(date -u +%FT%TZ)" > "$out/commit.txt"
source scripts/device_build.sh
if [ "$what" = tiled ]; then
    device_build "$out/logs" spmvlab test_gpu || exit 1
    build-device/tests/test_gpu "[csr_tiled],[csr_merge]" > "$out/test_gpu_tiled_merge.txt" 2>&1
    echo "test_gpu [csr_tiled],[csr_merge] rc=$?"; tail -n 2 "$out/test_gpu_tiled_merge.txt"
    timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 build-device/tests/test_gpu \
        "[csr_tiled]" > "$out/memcheck_tiled.txt" 2>&1
    echo "memcheck [csr_tiled] rc=$?"; tail -n 2 "$out/memcheck_tiled.txt"
    mkdir -p "$out/bin"
    cp build-device/cli/spmvlab "$out/bin/a"
    for v in b c d; do
        patch -s -p1 < "scripts/experiments/s25/tiled_$v.patch" || { echo "patch $v failed"; exit 1; }
        cmake --build build-device -j"$(nproc)" --target spmvlab > "$out/logs/build_$v.log" 2>&1
        rc=$?
        cp build-device/cli/spmvlab "$out/bin/$v"
        patch -s -R -p1 < "scripts/experiments/s25/tiled_$v.patch"
        echo "variant $v build rc=$rc"
        [ $rc = 0 ] || exit 1
    done
    cmake --build build-device -j"$(nproc)" --target spmvlab > "$out/logs/build_a.log" 2>&1
    mats="gen:powerlaw:rows=1000000,min-len=4,max-len=1000 gen:powerlaw:rows=1000000 gen:onefull:n=200000"
    for round in 1 2; do
        for v in a b c d; do
            t0=$SECONDS
            "$out/bin/$v" bench --gpu --precision both --min-time 100 --min-reps 50 \
                --formats csr_tiled,cusparse_csr_alg1,cusparse_coo_alg1 $mats \
                --json-out "$out/r${round}_$v.json" > "$out/r${round}_$v.txt" 2> "$out/r${round}_$v.err"
            echo "round $round variant $v rc=$? $((SECONDS - t0)) s"
        done
    done
    rm -rf "$out/bin"
fi
if [ "$what" = lookback ] || { [ "$what" = floor ] && [ "${SKIP_LOOKBACK:-0}" = 0 ]; }; then
    # the one-kernel look-back prototype (kernels/bench/tiled_bench.cu) beside the library's
    # csr_tiled and cuSPARSE, each check against a double host product
    device_build "$out/logs" tiled_bench || exit 1
    B=build-device/kernels/bench/tiled_bench
    $B 4 1000 > "$out/lookback_minlen4.txt" 2>&1; echo "tiled_bench 4 1000 rc=$?"
    $B 1 500 > "$out/lookback_default.txt" 2>&1; echo "tiled_bench 1 500 rc=$?"
    $B onefull > "$out/lookback_onefull.txt" 2>&1; echo "tiled_bench onefull rc=$?"
    grep -hE "check" "$out"/lookback_*.txt | grep -v " ok$" | head
    grep -hE "lookback|csr_tiled|cusparse|device" "$out"/lookback_*.txt
fi
if [ "$what" = floor ]; then
    # Nsight Compute on the lengths 4-1000 power law: csr_tiled and cuSPARSE CSR ALG1 (the
    # fastest baseline there), both precisions: time, L2 sectors and throughput, DRAM bytes, L1
    # hit rate, to show what both kernels are bound by. A few repetitions only (--min-time 1).
    device_build "$out/logs" spmvlab || exit 1
    m=gen:powerlaw:rows=1000000,min-len=4,max-len=1000
    # first: e, the tile kernel with its carveout set to the largest L1 (it uses no shared
    # memory; more L1 for x's lines), against a, in alternation (skip: FLOOR_AB=0)
    if [ "${FLOOR_AB:-1}" = 1 ]; then
    mkdir -p "$out/bin"
    cp build-device/cli/spmvlab "$out/bin/a"
    patch -s -p1 < scripts/experiments/s25/tiled_e.patch || { echo "patch e failed"; exit 1; }
    cmake --build build-device -j"$(nproc)" --target spmvlab > "$out/logs/build_e.log" 2>&1
    rc=$?
    cp build-device/cli/spmvlab "$out/bin/e"
    patch -s -R -p1 < scripts/experiments/s25/tiled_e.patch
    echo "variant e build rc=$rc"; [ $rc = 0 ] || exit 1
    cmake --build build-device -j"$(nproc)" --target spmvlab > "$out/logs/build_a.log" 2>&1
    for round in 1 2 3; do
        for v in a e; do
            "$out/bin/$v" bench --gpu --precision both --min-time 100 --min-reps 50 \
                --formats csr_tiled,cusparse_csr_alg1 $m gen:powerlaw:rows=1000000 \
                --json-out "$out/f${round}_$v.json" > "$out/f${round}_$v.txt" 2> "$out/f${round}_$v.err"
            echo "round $round variant $v rc=$?"
        done
    done
    rm -rf "$out/bin"
    fi
    metrics=gpu__time_duration.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum.per_second,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active
    for prec in dp sp; do
        for f in csr_tiled cusparse_csr_alg1; do
            SPMV_BENCH_GATE=off timeout 200 ncu --metrics "$metrics" --csv --launch-count 20 \
                build-device/cli/spmvlab bench --gpu --precision $prec --formats $f \
                --min-time 1 --min-reps 3 $m > "$out/ncu_${f}_$prec.csv" 2> "$out/ncu_${f}_$prec.err"
            echo "ncu $f $prec rc=$?"
        done
    done
fi
if [ "$what" = link ]; then
    # the host-to-host link of this host, measured (spmvlab dist link: every rank exchanges with
    # its chain neighbours at once, host buffers, as the host-staged halo exchange's MPI step),
    # on 2 and 4 ranks; then the pinned copies of the GPU (--gpu: 1 rank alone, and 2 ranks
    # sharing the one GPU) that the host-staged exchange adds on each side; the link's MPI test
    # and the harness's tests with the GPU
    device_build "$out/logs" spmvlab test_mpi test_gpu || exit 1
    device_mpi_env
    build-device/tests/test_gpu "[bench]" > "$out/test_gpu_bench.txt" 2>&1
    echo "test_gpu [bench] rc=$?"; tail -n 2 "$out/test_gpu_bench.txt"
    $MPI -n 2 build-device/tests/test_mpi "[link]" > "$out/test_mpi_link.txt" 2>&1
    echo "test_mpi [link] -n 2 rc=$?"; tail -n 2 "$out/test_mpi_link.txt"
    for n in 2 4; do
        $MPI -n $n build-device/cli/spmvlab dist link --json-out "$out/link_$n.json" \
            > "$out/link_$n.txt" 2>&1
        echo "dist link -n $n rc=$?"; tail -n 4 "$out/link_$n.txt"
    done
    for n in 1 2; do
        $MPI -n $n build-device/cli/spmvlab dist link --gpu --json-out "$out/link_gpu_$n.json" \
            > "$out/link_gpu_$n.txt" 2>&1
        echo "dist link --gpu -n $n rc=$?"; tail -n 4 "$out/link_gpu_$n.txt"
    done
    lscpu > "$out/lscpu.txt" 2>&1
    ompi_info --param btl vader --level 9 > "$out/ompi_vader.txt" 2>&1
fi
