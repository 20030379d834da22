# %% [markdown]
# # A tour of sparse storage formats with SpMV Lab
#
# We load a small matrix, build several storage formats of it, look at their memory footprints,
# their layout arrays and the work their GPU kernels waste per warp, check every format's SpMV
# against SciPy, and ask the performance model what a GPU would make of a larger matrix.
#
# This notebook is generated from `examples/python/formats_tour.py` (run
# `python3 examples/python/make_notebook.py` after editing the script). Setup: `docs/python.md`
# (a built SpMV Lab, `PYTHONPATH=<build>/python`, NumPy and SciPy; matplotlib is optional).

# %%
import numpy as np

import spmvlab as sl

checks = []  # (what, passed): the script prints PASSED at the end when all hold

# %% [markdown]
# ## 1. The matrix
#
# `sample_matrices/pjds_fig1.mtx` is an 8 x 8 stand-in for Fig. 1 of Kreutzer et al.: row
# lengths 2 5 1 3 4 1 6 2. Any SciPy sparse matrix, a `.mtx` path or a generator spec such as
# `"gen:pde:size=10"` works the same way.

# %%
A = sl.load(sl.sample_matrix("pjds_fig1"))
S = A.to_scipy()  # the same matrix in SciPy, our independent reference
stats = sl.row_stats(A)
print(A)
print("row lengths:", A.row_lengths())
print(f"N = {stats.rows}, nnz = {stats.nnz}, N_nzr = {stats.ave:.2f}, "
      f"sigma = {stats.sigma:.2f}, longest row = {stats.max}")

# %% [markdown]
# ## 2. Several formats and their footprints
#
# Every format stores the same 24 nonzeros. The padded ones (ELLPACK and its relatives) also
# store padding slots. `footprint` counts every byte: values and indices of the real entries,
# auxiliary arrays (row pointers, permutation, `col_start`, ...) and the padding.
# "vs ELL" is Kreutzer's data reduction against ELLPACK (Table I).

# %%
FORMATS = [
    ("csr", {}),
    ("ell", {}),
    ("ellr", {}),
    ("jds", {}),
    ("pjds", {"br": 4}),  # b_r = 4, as in Kreutzer's Fig. 1
    ("sell", {"slice": 4, "sigma": 8}),
    ("hyb", {}),
]
built = {name: sl.build(name, A, **params) for name, params in FORMATS}
ell = sl.ell_footprint(A)
print(f"{'format':<6} {'slots':>6} {'padding':>8} {'bytes':>6} {'vs ELL':>7}")
for name, f in built.items():
    fp = f.footprint
    print(f"{name:<6} {fp.stored_entries:>6} {fp.padding_entries:>8} {fp.total_bytes:>6} "
          f"{sl.data_reduction_percent(fp, ell):>6.1f}%")
checks.append(("ELLPACK stores 48 slots", built["ell"].footprint.stored_entries == 48))
checks.append(("pJDS stores 32 slots", built["pjds"].footprint.stored_entries == 32))

# %% [markdown]
# ## 3. The layout arrays of pJDS
#
# The arrays are NumPy views of the C++ layout (read-only, no copy). In pJDS entry j of sorted
# row i sits at `col_start[j] + i` (Kreutzer Listing 2); padding slots hold column -1 and 0.

# %%
p = built["pjds"]
for name, array in p.arrays.items():
    print(f"{name:>11} = {array}")
print("column heights:", np.diff(p.col_start))
checks.append(("pJDS col_start", p.col_start.tolist() == [0, 8, 16, 20, 24, 28, 32]))

# %% [markdown]
# ## 4. Work wasted per warp
#
# A GPU warp runs as many loop trips as its busiest thread. With warps of 4 threads (so that
# this 8-row matrix has two warps), sorting the rows (pJDS, SELL-4-8) lowers N_iter, the trips
# summed over the warps, and raises the fraction of lane slots that do useful work.

# %%
print(f"{'format':<6} {'N_iter':>6} {'idle':>5} {'useful':>7}")
for name, f in built.items():
    w = f.warps(4)
    print(f"{name:<6} {w.n_iter:>6} {w.idle_slots:>5} {w.useful_fraction:>7.1%}")
checks.append(("sorting lowers N_iter",
               built["pjds"].warps(4).n_iter < built["ellr"].warps(4).n_iter))

# %% [markdown]
# ## 5. Every format computes the same y = A x
#
# Each format's reference SpMV walks its own layout, as its GPU kernel does. All of them agree
# with SciPy's `A @ x` up to rounding. Permuted formats can also leave y in their sorted order.

# %%
x = np.random.default_rng(0).uniform(-1.0, 1.0, A.num_cols)
y_ref = S @ x
for name in sl.format_names():
    y = sl.build(name, A) @ x
    error = np.max(np.abs(y - y_ref))
    print(f"{name:<8} max |y - A@x| = {error:.1e}")
    checks.append((name + " matches SciPy", error <= 1e-13))
y_sorted = p.spmv(x, order="permuted")  # y_sorted[k] is row row_perm[k]
checks.append(("permuted basis", np.allclose(y_sorted, y_ref[p.row_perm])))

# %% [markdown]
# ## 6. A larger matrix: every format side by side
#
# A power-law matrix (most rows short, a few very long, like memplus) is where ELLPACK's padding
# explodes. `summarize` builds every registered format (or reports the estimate of one too large
# for the memory budget) with warps of 32 threads.

# %%
B = sl.load("gen:powerlaw:rows=2000,max-len=400,seed=1")
print(B, "longest row:", sl.row_stats(B).max)
print(f"{'format':<8} {'bytes':>9} {'padding':>8} {'N_iter':>7} {'useful':>7}")
for s in sl.summarize(B, sigma="auto"):
    print(f"{s.name:<8} {s.bytes:>9} {s.padding_entries:>8} {s.n_iter:>7} "
          f"{s.useful_fraction:>7.1%}")

# %% [markdown]
# ## 7. What would a GPU do? The per-format performance model
#
# Without a GPU, the model counts what each kernel loads and how long its warps run, and turns
# that into a time on a GPU profile (H100 here; constants fitted on the project's records).

# %%
for shape, t in sl.model.predict_kernels(B, "H100", "double",
                                         ["csr", "csr_vector", "ell", "ellr", "pjds", "sell"],
                                         sigma="auto"):
    print(f"{shape.variant:<10} loads {shape.loaded_slots:>9.0f} slots  "
          f"{t.time_s * 1e6:7.2f} us  {t.gflops:6.1f} GF/s  ({t.bound})")

# %% [markdown]
# ## 8. On a GPU, when there is one
#
# With a CUDA build and a device, the same formats run on the GPU. Otherwise the calls raise
# `NotCompiledError`, so we ask first.

# %%
if sl.gpu.is_available():
    y_gpu = sl.gpu.spmv(sl.build("sell", B, sigma="auto"), np.ones(B.num_cols))
    error = np.max(np.abs(y_gpu - B.to_scipy() @ np.ones(B.num_cols)))
    print("GPU SELL-C-sigma: max error", error)
    checks.append(("GPU matches SciPy", error <= 1e-10))
else:
    print("no GPU here (CUDA compiled: %s): host reference only" % sl.gpu.is_compiled())

# %% [markdown]
# ## 9. A picture (only if matplotlib is installed)
#
# The pJDS slots of `pjds_fig1`, one column of the padded matrix per column of the picture:
# the value of each slot, padding in white.

# %%
try:
    import matplotlib.pyplot as plt
except ImportError:
    plt = None
    print("matplotlib is not installed: no picture")
if plt is not None:
    heights = np.diff(p.col_start)
    grid = np.full((p.num_rows, len(heights)), np.nan)
    for j, h in enumerate(heights):
        column = p.values[p.col_start[j]:p.col_start[j] + h]
        padding = p.col_idxs[p.col_start[j]:p.col_start[j] + h] == -1
        grid[:h, j] = np.where(padding, np.nan, column)
    plt.imshow(grid, cmap="viridis")
    plt.title("pJDS slots of pjds_fig1 (b_r = 4); white: padding or not stored")
    plt.xlabel("column j of the padded matrix")
    plt.ylabel("sorted row i")
    plt.show()

# %%
failed = [what for what, ok in checks if not ok]
print("FAILED: " + ", ".join(failed) if failed else "PASSED (%d checks)" % len(checks))
if failed:
    raise SystemExit(1)
