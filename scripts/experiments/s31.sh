#!/usr/bin/env bash
# Session 31's device batch (issue 37; one H200): csr_adaptive's group table in the smallest
# of four parameter sizes (7, 31, 127, 255 groups) against the former 2 KiB table for every
# plan, on the 75 smallest matrices of ../shared/matrices (.mtx/s31), old and new alternating
# three times in one call (FORMATS, ROUNDS: what to time, how often); then the csr_adaptive GPU tests of the new tree.
# Usage (device machine, repository root with .deps, .mtx/s31/*.mtx and the former tree
# unpacked in .bench/old by `git archive <old> | tar x -C .bench/old`):
#   SPMV_COMMIT=<sha> OLD_COMMIT=<sha> OUT=DIR bash scripts/experiments/s31.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
ln -sfn ../../.deps .bench/old/.deps
( cd .bench/old && SPMV_COMMIT=$OLD_COMMIT device_build $OUT/logs_old spmvlab ) > $OUT/build_old.txt 2>&1 &
device_build $OUT/logs spmvlab test_gpu > $OUT/build.txt 2>&1 || { cat $OUT/build.txt; exit 1; }
wait
cat $OUT/build.txt $OUT/build_old.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory --format=csv > $OUT/gpu.csv
F=${FORMATS:-csr_adaptive,cusparse_sell}  # cusparse_sell: unchanged, the drift between runs
for r in ${ROUNDS:-1 2 3}; do
  for t in old new; do
    B=build-device/cli/spmvlab; [ $t = old ] && B=.bench/old/build-device/cli/spmvlab
    timeout 100 $B bench --gpu --precision both --formats $F --min-time 10 --min-reps 20 .mtx/s31 \
        --json-out $OUT/${t}_$r.json > $OUT/${t}_$r.txt 2> $OUT/${t}_$r.err
    echo "$t $r rc=$?"
  done
done
timeout 120 build-device/tests/test_gpu "[csr_adaptive]" > $OUT/test_gpu.txt 2>&1; echo "test_gpu rc=$?"
tail -3 $OUT/test_gpu.txt
for f in $OUT/*.json; do xz -9 $f; done
cd $OUT && tar cf s31.tar *.xz *.txt *.err gpu.csv && rm -f *.xz *.txt *.err  # one file: the device returns few
