#!/usr/bin/env bash
# Issue 36, "NCCL as the GPU ranks' engine": the nccl exchange path and CG's reductions on the
# device against MPI, on one host with RANKS GPUs (2 on nvidia-h200-x2; RANKS=4 on -x4).
# Run on the device machine from the repository root:
#
#   scripts/experiments/nccl_x2.sh                        # results in out/nccl_x2
#   RESULTS=$OUT/nccl_x4 RANKS=4 scripts/experiments/nccl_x2.sh
#                         # 4 GPUs, the results in the device tool's result folder ($OUT)
#
# The results folder is RESULTS, not OUT: the device tool sets OUT to its own result folder, and
# a script that wrote into $OUT by default would scatter its files there unasked.
#
# 1. builds spmvlab, test_mpi and test_gpu (scripts/device_build.sh: build-device/, NCCL found
#    beside the CUDA toolkit; the configure log says "NCCL ... -> --exchange nccl", else it
#    stops);
# 2. test_gpu "[nccl]" (distributed CG's device steps against DotEngine, one GPU), then the NCCL
#    tests under mpirun -n 1 and -n RANKS: test_mpi "[nccl]" (nccl == host-staged to
#    the last bit in every mode on pde16, a power law and a matrix with empty halos; the
#    timeline; CG with device reductions == MPI reductions; communicators destroyed and
#    rebuilt), then every [gpu] test of test_mpi on RANKS ranks;
# 3. spmvlab dist bench gen:pde:size=$PDE --gpu, every mode, double, for each format of
#    FORMATS, on 1 rank and on RANKS ranks with each exchange of EXCHANGES
#    (host-staged, cuda-ipc, nccl): RESULTS/bench_<ranks>_<format>_<exchange>.json. The
#    "exchange hidden" share says little for nccl (its exchange and the local SpMV are both on
#    the timeline's GPU lane, which overlap_times does not count against itself): compare the
#    modes' medians instead;
# 4. spmvlab dist solve (METHODS: CG to 1e-10, b = ones) in SOLVE_MODES (task, vector), on 1
#    and RANKS ranks: --exchange cuda-ipc (MPI reductions: the path of every earlier record),
#    --exchange nccl (NCCL halo and device reductions), and --exchange nccl with
#    SPMV_DIST_REDUCTIONS=mpi (NCCL halo, MPI reductions: what the device reductions alone
#    bring):
#    RESULTS/solve_<ranks>_<method>_<mode>_<exchange>[_mpired].json. The solve's time excludes
#    the matrix's creation, which makes NCCL's connections (NCCL connects lazily, ~100 ms per
#    first call: distributed/src/halo_exchange.cpp, connect_nccl); the whole run's wall time
#    (matrix generation, creation, solve) is the "wall" column, to see what NCCL adds there;
# 5. RESULTS/summary.txt: the medians per mode and path, the efficiency against 1 rank, and
#    the solves' iterations, times, ms per iteration and wall times.
# Environment: RESULTS (out/nccl_x2), RANKS (2), PDE (150), FORMATS ("csr sell"), EXCHANGES
# ("host-staged cuda-ipc nccl"), SOLVE_MODES ("task vector"), METHODS ("cg"; "cg mpir-cg" adds
# MPIR-CG, whose float operator shares the NCCL communicator), REPEAT (200), SKIP_BUILD=1 (use
# build-device/ as it is), SKIP_TESTS=1.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
RESULTS=${RESULTS:-out/nccl_x2}
RANKS=${RANKS:-2}
PDE=${PDE:-150}
FORMATS=${FORMATS:-csr sell}
EXCHANGES=${EXCHANGES:-host-staged cuda-ipc nccl}
SOLVE_MODES=${SOLVE_MODES:-task vector}
METHODS=${METHODS:-cg}
REPEAT=${REPEAT:-200}
M=gen:pde:size=$PDE
mkdir -p "$RESULTS" || exit 1
# shellcheck source=../device_build.sh
source scripts/device_build.sh
device_mpi_env

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    device_build "$RESULTS/build" spmvlab test_mpi test_gpu || exit 1
    grep -E "SpMV Lab: (NCCL|CUDA=)" "$RESULTS/build/configure.log"
    grep -q -- "-> --exchange nccl" "$RESULTS/build/configure.log" ||
        { echo "this build has no NCCL: see $RESULTS/build/configure.log"; exit 1; }
fi
B=build-device/cli/spmvlab
T=build-device/tests/test_mpi

{
    echo "$(date -u +%FT%TZ)  ranks: $RANKS  matrix: $M"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null)"
    "$B" --version 2>/dev/null | head -2
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
    nvidia-smi topo -m | head -8
    ompi_info | grep -iE "Open MPI:|progress|cuda" | head -6
    grep -E "SpMV Lab: NCCL" "$RESULTS/build/configure.log" 2>/dev/null
    env | grep -E "^NCCL_" | sort
} >"$RESULTS/env.txt" 2>&1
cat "$RESULTS/env.txt"

if [ "${SKIP_TESTS:-0}" != 1 ]; then
    echo "=== test_gpu [nccl]"
    timeout 600 build-device/tests/test_gpu "[nccl]" >"$RESULTS/tests_gpu_steps.txt" 2>&1
    echo "rc=$?"
    tail -n 3 "$RESULTS/tests_gpu_steps.txt"
    for n in 1 "$RANKS"; do
        echo "=== test_mpi [nccl] on $n rank(s)"
        timeout 900 $MPI -n "$n" "$T" "[nccl]" >"$RESULTS/tests_nccl_$n.txt" 2>&1
        echo "rc=$?"
        grep -E "passed|failed|SKIPPED|FAILED" "$RESULTS/tests_nccl_$n.txt" | sort | uniq -c | head
    done
    echo "=== test_mpi [gpu] on $RANKS ranks"
    timeout 900 $MPI -n "$RANKS" "$T" "[gpu]" >"$RESULTS/tests_gpu_$RANKS.txt" 2>&1
    echo "rc=$?"
    grep -E "passed|failed|FAILED" "$RESULTS/tests_gpu_$RANKS.txt" | sort | uniq -c | head
fi

for F in $FORMATS; do
    for P in 1 "$RANKS"; do
        for EX in $EXCHANGES; do
            tag=${P}_${F}_${EX}
            echo "=== bench $tag"
            timeout 900 $MPI -n "$P" "$B" dist bench "$M" --gpu --format "$F" --mode all \
                --precision double --exchange "$EX" --repeat "$REPEAT" --scaling none \
                --json-out "$RESULTS/bench_$tag.json" >"$RESULTS/bench_$tag.log" 2>&1
            echo "rc=$?"
            grep -E "median|exchange" "$RESULTS/bench_$tag.log" | head -8
            [ "$P" = 1 ] && break  # one rank exchanges nothing: one record
        done
    done
done

for METHOD in $METHODS; do
for MODE in $SOLVE_MODES; do
    for P in 1 "$RANKS"; do
        for EX in cuda-ipc nccl nccl_mpired; do
            tag=${P}_${METHOD}_${MODE}_${EX}
            ex=${EX%_mpired}
            red=device
            [ "$ex" = nccl ] || red=mpi
            [ "$EX" = nccl_mpired ] && red=mpi
            [ "$P" = 1 ] && [ "$ex" = cuda-ipc ] && ex=auto  # one rank: no exchange at all
            echo "=== solve $tag (exchange $ex, reductions $red)"
            t0=$(date +%s.%N)
            SPMV_DIST_REDUCTIONS=$red timeout 900 $MPI -n "$P" -x SPMV_DIST_REDUCTIONS \
                "$B" dist solve "$M" --gpu --format sell --mode "$MODE" --method "$METHOD" \
                --tol 1e-10 --exchange "$ex" --json-out "$RESULTS/solve_$tag.json" \
                >"$RESULTS/solve_$tag.log" 2>&1
            echo "rc=$?"
            python3 -c "import sys; print(round((float(sys.argv[2]) - float(sys.argv[1])) * 1e3))" \
                "$t0" "$(date +%s.%N)" >"$RESULTS/solve_$tag.wall_ms"
            tail -n 4 "$RESULTS/solve_$tag.log"
        done
    done
done
done

python3 - "$RESULTS" "$RANKS" <<'PY' | tee "$RESULTS/summary.txt"
import glob, json, os, sys
out, ranks = sys.argv[1], sys.argv[2]
def load(f):
    try:
        return json.load(open(f))
    except Exception as e:  # a run that failed leaves no record
        return None
print(f"SpMV medians (us), {ranks} ranks against 1 (efficiency = t1 / (P * tP))")
print(f"{'format':6} {'exchange':12} {'path':12} {'mode':8} {'1 rank':>9} "
      f"{ranks + ' ranks':>9} {'eff':>6}")
for f in sorted(glob.glob(os.path.join(out, f"bench_{ranks}_*.json"))):
    j = load(f)
    if not j:
        continue
    _, _, fmt, ex = os.path.basename(f)[:-5].split("_", 3)
    one = glob.glob(os.path.join(out, f"bench_1_{fmt}_*.json"))
    base = {m["mode"]: m["median_us"] for m in (load(one[0]) or {}).get("modes", [])} if one else {}
    for m in j.get("modes", []):
        t1 = base.get(m["mode"])
        eff = f"{t1 / (int(ranks) * m['median_us']):6.1%}" if t1 else "     -"
        print(f"{fmt:6} {ex:12} {j.get('exchange_path', '?'):12} {m['mode']:8} "
              f"{(t1 or 0):9.2f} {m['median_us']:9.2f} {eff}")
print()
print("CG / MPIR-CG to 1e-10 (sell): iterations, solve ms, ms per iteration, reduction ms "
      "(host-side), the whole run's wall ms (generation, creation with NCCL's connections, solve)")
for f in sorted(glob.glob(os.path.join(out, "solve_*.json"))):
    j = load(f)
    if not j:
        print(f"{os.path.basename(f)}: no record")
        continue
    it = max(j.get("iterations", 0), 1)
    try:
        wall = float(open(f[:-5] + ".wall_ms").read())
    except Exception:
        wall = float("nan")
    print(f"{os.path.basename(f)[6:-5]:30} {j.get('exchange_path', '?'):10} {j['status']:10} "
          f"{j['iterations']:6d} it {j['total_ms']:10.2f} ms {j['total_ms'] / it:8.4f} ms/it "
          f"red {j['times_ms']['reduction']:8.2f} ms  residual {j['final_relative_residual']:.2e}"
          f"  wall {wall:8.0f} ms")
PY
