#!/usr/bin/env bash
# Device batch for issue 20 (the format advisor): every own GPU kernel variant (and cuSPARSE
# CSR_ALG1 as the reference) on the readable matrices of ../shared/matrices and on the generated
# large matrices, single and double precision, L2 flushed before every repetition (bench's
# default), with the parameters the advisor evaluates (C = 32, b_r = 32, sigma auto). These
# records are what lib/src/model/format_model.cpp's constants are fitted on (one half of the
# collection) and validated against (the other half and the large matrices).
#   SPMV_COMMIT=<commit> PART=a|b|large|gpu bash docs/benchmarks/h100_2026-11-26/run.sh
# PART a: .mtx/a (the first 50 files of the collection in name order), b: .mtx/b (the rest),
# large: the six generated matrices of scripts/bench_gpu.sh (held out: never fitted on),
# fitlarge: other generated large matrices (other sizes, seeds and shapes) the model is fitted
# on beside part a, gpu: the [gpu] Catch suite.
# One device call has 10 minutes, hence the parts. Writes $OUT/<part>/.
set -uo pipefail
out=${OUT:?}/${PART:?}; mkdir -p "$out"
source scripts/device_build.sh
[ -x build-device/cli/spmvlab ] || device_build "$out/logs" spmvlab || exit 1
S=build-device/cli/spmvlab
nvidia-smi --query-gpu=name,driver_version,memory.total,ecc.mode.current,clocks.max.sm,clocks.max.memory \
    --format=csv > "$out/gpu.csv" 2>&1
variants=csr,csr_vector,coo,ell,ellr,ellg,hyb,jds,jds_csr,pjds,pellr,biell,bijad,sell,sell_split,pellr_split,pjds_split,csr_merge,ell_xs,sell_xs,sell_i16,csr_adaptive,cusparse_csr_alg1
common=(--gpu --precision both --sigma auto --max-format-mib 4096 --formats "$variants")
t0=$SECONDS
case $PART in
    a|b) "$S" bench "${common[@]}" --min-time 10 --min-reps 20 ".mtx/$PART" \
            --json-out "$out/bench.json" --csv-out "$out/bench.csv" >"$out/bench.txt" 2>"$out/bench.err"
         echo "bench $PART rc=$? $((SECONDS - t0)) s" ;;
    large) "$S" bench "${common[@]}" gen:pde:size=100 gen:pde:size=150 gen:blocks5:block-rows=100000,blocks=8 \
            gen:powerlaw:rows=1000000 gen:powerlaw:rows=1000000,min-len=4,max-len=1000 gen:onefull:n=200000 \
            --json-out "$out/bench.json" --csv-out "$out/bench.csv" >"$out/bench.txt" 2>"$out/bench.err"
         echo "bench large rc=$? $((SECONDS - t0)) s" ;;
    fitlarge) "$S" bench "${common[@]}" gen:pde:size=80 gen:pde:size=120 gen:blocks5:block-rows=60000,blocks=8,seed=7 \
            gen:powerlaw:rows=500000,seed=7 gen:powerlaw:rows=2000000,min-len=2,max-len=200,seed=7 \
            gen:powerlaw:rows=400000,min-len=8,max-len=2000,seed=7 gen:onefull:n=100000 \
            gen:banded:n=1000000,bandwidth=8,offdiags=2,seed=7 gen:random:rows=500000,nnz-per-row=12,seed=7 \
            --json-out "$out/bench.json" --csv-out "$out/bench.csv" >"$out/bench.txt" 2>"$out/bench.err"
         echo "bench fitlarge rc=$? $((SECONDS - t0)) s" ;;
    gpu) device_build "$out/logs" test_gpu || exit 1
         build-device/tests/test_gpu > "$out/test_gpu.txt" 2>&1; echo "test_gpu rc=$? $((SECONDS - t0)) s"
         tail -3 "$out/test_gpu.txt" ;;
    *) echo "unknown PART $PART" >&2; exit 2 ;;
esac
tail -n 3 "$out/bench.err" 2>/dev/null
