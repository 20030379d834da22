#!/usr/bin/env bash
# Issue 23, third batch on nvidia-h100-x2 (after run_b.sh): the largest pde whose nonzeros fit the 32-bit
# indices of the one-GPU formats (pde640: 262,144,000 rows, 1,832,550,400 nonzeros; T1 must
# hold it on one GPU), and METIS partitions (libmetis carried in .deps/metis).
source "$(dirname "$0")/lib.sh"
PDE640=${PDE640:-gen:pde:size=640}
{
echo "commit ${SPMV_COMMIT:-?}  $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
[ -x $B ] && echo "build kept" || [ -n "${SPMVLAB:-}" ] || device_build "$OUT/logs" spmvlab || { finish; exit 1; }
grep -i metis build-device/CMakeCache.txt | grep -i "LIBRARY:" | head -2
TAIL=5 step bench2_pde640_csr_nnz_double 240 $MPI 2 $B dist bench $PDE640 $G --repeat 60 \
    --json-out "$R/bench2_pde640_csr_nnz_double.json" --timeline "$R/tl_bench2_pde640" --scaling 1,2,4
TAIL=2 step cg2_pde640 200 $MPI 2 $B dist solve $PDE640 $G --method cg --json-out "$R/cg2_pde640.json"
TAIL=2 step cg1_pde640 200 $MPI 1 $B dist solve $PDE640 $G --method cg --json-out "$R/cg1_pde640.json"
for m in "pde150 gen:pde:size=150" "blocks5 gen:blocks5:block-rows=400000,blocks=8" \
         "powerlaw gen:powerlaw:rows=1000000,min-len=4,max-len=1000"; do
    set -- $m
    TAIL=5 step bench2_$1_csr_metis_double 150 $MPI 2 $B dist bench "$2" $G --partition metis \
        --scaling 1,2 --json-out "$R/bench2_$1_csr_metis_double.json" --timeline "$R/tl_bench2_$1_metis"
done
finish
} 2>&1 | tee "$OUT/summary.txt"
