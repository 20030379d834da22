#!/usr/bin/env bash
# Session 33's device batch (issue 37; one H200): csr_tiled with its cut rows of up to 32 pieces
# finished in the tile kernel through link words (one 64- or 128-bit swap per tree node, no
# fence, no second launch unless a row is longer or empty), against the committed kernel (the
# fix-up kernel for every cut row), old and new alternating (ROUNDS) in one call, cuSPARSE CSR
# ALG1 and COO ALG1 beside them (unchanged: the machine's drift, and the baselines of the
# bar): on the generated large matrices (LARGE) and on the collection's matrices whose x fits
# in shared memory (.mtx/s32, one round each way: the small matrices where csr_tiled's second
# launch cost most). First the new tree's GPU tests (TESTS, default [csr_tiled]) and
# compute-sanitizer memcheck of [csr_tiled].
# The new kernel was not kept (docs/benchmarks/h200_tiled_links_2026-11-30): it is
# scripts/experiments/s33/links.patch, on 3cd7a9d. To run it again: git apply that patch, save
# the files it changes as they were in .bench/old_files (see device_ab_build in
# scripts/device_build.sh), and on the device machine (repository root with .deps and
# .mtx/s32.tar.xz):
#   SPMV_COMMIT=3cd7a9d+s33 OLD_COMMIT=3cd7a9d OUT=DIR bash scripts/experiments/s33.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
tar xJf .mtx/s32.tar.xz -C .mtx
device_ab_build "$OUT" "$OLD_COMMIT" spmvlab test_gpu || exit 1
spec=${TESTS:-[csr_tiled]}; [ "$spec" = all ] && spec=
t0=$SECONDS
timeout 240 build-device/tests/test_gpu ${spec:+"$spec"} > $OUT/test_gpu.txt 2>&1
echo "test_gpu ${TESTS:-[csr_tiled]} rc=$? $((SECONDS - t0)) s"; tail -3 $OUT/test_gpu.txt
t0=$SECONDS
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 build-device/tests/test_gpu \
    "[csr_tiled]" > $OUT/memcheck.txt 2>&1
echo "memcheck rc=$? $((SECONDS - t0)) s"; tail -2 $OUT/memcheck.txt
F=csr_tiled,cusparse_csr_alg1,cusparse_coo_alg1
LARGE=${LARGE:-gen:powerlaw:rows=1000000,min-len=4,max-len=1000 gen:powerlaw:rows=1000000 gen:onefull:n=200000 gen:pde:size=100}
bench() {  # TREE NAME ARGS...
    local t=$1 name=$2 B=build-device/cli/spmvlab
    shift 2
    [ $t = old ] && B=.bench/old/build-device/cli/spmvlab
    local t0=$SECONDS
    timeout 200 $B bench --gpu --precision both --formats $F "$@" \
        --json-out $OUT/${t}_$name.json > $OUT/${t}_$name.txt 2> $OUT/${t}_$name.err
    echo "$t $name rc=$? $((SECONDS - t0)) s"
}
for r in ${ROUNDS:-1 2}; do
  for t in old new; do bench $t large$r --min-time 100 --min-reps 50 $LARGE; done
done
for t in old new; do bench $t small --min-time 10 --min-reps 20 .mtx/s32; done
for f in $OUT/*.json; do xz -9 $f; done
cd $OUT && tar cf s33.tar *.xz *.txt *.err gpu.csv logs logs_old && rm -rf *.xz *.txt *.err logs logs_old  # one file: the device returns few
