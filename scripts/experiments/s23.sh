#!/usr/bin/env bash
# Session 23's device batch (issue 37; one H200): why the 1M-row power law, blocks5 and
# onefull 200k SP stand where they do. Builds spmvlab and gather_bench, then
#   sweep  spmvlab bench of the kernel choices that matter on these matrices (BiELL's W,
#          pJDS b_r, SELL C, the split kernels) beside every cuSPARSE baseline, DP and SP;
#   ncu    Nsight Compute's speed-of-light, occupancy, warp-state and memory sections for
#          BiELL, CSR merge, the SELL split kernel and cuSPARSE COO ALG1 on the power law, and
#          pJDS / SELL / cuSPARSE CSR on blocks5;
#   biell  after BiELL's first-slot prefetch (kernels/src/bisection.cuh): test_gpu (every [gpu]
#          case), compute-sanitizer memcheck of the permuted kernels, and BiELL / BiJAD beside the
#          cuSPARSE baselines on the power laws (W 32, 16; DP and SP), pde100, blocks5 and
#          onefull;
#   loads  the matrix/x load kinds (SPMV_STREAM_LOADS=never|always, auto is the size rule) for
#          BiELL, pJDS split and CSR merge on the two power laws, DP and SP;
#   tiled  kernels/bench/tiled_bench.cu (the nonzero-tiled CSR prototype) on the two power laws,
#          and Nsight Compute on its tile kernel (S = 8, DP);
#   final  the session's end state: test_gpu (every [gpu] case), test_mpi "[gpu]" on one GPU rank
#          (the distributed blocks built from their pass copies), and `dist bench` of pde150 on one
#          GPU in every mode beside the model;
#   x2     (two GPUs) `dist bench` of pde150, CSR and SELL, every mode, CUDA IPC, beside the model
#          with its fixed costs: records the fit never saw.
# Usage (device machine, repository root with .deps): SPMV_COMMIT=<sha> RESULTS=DIR \
#   bash scripts/experiments/s23.sh [build|sweep|ncu|all]
set -uo pipefail
out=${RESULTS:-out-s23}
what=${1:-all}
mkdir -p "$out"
S=build-device/cli/spmvlab
PL=gen:powerlaw:rows=1000000
PL4=gen:powerlaw:rows=1000000,min-len=4,max-len=1000
B5=gen:blocks5:block-rows=100000,blocks=8
OF=gen:onefull:n=200000
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,ecc.mode.current \
    --format=csv > "$out/gpu.csv"
if [ "$what" = build ] || [ "$what" = all ] || [ "$what" = biell ] || [ "$what" = loads ]; then
    source scripts/device_build.sh
    device_build "$out/logs" spmvlab spmv_kernels spmv_core test_gpu || exit 1
fi
bench() {  # name precision args...
    local name=$1 prec=$2
    shift 2
    "$S" bench --gpu --precision "$prec" --min-time 100 --min-reps 50 "$@" \
        --json-out "$out/$name.json" > "$out/$name.txt" 2> "$out/$name.err" ||
        { echo "bench $name failed"; tail -5 "$out/$name.err"; }
}
if [ "$what" = sweep ] || [ "$what" = all ]; then
    t0=$SECONDS
    base=cusparse_csr_alg1,cusparse_coo_alg1,cusparse_coo_alg2
    for w in 32 16 8 4; do
        bench pl_biell_w$w both --warp $w --formats biell,$base $PL $PL4
    done
    bench pl_other both --formats csr_merge,sell_split,pjds_split,pellr_split,hyb,coo $PL $PL4
    for br in 32 64 128; do
        bench b5_pjds_br$br dp --br $br --formats pjds,pjds_split,$base $B5 gen:pde:size=100
    done
    for c in 32 64 128; do
        bench b5_sell_c$c dp --slice $c --sigma auto --formats sell,sell_split,ellr $B5 gen:pde:size=100
    done
    bench of_sp sp --formats csr_merge,csr_adaptive,csr_vector,coo,biell,$base $OF
    echo "sweep $((SECONDS - t0)) s"
fi
if [ "$what" = ncu ] || [ "$what" = all ]; then
    t0=$SECONDS
    sections="--section SpeedOfLight --section Occupancy --section WarpStateStats \
        --section MemoryWorkloadAnalysis --section LaunchStats --section SchedulerStats"
    prof() {  # name matrix formats kernel-regex [bench args]
        local name=$1 m=$2 f=$3 k=$4
        shift 4
        timeout 150 ncu $sections -k "regex:$k" --launch-skip 3 --launch-count 1 \
            "$S" bench --gpu --precision dp --min-time 0 --min-reps 5 --formats "$f" "$@" "$m" \
            > "$out/ncu_$name.txt" 2>&1 || echo "ncu $name rc=$?"
    }
    prof pl_biell $PL biell bisection
    prof pl_merge $PL csr_merge csr_merge
    prof pl_sellsplit $PL sell_split "sell|split"
    prof pl_coo1 $PL cusparse_coo_alg1 "coo|Coo|spmv"
    prof b5_pjds $B5 pjds "pjds|jagged|slice"
    prof b5_csr1 $B5 cusparse_csr_alg1 "csr|Csr|spmv"
    echo "ncu $((SECONDS - t0)) s"
fi
if [ "$what" = biell ]; then
    t0=$SECONDS
    timeout 300 build-device/tests/test_gpu "[gpu]~[.]" > "$out/test_gpu.log" 2>&1
    echo "test_gpu rc=$?"; tail -3 "$out/test_gpu.log"
    timeout 150 compute-sanitizer --tool memcheck --error-exitcode 42 build-device/tests/test_gpu \
        "[permuted]" > "$out/memcheck.log" 2>&1; echo "memcheck rc=$?"; tail -2 "$out/memcheck.log"
    base=cusparse_csr_alg1,cusparse_coo_alg1,cusparse_coo_alg2
    for w in 32 16; do
        bench pl_biell2_w$w both --warp $w --formats biell,bijad,csr_merge,$base $PL $PL4
    done
    bench other_biell2 both --formats biell,bijad,pjds,sell,$base gen:pde:size=100 $B5 $OF
    echo "biell $((SECONDS - t0)) s"
fi
if [ "$what" = loads ]; then
    t0=$SECONDS
    for mode in auto never always; do
        SPMV_STREAM_LOADS=$mode bench pl_loads_$mode both \
            --formats biell,pjds_split,csr_merge,cusparse_coo_alg1,cusparse_csr_alg1 $PL $PL4
    done
    echo "loads $((SECONDS - t0)) s"
fi
if [ "$what" = tiled ]; then
    source scripts/device_build.sh
    device_build "$out/logs" spmv_kernels spmv_core || exit 1
    nvcc -O3 -std=c++20 -arch=sm_90 -Ilib/include -Ikernels/include -Ibuild-device/lib/generated \
        kernels/bench/tiled_bench.cu build-device/kernels/libspmv_kernels.a \
        build-device/lib/libspmv_core.a -lcusparse -o build-device/tiled_bench \
        > "$out/logs/tiled_build.log" 2>&1 || { tail -20 "$out/logs/tiled_build.log"; exit 1; }
    build-device/tiled_bench 1 500 > "$out/tiled_default.txt" 2>&1; echo "rc=$?"
    build-device/tiled_bench 4 1000 > "$out/tiled_minlen4.txt" 2>&1; echo "rc=$?"
    timeout 120 ncu --section SpeedOfLight --section Occupancy --section LaunchStats \
        --section SchedulerStats --kernel-name-base demangled -k "regex:tiled_kernel<double, 8>" --launch-skip 5 --launch-count 1 \
        build-device/tiled_bench 1 500 > "$out/ncu_tiled.txt" 2>&1; echo "ncu rc=$?"
    timeout 120 ncu --section SpeedOfLight --section Occupancy --kernel-name-base demangled -k "regex:fixup_list_kernel" --launch-skip 5 --launch-count 1 build-device/tiled_bench 1 500 > "$out/ncu_tiled_la.txt" 2>&1; echo "ncu la rc=$?"
    cat "$out/tiled_default.txt" "$out/tiled_minlen4.txt"
fi
if [ "$what" = x2 ]; then
    source scripts/device_build.sh
    device_build "$out/logs" spmvlab || exit 1
    device_mpi_env
    for f in csr sell; do
        timeout 90 $MPI -n 2 "$S" dist bench gen:pde:size=150 --gpu --format $f --mode all \
            --load root --exchange cuda-ipc --repeat 100 --json-out "$out/dist2_pde150_$f.json" \
            > "$out/dist2_pde150_$f.txt" 2>&1
        echo "dist bench 2 GPUs $f rc=$?"
    done
fi
if [ "$what" = final ]; then
    source scripts/device_build.sh
    device_build "$out/logs" spmvlab test_gpu test_mpi || exit 1
    device_mpi_env
    timeout 240 build-device/tests/test_gpu "[gpu]~[.]" > "$out/test_gpu.log" 2>&1
    echo "test_gpu rc=$?"; tail -2 "$out/test_gpu.log"
    timeout 200 $MPI -n 1 build-device/tests/test_mpi "[gpu]" > "$out/test_mpi_gpu.log" 2>&1
    echo "test_mpi [gpu] 1 rank rc=$?"; tail -2 "$out/test_mpi_gpu.log"
    for f in csr sell; do
        timeout 120 $MPI -n 1 "$S" dist bench gen:pde:size=150 --gpu --format $f --mode all --load root \
            --repeat 100 --json-out "$out/dist1_pde150_$f.json" > "$out/dist1_pde150_$f.txt" 2>&1
        echo "dist bench $f rc=$?"
    done
fi
