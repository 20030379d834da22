#!/usr/bin/env bash
# Session 34's profile (issue 37; one H200): what holds blocks5 at 87-91 % of the copy roof in
# double (pJDS 37.4-39.0 us over three runs, docs/benchmarks/h200_*), where pde150 reaches
# 101 % (sell_i16) and sell_i16, with 17 % fewer bytes than pJDS, is slower on blocks5. Nsight
# Compute on one launch of each variant's kernel (caches flushed before it, clocks as they run):
# DRAM and L2 traffic and rates, L1 hit rate, occupancy, stalls. pde100 and pde150 (sell_i16,
# pjds) beside it.
# SIGMA: bench's --sigma, default auto as card_records.sh passes (the first call of this record
# ran before the option existed, so with bench's own default 1: SELL unsorted; SIGMA=1 repeats it). CASES: MATRIX_NAME:FORMAT words (default below).
# Usage (device machine, repository root with .deps):
#   SPMV_COMMIT=<sha> OUT=DIR [SIGMA=auto] [CASES="blocks5:sell_i16 ..."] bash scripts/experiments/s34_ncu.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
if [ ! -x build-device/cli/spmvlab ] || [ "${BUILD:-1}" = 1 ]; then
    device_build $OUT/logs spmvlab > $OUT/build.txt 2>&1 || { cat $OUT/build.txt; exit 1; }
    cat $OUT/build.txt
fi
S=build-device/cli/spmvlab
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_op_read_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__inst_executed.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__occupancy_limit_registers
prof() {  # MATRIX NAME FORMAT
    SPMV_BENCH_GATE=off timeout 90 ncu --metrics $M --clock-control none \
      --kernel-name 'regex:^(?!.*(read_bytes|fill|gate|scale|memset)).*$' \
      --launch-skip 2 --launch-count 2 --csv \
      $S bench --gpu --precision dp --sigma "${SIGMA:-auto}" --formats $3 --min-time 0 --min-reps 4 "$1" \
      > $OUT/${2}_$3.csv 2> $OUT/${2}_$3.err
    echo "$2 $3 rc=$?"
}
declare -A gen=([blocks5]=gen:blocks5:block-rows=100000,blocks=8 [pde100]=gen:pde:size=100
                [pde150]=gen:pde:size=150)
for c in ${CASES:-blocks5:pjds blocks5:sell_i16 blocks5:sell blocks5:ell blocks5:pjds_split
               blocks5:cusparse_csr_alg1 pde100:sell_i16 pde150:sell_i16 pde100:pjds pde150:pjds}; do
    prof "${gen[${c%%:*}]}" "${c%%:*}" "${c#*:}"
done
cd $OUT && tar cf ncu.tar *.csv *.err && rm -rf *.csv *.err  # one file: the device returns few
