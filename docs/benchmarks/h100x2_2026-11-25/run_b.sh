#!/usr/bin/env bash
# Issue 23, second batch on nvidia-h100-x2, after run_a.sh showed (its timelines) the halo's
# gather queued behind the local SpMV and a host-staged exchange of 1.28 MB taking ~300 us:
# the gather now goes first on a high-priority stream, and GPU ranks of one host pull their
# halo over NVLink with CUDA IPC (--exchange cuda-ipc, the default "auto" takes it where it
# can). Checks every mode and path against the single-process product on 2 GPUs, 2 ranks on
# one GPU and 3 ranks on 2 GPUs; then the two paths side by side and the CG runs.
source "$(dirname "$0")/lib.sh"
PDE150=${PDE150:-gen:pde:size=150}
PDE400=${PDE400:-gen:pde:size=400}
BLK=${BLK:-gen:blocks5:block-rows=400000,blocks=8}
PL=${PL:-gen:powerlaw:rows=1000000,min-len=4,max-len=1000}
{
echo "commit ${SPMV_COMMIT:-?}  $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
[ -n "${SPMVLAB:-}" ] || device_build "$OUT/logs" spmvlab || { finish; exit 1; }

vrf() {  # vrf NAME RANKS INPUT ARGS...
    local name=$1 n=$2 in=$3
    shift 3
    TAIL=4 step "verify_$name" 60 $MPI "$n" $B dist verify "$in" $G "$@"
}
vrf pde50_csr_ipc 2 gen:pde:size=50 --exchange cuda-ipc
vrf pde50_csr_host 2 gen:pde:size=50 --exchange host-staged
vrf pl200k_sell_float_ipc 2 gen:powerlaw:rows=200000 --format sell --precision float --exchange cuda-ipc
vrf blk20k_pjds_ipc 2 gen:blocks5:block-rows=20000,blocks=8 --format pjds --exchange cuda-ipc
vrf pde50_ipc_3ranks 3 gen:pde:size=50 --exchange cuda-ipc
vrf pl200k_ipc_3ranks_rows 3 gen:powerlaw:rows=200000 --exchange cuda-ipc --partition rows
CUDA_VISIBLE_DEVICES=0 vrf pde50_ipc_1gpu_2ranks 2 gen:pde:size=50 --exchange cuda-ipc
TAIL=2 step solve_pde60_ipc_3ranks 60 $MPI 3 $B dist solve gen:pde:size=60 $G --method mpir-cg --exchange cuda-ipc
EX=cuda-ipc
grep -q "MISMATCH\|rc=[1-9]" "$OUT/summary.txt" 2>/dev/null && EX=host-staged
echo "exchange for the runs below: $EX"

for p in double float; do
    bench bench2_pde150_csr_nnz_${p}_ipc 2 $PDE150 --precision $p --exchange $EX
    bench bench2_pde150_csr_nnz_${p}_host 2 $PDE150 --precision $p --exchange host-staged
    bench bench2_powerlaw_csr_nnz_${p}_ipc 2 $PL --precision $p --exchange $EX
    bench bench2_blocks5_csr_nnz_${p}_ipc 2 $BLK --precision $p --exchange $EX
done
bench bench2_powerlaw_csr_nnz_double_host 2 $PL --exchange host-staged
solve cg1_pde150 1 $PDE150 cg
solve cg2_pde150_ipc 2 $PDE150 cg --exchange $EX --timeline "$R/tl_cg2_pde150_ipc"
solve mpir2_pde150_ipc 2 $PDE150 mpir-cg --exchange $EX
bench bench2_pde400_csr_nnz_double_ipc 2 $PDE400 --exchange $EX --scaling 1,2,4
solve cg2_pde400_ipc 2 $PDE400 cg --exchange $EX
solve cg1_pde400 1 $PDE400 cg
bench bench2_pde400_csr_nnz_double_host 2 $PDE400 --exchange host-staged --scaling 1,2,4
bench bench2_pde400_csr_nnz_float_ipc 2 $PDE400 --precision float --exchange $EX --scaling 1,2,4
solve mpir2_pde400_ipc 2 $PDE400 mpir-cg --exchange $EX
finish
} 2>&1 | tee "$OUT/summary.txt"
