#!/usr/bin/env bash
# Session 35, the second call of the block-order A/B (scripts/experiments/s35_ab.sh ran past the
# device's 10 minutes in its collection parts and its large-matrix rounds were lost to the
# returned-file limit). On the still-warm machine, both builds kept (BUILD=0): old / new
# alternating in two rounds on the large matrices, then the whole [gpu] suite of the new build.
# Everything goes into $OUT/ab2.tar, packed again after each step.
#   OUT=DIR bash scripts/experiments/s35_ab2.sh
set -u
W=$OUT/w; mkdir -p "$W"
pack() { tar cf "$OUT/ab2.tar" -C "$W" .; }
NEW=build-device/cli/spmvlab
OLD=.bench/old/build-device/cli/spmvlab
ls -la $NEW $OLD > "$W/binaries.txt" 2>&1 || { cat "$W/binaries.txt"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory --format=csv > "$W/gpu.csv"
M="gen:blocks5:block-rows=100000,blocks=8 gen:blocks5:block-rows=60000,blocks=8,seed=7 gen:pde:size=100 gen:pde:size=150 gen:powerlaw:rows=1000000 gen:powerlaw:rows=1000000,min-len=4,max-len=1000"
for r in 1 2; do
    for b in old new; do
        S=$NEW; [ $b = old ] && S=$OLD
        t0=$SECONDS
        # shellcheck disable=SC2086  # M is a list of words
        timeout 90 $S bench --gpu --precision both --sigma auto --formats sell,sell_i16,sell_split,pjds,cusparse_sell \
            --min-time 100 --min-reps 50 $M --json-out "$W/${b}_r$r.json" > "$W/${b}_r$r.txt" 2> "$W/${b}_r$r.err"
        echo "$b round $r rc=$? $((SECONDS - t0)) s" | tee -a "$W/log.txt"
        pack
    done
done
timeout 220 build-device/tests/test_gpu > "$W/test_gpu.txt" 2>&1
echo "test_gpu rc=$? $SECONDS s" | tee -a "$W/log.txt"; tail -3 "$W/test_gpu.txt" | tee -a "$W/log.txt"
pack
