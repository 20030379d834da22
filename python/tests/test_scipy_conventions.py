"""spmvlab as a SciPy user expects it, and as an installed package (issue 35).

Paths and file objects as scipy.io.mmread takes them, 2-D right-hand sides, x @ A,
scipy.sparse.linalg.aslinearoperator (solved with cg and lsqr), pickling, package data, the
version and the dist-info, and the GPU calls on a machine without a usable GPU. Values are
checked against SciPy (A @ x, scipy.io.mmread, numpy.linalg.lstsq), an independent reference.

scripts/python_wheel_check.sh runs this file (and test_spmvlab.py) against a wheel installed
into a fresh virtual environment with SPMVLAB_EXPECT_INSTALLED=1: then the package must not come
from the source or build tree, and its sample matrices and schemas must be its own.
"""
import copy
import gzip
import importlib.metadata
import io
import os
import pathlib
import pickle
import re
import tempfile
import unittest

import numpy as np
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import spmvlab as sl
from spmvlab import _build_info

REPO = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ("canonical4", "pjds_fig1", "pellr_fig5", "empty_rows_40", "onefull_256", "pde05",
           "powerlaw_2k", "banded_1k")


def random_matrix(rows, cols, density, seed):
    rng = np.random.default_rng(seed)
    a = sp.random(rows, cols, density=density, format="csr", random_state=rng)
    a.data = rng.uniform(-1.0, 1.0, a.nnz)
    return a


def same_sparse(a, b):
    """Exactly the same entries (values bit for bit)."""
    a, b = sp.csr_matrix(a), sp.csr_matrix(b)
    a.sort_indices()
    b.sort_indices()
    return (a.shape == b.shape and np.array_equal(a.indptr, b.indptr)
            and np.array_equal(a.indices, b.indices) and np.array_equal(a.data, b.data))


class PathsAndFiles(unittest.TestCase):
    """load() and read_matrix_market() take what scipy.io.mmread takes."""

    def test_every_sample_by_str_path_and_file_object_equals_mmread(self):
        for name in SAMPLES:
            path = sl.sample_matrix(name)
            ref = scipy.io.mmread(path)
            with self.subTest(name=name):
                by_str = sl.load(path)
                self.assertTrue(same_sparse(by_str.to_scipy(), ref))
                self.assertEqual(sl.load(pathlib.Path(path)), by_str)
                with open(path, encoding="utf-8") as f:
                    self.assertEqual(sl.load(f), by_str)
                with open(path, "rb") as f:
                    from_binary = sl.load(f)
                self.assertEqual(from_binary, by_str)
                self.assertEqual(from_binary.source, path)  # the file's name
                self.assertEqual(from_binary.info, by_str.info)

    def test_in_memory_and_compressed_file_objects(self):
        path = sl.sample_matrix("pjds_fig1")
        with open(path, "rb") as f:
            data = f.read()
        expected = sl.load(path)
        self.assertEqual(sl.load(io.BytesIO(data)), expected)
        self.assertEqual(sl.load(io.StringIO(data.decode())), expected)
        self.assertEqual(sl.load(io.BytesIO(data)).source, "<BytesIO>")
        with tempfile.TemporaryDirectory() as d:
            gz = os.path.join(d, "pjds_fig1.mtx.gz")
            with gzip.open(gz, "wb") as f:
                f.write(data)
            with gzip.open(gz, "rb") as f:  # decompressed by Python
                self.assertEqual(sl.load(f), expected)
            # by path (and pathlib.Path) the reader decompresses, as mmread does
            try:
                got = sl.load(pathlib.Path(gz))
            except sl.NotCompiledError as e:  # a build without libarchive says so
                # (seen on the GPU machine, which has no libarchive-dev)
                self.assertIn("libarchive", str(e))
            else:
                self.assertEqual(got, expected)
                self.assertTrue(same_sparse(got.to_scipy(), scipy.io.mmread(gz)))

    def test_file_object_read_from_its_position_and_other_entry_points(self):
        path = sl.sample_matrix("canonical4")
        with open(path, "rb") as f:
            body = f.read()
        stream = io.BytesIO(b"not part of it\n" + body)
        stream.readline()
        a = sl.read_matrix_market(stream)
        self.assertEqual(a, sl.canonical_matrix())
        np.testing.assert_array_equal(a @ np.array([1.0, 2, 3, 4]), [19, 8, 51, 52])
        # as_matrix (so build, row_stats, ...) takes Paths and files too
        self.assertEqual(sl.build("ell", pathlib.Path(path)).nnz, 9)
        with open(path) as f:
            self.assertEqual(sl.row_stats(f).nnz, 9)
        r = sl.read_matrix_market(pathlib.Path(path), pattern="random")
        self.assertEqual(r.nnz, 9)

    def test_bad_sources_are_clear_errors(self):
        with self.assertRaisesRegex(TypeError, "load takes a path"):
            sl.load(3)
        with self.assertRaisesRegex(TypeError, "read_matrix_market takes a path"):
            sl.read_matrix_market(3.0)
        with self.assertRaises(sl.MatrixMarketError) as cm:
            sl.load(io.StringIO("%%MatrixMarket matrix coordinate real general\n2 2 1\n"
                                "1 3 1.0\n"))
        self.assertEqual(cm.exception.line, 3)
        with self.assertRaisesRegex(sl.MatrixMarketError, "x.mtx: cannot open: file not found"):
            sl.load(pathlib.Path("/nonexistent/x.mtx"))


class Products(unittest.TestCase):
    """A @ X, x @ A and X @ A for every format against SciPy."""

    def setUp(self):
        self.ref = random_matrix(70, 50, 0.1, 7)
        rng = np.random.default_rng(3)
        self.X = rng.uniform(-1, 1, (50, 3))
        self.Y = rng.uniform(-1, 1, (70, 4))

    def test_every_format_times_a_2d_array(self):
        expected = self.ref @ self.X
        for name in sl.format_names():
            with self.subTest(format=name):
                f = sl.build(name, self.ref)
                got = f @ self.X
                self.assertEqual(got.shape, (70, 3))
                self.assertEqual(got.dtype, np.float64)
                np.testing.assert_allclose(got, expected, rtol=1e-13, atol=1e-14)
                for j in range(3):  # one SpMV per column: the format's own product
                    np.testing.assert_array_equal(got[:, j], f @ self.X[:, j])
                np.testing.assert_allclose(self.Y.T[0] @ f, self.ref.T @ self.Y[:, 0],
                                           rtol=1e-13, atol=1e-14)
                np.testing.assert_allclose(self.Y.T @ f, (self.ref.T @ self.Y).T,
                                           rtol=1e-13, atol=1e-14)
        m = sl.from_scipy(self.ref)
        np.testing.assert_allclose(m @ self.X, expected, rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(self.Y[:, 1] @ m, self.ref.T @ self.Y[:, 1],
                                   rtol=1e-13, atol=1e-14)

    def test_single_precision_and_empty_right_hand_sides(self):
        f = sl.build("sell", self.ref, dtype=np.float32)
        got = f @ self.X
        self.assertEqual(got.dtype, np.float32)
        np.testing.assert_allclose(got, self.ref @ self.X, rtol=1e-5, atol=1e-5)
        self.assertEqual((f @ np.zeros((50, 0))).shape, (70, 0))
        self.assertEqual((f.rmatvec(np.ones(70))).dtype, np.float32)

    def test_shape_errors(self):
        f = sl.build("csr", self.ref)
        with self.assertRaisesRegex(sl.DimensionMismatchError,
                                    r"A is 70 x 50, so X needs 50 rows, but X has shape "
                                    r"\(49, 3\)"):
            f @ np.ones((49, 3))
        with self.assertRaises(ValueError):  # DimensionMismatchError is a ValueError
            f @ np.ones(49)
        with self.assertRaisesRegex(sl.DimensionMismatchError, "x needs 70 entries"):
            np.ones(50) @ f
        with self.assertRaisesRegex(ValueError, "1-D or 2-D X, got 3-D"):
            f @ np.ones((50, 2, 2))
        with self.assertRaisesRegex(TypeError, "sparse right-hand side"):
            f @ sp.identity(50, format="csr")
        with self.assertRaisesRegex(TypeError, "complex"):
            np.ones(70, dtype=complex) @ f


class LinearOperator(unittest.TestCase):
    def test_aslinearoperator_of_a_format_and_a_matrix(self):
        ref = random_matrix(40, 30, 0.2, 11)
        x = np.linspace(-1, 1, 30)
        y = np.linspace(2, -2, 40)
        for a in (sl.build("pjds", ref, br=4), sl.from_scipy(ref)):
            with self.subTest(kind=type(a).__name__):
                op = sla.aslinearoperator(a)
                self.assertEqual(op.shape, (40, 30))
                self.assertEqual(op.dtype, np.float64)
                np.testing.assert_allclose(op.matvec(x), ref @ x, rtol=1e-13, atol=1e-14)
                np.testing.assert_allclose(op @ x, ref @ x, rtol=1e-13, atol=1e-14)
                np.testing.assert_allclose(op.matvec(x.reshape(-1, 1)).ravel(), ref @ x,
                                           rtol=1e-13, atol=1e-14)
                np.testing.assert_allclose(op.rmatvec(y), ref.T @ y, rtol=1e-13, atol=1e-14)
                X = np.stack([x, 2 * x], axis=1)
                np.testing.assert_allclose(op.matmat(X), ref @ X, rtol=1e-13, atol=1e-14)
                Y = np.stack([y, -y], axis=1)
                np.testing.assert_allclose(op.rmatmat(Y), ref.T @ Y, rtol=1e-13, atol=1e-14)
                np.testing.assert_allclose(op.H.matvec(y), ref.T @ y, rtol=1e-13, atol=1e-14)

    def test_scipy_solvers_take_a_format(self):
        # cg on the SPD 5-point Laplacian, through SELL-C-sigma's own SpMV
        a = sl.generate("pde", size=20)
        ref = a.to_scipy()
        b = ref @ np.linspace(1, 2, a.num_cols)
        x, info = sla.cg(sl.build("sell", a, slice=8, sigma="auto"), b, atol=0,
                         **{"rtol" if "rtol" in sla.cg.__code__.co_varnames else "tol": 1e-12})
        self.assertEqual(info, 0)
        self.assertLess(np.linalg.norm(ref @ x - b) / np.linalg.norm(b), 1e-10)
        # lsqr needs rmatvec: least squares on a tall random matrix against numpy's lstsq
        tall = random_matrix(60, 12, 0.4, 5) + sp.eye(60, 12)
        rhs = np.cos(np.arange(60))
        got = sla.lsqr(sla.aslinearoperator(sl.build("ellr", tall)), rhs, atol=1e-14,
                       btol=1e-14, iter_lim=500)[0]
        want = np.linalg.lstsq(tall.toarray(), rhs, rcond=None)[0]
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-10)


class Pickling(unittest.TestCase):
    def assert_same_format(self, f, g):
        self.assertEqual((g.name, g.dtype, g.shape, g.nnz), (f.name, f.dtype, f.shape, f.nnz))
        self.assertEqual(g.params, f.params)
        self.assertEqual(g.scalars, f.scalars)
        self.assertEqual(g.footprint, f.footprint)
        fa, ga = f.arrays, g.arrays
        self.assertEqual(sorted(fa), sorted(ga))
        for k in fa:
            self.assertEqual(ga[k].dtype, fa[k].dtype, k)
            np.testing.assert_array_equal(ga[k], fa[k], err_msg=k)

    def test_every_format_round_trips_exactly(self):
        mats = [sl.load(sl.sample_matrix("powerlaw_2k")), sl.from_scipy(random_matrix(33, 90,
                                                                                       0.05, 2))]
        for a in mats:
            x = np.random.default_rng(0).uniform(-1, 1, a.num_cols)
            for name in sl.format_names():
                for dtype in (np.float64, np.float32):
                    with self.subTest(matrix=a.source, format=name, dtype=dtype.__name__):
                        params = {"sigma": "auto"} if "sigma" in sl.format_info(name).params \
                            else {}
                        f = sl.build(name, a, dtype=dtype, **params)
                        g = pickle.loads(pickle.dumps(f, protocol=pickle.HIGHEST_PROTOCOL))
                        self.assert_same_format(f, g)
                        np.testing.assert_array_equal(g @ x, f @ x)
                        self.assert_same_format(f, copy.deepcopy(f))

    def test_a_matrix_round_trips_with_its_file_info(self):
        a = sl.load(sl.sample_matrix("pellr_fig5"))
        b = pickle.loads(pickle.dumps(a))
        self.assertEqual(b, a)
        self.assertEqual(b.source, a.source)
        self.assertEqual(b.info, a.info)
        for k in ("row_ptrs", "col_idxs", "values"):
            self.assertEqual(getattr(b, k).dtype, getattr(a, k).dtype)
        g = sl.generate("powerlaw", rows=500, seed=4)
        self.assertIsNone(pickle.loads(pickle.dumps(g)).info)
        self.assertEqual(copy.deepcopy(g), g)

    def test_a_corrupted_pickle_is_refused(self):
        a = sl.canonical_matrix()
        state = list(a.__getstate__())
        state[4] = np.array([0, 2, 3, 1, 0, 2, 3, 1, 9], dtype=np.int32).tobytes()  # col 9 of 4
        b = sl.Matrix.__new__(sl.Matrix)
        with self.assertRaises(sl.InvalidLayoutError):
            b.__setstate__(tuple(state))
        with self.assertRaisesRegex(ValueError, "not a pickled spmvlab.Matrix"):
            sl.Matrix.__new__(sl.Matrix).__setstate__((2,) + tuple(state[1:]))


class PackageData(unittest.TestCase):
    def test_samples_and_schemas_come_with_the_package(self):
        names = sl.sample_matrices()
        for n in SAMPLES:
            self.assertIn(n, names)
        self.assertEqual(sl.load(sl.sample_matrix("canonical4")), sl.canonical_matrix())
        with self.assertRaisesRegex(FileNotFoundError, "have: .*canonical4"):
            sl.sample_matrix("nope")
        with self.assertRaises(FileNotFoundError):
            sl.sample_matrix("../schemas/info.schema")
        self.assertTrue(os.path.isfile(os.path.join(sl.schema_dir(), "info.schema.json")))
        s = sl.schema("info")
        self.assertTrue(s["$id"].endswith("info.schema.json"), s["$id"])
        self.assertEqual(sl.schema("info.schema.json"), s)
        with self.assertRaisesRegex(FileNotFoundError, "have: .*bench"):
            sl.schema("nope")

    def test_version_is_the_cmake_projects(self):
        with open(REPO / "CMakeLists.txt", encoding="utf-8") as f:
            cmake = re.search(r"project\(\s*spmvlab\s+VERSION\s+([0-9.]+)", f.read()).group(1)
        self.assertEqual(sl.__version__, cmake)

    @unittest.skipUnless(os.environ.get("SPMVLAB_EXPECT_INSTALLED") == "1",
                         "not checking an installed package (SPMVLAB_EXPECT_INSTALLED=1)")
    def test_installed_package_stands_alone(self):
        pkg = pathlib.Path(sl.__file__).resolve().parent
        self.assertTrue(_build_info.INSTALLED)
        self.assertIsNone(_build_info.SOURCE_DIR)
        self.assertNotIn(REPO, pkg.parents, "spmvlab imported from the source tree: %s" % pkg)
        self.assertEqual(pathlib.Path(sl.sample_matrix("pde05")).parent,
                         pkg / "sample_matrices")
        self.assertEqual(pathlib.Path(sl.schema_dir()), pkg / "schemas")
        self.assertEqual(importlib.metadata.version("spmvlab"), sl.__version__)
        dist = importlib.metadata.distribution("spmvlab")
        files = {str(p) for p in dist.files}
        self.assertTrue(any(re.match(r"spmvlab/_spmvlab\..*so$", p) for p in files), files)
        self.assertIn("spmvlab/sample_matrices/canonical4.mtx", files)
        self.assertIn("spmvlab/schemas/info.schema.json", files)
        self.assertEqual(dist.metadata["Name"], "spmvlab")
        self.assertTrue(any(r.startswith("numpy") for r in dist.requires or []))
        for p in dist.files:  # RECORD's hashes match the installed files
            if p.hash is not None:
                import base64
                import hashlib
                data = p.read_binary()
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                self.assertEqual(p.hash.value, digest.decode(), str(p))


class GpuWithoutUsableDevice(unittest.TestCase):
    """CUDA compiled in, no driver or device: Python exceptions that say so."""

    def setUp(self):
        if not sl.gpu.is_compiled():
            self.skipTest("no CUDA in this build (test_spmvlab's NotCompiledError test)")
        if sl.gpu.is_available():
            self.skipTest("a GPU is usable here")
        self.f = sl.build("csr", sl.canonical_matrix())

    def test_every_device_call_raises_gpu_unavailable(self):
        calls = [lambda: sl.gpu.spmv(self.f, np.ones(4)),
                 lambda: sl.gpu.assemble(self.f, "csr_vector"),
                 lambda: sl.gpu.verify("csr_vector", sl.canonical_matrix()),
                 lambda: sl.gpu.device_info()]
        for call in calls:
            with self.assertRaises(sl.GpuUnavailableError) as cm:
                call()
            e = cm.exception
            self.assertIsInstance(e, sl.GpuError)
            self.assertIsInstance(e, RuntimeError)
            self.assertIn("no usable CUDA device", str(e))
            self.assertIn("nvidia-smi", str(e))
        self.assertEqual(sl.gpu.device_count(), 0)

    def test_the_compiled_layer_translates_cuda_errors_too(self):
        # below spmvlab.gpu's check: the C++ exception translator itself
        from spmvlab import _spmvlab
        with self.assertRaises(sl.GpuUnavailableError) as cm:
            _spmvlab.gpu.assemble(self.f, "")
        self.assertIn(cm.exception.cuda_error, (3, 34, 35, 36, 46, 100, 802, 803, 804))
        self.assertRegex(str(cm.exception), r"CUDA said: .*cudaError")


if __name__ == "__main__":
    unittest.main()
