#!/usr/bin/env bash
# Issue 37 on a 4 x H200 device machine: the records the per-format model is fitted on and
# validated against, as docs/benchmarks/h100_2026-11-26/run.sh made them on the H100 (every own
# GPU kernel variant and cuSPARSE, single and double precision, L2 flushed before every
# repetition, C = 32, b_r = 32, sigma auto) -- the four parts at once, one GPU each
# (CUDA_VISIBLE_DEVICES), since each part times kernels on its own GPU only; then the gather
# floor (kernels/bench/gather_bench.cu) on GPU 0.
#   SPMV_COMMIT=<commit> bash docs/benchmarks/h200_calib_2026-11-28/run.sh build|parts|gather
# Run from the root of a source tree holding .deps (scripts/device_check.sh) and .mtx/a, .mtx/b
# (the first 50 files of ../shared/matrices in name order and the rest). Writes $OUT/<part>/.
set -uo pipefail
step=${1:?usage: run.sh build|parts|gather}
out=${OUT:?}
export SPMV_COMMIT=${SPMV_COMMIT:?}
S=build-device/cli/spmvlab
t0=$SECONDS
variants=csr,csr_vector,coo,ell,ellr,ellg,hyb,jds,jds_csr,pjds,pellr,biell,bijad,sell,sell_split,pellr_split,pjds_split,csr_merge,ell_xs,sell_xs,sell_i16,csr_adaptive,cusparse_csr_alg1,cusparse_csr_alg2,cusparse_coo_alg1,cusparse_coo_alg2,cusparse_sell
common=(--gpu --precision both --sigma auto --max-format-mib 4096 --formats "$variants")
part() {  # part NAME GPU INPUT...
    local name=$1 gpu=$2
    shift 2
    mkdir -p "$out/$name"
    nvidia-smi -i "$gpu" --query-gpu=index,name,driver_version,memory.total,ecc.mode.current,clocks.max.sm,clocks.max.memory \
        --format=csv > "$out/$name/gpu.csv" 2>&1
    CUDA_VISIBLE_DEVICES=$gpu "$S" bench "${common[@]}" "$@" --json-out "$out/$name/bench.json" \
        --csv-out "$out/$name/bench.csv" > "$out/$name/bench.txt" 2> "$out/$name/bench.err"
    echo "part $name (GPU $gpu) rc=$? $((SECONDS - t0)) s"
}
case $step in
build)
    source scripts/device_build.sh
    device_build "$out/logs" spmvlab spmv_kernels spmv_core || exit 1
    nvcc -O3 -std=c++20 -arch=sm_90 -Ilib/include -Ikernels/include -Ibuild-device/lib/generated \
        kernels/bench/gather_bench.cu build-device/kernels/libspmv_kernels.a \
        build-device/lib/libspmv_core.a -lcusparse -o build-device/gather_bench \
        > "$out/logs/gather_build.log" 2>&1 || tail -20 "$out/logs/gather_build.log"
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
    ;;
parts)
    part a 0 --min-time 10 --min-reps 20 .mtx/a &
    part b 1 --min-time 10 --min-reps 20 .mtx/b &
    part large 2 --min-time 100 --min-reps 50 gen:pde:size=100 gen:pde:size=150 \
        gen:blocks5:block-rows=100000,blocks=8 gen:powerlaw:rows=1000000 \
        gen:powerlaw:rows=1000000,min-len=4,max-len=1000 gen:onefull:n=200000 &
    part fitlarge 3 --min-time 100 --min-reps 50 gen:pde:size=80 gen:pde:size=120 \
        gen:blocks5:block-rows=60000,blocks=8,seed=7 gen:powerlaw:rows=500000,seed=7 \
        gen:powerlaw:rows=2000000,min-len=2,max-len=200,seed=7 \
        gen:powerlaw:rows=400000,min-len=8,max-len=2000,seed=7 gen:onefull:n=100000 \
        gen:banded:n=1000000,bandwidth=8,offdiags=2,seed=7 gen:random:rows=500000,nnz-per-row=12,seed=7 &
    wait
    for p in a b large fitlarge; do tail -n 2 "$out/$p/bench.err"; done
    ;;
gather)
    mkdir -p "$out/gather"
    build-device/gather_bench 1 500 > "$out/gather/gather_default.txt" 2>&1
    build-device/gather_bench 4 1000 > "$out/gather/gather_minlen4.txt" 2>&1
    tail -n 12 "$out/gather/"*.txt
    ;;
*) echo "unknown step $step" >&2; exit 2 ;;
esac
