#!/usr/bin/env bash
# Issue 37, item 4: the distributed model per format, against measurements on 1, 2 and 4 GPUs of
# one host (device kinds nvidia-h200, nvidia-h200-x2, nvidia-h200-x4). Builds nothing: the lead
# builds spmvlab and test_core (e.g. scripts/device_build.sh) and passes their paths.
#
#   scripts/experiments/dist_model.sh SPMVLAB OUTDIR [RANKS...]
#
# SPMVLAB  the spmvlab binary (e.g. build-device/cli/spmvlab)
# OUTDIR   where the records go (created)
# RANKS    rank counts = GPUs to measure (default "1 2 4"; each needs that many GPUs)
#
# For each matrix M (pde400, pde150; PDE_SIZES overrides), format F (csr, sell; FORMATS
# overrides) and rank count P, in double, nnz partition, one rank per GPU:
#   1. spmvlab dist plan M --gpu --device H200 --format F --ranks P --link nvlink4
#      --exchange cuda-ipc --scaling none --json-out OUTDIR/planP_M_F.json
#      (the model alone: per-format and Kreutzer's eq. 2, per rank; the same partition)
#   2. mpiexec -n P spmvlab dist bench M --gpu --format F --mode all --precision double --load root (the per-format model needs the whole matrix)
#      --exchange cuda-ipc (P = 1: none needed) --repeat 200 --scaling none
#      --json-out OUTDIR/benchP_M_F.json
#      (each mode's median with "model X us (Kreutzer eq. 2 Y us)" beside it; the record
#      holds predicted_us and predicted_kreutzer_us per mode and the single-process time)
#   and, with EXCHANGES="cuda-ipc host-staged", the host-staged path too.
# Then summary.txt: per record and mode measured, per-format model, model / measured, eq. 2.
# Finally (TESTS=path/to/test_core) the hidden records test: test_core "[dist_model_records]".
# Environment: REPEAT (200), PDE_SIZES ("400 150"), FORMATS ("csr sell"), EXCHANGES
# ("cuda-ipc"), DEVICE (H200: the profile of dist plan; dist bench takes the device's own),
# TESTS (unset: skip), GPU_FLAG (default --gpu; empty: a dry run on host ranks).
set -uo pipefail
B=${1:?usage: dist_model.sh SPMVLAB OUTDIR [RANKS...]}
OUT=${2:?usage: dist_model.sh SPMVLAB OUTDIR [RANKS...]}
shift 2
RANKS=${*:-1 2 4}
REPEAT=${REPEAT:-200}
PDE_SIZES=${PDE_SIZES:-400 150}
FORMATS=${FORMATS:-csr sell}
EXCHANGES=${EXCHANGES:-cuda-ipc}
DEVICE=${DEVICE:-H200}
G=${GPU_FLAG---gpu}
mkdir -p "$OUT" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

{
    echo "$(date -u +%FT%TZ)  spmvlab: $B  ranks: $RANKS"
    "$B" --version 2>/dev/null | head -2
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
    nvidia-smi topo -m | head -8
    ompi_info | grep -iE "Open MPI:|progress" | head -4
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

for n in $PDE_SIZES; do
    M=gen:pde:size=$n
    for F in $FORMATS; do
        for P in $RANKS; do
            for EX in $EXCHANGES; do
                tag=${P}_pde${n}_${F}_${EX}
                echo "=== plan $tag"
                timeout 600 "$B" dist plan "$M" $G --device "$DEVICE" --format "$F" --ranks "$P" \
                    --link "$([ "$EX" = host-staged ] && echo host-shm || echo nvlink4)" \
                    --exchange "$EX" --scaling none --json-out "$OUT/plan$tag.json" \
                    >"$OUT/plan$tag.log" 2>&1
                grep -E "^predicted SpMV|^Kreutzer" "$OUT/plan$tag.log"
                echo "=== bench $tag"
                timeout 600 mpiexec --bind-to none -n "$P" "$B" dist bench "$M" $G --format "$F" \
                    --mode all --precision double --exchange "$EX" --repeat "$REPEAT" --load root \
                    --scaling none --json-out "$OUT/bench$tag.json" >"$OUT/bench$tag.log" 2>&1
                echo "rc=$?"
                grep -E "median|^model" "$OUT/bench$tag.log"
                [ "$P" = 1 ] && break  # one rank exchanges nothing
            done
        done
    done
done

# The table: measured against the per-format model and eq. 2, from the records.
python3 - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import glob, json, os, sys
out = sys.argv[1]
print(f"{'record':34} {'mode':8} {'measured us':>12} {'model us':>10} {'model/meas':>10} "
      f"{'eq.2 us':>10} {'eq.2/meas':>9}  single-process us")
for f in sorted(glob.glob(os.path.join(out, "bench*.json"))):
    j = json.load(open(f))
    for m in j.get("modes", []):
        p, k, t = m.get("predicted_us"), m.get("predicted_kreutzer_us"), m["median_us"]
        print(f"{os.path.basename(f):34} {m['mode']:8} {t:12.2f} "
              f"{(p or 0):10.2f} {(p / t if p else 0):10.3f} {(k or 0):10.2f} "
              f"{(k / t if k else 0):9.3f}  {m.get('single_process_us', '-')}")
print("(model: per-format model of the format's default kernel on each rank's blocks, "
      "--device auto and --link auto; eq. 2: Kreutzer's format-agnostic formula)")
PY

if [ -n "${TESTS:-}" ]; then
    echo "=== test_core [dist_model_records] (pde400: ~9 GB host memory)"
    timeout 900 "$TESTS" "[dist_model_records]" 2>&1 | tail -n 40 | tee "$OUT/test_records.txt"
fi
