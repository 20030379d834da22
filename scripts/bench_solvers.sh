#!/usr/bin/env bash
# GPU solver benchmark: double-precision CG against mixed-precision iterative refinement CG
# (Cevahir et al. §2.2/§3) on Barbieri's 7-point Laplacians pde100 (N = 1,000,000) and pde150
# (N = 3,375,000), generated in memory (gen:pde:size=K), b = ones, x0 = 0, tol 1e-10.
# Every configuration is one `spmvlab solve --gpu --json --repeat R` record; the summary table
# compares the median solve times (matrix setup excluded; b/x transfers included).
#
# usage: scripts/bench_solvers.sh [OUTDIR]
#   OUTDIR   where the JSON records and summary go (default: $OUT if set, else
#            docs/benchmarks/solvers)
# environment:
#   SPMVLAB  the spmvlab binary (default: build/cli/spmvlab, built with CUDA if missing)
#   SIZES    grid sizes k of pde<k> (default "100 150")
#   FORMATS  storage formats (default "csr sell"; sell runs with sigma = 32, permuted basis);
#            FORMAT/VARIANT picks a GPU kernel variant of that format, e.g. sell/sell_i16
#            (the records are then named after the variant)
#   METHODS  solve methods (default "cg mpir-cg:1e-2 mpir-cg:1e-1 mpir-cg-floatsums:1e-2
#            mpir-cg-restart:1e-3"): mpir-cg:R continues the inner search direction across
#            refinement steps and sums the inner float SpMV in double (the defaults of
#            `spmvlab solve`), mpir-cg-floatsums:R the same with float sums (--inner-sums float),
#            mpir-cg-restart:R restarts every inner CG (classic, Cevahir 2.2); R = the inner
#            residual reduction per step
#   REPEAT   solves per configuration, median reported (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-docs/benchmarks/solvers}}
sizes=${SIZES:-"100 150"}
formats=${FORMATS:-"csr sell"}
methods=${METHODS:-"cg mpir-cg:1e-2 mpir-cg:1e-1 mpir-cg-floatsums:1e-2 mpir-cg-restart:1e-3"}
repeat=${REPEAT:-3}
spmvlab=${SPMVLAB:-build/cli/spmvlab}

if [ ! -x "$spmvlab" ]; then
  echo "== building spmvlab (CUDA, Release) into build/"
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DSPMV_BUILD_GUI=OFF -DSPMV_BUILD_TESTS=OFF -DSPMV_BUILD_TUTORIALS=OFF >/dev/null
  cmake --build build -j"$(nproc)" --target spmvlab
  spmvlab=build/cli/spmvlab
fi
mkdir -p "$out"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem \
  --format=csv > "$out/gpu.csv" || true

status=0
for k in $sizes; do
  for fv in $formats; do
    f=${fv%%/*}
    name=$f
    extra=()
    [ "$f" = sell ] && extra=(--sigma 32)
    if [ "$fv" != "$f" ]; then
      name=${fv#*/}
      extra+=(--variant "$name")
    fi
    for m in $methods; do
      rec="$out/pde${k}_${name}_${m/:/_}.json"
      echo "== pde$k  $fv  $m"
      margs=(--method "${m%%:*}")
      case "$m" in
        mpir-cg-restart*) margs=(--method mpir-cg --inner-restart) ;;
        mpir-cg-floatsums*) margs=(--method mpir-cg --inner-sums float) ;;
      esac
      [ "${m#*:}" != "$m" ] && margs+=(--inner-reduction "${m#*:}")
      # exit status 4 = did not converge: keep the record, report it, go on
      if ! "$spmvlab" solve "gen:pde:size=$k" --gpu --json "${margs[@]}" --format "$f" \
             "${extra[@]}" --tol 1e-10 --maxit 20000 --repeat "$repeat" > "$rec"; then
        echo "   !! $f $m on pde$k did not converge or failed (see $rec)"
        status=1
      fi
    done
  done
done

summary="$out/summary.md"
python3 - "$out" > "$summary" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
rows = []
for p in sorted(glob.glob(os.path.join(out, "pde*_*.json"))):
    try:
        r = json.load(open(p))
    except Exception as e:  # an empty record from a failed run
        rows.append((os.path.basename(p), None)); continue
    rows.append((os.path.basename(p), r))
dev = next((r["device"] for _, r in rows if r), "?")
print(f"# Solver benchmark: CG (double) vs MPIR-CG (double outer, float inner) on {dev}\n")
print("b = ones, x0 = 0, tol 1e-10 (relative residual, recomputed in double on the host); "
      "times = median of repeated solves without phase events, matrix setup excluded, b/x "
      "transfers included; the phase columns come from one more, instrumented solve "
      "(--phase-times separate).\n")
print("| matrix | N | nnz | format | method | status | iterations | outer | final rel. residual "
      "| median ms | spmv ms | vector ms | reduction ms | transfer ms | ms/iteration |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
best = {}
ms = lambda v: "-" if v is None else f"{v:.2f}"  # null: phase times not measured
for name, r in rows:
    if r is None:
        print(f"| {name} | failed: empty record |" + " |" * 13); continue
    t = r["times_ms"]
    it = r["iterations"]
    med = r.get("median_total_ms", r.get("total_ms_median"))  # schema spmvlab/1, or older
    mat = r["matrix"].replace("gen:pde:size=", "pde")
    if r["method"] == "mpir-cg":
        kind = "mpir-cg" if r.get("inner_keep_direction", True) else "mpir-cg-restart"
        sums = "double" if r.get("inner_double_sums", False) else "float"
        r["method"] = f"{kind} (inner reduction {r['inner_reduction']:g}, {sums} sums)"
    fmt = r.get("variant") or r["format"]
    print(f"| {mat} | {r['rows']} | {r['nnz']} | {fmt} | {r['method']} | {r['status']} "
          f"| {it} | {r['outer_iterations'] or '-'} | {r['final_relative_residual']:.2e} "
          f"| {med:.2f} | {ms(t['spmv'])} | {ms(t['vector'])} | {ms(t['reduction'])} "
          f"| {ms(t['transfer'])} | {med / max(it, 1):.4f} |")
    best[(mat, fmt, r["method"])] = (med, r["status"])
print("\n## MPIR-CG time relative to double CG (median solve times; the bar is <= 0.75)\n")
print("| matrix | format | method | CG ms | MPIR-CG ms | MPIR / CG time |")
print("|---|---|---|---|---|---|")
for (mat, fmt, m), (mp, mst) in sorted(best.items()):
    if m == "cg" or (mat, fmt, "cg") not in best:
        continue
    ms, st = best[(mat, fmt, "cg")]
    note = "" if st == mst == "converged" else f" (status {st} / {mst})"
    print(f"| {mat} | {fmt} | {m} | {ms:.2f} | {mp:.2f} | {mp / ms:.2f}{note} |")
print("\n## Fastest MPIR-CG against the fastest double CG of any format, per matrix\n")
print("| matrix | fastest CG | ms | fastest MPIR-CG | ms | MPIR / CG time |")
print("|---|---|---|---|---|---|")
for mat in sorted({k[0] for k in best}):
    ok = {k: v for k, v in best.items() if k[0] == mat and v[1] == "converged"}
    cgs = [(v[0], k[1]) for k, v in ok.items() if k[2] == "cg"]
    mps = [(v[0], f"{k[1]}, {k[2]}") for k, v in ok.items() if k[2].startswith("mpir-cg")]
    if cgs and mps:
        (c, cn), (m, mn) = min(cgs), min(mps)
        print(f"| {mat} | {cn} | {c:.2f} | {mn} | {m:.2f} | {m / c:.2f} |")
PY
cat "$summary"
exit $status
