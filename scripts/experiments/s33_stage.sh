#!/usr/bin/env bash
# Session 33's second device batch (issue 37; one H200): the _xs kernels' staging of x through
# cp.async (global to shared, no registers between; a step's copies all issued, then waited for),
# against the register loop whose loads and stores ptxas interleaved in some instantiations. The
# SASS of the new kernels' staging loop (cuobjdump), test_gpu "[xs]" and its memcheck, then one
# run each way of ell_xs and sell_xs on the matrices whose x fits in shared memory (.mtx/s32),
# plain ELLPACK beside them (unchanged: the machine's drift).
# Usage (device machine, repository root with .deps, .mtx/s32.tar.xz and the former
# kernels/src/permuted.cuh in .bench/old_files, see device_ab_build in scripts/device_build.sh):
#   SPMV_COMMIT=<sha> OLD_COMMIT=<sha> OUT=DIR bash scripts/experiments/s33_stage.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
tar xJf .mtx/s32.tar.xz -C .mtx
device_ab_build "$OUT" "$OLD_COMMIT" spmvlab test_gpu || exit 1
for f in ell sell; do
  cuobjdump -sass build-device/kernels/CMakeFiles/spmv_kernels.dir/src/$f.cu.o |
      awk '/Function : /{keep = ($0 ~ /xs_spmv_kernel/)} keep' > $OUT/$f.xs.sass
done
timeout 60 build-device/tests/test_gpu "[xs]" > $OUT/test_gpu.txt 2>&1
echo "test_gpu [xs] rc=$?"; tail -2 $OUT/test_gpu.txt
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 build-device/tests/test_gpu "[xs]" \
    > $OUT/memcheck.txt 2>&1
echo "memcheck rc=$?"; tail -1 $OUT/memcheck.txt
for t in old new; do
  B=build-device/cli/spmvlab; [ $t = old ] && B=.bench/old/build-device/cli/spmvlab
  t0=$SECONDS
  timeout 100 $B bench --gpu --precision both --formats ell_xs,sell_xs,ell --min-time 5 --min-reps 20 \
      .mtx/s32 --json-out $OUT/$t.json > $OUT/$t.txt 2> $OUT/$t.err
  echo "$t rc=$? $((SECONDS - t0)) s"
done
for f in $OUT/*.json; do xz -9 $f; done
cd $OUT && tar cf stage.tar *.xz *.txt *.err *.sass gpu.csv logs logs_old && rm -rf *.xz *.txt *.err *.sass logs logs_old
