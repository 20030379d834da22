#!/usr/bin/env bash
# Session 32's device batch (issue 37; one H200): the "_xs" kernels with every slot of a row of
# at most 16 requested before the barrier and x staged 4 entries per thread and step, against
# the former kernels (8 slots first, one entry of x per step), on the matrices of
# ../shared/matrices whose x fits in shared memory in single precision (.mtx/s32: at most
# 12,288 columns), old and new alternating (ROUNDS) in one call, cuSPARSE SELL beside them
# (unchanged: the drift of the machine, and the baseline of the ties); then the new tree's
# GPU tests (TESTS, default [xs]), and compute-sanitizer memcheck and racecheck of [xs]
# (SANITIZERS: which of them).
# Usage (device machine, repository root with .deps, .mtx/s32.tar.xz (the matrices) and the
# former versions of the changed files in .bench/old_files (for f in $(git diff --name-only
# <old>): git show <old>:$f > .bench/old_files/$f), from which device_ab_build in
# scripts/device_build.sh makes the old tree):
#   SPMV_COMMIT=<sha> OLD_COMMIT=<sha> OUT=DIR bash scripts/experiments/s32.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
tar xJf .mtx/s32.tar.xz -C .mtx
device_ab_build "$OUT" "$OLD_COMMIT" spmvlab test_gpu || exit 1
# TESTS: the Catch2 spec of the GPU tests to run (default [xs]; "all": the whole [gpu] suite)
spec=${TESTS:-[xs]}; [ "$spec" = all ] && spec=
timeout 240 build-device/tests/test_gpu ${spec:+"$spec"} > $OUT/test_gpu.txt 2>&1; echo "test_gpu ${TESTS:-[xs]} rc=$?"
tail -3 $OUT/test_gpu.txt
for tool in ${SANITIZERS-memcheck racecheck}; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 build-device/tests/test_gpu "[xs]" \
      > $OUT/$tool.txt 2>&1; echo "$tool rc=$?"; tail -2 $OUT/$tool.txt
done
F=${FORMATS:-ell_xs,sell_xs,cusparse_sell}
for r in ${ROUNDS:-1 2}; do
  for t in old new; do
    B=build-device/cli/spmvlab; [ $t = old ] && B=.bench/old/build-device/cli/spmvlab
    timeout 170 $B bench --gpu --precision both --formats $F --min-time 10 --min-reps 20 .mtx/s32 \
        --json-out $OUT/${t}_$r.json > $OUT/${t}_$r.txt 2> $OUT/${t}_$r.err
    echo "$t $r rc=$?"
  done
done
for f in $OUT/*.json; do xz -9 $f; done
cd $OUT && tar cf s32.tar *.xz *.txt *.err gpu.csv logs logs_old && rm -rf *.xz *.txt *.err logs logs_old  # one file: the device returns few
