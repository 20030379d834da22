#!/usr/bin/env bash
# Session 16 device batch: the pJDS ladder (lesson 10), the [gpu] suite after the ELLG pitch
# change, memcheck of the ladder, lesson 13, and MPIR-CG (both forms) vs CG on real SPD
# matrices and pde100/pde150, with solve's default and --inner-reduction 1e-2.
set -uo pipefail
root=$PWD
out=${OUT:?}/s16; mkdir -p "$out"
src=/tmp/s16; rm -rf $src; mkdir -p $src; tar xzf out/dev16/src.tar.gz -C $src; cp -r .deps $src/
cd $src
export SPMV_COMMIT=${SPMV_COMMIT:?}
prefix="$PWD/.deps/catch2/usr;$PWD/.deps/cli11/usr;$PWD/.deps/json/usr;$PWD/.deps/metis/usr"
t0=$SECONDS
cmake -S . -B bd -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_BUILD_GUI=OFF -DSPMV_BUILD_TUTORIALS=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_PREFIX_PATH=$prefix" > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build bd -j16 --target spmvlab test_gpu tutorial_10_pjds_listing2 tutorial_13_ellg_barbieri > "$out/build.log" 2>&1 || { grep -B5 -A20 error "$out/build.log" | head -60; exit 1; }
echo "build $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version,ecc.mode.current,clocks.max.sm --format=csv > "$out/gpu.txt"
bd/tutorials/10_pjds_listing2/tutorial_10_pjds_listing2 > "$out/lesson10.txt" 2>&1; echo "lesson10 rc=$? $((SECONDS - t0)) s"
bd/tutorials/13_ellg_barbieri/tutorial_13_ellg_barbieri > "$out/lesson13.txt" 2>&1; echo "lesson13 rc=$? $((SECONDS - t0)) s"
bd/tests/test_gpu > "$out/test_gpu.txt" 2>&1; echo "test_gpu rc=$? $((SECONDS - t0)) s"; tail -2 "$out/test_gpu.txt"
/usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 bd/tests/test_gpu "[ladder]~*streaming*" > "$out/memcheck.txt" 2>&1
echo "memcheck rc=$? $((SECONDS - t0)) s"; tail -3 "$out/memcheck.txt"
S=bd/cli/spmvlab
for m in $root/out/dev16/m/*.mtx gen:pde:size=100 gen:pde:size=150; do
  n=$(basename "$m" .mtx); n=${n##*=}
  common=(solve "$m" --gpu --variant auto --repeat 3 --json)
  "$S" "${common[@]}" --method cg > "$out/cg_$n.json" 2> "$out/cg_$n.err"; echo "$n cg rc=$?"
  "$S" "${common[@]}" --method mpir-cg > "$out/rich_$n.json" 2> "$out/rich_$n.err"; echo "$n rich rc=$?"
  "$S" "${common[@]}" --method mpir-cg --inner-reduction 1e-2 > "$out/rich2_$n.json" 2> "$out/rich2_$n.err"; echo "$n rich 1e-2 rc=$?"
  for k in 25 50 100 200; do
    "$S" "${common[@]}" --method mpir-cg --outer pcg --inner-maxit $k > "$out/pcg${k}_$n.json" 2> "$out/pcg${k}_$n.err"; echo "$n pcg $k rc=$?"
  done
  [ $((SECONDS - t0)) -gt 520 ] && { echo "time limit: stopping solver runs after $n"; break; }
done
echo "total $((SECONDS - t0)) s"
cd "${OUT}" && tar czf s16.tar.gz s16 && rm -rf s16
