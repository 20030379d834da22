#!/usr/bin/env bash
# Issue 23, first batch on nvidia-h100-x2 (two H100 of one host, one rank per GPU): the
# environment, dist verify on the two GPUs, strong scaling of dist bench (vector, overlap,
# task; 1 GPU = the single-process SpMV of the same format that every record holds, 2 GPUs)
# in double and single precision for pde150, pde400, blocks5 with 2M rows and the 1M-row power
# law, nnz and rows partitions; distributed CG and MPIR-CG on 1 and 2 GPUs. run_b.sh: the
# largest pde, METIS partitions.
source "$(dirname "$0")/lib.sh"
PDE150=${PDE150:-gen:pde:size=150}
PDE400=${PDE400:-gen:pde:size=400}
BLK=${BLK:-gen:blocks5:block-rows=400000,blocks=8}
PL=${PL:-gen:powerlaw:rows=1000000,min-len=4,max-len=1000}
{
echo "commit ${SPMV_COMMIT:-?}  $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=index,name,driver_version,memory.total,pci.bus_id --format=csv,noheader
nvidia-smi topo -m | head -8
echo "cores $(nproc), $(free -g | awk '/Mem/{print $2}') GiB"
ompi_info | grep -iE "Open MPI:|MPI extensions|progress" | head -4
ompi_info --parsable --all | grep -i "built_with_cuda_support:value"
[ -n "${SPMVLAB:-}" ] || device_build "$OUT/logs" spmvlab || { finish; exit 1; }

for spec in "pde50 csr double gen:pde:size=50" "pl200k sell float gen:powerlaw:rows=200000" \
            "blk20k csr double gen:blocks5:block-rows=20000,blocks=8"; do
    set -- $spec
    TAIL=4 step verify_$1_$2_$3 90 $MPI 2 $B dist verify "$4" $G --format $2 --precision $3
done

for p in double float; do
    bench bench2_pde400_csr_nnz_$p 2 $PDE400 --precision $p
done
solve cg1_pde400 1 $PDE400 cg
solve cg2_pde400 2 $PDE400 cg
solve mpir1_pde400 1 $PDE400 mpir-cg
solve mpir2_pde400 2 $PDE400 mpir-cg
for p in double float; do
    bench bench2_pde150_csr_nnz_$p 2 $PDE150 --precision $p
    bench bench2_blocks5_csr_nnz_$p 2 $BLK --precision $p
    bench bench2_powerlaw_csr_nnz_$p 2 $PL --precision $p
done
solve cg1_pde150 1 $PDE150 cg
solve cg2_pde150 2 $PDE150 cg --timeline "$R/tl_cg2_pde150"
solve mpir1_pde150 1 $PDE150 mpir-cg
solve mpir2_pde150 2 $PDE150 mpir-cg
for p in double float; do
    bench bench2_pde400_sell_nnz_$p 2 $PDE400 --precision $p --format sell
    bench bench2_pde150_sell_nnz_$p 2 $PDE150 --precision $p --format sell
done
for p in double float; do
    for m in "pde400 $PDE400" "pde150 $PDE150" "blocks5 $BLK" "powerlaw $PL"; do
        set -- $m
        bench bench2_$1_csr_rows_$p 2 "$2" --precision $p --partition rows --scaling 1,2
    done
done
bench bench1_pde400_csr_nnz_double 1 $PDE400 --scaling 1,2
solve cg2v_pde400 2 $PDE400 cg --mode vector
finish
} 2>&1 | tee "$OUT/summary.txt"
