#!/usr/bin/env bash
# Issue 23, the 4-GPU half, on nvidia-h100-x4 (lent for the first time in session 14): the
# distributed SpMV checked on 4 GPUs in both exchange paths, task mode's parallel efficiency
# on the largest pde matrix (pde500, 125M rows, 875M nonzeros) against the single-GPU SpMV of
# the same format measured in the same run, and CG to 1e-10 on 1, 2 and 4 GPUs (pde400).
# Uses ../h100x2_2026-11-25/lib.sh (step, bench, solve, finish). Two calls of the device tool:
#   SPMV_COMMIT=<c> PART=spmv bash docs/benchmarks/h100x4_2026-11-25/run_d.sh
#   SPMV_COMMIT=<c> PART=cg   SPMVLAB=build-device/cli/spmvlab bash .../run_d.sh
source "$(dirname "$0")/../h100x2_2026-11-25/lib.sh"
PDE400=${PDE400:-gen:pde:size=400}
PDE500=${PDE500:-gen:pde:size=500}
{
echo "commit ${SPMV_COMMIT:-?}  $(date -u +%FT%TZ)  part ${PART:-spmv}"
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
nvidia-smi topo -m | head -6
[ -x "$B" ] || device_build "$OUT/logs" spmvlab || { finish; exit 1; }
if [ "${PART:-spmv}" = spmv ]; then
    TAIL=4 step verify4_pde50_ipc 60 $MPI 4 $B dist verify gen:pde:size=50 $G --exchange cuda-ipc
    TAIL=4 step verify4_pde50_host 60 $MPI 4 $B dist verify gen:pde:size=50 $G --exchange host-staged
    TAIL=4 step verify4_pl200k_sell_float 60 $MPI 4 $B dist verify gen:powerlaw:rows=200000 $G \
        --format sell --precision float --exchange cuda-ipc
    bench bench4_pde500_csr_nnz_double_ipc 4 $PDE500 --exchange cuda-ipc --scaling 1,2,4
else
    solve cg4_pde400_ipc 4 $PDE400 cg --exchange cuda-ipc
    solve cg2_pde400_ipc 2 $PDE400 cg --exchange cuda-ipc
    solve cg1_pde400 1 $PDE400 cg
fi
finish
} 2>&1 | tee "$OUT/summary.txt"
