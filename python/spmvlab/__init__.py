"""SpMV Lab from Python: sparse-matrix storage formats for GPUs, for the classroom.

    import spmvlab as sl
    A = sl.load("gen:pde:size=10")            # or a .mtx path, a SciPy matrix, triplets
    p = sl.build("pjds", A, br=4)             # any registered format, parameters by name
    p.footprint                               # exact bytes: values, indices, aux, padding
    p.col_start, p.arrays                     # the layout arrays as read-only NumPy views
    p.warps(32).useful_fraction               # per-warp waste of its GPU kernel
    p @ x                                     # the format's reference SpMV (= A @ x)

Every function that takes a matrix takes a spmvlab.Matrix, any scipy.sparse matrix, a dense
2-D NumPy array, a built Format, a path (str or pathlib.Path), an open Matrix Market file, or a
"gen:" spec string (see as_matrix). A Matrix or Format works as SciPy expects: `A @ X` with 1-D
or 2-D X, `x @ A`, scipy.sparse.linalg.aslinearoperator(A) (so cg, gmres, eigsh take it),
pickle and copy.deepcopy.

Errors are Python exceptions carrying the library's message: InvalidArgumentError and the other
input errors are ValueErrors, MatrixMarketError has the file's `line`, MemoryLimitError is a
MemoryError raised BEFORE a too-large layout is allocated (set_memory_limit), NotCompiledError
(a NotImplementedError) comes from GPU calls in a build without CUDA, GpuUnavailableError (a
GpuError) from GPU calls in a build with CUDA on a machine without a usable GPU or driver.

The API reference is docs/python.md; help(spmvlab.build) etc. show each docstring.
"""
import operator as _operator
import os as _os
import sys as _sys

from . import _build_info

try:
    import numpy as _np
except ImportError as _e:  # pragma: no cover - depends on the interpreter
    raise ImportError(
        "spmvlab needs NumPy, which this interpreter (%s) lacks. The module was built for %s; "
        "run that one, or install numpy (pip install numpy; Debian: apt install python3-numpy, "
        "seen by a virtual environment made with --system-site-packages)."
        % (_sys.executable, _build_info.PYTHON_EXECUTABLE)) from _e

try:
    from . import _spmvlab
except ImportError as _e:  # pragma: no cover - depends on the interpreter
    raise ImportError(
        "the compiled part of spmvlab could not be loaded into %s (Python %s): it was built for "
        "%s (Python %s). Run that interpreter, or rebuild with -DPython3_EXECUTABLE=%s. (%s)"
        % (_sys.executable, _sys.version.split()[0], _build_info.PYTHON_EXECUTABLE,
           _build_info.PYTHON_VERSION, _sys.executable, _e)) from _e

from ._spmvlab import (  # noqa: F401  (re-exported)
    DimensionMismatchError,
    Footprint,
    Format,
    FormatInfo,
    FormatSummary,
    GpuError,
    GpuUnavailableError,
    Histogram,
    InvalidArgumentError,
    InvalidLayoutError,
    Matrix,
    MatrixMarketError,
    MemoryLimitError,
    NotApplicableError,
    NotCompiledError,
    RowLengthStats,
    SpmvLabError,
    WarpAnalysis,
    analyze_thread_work,
    data_reduction_bytes_percent,
    data_reduction_percent,
    describe_memory_limit,
    format_bytes,
    format_info,
    formats,
    generate,
    generators,
    has_footprint_estimate,
    histogram,
    memory_limit,
    parameters,
    set_memory_limit,
)

__version__ = _build_info.VERSION

__all__ = [
    "Matrix", "Format", "Footprint", "FormatInfo", "FormatSummary", "RowLengthStats",
    "Histogram", "WarpAnalysis",
    "SpmvLabError", "InvalidArgumentError", "NotApplicableError", "DimensionMismatchError",
    "InvalidLayoutError", "MatrixMarketError", "MemoryLimitError", "NotCompiledError", "GpuError",
    "GpuUnavailableError",
    "load", "read_matrix_market", "generate", "generators", "from_scipy", "from_triplets",
    "from_dense", "as_matrix", "canonical_matrix", "sample_matrix", "sample_matrices",
    "schema_dir", "schema",
    "formats", "format_info", "format_names", "parameters", "build",
    "row_stats", "row_length_histogram", "histogram", "analyze_thread_work",
    "estimate_footprint", "has_footprint_estimate", "ell_footprint", "summarize",
    "data_reduction_percent", "data_reduction_bytes_percent",
    "set_memory_limit", "memory_limit", "describe_memory_limit", "format_bytes",
    "gpu", "model",
]


# ---- matrices --------------------------------------------------------------------------------

_DEFAULT_PATTERN_SEED = 0x5eed5eed5eed


def _is_file_object(source):
    return hasattr(source, "read") and not isinstance(source, (str, bytes, _os.PathLike))


def _file_name(f):
    name = getattr(f, "name", None)
    if isinstance(name, bytes):
        name = _os.fsdecode(name)
    return name if isinstance(name, str) and name else "<%s>" % type(f).__name__


def read_matrix_market(source, pattern="ones", seed=_DEFAULT_PATTERN_SEED, threads=0):
    """Reads a coordinate Matrix Market file into a Matrix.

    source: a path (str or os.PathLike such as pathlib.Path; .gz / .bz2 / .xz and tar archives
    where the build reads them, spmvlab info --help) or an open file object, text or binary, as
    scipy.io.mmread takes them (its contents are read from the current position; compressed
    bytes are decompressed as from a file).
    Symmetric and skew-symmetric files are expanded, duplicates summed. pattern: 'ones' (every
    entry 1.0) or 'random' (a fixed hash of (row, col, seed) in (0, 1]). threads: parser
    threads, 0 = all cores. The declared sizes are checked against the memory budget before
    anything is allocated. Raises MatrixMarketError (a ValueError; `.line` = the 1-based line)
    for bad input. The matrix's `info` tells what the file contained.
    """
    if _is_file_object(source):
        data = source.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("%s.read() returned %s, not str or bytes"
                            % (type(source).__name__, type(data).__name__))
        return _spmvlab._read_matrix_market_data(bytes(data), _file_name(source), pattern, seed,
                                                 threads)
    if not isinstance(source, (str, _os.PathLike)):
        raise TypeError("read_matrix_market takes a path (str, pathlib.Path) or an open file, "
                        "not %s" % type(source).__name__)
    return _spmvlab.read_matrix_market(_os.fspath(source), pattern, seed, threads)


def load(source):
    """A Matrix from a Matrix Market file or a generator spec, as the command-line tool takes
    them: load("matrix.mtx"), load(pathlib.Path("A.mtx")), load(open("A.mtx")),
    load("gen:pde:size=10"), load("gen:powerlaw:rows=2000,seed=3"). A file object (text or
    binary, as scipy.io.mmread takes) is read from its current position.
    """
    if _is_file_object(source):
        return read_matrix_market(source)
    if isinstance(source, _os.PathLike):
        source = _os.fspath(source)
    if isinstance(source, bytes):
        source = _os.fsdecode(source)
    if not isinstance(source, str):
        raise TypeError("load takes a path (str, pathlib.Path), an open file or a gen: spec, "
                        "not %s" % type(source).__name__)
    return _spmvlab._load(source)


def from_triplets(rows, cols, values, shape):
    """A Matrix from triplets (row, col, value), 0-based, in any order; duplicates are summed.

    rows, cols: integer array-likes; values: real numbers; shape: (num_rows, num_cols).
    The shape and the size of the conversion are checked against the memory budget before
    anything is allocated (a tiny input cannot ask for gigabytes).
    """
    rows = _np.asarray(rows)
    cols = _np.asarray(cols)
    values = _np.asarray(values)
    for name, a in (("rows", rows), ("cols", cols)):
        if a.size and a.dtype.kind not in "iu":
            raise TypeError("%s must hold integers, not %s" % (name, a.dtype))
    if values.dtype.kind == "c":
        raise TypeError("complex values are not supported (SpMV Lab stores real matrices)")
    if values.size and values.dtype.kind not in "fiub":
        raise TypeError("values must be real numbers, not %s" % values.dtype)
    try:
        # operator.index: integers only (Python or NumPy); int() would take 2.5 as 2
        num_rows, num_cols = (_operator.index(s) for s in shape)
    except (TypeError, ValueError):
        raise ValueError("shape must be two integers (num_rows, num_cols), not %r"
                         % (shape,)) from None
    return _spmvlab._from_triplets(rows.astype(_np.int64, copy=False).ravel(),
                                   cols.astype(_np.int64, copy=False).ravel(),
                                   values.astype(_np.float64, copy=False).ravel(),
                                   num_rows, num_cols)


def from_scipy(a):
    """A Matrix from any scipy.sparse matrix or array (csr, csc, coo, lil, dok, bsr, dia, ...).

    Converted through .tocoo(): explicitly stored zeros are kept, duplicates summed.
    """
    if not hasattr(a, "tocoo"):
        raise TypeError("expected a scipy.sparse matrix, got %s" % type(a).__name__)
    if hasattr(a, "check_format"):
        # CSR / CSC / BSR: indptr non-decreasing from 0 to nnz, indices in range. tocoo() would
        # expand a broken indptr into rows silently.
        try:
            a.check_format(full_check=True)
        except ValueError as e:
            raise ValueError("not a valid %s matrix: %s" % (a.format, e)) from None
    coo = a.tocoo()
    return from_triplets(coo.row, coo.col, coo.data, coo.shape)


def from_dense(d):
    """A Matrix holding the nonzeros of a dense 2-D array.

    The array is scanned in blocks of rows, and the nonzeros found so far are checked against
    the memory budget after every block: a huge array (a broadcast view of 10^10 entries) is
    refused as soon as its nonzeros would not fit, not after a full scan.
    """
    d = _np.asarray(d)
    if d.ndim != 2:
        raise ValueError("a dense matrix must be 2-D, got shape %s" % (d.shape,))
    if d.dtype.kind == "c":
        raise TypeError("complex values are not supported (SpMV Lab stores real matrices)")
    if d.size and d.dtype.kind not in "fiub":
        raise TypeError("a dense matrix must hold real numbers, not %s" % d.dtype)
    limit = memory_limit()
    rows_per_block = max(1, (1 << 22) // max(1, d.shape[1]))
    rs, cs, vs = [], [], []
    found = 0
    for first in range(0, d.shape[0], rows_per_block):
        block = d[first:first + rows_per_block]
        r, c = _np.nonzero(block)
        found += r.size
        # the triplets kept here (8 + 8 + 8 bytes each) and what from_triplets needs (28)
        if limit is not None and found * 52 > limit:
            raise MemoryError("the dense %d x %d array holds more than %d nonzeros in its first "
                              "%d rows: %s as triplets and CSR, more than the memory limit %s"
                              % (d.shape[0], d.shape[1], found, first + block.shape[0],
                                 format_bytes(found * 52), describe_memory_limit()))
        rs.append(r + first)
        cs.append(c)
        vs.append(block[r, c])
    if not rs:
        return from_triplets([], [], [], d.shape)
    return from_triplets(_np.concatenate(rs), _np.concatenate(cs), _np.concatenate(vs), d.shape)


def as_matrix(a):
    """A Matrix from whatever a teacher has at hand.

    spmvlab.Matrix (returned as is), a built Format (its CSR), any scipy.sparse matrix, a dense
    2-D NumPy array (its nonzeros), a Matrix Market path (str or pathlib.Path) or open file,
    or a "gen:" spec string.
    """
    if isinstance(a, Matrix):
        return a
    if isinstance(a, Format):
        return a.to_matrix()
    if isinstance(a, (str, _os.PathLike)) or _is_file_object(a):
        return load(a)
    if hasattr(a, "tocoo"):
        return from_scipy(a)
    if isinstance(a, _np.ndarray) and a.ndim == 2:
        return from_dense(a)
    raise TypeError("cannot make a sparse matrix from %s (give a spmvlab.Matrix, a scipy.sparse "
                    "matrix, a 2-D NumPy array, a .mtx path or a gen: spec)" % type(a).__name__)


def canonical_matrix():
    """The canonical 4x4 matrix of every format header (STYLE.md):
    A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], with x = (1,2,3,4): A x = (19, 8, 51, 52)."""
    return from_dense(_np.array([[1, 0, 2, 3], [0, 4, 0, 0], [5, 0, 6, 7], [0, 8, 0, 9]],
                                dtype=float))


def _data_dir(kind):
    """The package's copy of sample_matrices/ or schemas/ (installed by pip or cmake --install),
    else the source tree's (a build-tree copy, PYTHONPATH=<build>/python)."""
    here = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), kind)
    if _os.path.isdir(here):
        return here
    if _build_info.SOURCE_DIR:
        there = _os.path.join(_build_info.SOURCE_DIR, kind)
        if _os.path.isdir(there):
            return there
    raise FileNotFoundError("this spmvlab has no %s/ (looked in %s%s)"
                            % (kind, _os.path.dirname(here),
                               " and " + _build_info.SOURCE_DIR if _build_info.SOURCE_DIR else ""))


def sample_matrices():
    """Names of the sample matrices shipped with the package (for sample_matrix)."""
    return sorted(f[:-4] for f in _os.listdir(_data_dir("sample_matrices")) if f.endswith(".mtx"))


def sample_matrix(name):
    """Path of one of the sample matrices (sample_matrices() lists them), e.g. "pjds_fig1":
    the package's own copy when installed, the source tree's in a build-tree copy.
    FileNotFoundError naming the ones there are when `name` is not one of them."""
    base = _data_dir("sample_matrices")
    path = _os.path.join(base, name if name.endswith(".mtx") else name + ".mtx")
    if _os.path.basename(path) != path[len(base) + 1:] or not _os.path.isfile(path):
        raise FileNotFoundError("no sample matrix %r in %s (have: %s)"
                                % (name, base, ", ".join(sample_matrices()) or "none"))
    return path


def schema_dir():
    """The directory of the JSON schemas of the command-line tool's --json outputs
    (<command>.schema.json, docs/output-schema.md), shipped with the package."""
    return _data_dir("schemas")


def schema(name):
    """One JSON schema as a dict: schema("info") or schema("info.schema.json")."""
    import json
    fname = name if name.endswith(".json") else name + ".schema.json"
    path = _os.path.join(schema_dir(), fname)
    if _os.path.basename(fname) != fname or not _os.path.isfile(path):
        have = sorted(f[:-len(".schema.json")] for f in _os.listdir(schema_dir())
                      if f.endswith(".schema.json"))
        raise FileNotFoundError("no schema %r in %s (have: %s)"
                                % (name, schema_dir(), ", ".join(have)))
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _matrix_to_scipy(self):
    """A scipy.sparse.csr_matrix copy (SciPy must be installed)."""
    import scipy.sparse
    return scipy.sparse.csr_matrix((self.values.copy(), self.col_idxs.copy(),
                                    self.row_ptrs.copy()), shape=self.shape)


# ---- products as NumPy and SciPy users expect -------------------------------------------------
# A @ x (1-D), A @ X (2-D: one SpMV per column), x @ A and X @ A (the transpose, through the
# CSR), and matvec / rmatvec / matmat / rmatmat / shape / dtype, which is what
# scipy.sparse.linalg.aslinearoperator looks for. Shared by Matrix and Format: a Format's A @ x
# is its own reference SpMV (its layout, its precision); the transpose is not a kernel of any
# format, so x @ fmt goes through fmt.to_matrix()'s CSR, in the format's precision.

def _as_operand(x, what):
    if hasattr(x, "tocoo") and not isinstance(x, _np.ndarray):
        raise TypeError("%s takes a dense vector or 2-D array; for a sparse right-hand side "
                        "use .to_scipy() %s it" % (what, what))
    return _np.asarray(x)


def _shape_error(msg):
    return DimensionMismatchError(msg)


def _columns(self, a, one, out_rows):
    """Applies `one` (a 1-D product) to every column of the 2-D `a`."""
    out = _np.empty((out_rows, a.shape[1]), dtype=self.dtype)
    for j in range(a.shape[1]):
        out[:, j] = one(a[:, j])
    return out


def _matvec(self, x):
    """A @ x for x of shape (n,) or (n, 1) (what LinearOperator.matvec passes)."""
    a = _as_operand(x, "@")
    if a.ndim == 2 and a.shape[1] == 1:
        return self.spmv(a[:, 0]).reshape(-1, 1)
    return self.spmv(a)


def _block_operand(self, x, method, transposed):
    """The 2-D X of matmat (A @ X) or rmatmat (A^T @ X), checked: X needs as many rows as the
    product's inner dimension (A's columns, or its rows for A^T)."""
    a = _as_operand(x, "@")
    rows, cols = self.shape
    if a.ndim != 2:
        raise ValueError("%s needs a 2-D array, got %d-D" % (method, a.ndim))
    inner = rows if transposed else cols
    if a.shape[0] != inner:
        raise _shape_error("%s: A is %d x %d, so X needs %d rows, but X has shape %s"
                           % ("A^T @ X" if transposed else "A @ X", rows, cols, inner, a.shape))
    return a


def _matmat(self, x):
    """A @ X for a 2-D X: one SpMV per column (the format's own product each time)."""
    a = _block_operand(self, x, "matmat", transposed=False)
    return _columns(self, a, self.spmv, self.shape[0])


def _rmatvec(self, x):
    """A^T @ x (= x @ A) through the CSR, for x of shape (m,) or (m, 1)."""
    a = _as_operand(x, "@")
    column = a.ndim == 2 and a.shape[1] == 1
    v = a[:, 0] if column else a
    rows, cols = self.shape
    if v.ndim != 1 or v.shape[0] != rows:
        raise _shape_error("x @ A (A^T x): A is %d x %d, so x needs %d entries, but it has "
                           "shape %s" % (rows, cols, rows, a.shape))
    if v.dtype.kind == "c":
        raise TypeError("x is complex: SpMV Lab computes with real vectors (pass the real and "
                        "imaginary parts separately)")
    csr = self if isinstance(self, Matrix) else self.to_matrix()
    entry_rows = _np.repeat(_np.arange(rows), _np.diff(csr.row_ptrs))
    vd = v.astype(self.dtype, copy=False)
    y = _np.bincount(csr.col_idxs, weights=csr.values.astype(self.dtype, copy=False) *
                     vd[entry_rows], minlength=cols).astype(self.dtype, copy=False)
    return y.reshape(-1, 1) if column else y


def _rmatmat(self, x):
    """A^T @ X for a 2-D X, one column at a time."""
    a = _block_operand(self, x, "rmatmat", transposed=True)
    return _columns(self, a, lambda c: _rmatvec(self, c), self.shape[1])


def _matmul(self, x):
    a = _as_operand(x, "@")
    if a.ndim == 1:
        return self.spmv(a)
    if a.ndim == 2:
        return _matmat(self, a)
    raise ValueError("A @ X takes a 1-D or 2-D X, got %d-D (shape %s)" % (a.ndim, a.shape))


def _rmatmul(self, x):
    a = _as_operand(x, "@")
    if a.ndim == 1:
        return _rmatvec(self, a)
    if a.ndim == 2:  # X @ A = (A^T X^T)^T
        return _rmatmat(self, a.T).T
    raise ValueError("X @ A takes a 1-D or 2-D X, got %d-D (shape %s)" % (a.ndim, a.shape))


def _install_products(cls):
    cls.__matmul__ = _matmul
    cls.__rmatmul__ = _rmatmul
    # NumPy hands `ndarray @ A` to A.__rmatmul__ instead of making A an object array.
    cls.__array_ufunc__ = None
    cls.matvec = _matvec
    cls.rmatvec = _rmatvec
    cls.matmat = _matmat
    cls.rmatmat = _rmatmat


Matrix.to_scipy = _matrix_to_scipy
Matrix.dtype = property(lambda self: _np.dtype(_np.float64),
                        doc="float64: a Matrix holds double values.")
_install_products(Matrix)


# ---- formats ---------------------------------------------------------------------------------

def format_names():
    """Registry names of every format, in teaching order."""
    return [f.name for f in formats()]


def build(format, matrix, dtype=None, **params):
    """Builds storage format `format` (a registry name, see format_names()) from `matrix`.

    matrix: anything as_matrix() takes (a SciPy matrix, a Matrix, a path, ...).
    dtype: numpy.float64 (default) or numpy.float32 values.
    params: the format's parameters by name, e.g. build("pjds", A, br=4),
      build("sell", A, slice=32, sigma="auto"), build("hyb", A, hyb_width=2),
      build("ellg", A, pitch=128), build("biell", A, warp=32), build("jds_csr", A, diag_pad=16).
      parameters() lists them all; format_info(name).params those a format reads. A parameter
      the format does not read is an error (a typo is not silently ignored).
    Before building, the layout's exact size is estimated from the row lengths and compared
    with the memory budget: MemoryLimitError (a MemoryError) names the size and the limit.
    """
    return _spmvlab._build(format, as_matrix(matrix), dtype, **params)


def _format_getattr(self, name):
    # fmt.col_start, fmt.width: layout arrays and scalars by their C++ names
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return self.array(name)
    except KeyError:
        pass
    scalars = self.scalars
    if name in scalars:
        return scalars[name]
    raise AttributeError("format %r has no array or scalar %r (arrays: %s; scalars: %s)"
                         % (self.name, name, ", ".join(self.arrays), ", ".join(scalars)))


def _format_dir(self):
    return sorted(set(object.__dir__(self)) | set(self.arrays) | set(self.scalars))


Format.__getattr__ = _format_getattr
Format.__dir__ = _format_dir
Format.to_scipy = lambda self: self.to_matrix().to_scipy()
_install_products(Format)


def _rebuild_format(name, matrix, dtype, params):
    """Unpickles a Format: built again from its CSR with the same parameters (sigma resolved)
    and precision; every format's build is deterministic, so the layout is the same, bit for
    bit."""
    return _spmvlab._build(name, matrix, dtype, **params)


def _format_reduce(self):
    return (_rebuild_format, (self.name, self.to_matrix(), self.dtype.name, dict(self.params)))


Format.__reduce__ = _format_reduce


# ---- analysis --------------------------------------------------------------------------------

def row_stats(matrix):
    """RowLengthStats of a matrix (PELLR Table 1: rows, nnz, ave, sigma, min, max, ...)."""
    return _spmvlab._row_stats(as_matrix(matrix))


def row_length_histogram(matrix):
    """Row-length Histogram with bin size 1 (Kreutzer Fig. 3): counts[l] rows of length l."""
    return _spmvlab._row_length_histogram(as_matrix(matrix))


def estimate_footprint(matrix, format, **params):
    """The Footprint format `format` WOULD have (double precision), from the row lengths alone,
    without building it: exact, and cheap for layouts far too large to build."""
    return _spmvlab._estimate_footprint(as_matrix(matrix), format, **params)


def ell_footprint(matrix):
    """ELLPACK's Footprint in closed form (works beyond 2^31 slots)."""
    return _spmvlab._ell_footprint(as_matrix(matrix))


def summarize(matrix, formats=None, max_bytes=None, **params):
    """Every format (or the named ones) built from `matrix` side by side, as `spmvlab formats`
    prints them: a list of FormatSummary (footprint, data reduction vs ELLPACK, warp work).

    A format whose estimated footprint exceeds max_bytes (default: the memory budget) is not
    built; its summary holds the estimate (estimated=True). params: as for build(), any
    format's (warp also sets the warp size of the warp numbers).
    """
    return _spmvlab._summarize(as_matrix(matrix), formats, max_bytes, **params)


from . import gpu, model  # noqa: E402  (they use the functions above)
