/// spmv::analysis from Python: row-length statistics and histograms, per-warp work and waste,
/// footprint estimates without building, and the side-by-side summary of every format.
#include <cstdint>
#include <pybind11/stl.h>
#include <span>
#include <string>
#include <vector>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/row_stats.hpp>
#include <spmv/analysis/summary.hpp>
#include <spmv/analysis/warps.hpp>
#include <spmv/error.hpp>

#include "common.hpp"

namespace spmv::python {
namespace {

/// Per-warp numbers as one NumPy array per field (what a plot wants).
py::dict per_warp(const analysis::WarpAnalysis& a)
{
    const auto n = a.warps.size();
    std::vector<std::int64_t> first(n), threads(n), max_it(n), useful(n), idle(n), phantom(n),
        stored(n), stored_pad(n), n_p(n);
    std::vector<double> fraction(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto& w = a.warps[k];
        first[k] = w.first_thread;
        threads[k] = w.threads;
        max_it[k] = w.max_iterations;
        useful[k] = w.useful;
        idle[k] = w.idle_slots;
        phantom[k] = w.phantom_slots;
        stored[k] = w.stored;
        stored_pad[k] = w.stored_padding;
        n_p[k] = w.n_p;
        fraction[k] = w.useful_fraction;
    }
    py::dict d;
    d["first_thread"] = adopt(std::move(first));
    d["threads"] = adopt(std::move(threads));
    d["max_iterations"] = adopt(std::move(max_it));
    d["useful"] = adopt(std::move(useful));
    d["idle_slots"] = adopt(std::move(idle));
    d["phantom_slots"] = adopt(std::move(phantom));
    d["stored"] = adopt(std::move(stored));
    d["stored_padding"] = adopt(std::move(stored_pad));
    d["n_p"] = adopt(std::move(n_p));
    d["useful_fraction"] = adopt(std::move(fraction));
    return d;
}

std::vector<std::int64_t> int64_vector(const py::object& o, const char* name)
{
    const auto a = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(o);
    if (!a || a.ndim() != 1) {
        SPMV_THROW(InvalidArgument, std::string(name) + " must be a 1-D integer array");
    }
    return std::vector<std::int64_t>(a.data(), a.data() + a.size());
}

std::size_t max_bytes_arg(const py::object& max_bytes)
{
    if (max_bytes.is_none()) {
        const auto& b = budget();
        return b.bytes == 0 ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(b.bytes);
    }
    const auto v = max_bytes.cast<long long>();
    if (v <= 0) {
        SPMV_THROW(InvalidArgument, "max_bytes must be positive");
    }
    return static_cast<std::size_t>(v);
}

}  // namespace

void bind_analysis(py::module_& m)
{
    py::class_<analysis::RowLengthStats>(m, "RowLengthStats", R"doc(Row-length statistics of a
matrix (PELLR Table 1 plus the empty rows): rows, cols, nnz, ave = nnz/rows (Kreutzer's
N_nzr), sigma (POPULATION standard deviation), min, max (ELLPACK width), spread = max - min,
empty_rows.)doc")
        .def_readonly("rows", &analysis::RowLengthStats::rows)
        .def_readonly("cols", &analysis::RowLengthStats::cols)
        .def_readonly("nnz", &analysis::RowLengthStats::nnz)
        .def_readonly("ave", &analysis::RowLengthStats::ave)
        .def_readonly("sigma", &analysis::RowLengthStats::sigma)
        .def_readonly("min", &analysis::RowLengthStats::min)
        .def_readonly("max", &analysis::RowLengthStats::max)
        .def_readonly("spread", &analysis::RowLengthStats::spread)
        .def_readonly("empty_rows", &analysis::RowLengthStats::empty_rows)
        .def("as_dict",
             [](const analysis::RowLengthStats& s) {
                 py::dict d;
                 d["rows"] = s.rows;
                 d["cols"] = s.cols;
                 d["nnz"] = s.nnz;
                 d["ave"] = s.ave;
                 d["sigma"] = s.sigma;
                 d["min"] = s.min;
                 d["max"] = s.max;
                 d["spread"] = s.spread;
                 d["empty_rows"] = s.empty_rows;
                 return d;
             })
        .def("__repr__", [](const analysis::RowLengthStats& s) {
            return "<RowLengthStats rows " + std::to_string(s.rows) + ", nnz " +
                   std::to_string(s.nnz) + ", ave " + std::to_string(s.ave) + ", sigma " +
                   std::to_string(s.sigma) + ", min " + std::to_string(s.min) + ", max " +
                   std::to_string(s.max) + ", empty " + std::to_string(s.empty_rows) + ">";
        });

    py::class_<analysis::Histogram>(m, "Histogram",
                                    "Integer-edged histogram: counts[b] values v with edges[b] <= "
                                    "v < edges[b+1]; every bin bin_width wide.")
        .def_readonly("bin_width", &analysis::Histogram::bin_width)
        .def_property_readonly("edges",
                               [](const analysis::Histogram& h) {
                                   auto e = h.edges;
                                   return adopt(std::move(e));
                               })
        .def_property_readonly("counts",
                               [](const analysis::Histogram& h) {
                                   auto c = h.counts;
                                   return adopt(std::move(c));
                               })
        .def("__repr__", [](const analysis::Histogram& h) {
            return "<Histogram " + std::to_string(h.counts.size()) + " bins of width " +
                   std::to_string(h.bin_width) + ">";
        });

    m.def(
        "_row_stats", [](const Matrix& a) { return analysis::row_stats(a.csr); },
        py::arg("matrix"));
    m.def(
        "_row_length_histogram",
        [](const Matrix& a) { return analysis::row_length_histogram(a.csr); }, py::arg("matrix"));
    m.def(
        "histogram",
        [](const py::object& values, int num_bins) {
            const auto v = int64_vector(values, "values");
            return analysis::histogram(std::span<const std::int64_t>(v), num_bins);
        },
        py::arg("values"), py::arg("num_bins"),
        "At most num_bins bins of one integer width w = ceil((max - min + 1) / num_bins) from "
        "min (e.g. row lengths 1..573 of memplus in 20 bins).");

    py::class_<analysis::WarpAnalysis>(m, "WarpAnalysis", R"doc(Per-warp work of a kernel
(PELLR §3 eq. 1-2, Kreutzer Fig. 2): consecutive threads grouped into warps; a warp runs as many
loop trips as its busiest thread.

Totals: warp_size, threads, n_iter (PELLR eq. 1: sum of the warps' max trips), n_p (flops of
threads that work: sum of 2*useful-1), useful, idle_slots (trips of existing lanes that touch no
real nonzero), phantom_slots (lanes of a short last warp), stored, stored_padding,
useful_fraction = useful / (warp_size * n_iter). per_warp: dict of NumPy arrays, one entry per
warp (first_thread, threads, max_iterations, useful, idle_slots, phantom_slots, stored,
stored_padding, n_p, useful_fraction).)doc")
        .def_readonly("warp_size", &analysis::WarpAnalysis::warp_size)
        .def_readonly("threads", &analysis::WarpAnalysis::threads)
        .def_readonly("n_iter", &analysis::WarpAnalysis::n_iter)
        .def_readonly("n_p", &analysis::WarpAnalysis::n_p)
        .def_readonly("useful", &analysis::WarpAnalysis::useful)
        .def_readonly("idle_slots", &analysis::WarpAnalysis::idle_slots)
        .def_readonly("phantom_slots", &analysis::WarpAnalysis::phantom_slots)
        .def_readonly("stored", &analysis::WarpAnalysis::stored)
        .def_readonly("stored_padding", &analysis::WarpAnalysis::stored_padding)
        .def_readonly("useful_fraction", &analysis::WarpAnalysis::useful_fraction)
        .def_property_readonly("num_warps",
                               [](const analysis::WarpAnalysis& a) { return a.warps.size(); })
        .def_property_readonly("per_warp", &per_warp)
        .def("__repr__", [](const analysis::WarpAnalysis& a) {
            return "<WarpAnalysis " + std::to_string(a.warps.size()) + " warps of " +
                   std::to_string(a.warp_size) + ": n_iter " + std::to_string(a.n_iter) + ", n_p " +
                   std::to_string(a.n_p) + ", idle " + std::to_string(a.idle_slots) +
                   ", useful_fraction " + std::to_string(a.useful_fraction) + ">";
        });

    m.def(
        "analyze_thread_work",
        [](const py::object& iterations, const py::object& useful, const py::object& stored,
           int warp_size) {
            ThreadWork w;
            w.iterations = int64_vector(iterations, "iterations");
            w.useful = int64_vector(useful, "useful");
            w.stored = stored.is_none() ? w.iterations : int64_vector(stored, "stored");
            return analysis::analyze_warps(w, warp_size);
        },
        py::arg("iterations"), py::arg("useful"), py::arg("stored") = py::none(),
        py::arg("warp_size") = 32,
        "WarpAnalysis of any per-thread work (e.g. an exercise's own kernel mapping): "
        "iterations and useful trips per thread in launch order; stored defaults to "
        "iterations.");

    m.def(
        "_estimate_footprint",
        [](const Matrix& a, const std::string& format, const py::kwargs& kwargs) {
            auto p = params_from(kwargs, "");
            resolve_auto(p, a.csr);
            return analysis::estimate_footprint(a.csr, format, p);
        },
        py::arg("matrix"), py::arg("format"));
    m.def("has_footprint_estimate", &analysis::has_footprint_estimate, py::arg("format"),
          "True when estimate_footprint knows the format.");
    m.def(
        "_ell_footprint", [](const Matrix& a) { return analysis::ell_footprint(a.csr); },
        py::arg("matrix"));
    m.def("data_reduction_percent", &analysis::data_reduction_percent, py::arg("footprint"),
          py::arg("ell"),
          "100 (1 - stored_entries / ELLPACK's stored_entries): Kreutzer Table I's data "
          "reduction against ELLPACK (padding included).");
    m.def("data_reduction_bytes_percent", &analysis::data_reduction_bytes_percent,
          py::arg("footprint"), py::arg("ell"), "The same on total bytes.");

    py::class_<analysis::FormatSummary>(m, "FormatSummary", R"doc(One registered format built
from one matrix (double precision), as `spmvlab formats` prints it: name, title, error ('' when
built; otherwise why not), estimated (True: not built because its estimated footprint exceeds
the limit; the footprint numbers are the exact estimate), stored_entries, padding_entries, bytes,
footprint, data_reduction_vs_ell_percent, bytes_reduction_vs_ell_percent (None when undefined),
warp_size, n_iter, n_p, idle_slots, useful_fraction.)doc")
        .def_readonly("name", &analysis::FormatSummary::name)
        .def_readonly("title", &analysis::FormatSummary::title)
        .def_readonly("error", &analysis::FormatSummary::error)
        .def_readonly("estimated", &analysis::FormatSummary::estimated)
        .def_readonly("stored_entries", &analysis::FormatSummary::stored_entries)
        .def_readonly("padding_entries", &analysis::FormatSummary::padding_entries)
        .def_readonly("bytes", &analysis::FormatSummary::bytes)
        .def_readonly("footprint", &analysis::FormatSummary::footprint)
        .def_readonly("data_reduction_vs_ell_percent",
                      &analysis::FormatSummary::data_reduction_vs_ell_percent)
        .def_readonly("bytes_reduction_vs_ell_percent",
                      &analysis::FormatSummary::bytes_reduction_vs_ell_percent)
        .def_readonly("warp_size", &analysis::FormatSummary::warp_size)
        .def_readonly("n_iter", &analysis::FormatSummary::n_iter)
        .def_readonly("n_p", &analysis::FormatSummary::n_p)
        .def_readonly("idle_slots", &analysis::FormatSummary::idle_slots)
        .def_readonly("useful_fraction", &analysis::FormatSummary::useful_fraction)
        .def_property_readonly("ok", &analysis::FormatSummary::ok)
        .def("__repr__", [](const analysis::FormatSummary& s) {
            return "<FormatSummary " + s.name + ": " +
                   (s.ok() ? std::to_string(s.bytes) + " bytes, " +
                                 std::to_string(s.padding_entries) + " padding slots"
                           : s.error) +
                   ">";
        });

    m.def(
        "_summarize",
        [](const Matrix& a, const py::object& names, const py::object& max_bytes,
           const py::kwargs& kwargs) {
            auto p = params_from(kwargs, "");
            resolve_auto(p, a.csr);
            const auto limit = max_bytes_arg(max_bytes);
            std::vector<const FormatInfo*> infos;
            if (names.is_none()) {
                for (const auto& f : formats()) {
                    infos.push_back(&f);
                }
            } else {
                for (const auto& n : names.cast<std::vector<std::string>>()) {
                    infos.push_back(&find_format(n));
                }
            }
            std::vector<analysis::FormatSummary> out;
            py::gil_scoped_release release;
            for (const auto* info : infos) {
                out.push_back(analysis::summarize(*info, a.csr, p, limit));
            }
            return out;
        },
        py::arg("matrix"), py::arg("formats") = py::none(), py::arg("max_bytes") = py::none());
}

}  // namespace spmv::python
