#!/usr/bin/env bash
# Session 31's profile (issue 37; one H200): why csr_adaptive sits 0.4-0.6 us above ell_xs on
# the tiniest matrices (docs/benchmarks/h200_param_tiers_2026-11-30). Nsight Compute times one
# launch of each kernel (caches flushed before it, clocks as they run) with its instruction and
# stall counts, on Trec4 (3 nonzeros) and bcspwr05 (1,623) in double.
# Usage (device machine, repository root with .deps and .mtx/s31/{Trec4,bcspwr05}.mtx):
#   SPMV_COMMIT=<sha> OUT=DIR bash scripts/experiments/s31_ncu.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
device_build $OUT/logs spmvlab > $OUT/build.txt 2>&1 || { cat $OUT/build.txt; exit 1; }
cat $OUT/build.txt
S=build-device/cli/spmvlab
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__cycles_active.max,launch__block_size,launch__grid_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio
for m in Trec4 bcspwr05; do
  for f in csr_adaptive ell_xs csr_vector cusparse_sell; do
    case $f in  # the variant's kernel only (not the harness's flush, fill or copy kernels)
      csr_adaptive) k=regex:csr_adaptive_kernel ;;
      ell_xs) k=regex:ell_xs_spmv_kernel ;;
      csr_vector) k=regex:csr_spmv_vector_kernel ;;
      *) k='regex:^(?!.*(read_bytes|fill|gate|scale)).*$' ;;
    esac
    SPMV_BENCH_GATE=off timeout 45 ncu --metrics $M --clock-control none --kernel-name "$k" \
      --launch-skip 2 --launch-count 3 --csv \
      $S bench --gpu --precision dp --formats $f --min-time 0 --min-reps 5 .mtx/s31/$m.mtx \
      > $OUT/${m}_$f.csv 2> $OUT/${m}_$f.err
    echo "$m $f rc=$?"
  done
done
cd $OUT && tar cf ncu.tar *.csv *.err build.txt && rm -rf *.csv *.err build.txt logs  # one file: the device returns few
