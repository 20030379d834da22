"""Tests of the Python module spmvlab (run by CTest as "python: unittest").

Three kinds of checks, as the C++ tiers: hand-counted numbers on the canonical 4x4 of STYLE.md
and on sample_matrices/pjds_fig1.mtx (the format headers' comments, tutorial 10); properties
over every registered format and several matrices against SciPy (an independent reference);
and the error paths (exceptions, messages, the memory budget, a build without CUDA).

Run by hand:  PYTHONPATH=<build>/python /usr/bin/python3 -m unittest discover -s python/tests
(or, against an installed package: scripts/python_wheel_check.sh)
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import scipy.sparse as sp

import spmvlab as sl
from spmvlab import _build_info

# The canonical matrix of STYLE.md: A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9]
CANONICAL = np.array([[1, 0, 2, 3], [0, 4, 0, 0], [5, 0, 6, 7], [0, 8, 0, 9]], dtype=float)
X4 = np.array([1.0, 2.0, 3.0, 4.0])
Y4 = np.array([19.0, 8.0, 51.0, 52.0])
PAD = -1  # padding_index

# The repository these tests live in (not _build_info.SOURCE_DIR: an installed spmvlab has
# none, and scripts/python_wheel_check.sh runs these tests against one).
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(SOURCE_DIR, "examples", "python")


def random_matrix(rows, cols, density, seed):
    rng = np.random.default_rng(seed)
    a = sp.random(rows, cols, density=density, format="csr", random_state=rng)
    a.data = rng.uniform(-1.0, 1.0, a.nnz)
    return a


def zoo():
    """(name, scipy matrix) pairs: the samples (empty rows, one full row, power law, ...) and
    random rectangular ones."""
    out = [("canonical", sp.csr_matrix(CANONICAL))]
    for name in ("pjds_fig1", "pellr_fig5", "empty_rows_40", "onefull_256", "powerlaw_2k",
                 "pde05"):
        out.append((name, sl.load(sl.sample_matrix(name)).to_scipy()))
    out.append(("random 70x50", random_matrix(70, 50, 0.1, 1)))
    out.append(("random 33x90", random_matrix(33, 90, 0.05, 2)))
    out.append(("empty 5x3", sp.csr_matrix((5, 3))))
    return out


# Parameter sets that exercise every format's parameters (each applied where the format
# reads it).
PARAM_SETS = [
    {},
    {"warp": 4, "br": 4, "slice": 4, "sigma": 8, "pitch": 64, "hyb_width": 2, "diag_pad": 4,
     "pjds_pad": 1},
    {"warp": 3, "br": 1, "slice": 1, "sigma": "auto", "hyb_width": 0, "diag_pad": 1},
]


def params_for(fmt, params):
    reads = sl.format_info(fmt).params
    return {k: v for k, v in params.items() if k in reads}


class CanonicalMatrix(unittest.TestCase):
    """Hand-counted numbers from the format headers' comments (double, int32)."""

    def setUp(self):
        self.a = sl.canonical_matrix()

    def test_csr_arrays_and_spmv(self):
        self.assertEqual(self.a.shape, (4, 4))
        self.assertEqual(self.a.nnz, 9)
        np.testing.assert_array_equal(self.a.row_ptrs, [0, 3, 4, 7, 9])
        np.testing.assert_array_equal(self.a.col_idxs, [0, 2, 3, 1, 0, 2, 3, 1, 3])
        np.testing.assert_array_equal(self.a.values, [1, 2, 3, 4, 5, 6, 7, 8, 9])
        np.testing.assert_array_equal(self.a @ X4, Y4)

    def test_footprints_match_the_headers(self):
        # (format, params, stored, padding, value, index, aux, padding bytes, total)
        cases = [
            ("csr", {}, 9, 0, 72, 36, 20, 0, 128),
            ("coo", {}, 9, 0, 72, 72, 0, 0, 144),
            ("csc", {}, 9, 0, 72, 36, 20, 0, 128),
            ("ell", {}, 12, 3, 72, 36, 0, 36, 144),
            ("ellr", {}, 12, 3, 72, 36, 16, 36, 160),
            ("ellg", {"pitch": 128}, 96, 87, 72, 36, 16, 1044, 1168),
            ("pjds", {"br": 2}, 10, 1, 72, 36, 48, 12, 168),
            ("hyb", {"hyb_width": 2}, 10, 1, 72, 44, 0, 12, 128),
        ]
        for fmt, params, stored, padding, vb, ib, ab, pb, total in cases:
            with self.subTest(fmt=fmt):
                f = sl.build(fmt, self.a, **params).footprint
                self.assertEqual((f.stored_entries, f.padding_entries), (stored, padding))
                self.assertEqual((f.value_bytes, f.index_bytes, f.aux_bytes, f.padding_bytes),
                                 (vb, ib, ab, pb))
                self.assertEqual(f.total_bytes, total)
                self.assertEqual(f.as_dict()["total_bytes"], total)

    def test_slot_counts_match_the_headers(self):
        cases = [  # (format, params, stored, padding) from the header comments
            ("jds", {}, 9, 0),
            ("jds_csr", {"diag_pad": 4}, 12, 3),
            ("jds_csr", {}, 48, 39),
            ("pellr", {}, 12, 3),
            ("pjds", {}, 12, 3),
            ("sell", {"slice": 2, "sigma": 1}, 12, 3),
            ("sell", {"slice": 2, "sigma": 4}, 10, 1),
            ("biell", {"warp": 4}, 12, 3),
            ("biell", {"warp": 2}, 10, 1),
            ("bijad", {"warp": 2}, 10, 1),
            ("bijad", {"warp": 4}, 12, 3),
        ]
        for fmt, params, stored, padding in cases:
            with self.subTest(fmt=fmt, params=params):
                f = sl.build(fmt, self.a, **params).footprint
                self.assertEqual((f.stored_entries, f.padding_entries), (stored, padding))

    def test_layout_arrays_match_the_headers(self):
        ell = sl.build("ell", self.a)
        np.testing.assert_array_equal(ell.col_idxs, [0, 1, 0, 1, 2, PAD, 2, 3, 3, PAD, 3, PAD])
        self.assertEqual((ell.width, ell.stride), (3, 4))

        sell = sl.build("sell", self.a, slice=2, sigma=4)
        np.testing.assert_array_equal(sell.col_idxs, [0, 0, 2, 2, 3, 3, 1, 1, 3, PAD])
        np.testing.assert_array_equal(sell.values, [1, 5, 2, 6, 3, 7, 8, 4, 9, 0])
        np.testing.assert_array_equal(sell.slice_ptrs, [0, 6, 10])
        np.testing.assert_array_equal(sell.slice_widths, [3, 2])
        np.testing.assert_array_equal(sell.row_perm, [0, 2, 3, 1])
        self.assertEqual(sell.params, {"slice": 2, "sigma": 4})

        p = sl.build("pjds", self.a, br=2)
        np.testing.assert_array_equal(p.col_start, [0, 4, 8, 10])
        np.testing.assert_array_equal(p.col_idxs, [0, 0, 1, 1, 2, 2, 3, PAD, 3, 3])
        np.testing.assert_array_equal(p.values, [1, 5, 8, 4, 2, 6, 9, 0, 3, 7])
        np.testing.assert_array_equal(p.row_lengths, [3, 3, 2, 1])
        self.assertEqual(set(p.arrays), {"row_perm", "row_lengths", "col_start", "col_idxs",
                                         "values"})
        self.assertEqual(p.scalars["block_rows"], 2)

        jds = sl.build("jds", self.a)
        np.testing.assert_array_equal(jds.jd_ptrs, [0, 4, 7, 9])
        np.testing.assert_array_equal(jds.col_idxs, [0, 0, 1, 1, 2, 2, 3, 3, 3])

        hyb = sl.build("hyb", self.a, hyb_width=2)
        np.testing.assert_array_equal(hyb.ell_col_idxs, [0, 1, 0, 1, 2, PAD, 2, 3])
        np.testing.assert_array_equal(hyb.coo_row_idxs, [0, 2])
        np.testing.assert_array_equal(hyb.coo_col_idxs, [3, 3])
        np.testing.assert_array_equal(hyb.coo_values, [3, 7])

        csc = sl.build("csc", self.a)
        np.testing.assert_array_equal(csc.col_ptrs, [0, 2, 4, 6, 9])
        np.testing.assert_array_equal(csc.row_idxs, [0, 2, 1, 3, 0, 2, 0, 2, 3])
        self.assertIsNone(csc.row_perm)

        bi = sl.build("biell", self.a, warp=2)
        np.testing.assert_array_equal(bi.group_ptrs, [0, 2, 4, 8, 10])
        np.testing.assert_array_equal(bi.values, [1, 4, 2, 3, 5, 8, 6, 9, 7, 0])

    def test_permuted_order(self):
        for fmt, params in (("jds", {}), ("sell", {"slice": 2, "sigma": 4}), ("biell", {"warp": 4}),
                            ("bijad", {"warp": 2}), ("pellr", {})):
            with self.subTest(fmt=fmt):
                f = sl.build(fmt, self.a, **params)
                np.testing.assert_array_equal(f.spmv(X4, order="permuted"), [19, 51, 52, 8])
                np.testing.assert_array_equal(f.spmv(X4), Y4)

    def test_row_statistics_and_histogram(self):
        s = sl.row_stats(self.a)
        self.assertEqual((s.rows, s.cols, s.nnz, s.min, s.max, s.spread, s.empty_rows),
                         (4, 4, 9, 1, 3, 2, 0))
        self.assertAlmostEqual(s.ave, 2.25)
        self.assertAlmostEqual(s.sigma, 0.829156, places=6)
        h = sl.row_length_histogram(self.a)
        np.testing.assert_array_equal(h.counts, [0, 1, 1, 2])
        np.testing.assert_array_equal(h.edges, [0, 1, 2, 3, 4])
        np.testing.assert_array_equal(self.a.row_lengths(), [3, 1, 3, 2])

    def test_histogram_refuses_a_range_that_overflows(self):
        # hi - lo + 1 overflowed int64 and killed the interpreter (SIGFPE / SIGSEGV)
        with self.assertRaises(ValueError):
            sl.histogram([-2**62, 2**62], 1)
        h = sl.histogram([-2**59, 2**59], 2)
        np.testing.assert_array_equal(h.counts, [1, 1])

    def test_hostile_python_inputs_are_refused_with_clear_errors(self):
        a = sl.canonical_matrix()
        with self.assertRaises(TypeError):  # the imaginary part was dropped silently
            a.spmv(np.array([1, 2, 3, 4], dtype=complex))
        with self.assertRaises(TypeError):  # pybind11's "internal error" before
            a.spmv(np.array([1, "x", None, 4], dtype=object))
        with self.assertRaises(ValueError):  # int(2.5) == 2 was taken
            sl.from_triplets([0], [0], [1.0], (2.5, 2))
        np.testing.assert_array_equal(
            sl.from_triplets([0], [1], [3.0], (np.int64(2), 2)).to_dense(), [[0, 3], [0, 0]])
        with self.assertRaises(ValueError):  # overflowed to INT64_MIN
            sl.analyze_thread_work([2**62, 1], [1, 1])
        w = sl.analyze_thread_work([3, 1], [3, 1], warp_size=2)
        self.assertEqual((w.n_iter, w.idle_slots), (3, 2))

    def test_from_scipy_refuses_a_broken_csr(self):
        try:
            import scipy.sparse as sp
        except ImportError:
            self.skipTest("SciPy is not installed")
        bad = sp.csr_matrix((np.array([1.0, 2.0]), np.array([0, 1]), np.array([0, 2, 1])),
                            shape=(2, 2))
        with self.assertRaises(ValueError):  # decreasing indptr was accepted
            sl.from_scipy(bad)

    def test_from_dense_stops_a_huge_broadcast_at_the_budget(self):
        previous = sl.set_memory_limit("64M")
        try:
            huge = np.broadcast_to(np.float64(1.0), (100000, 100000))
            with self.assertRaises(MemoryError):
                sl.from_dense(huge)
        finally:
            sl.set_memory_limit(previous)
        np.testing.assert_array_equal(sl.from_dense(np.eye(3)).row_lengths(), [1, 1, 1])

    def test_warps_of_the_csr_kernel(self):
        w = sl.build("csr", self.a).warps(2)  # analysis/warps.hpp comment
        self.assertEqual((w.num_warps, w.n_iter, w.n_p, w.idle_slots), (2, 6, 14, 3))
        np.testing.assert_array_equal(w.per_warp["max_iterations"], [3, 3])
        np.testing.assert_array_equal(w.per_warp["idle_slots"], [2, 1])
        np.testing.assert_allclose(w.per_warp["useful_fraction"], [4 / 6, 5 / 6])
        w32 = sl.build("csr", self.a).warps(32)
        self.assertAlmostEqual(w32.useful_fraction, 0.09375)
        self.assertEqual((w32.idle_slots, w32.phantom_slots), (3, 84))
        ell = sl.build("ell", self.a).warps(2)
        np.testing.assert_array_equal(ell.per_warp["stored_padding"], [2, 1])
        tw = sl.build("ellr", self.a).thread_work()
        np.testing.assert_array_equal(tw["iterations"], [3, 1, 3, 2])
        np.testing.assert_array_equal(tw["stored"], [3, 3, 3, 3])
        own = sl.analyze_thread_work([3, 1, 3, 2], [3, 1, 3, 2], warp_size=2)
        self.assertEqual((own.n_iter, own.n_p), (6, 14))

    def test_data_reduction_and_estimates(self):
        csr = sl.build("csr", self.a).footprint
        ell = sl.ell_footprint(self.a)
        self.assertEqual(ell.total_bytes, 144)
        self.assertAlmostEqual(sl.data_reduction_percent(csr, ell), 25.0)
        self.assertAlmostEqual(sl.data_reduction_bytes_percent(csr, ell), 100 * (1 - 128 / 144))
        self.assertEqual(sl.estimate_footprint(self.a, "pjds", br=2).total_bytes, 168)
        summary = {s.name: s for s in sl.summarize(self.a)}
        self.assertEqual(set(summary), set(sl.format_names()))
        self.assertEqual(summary["ell"].bytes, 144)
        self.assertAlmostEqual(summary["csr"].data_reduction_vs_ell_percent, 25.0)

    def test_single_precision(self):
        f = sl.build("ell", self.a, dtype=np.float32)
        self.assertEqual(f.dtype, np.float32)
        self.assertEqual(f.values.dtype, np.float32)
        # 9*4 + 9*4 + 3*(4+4) = 96 bytes
        self.assertEqual(f.footprint.total_bytes, 96)
        y = f @ X4
        self.assertEqual(y.dtype, np.float32)
        np.testing.assert_array_equal(y, Y4)

    def test_alpha_beta(self):
        f = sl.build("sell", self.a, slice=2, sigma=4)
        y0 = np.array([1.0, -1.0, 2.0, 0.5])
        y = f.spmv(X4, alpha=-0.75, beta=0.5, y=y0)
        np.testing.assert_array_equal(y, -0.75 * Y4 + 0.5 * y0)
        np.testing.assert_array_equal(y0, [1.0, -1.0, 2.0, 0.5])  # not modified


class PjdsFigure1(unittest.TestCase):
    """sample_matrices/pjds_fig1.mtx with b_r = 4 (tutorials/10_pjds_listing2/README.md)."""

    def test_col_start_and_permutation(self):
        a = sl.read_matrix_market(sl.sample_matrix("pjds_fig1"))
        np.testing.assert_array_equal(a.row_lengths(), [2, 5, 1, 3, 4, 1, 6, 2])
        p = sl.build("pjds", a, br=4)
        np.testing.assert_array_equal(p.col_start, [0, 8, 16, 20, 24, 28, 32])
        np.testing.assert_array_equal(p.row_perm, [6, 1, 4, 3, 0, 7, 2, 5])
        np.testing.assert_array_equal(p.row_lengths, [6, 5, 4, 3, 2, 2, 1, 1])
        self.assertEqual((p.footprint.stored_entries, p.footprint.padding_entries), (32, 8))
        self.assertEqual(sl.build("ell", a).footprint.stored_entries, 48)
        # slot col_start[j] + i holds entry j of original row row_perm[i] (Listing 2)
        for i, row in enumerate(p.row_perm):
            start, end = a.row_ptrs[row], a.row_ptrs[row + 1]
            for j in range(end - start):
                self.assertEqual(p.col_idxs[p.col_start[j] + i], a.col_idxs[start + j])
                self.assertEqual(p.values[p.col_start[j] + i], a.values[start + j])
        self.assertEqual(int(np.sum(p.col_idxs == PAD)), 8)
        self.assertIn("pJDS", a.info["comments"][0])
        self.assertEqual(a.info["symmetry"], "general")


class EveryFormat(unittest.TestCase):
    """Every registered format, several parameter sets, every matrix of the zoo."""

    @classmethod
    def setUpClass(cls):
        cls.matrices = zoo()

    def test_reference_spmv_equals_scipy(self):
        rng = np.random.default_rng(7)
        for name, a in self.matrices:
            x = rng.uniform(-1, 1, a.shape[1])
            y0 = rng.uniform(-1, 1, a.shape[0])
            expected = a @ x
            m = sl.from_scipy(a)
            for fmt in sl.format_names():
                for params in PARAM_SETS:
                    ps = params_for(fmt, params)
                    with self.subTest(matrix=name, fmt=fmt, params=ps):
                        f = sl.build(fmt, m, **ps)
                        f.validate()
                        self.assertEqual(f.shape, a.shape)
                        self.assertEqual(f.nnz, a.nnz)
                        np.testing.assert_allclose(f @ x, expected, rtol=1e-13, atol=1e-13)
                        np.testing.assert_allclose(f.spmv(x, alpha=2.0, beta=-1.0, y=y0),
                                                   2.0 * expected - y0, rtol=1e-13, atol=1e-13)
                        perm = f.row_perm
                        if perm is not None:
                            self.assertTrue(f.permuted)
                            np.testing.assert_allclose(f.spmv(x, order="permuted"),
                                                       expected[perm], rtol=1e-13, atol=1e-13)
                            self.assertEqual(sorted(perm.tolist()), list(range(a.shape[0])))
                        self.assertTrue(f.to_matrix() == m)  # exact round trip

    def test_single_precision_spmv(self):
        rng = np.random.default_rng(8)
        for name, a in self.matrices[:4]:
            x = rng.uniform(-1, 1, a.shape[1])
            expected = a @ x
            for fmt in sl.format_names():
                with self.subTest(matrix=name, fmt=fmt):
                    y = sl.build(fmt, a, dtype="float32") @ x
                    self.assertEqual(y.dtype, np.float32)
                    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-4)

    def test_arrays_hold_every_byte_of_the_footprint(self):
        # Also the guard for formats registered later: an array named outside the project's
        # vocabulary is invisible to Python, and its bytes would be missing here.
        for name, a in self.matrices:
            for fmt in sl.format_names():
                for params in PARAM_SETS:
                    ps = params_for(fmt, params)
                    with self.subTest(matrix=name, fmt=fmt, params=ps):
                        f = sl.build(fmt, a, **ps)
                        arrays = f.arrays
                        self.assertTrue(any(k.endswith("values") for k in arrays))
                        total = sum(v.nbytes for v in arrays.values())
                        self.assertEqual(total, f.footprint.total_bytes)
                        for v in arrays.values():
                            self.assertFalse(v.flags.writeable)

    def test_estimate_equals_the_built_footprint(self):
        for name, a in self.matrices:
            for fmt in sl.format_names():
                if not sl.has_footprint_estimate(fmt):
                    continue
                for params in PARAM_SETS:
                    ps = params_for(fmt, params)
                    with self.subTest(matrix=name, fmt=fmt, params=ps):
                        self.assertEqual(sl.estimate_footprint(a, fmt, **ps),
                                         sl.build(fmt, a, **ps).footprint)

    def test_format_registry(self):
        names = sl.format_names()
        for expected in ("coo", "csr", "csc", "ell", "ellr", "ellg", "jds", "jds_csr", "pjds",
                         "pellr", "biell", "bijad", "hyb", "sell"):
            self.assertIn(expected, names)
        self.assertEqual(sl.format_info("pjds").params, {"br": 32, "pjds_pad": 0})
        self.assertTrue(sl.format_info("pjds").permuted)
        self.assertFalse(sl.format_info("ell").permuted)
        pnames = {p["name"] for p in sl.parameters()}
        self.assertEqual(pnames, {"warp", "br", "slice", "sigma", "pitch", "hyb_width",
                                  "diag_pad", "pjds_pad"})


class Inputs(unittest.TestCase):
    def test_every_scipy_type_gives_the_same_matrix(self):
        a = random_matrix(12, 9, 0.3, 3)
        ref = sl.from_scipy(a)
        for conv in ("tocsr", "tocsc", "tocoo", "tolil", "todok", "tobsr", "todia"):
            with self.subTest(type=conv):
                self.assertTrue(sl.as_matrix(getattr(a, conv)()) == ref)
        self.assertTrue(sl.as_matrix(a.toarray()) == ref)
        if hasattr(sp, "csr_array"):
            self.assertTrue(sl.as_matrix(sp.csr_array(a)) == ref)
        np.testing.assert_array_equal(ref.to_dense(), a.toarray())
        self.assertEqual(abs(ref.to_scipy() - a).nnz, 0)

    def test_triplets_sum_duplicates(self):
        m = sl.from_triplets([2, 0, 2], [1, 0, 1], [1.5, 2.0, 0.25], (3, 2))
        np.testing.assert_array_equal(m.row_ptrs, [0, 1, 1, 2])
        np.testing.assert_array_equal(m.values, [2.0, 1.75])
        self.assertEqual(m.source, "triplets")

    def test_generators(self):
        a = sl.generate("pde", size=5)
        self.assertEqual((a.shape, a.nnz), ((125, 125), 725))  # pde05 of Barbieri et al.
        self.assertTrue(a == sl.load(sl.sample_matrix("pde05")))
        b = sl.load("gen:onefull:n=100")
        self.assertEqual(b.nnz, 199)
        self.assertEqual(b.source, "gen:onefull:n=100")
        p1 = sl.generate("powerlaw", rows=300, max_len=50, seed=3)
        p2 = sl.generate("powerlaw", rows=300, max_len=50, seed=3)
        self.assertTrue(p1 == p2)
        self.assertIn("pde", [g["name"] for g in sl.generators()])

    def test_write_and_read_back(self):
        a = sl.from_scipy(random_matrix(20, 15, 0.2, 4))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "a.mtx")
            a.write_matrix_market(path, comment="from the python tests")
            b = sl.read_matrix_market(path)
            self.assertTrue(a == b)
            self.assertEqual(b.info["comments"][0].strip(), "from the python tests")

    def test_views_keep_their_owner_alive(self):
        f = sl.build("pjds", sl.canonical_matrix(), br=2)
        cs = f.col_start
        del f
        np.testing.assert_array_equal(cs, [0, 4, 8, 10])
        with self.assertRaises(ValueError):
            cs[0] = 5


class Errors(unittest.TestCase):
    def setUp(self):
        self.a = sl.canonical_matrix()

    def tearDown(self):
        sl.set_memory_limit("default")

    def test_unknown_format(self):
        with self.assertRaises(sl.InvalidArgumentError) as cm:
            sl.build("nope", self.a)
        self.assertIsInstance(cm.exception, ValueError)
        self.assertIn("unknown format 'nope'", str(cm.exception))
        self.assertIn("pjds", str(cm.exception))
        self.assertNotIn(".cpp:", str(cm.exception))  # no C++ source location

    def test_bad_parameters(self):
        with self.assertRaisesRegex(ValueError, r"parameter br = 0 is outside \[1, 1024\]"):
            sl.build("pjds", self.a, br=0)
        with self.assertRaisesRegex(ValueError, r"format 'ell' does not read parameter 'br'"):
            sl.build("ell", self.a, br=4)
        with self.assertRaisesRegex(ValueError, r"unknown parameter 'colour'"):
            sl.build("ell", self.a, colour=4)
        with self.assertRaisesRegex(ValueError, r"whole number"):
            sl.build("pjds", self.a, br=2.5)
        with self.assertRaisesRegex(ValueError, r"dtype must be float64"):
            sl.build("csr", self.a, dtype=np.int32)
        # field names work too
        self.assertEqual(sl.build("pjds", self.a, block_rows=2).params["br"], 2)

    def test_dimension_mismatch(self):
        f = sl.build("ell", self.a)
        with self.assertRaises(sl.DimensionMismatchError) as cm:
            f.spmv(np.ones(3))
        self.assertIsInstance(cm.exception, ValueError)
        self.assertIn("x must be a 1-D array of 4 entries", str(cm.exception))
        with self.assertRaisesRegex(ValueError, "beta != 0 needs y"):
            f.spmv(np.ones(4), beta=1.0)
        with self.assertRaisesRegex(ValueError, "order must be"):
            f.spmv(np.ones(4), order="sideways")

    def test_matrix_market_error_has_the_line(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad.mtx")
            with open(path, "w") as out:
                out.write("%%MatrixMarket matrix coordinate real general\n"
                          "4 4 2\n"
                          "1 1 1.0\n"
                          "5 1 2.0\n")
            with self.assertRaises(sl.MatrixMarketError) as cm:
                sl.read_matrix_market(path)
            self.assertIsInstance(cm.exception, ValueError)
            self.assertEqual(cm.exception.line, 4)
            self.assertIn("bad.mtx:4:", str(cm.exception))
            with self.assertRaises(sl.MatrixMarketError) as cm:
                sl.load(os.path.join(d, "missing.mtx"))

    def test_triplet_errors(self):
        with self.assertRaisesRegex(ValueError, r"triplet 1 \(3, 0\) is outside the 3 x 3"):
            sl.from_triplets([0, 3], [0, 0], [1.0, 1.0], (3, 3))
        with self.assertRaises(TypeError):
            sl.from_triplets([0.5], [0], [1.0], (1, 1))
        with self.assertRaises(TypeError):
            sl.from_triplets([0], [0], [1j], (1, 1))
        with self.assertRaisesRegex(ValueError, "outside"):
            sl.from_triplets([0], [0], [1.0], (2**31, 1))
        with self.assertRaisesRegex(ValueError, "not finite"):
            sl.from_triplets([0], [0], [np.nan], (1, 1))

    def test_hostile_shape_is_refused_before_allocating(self):
        # 1 entry declaring 2^31-1 rows: its CSR row pointers alone would take 8 GiB
        sl.set_memory_limit("64M")
        with self.assertRaises(sl.MemoryLimitError) as cm:
            sl.from_triplets([0], [0], [1.0], (2**31 - 1, 2**31 - 1))
        self.assertIsInstance(cm.exception, MemoryError)
        self.assertIn("would need 8.00 GiB", str(cm.exception))
        self.assertIn("set_memory_limit('64M')", str(cm.exception))

    def test_padded_format_over_the_budget(self):
        sl.set_memory_limit("64M")
        self.assertEqual(sl.memory_limit(), 64 << 20)
        a = sl.generate("onefull", n=20000)  # 39,999 entries; ELLPACK: 4*10^8 slots
        with self.assertRaises(sl.MemoryLimitError) as cm:
            sl.build("ell", a)
        e = cm.exception
        self.assertIsInstance(e, MemoryError)
        self.assertEqual(e.limit, 64 << 20)
        self.assertEqual(e.needed, 20000 * 20000 * 12)
        self.assertIn("format 'ell' of the 20000 x 20000 matrix", str(e))
        self.assertIn("would need 4.47 GiB", str(e))
        self.assertIn("64.0 MiB", str(e))
        # the sorted, block-padded formats fit: (b_r + 1) N - b_r slots for pJDS
        p = sl.build("pjds", a)
        self.assertEqual(p.footprint.stored_entries, 33 * 20000 - 32)
        # summarize reports it instead of raising
        s = {x.name: x for x in sl.summarize(a, formats=["ell", "csr"])}
        self.assertTrue(s["ell"].estimated)
        self.assertEqual(s["ell"].stored_entries, 20000 * 20000)
        self.assertTrue(s["csr"].ok)
        with self.assertRaises(sl.MemoryLimitError):
            sl.generate("pde", size=400)  # 64 million rows
        with self.assertRaisesRegex(ValueError, "not a size"):
            sl.set_memory_limit("lots")

    def test_default_limit_refuses_unjustified_dimensions(self):
        sl.set_memory_limit("default")
        with self.assertRaisesRegex(ValueError, r"shape \(1073741824, 1073741824\) declares more "
                                                r"rows or columns than 1 entries justify"):
            sl.from_triplets([0], [0], [1.0], (2**30, 2**30))
        # 2^24 rows are fine with one entry (64 MiB of row pointers)
        self.assertEqual(sl.from_triplets([0], [0], [1.0], (2**24, 3)).shape, (2**24, 3))

    def test_gpu_without_cuda(self):
        self.assertEqual(sl.gpu.is_compiled(), _build_info.CUDA)
        names = [v["name"] for v in sl.gpu.variants()]
        self.assertIn("csr", names)
        if _build_info.CUDA:
            self.skipTest("this build has CUDA")
        self.assertFalse(sl.gpu.is_available())
        f = sl.build("csr", self.a)
        with self.assertRaises(sl.NotCompiledError) as cm:
            sl.gpu.spmv(f, X4)
        self.assertIsInstance(cm.exception, NotImplementedError)
        self.assertIn("without CUDA", str(cm.exception))
        with self.assertRaises(NotImplementedError):
            sl.gpu.verify("csr", self.a)
        with self.assertRaises(NotImplementedError):
            sl.gpu.device_info()


@unittest.skipUnless(_build_info.CUDA, "GPU kernels not compiled")
class Gpu(unittest.TestCase):
    def test_every_variant_matches_the_host(self):
        if not sl.gpu.is_available():
            self.skipTest("no CUDA device")
        a = sl.load(sl.sample_matrix("powerlaw_2k"))
        x = np.random.default_rng(1).uniform(-1, 1, a.num_cols)
        for v in sl.gpu.variants():
            with self.subTest(variant=v["name"]):
                r = sl.gpu.verify(v["name"], a)
                self.assertTrue(r.passed, r.message)
        f = sl.build("sell", a, sigma="auto")
        np.testing.assert_allclose(sl.gpu.spmv(f, x), a @ x, rtol=1e-12, atol=1e-12)


class Models(unittest.TestCase):
    def test_kreutzer_bandwidth_model(self):
        # eq. 1: DP code balance (8 + 4 + 8 alpha + 16/N_nzr) / 2
        self.assertAlmostEqual(sl.model.code_balance(4.0, 1.0), (20 + 4) / 2)
        self.assertAlmostEqual(sl.model.code_balance(4.0, 0.25, "single"),
                               (4 + 4 + 1 + 2) / 2)
        cases = sl.model.kreutzer_worked_cases()
        self.assertEqual(len(cases), 6)
        first = cases[0]  # r = 10, alpha = 1: eq. 3 2(r-1)/2.5, eq. 4 (20r-2)/2.5
        self.assertEqual((first.bandwidth_ratio, first.alpha_case), (10.0, "1"))
        self.assertAlmostEqual(first.eq3_n_nzr, 7.2)
        self.assertAlmostEqual(first.eq4_n_nzr, 79.2)
        a = sl.canonical_matrix()
        p = sl.model.predict(a, "H100", "double")
        h100 = sl.model.find_profile("h100")
        # N [N_nzr (12 + 8) + 16] bytes with alpha = 1
        self.assertAlmostEqual(p.device_bytes, 4 * (2.25 * 20 + 16))
        self.assertAlmostEqual(p.t_mvm_s, p.device_bytes / (h100.memory_bandwidth_gbs * 1e9))
        self.assertAlmostEqual(p.gflops, 2 * 9 / p.t_mvm_s / 1e9)
        with self.assertRaisesRegex(ValueError, "alpha"):
            sl.model.predict(a, "H100", "double", alpha=2.0)
        with self.assertRaisesRegex(ValueError, "H100"):
            sl.model.find_profile("no such gpu")

    def test_format_model(self):
        a = sl.canonical_matrix()
        shapes = {s.variant: s for s in sl.model.kernel_shapes(a, ["csr", "ell", "pjds"])}
        self.assertEqual(set(shapes), {"csr", "ell", "pjds"})
        self.assertEqual(shapes["csr"].loaded_slots, 9)   # stops at the row length
        self.assertEqual(shapes["ell"].loaded_slots, 12)  # loads its padding
        self.assertEqual(shapes["ell"].stored_slots, 12)
        self.assertEqual(shapes["csr"].nnz, 9)
        for s, t in sl.model.predict_kernels(a, "H100", "double", ["csr", "ell"]):
            self.assertTrue(t.feasible)
            q = sl.model.builtin_constants("H100").overlap_q
            self.assertAlmostEqual(
                t.time_s / (t.floor_s + sl.model.overlap_time(
                    t.latency_s, max(t.dram_s, t.l2_s, t.issue_s, t.warp_s), q)), 1.0, places=12)
            self.assertAlmostEqual(t.dram_bytes, sl.model.dram_bytes(s, "double"))
            self.assertAlmostEqual(t.gflops, 2 * 9 / t.time_s / 1e9)
        # the L2 term is (streamed + gather sectors / e_v) x 32 / B_L2, e_v in (0, 1]; x of
        # the 4x4 is one sector (4 doubles), the gather of csr and ell
        c = sl.model.builtin_constants("H100")
        e = {k.variant: k.l2_efficiency for k in c.kernels}
        self.assertTrue(all(0 < x <= 1 for x in e.values()))
        for s, t in sl.model.predict_kernels(a, "H100", "double", ["csr", "ell"]):
            self.assertAlmostEqual(t.l2_s * 1e9, (sl.model.l2_sectors(s, "double") - 1
                                                  + 1 / e[s.variant]) * 32 / c.l2_gbs)
        every = sl.model.kernel_shapes(a)
        self.assertEqual([s.variant for s in every],
                         [v["name"] for v in sl.model.modelled_variants()])
        with self.assertRaisesRegex(ValueError, "unknown modelled variant 'nope'"):
            sl.model.kernel_shapes(a, ["nope"])


    def test_one_model_everywhere(self):
        # the per-format prediction for SELL and pJDS on pde100, H100, sigma auto (recommend's
        # default): predict_variant is predict_kernels' number and the CLI's, when built
        a = sl.generate("pde", size=100)
        got = {v: sl.model.predict_variant(a, v, "H100", "double", sigma="auto")
               for v in ("sell", "pjds")}
        pairs = dict((s.variant, (s, t)) for s, t in
                     sl.model.predict_kernels(a, "H100", "double", ["sell", "pjds"],
                                              sigma="auto"))
        for v, t in got.items():
            with self.subTest(variant=v):
                s, same = pairs[v]
                self.assertEqual(t.time_s, same.time_s)
                self.assertEqual(t.time_s, sl.model.predict_kernel(s, "H100", "double").time_s)
                q = sl.model.builtin_constants("H100").overlap_q
                memory = max(t.dram_s, t.l2_s, t.issue_s, t.warp_s)
                self.assertAlmostEqual(t.time_s, t.floor_s + sl.model.overlap_time(
                    t.latency_s, memory, q), delta=1e-15)
                # by hand: q = 1 adds the paths, q = 0 takes their max
                self.assertAlmostEqual(sl.model.overlap_time(t.latency_s, memory, 1.0),
                                       t.latency_s + memory, delta=1e-18)
                self.assertEqual(sl.model.overlap_time(t.latency_s, memory, 0.0),
                                 max(t.latency_s, memory))
                self.assertLessEqual(t.dram_s, t.time_s)  # the traffic bound is below it
        exe = os.path.join(os.path.dirname(sl.__file__), os.pardir, os.pardir, "cli", "spmvlab")
        if not os.path.exists(exe):
            self.skipTest("no spmvlab CLI next to this build")
        rec = json.loads(subprocess.run(
            [exe, "recommend", "gen:pde:size=100", "--gpu", "H100", "--json"],
            check=True, capture_output=True, text=True).stdout)
        mod = json.loads(subprocess.run(
            [exe, "model", "gen:pde:size=100", "--gpu", "H100", "--format", "sell,pjds",
             "--json"], check=True, capture_output=True, text=True).stdout)
        ranking = {r["variant"]: r["predicted_us"] for r in rec["results"][0]["ranking"]}
        per_format = {r["variant"]: r["predicted_us"]
                      for r in mod["format_model"][0]["variants"]}
        for v, t in got.items():
            with self.subTest(variant=v, cli=True):
                self.assertAlmostEqual(ranking[v] / (t.time_s * 1e6), 1.0, places=9)
                self.assertAlmostEqual(per_format[v] / (t.time_s * 1e6), 1.0, places=9)


class Example(unittest.TestCase):
    """The teacher's example exists as a script and as a notebook that cannot drift apart."""

    def test_notebook_is_the_script(self):
        script = os.path.join(EXAMPLES, "formats_tour.py")
        notebook = os.path.join(EXAMPLES, "formats_tour.ipynb")
        sys.path.insert(0, EXAMPLES)
        try:
            import make_notebook
        finally:
            sys.path.pop(0)
        with open(notebook, encoding="utf-8") as f:
            nb = json.load(f)
        self.assertEqual(nb["nbformat"], 4)
        self.assertIn("kernelspec", nb["metadata"])
        for cell in nb["cells"]:
            self.assertIn(cell["cell_type"], ("code", "markdown"))
            self.assertIsInstance(cell["source"], list)
            if cell["cell_type"] == "code":
                self.assertEqual(cell["outputs"], [])
                self.assertIsNone(cell["execution_count"])
        with open(script, encoding="utf-8") as f:
            code = make_notebook.script_code(f.read())
        cells = "".join("".join(c["source"]) + "\n" for c in nb["cells"]
                        if c["cell_type"] == "code")
        self.assertEqual(cells, code)
        # and the notebook is exactly what the generator makes of the script today
        with open(script, encoding="utf-8") as f:
            self.assertEqual(make_notebook.notebook(f.read()), nb)


if __name__ == "__main__":
    unittest.main()
