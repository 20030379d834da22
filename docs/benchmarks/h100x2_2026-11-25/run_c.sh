#!/usr/bin/env bash
# Issue 23, third batch on nvidia-h100-x2 (after run_b.sh, same code): a larger pde (pde500:
# 125,000,000 rows, 873,500,000 nonzeros; the setup on the host -- generate, partition, split,
# upload -- takes about a minute per 450M nonzeros, so pde640, the largest whose nonzeros fit
# the 32-bit indices of the one-GPU formats, did not fit the session's device time), METIS
# partitions (libmetis carried in .deps/metis) and the rows partition of the irregular ones.
source "$(dirname "$0")/lib.sh"
PDE500=${PDE500:-gen:pde:size=500}
{
echo "commit ${SPMV_COMMIT:-?}  $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
[ -x $B ] && echo "build kept" || [ -n "${SPMVLAB:-}" ] || device_build "$OUT/logs" spmvlab || { finish; exit 1; }
grep -i metis build-device/CMakeCache.txt | grep -i "LIBRARY:" | head -2
TAIL=5 step bench2_pde500_csr_nnz_double 200 $MPI 2 $B dist bench $PDE500 $G --repeat 100 \
    --json-out "$R/bench2_pde500_csr_nnz_double.json" --timeline "$R/tl_bench2_pde500" --scaling 1,2,4
TAIL=2 step cg2_pde500 150 $MPI 2 $B dist solve $PDE500 $G --method cg --json-out "$R/cg2_pde500.json"
TAIL=2 step cg1_pde500 150 $MPI 1 $B dist solve $PDE500 $G --method cg --json-out "$R/cg1_pde500.json"
for m in "powerlaw gen:powerlaw:rows=1000000,min-len=4,max-len=1000" \
         "blocks5 gen:blocks5:block-rows=400000,blocks=8"; do
    set -- $m
    TAIL=5 step bench2_$1_csr_rows_double 100 $MPI 2 $B dist bench "$2" $G --partition rows \
        --scaling 1,2 --json-out "$R/bench2_$1_csr_rows_double.json" --timeline "$R/tl_bench2_$1_rows"
done
for m in "pde150 gen:pde:size=150" "blocks5 gen:blocks5:block-rows=400000,blocks=8" \
         "powerlaw gen:powerlaw:rows=1000000,min-len=4,max-len=1000"; do
    set -- $m
    TAIL=5 step bench2_$1_csr_metis_double 150 $MPI 2 $B dist bench "$2" $G --partition metis \
        --scaling 1,2 --json-out "$R/bench2_$1_csr_metis_double.json" --timeline "$R/tl_bench2_$1_metis"
done
finish
} 2>&1 | tee "$OUT/summary.txt"
