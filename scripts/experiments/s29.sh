#!/usr/bin/env bash
# Session 29's device batch (issue 37; one H200): why the one-thread-per-row kernels run
# 1.2-1.25x slower than the format model predicts on metis_copter2 (nested-dissection order)
# and 1.2x faster on metis_mdual, while CSR vector is predicted within 7 % on both.
#   l1  Nsight Compute counters (time, L1 requests / sectors / hit rate, L2 sectors read from
#       L1 and their hit rate, DRAM bytes, occupancy, stall reasons) for seven variants on
#       copter2, mdual and bayer10 in both precisions; then the memory sections of CSR scalar
#       and CSR vector on copter2 in double.
# Usage (device machine, repository root with .deps, .mtx/b.tar.xz): SPMV_COMMIT=<sha>
#   RESULTS=DIR bash scripts/experiments/s29.sh l1
set -uo pipefail
out=${RESULTS:-out-s29}
what=${1:-l1}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,ecc.mode.current \
    --format=csv > "$out/gpu.csv"
echo "commit ${SPMV_COMMIT:-unknown} $(date -u +%FT%TZ)" > "$out/commit.txt"
source scripts/device_build.sh
if [ "$what" = l1 ]; then
    device_build "$out/logs" spmvlab || exit 1
    mkdir -p .mtx && tar -xJf .mtx/b.tar.xz -C .mtx
    metrics=gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,l1tex__data_pipe_lsu_wavefronts.sum,launch__grid_size,launch__block_size
    v=biell,csr,sell,ell,csr_vector,sell_split,csr_adaptive
    for m in metis_copter2 metis_mdual bayer10; do
        f=$(find .mtx -name "$m.mtx" | head -1)
        for prec in dp sp; do
            SPMV_BENCH_GATE=off timeout 200 ncu --metrics "$metrics" --csv --launch-count 400 \
                build-device/cli/spmvlab bench --gpu --precision $prec --formats $v \
                --min-time 1 --min-reps 3 "$f" > "$out/ncu_${m}_$prec.csv" 2> "$out/ncu_${m}_$prec.err"
            echo "ncu $m $prec rc=$?"
        done
        build-device/cli/spmvlab bench --gpu --precision both --formats $v --min-time 100 \
            --min-reps 50 "$f" --json-out "$out/bench_$m.json" > "$out/bench_$m.txt" 2>&1
        echo "bench $m rc=$?"
    done
    f=$(find .mtx -name metis_copter2.mtx | head -1)
    for k in csr_spmv_scalar_kernel csr_spmv_vector_kernel; do
        SPMV_BENCH_GATE=off timeout 150 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis \
            --section MemoryWorkloadAnalysis_Tables --section Occupancy --section WarpStateStats \
            -k "regex:$k" --launch-skip 2 --launch-count 1 build-device/cli/spmvlab bench --gpu \
            --precision dp --formats csr,csr_vector --min-time 1 --min-reps 3 "$f" \
            > "$out/ncu_sections_$k.txt" 2>&1
        echo "ncu sections $k rc=$?"
    done
fi
