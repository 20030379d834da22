/// The format registry from Python: formats(), parameters(), build() and the class Format with
/// its footprint, layout arrays, thread work, warps and reference SpMV.
///
/// The layout arrays are found by name, not per format: every member of a format struct that is
/// a std::vector and carries one of the project's array names (Ginkgo's vocabulary, docs/
/// CONTRIBUTING-helpers.md) is exposed, so a format registered later appears in Python without a
/// change here as long as it uses those names. python/tests/test_spmvlab.py checks for every
/// registered format that the arrays account for every byte of its footprint, so a format with
/// an array of a new name fails that test until the name is added to SPMV_PY_ARRAYS below.
#include <algorithm>
#include <cstdint>
#include <pybind11/stl.h>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/warps.hpp>
#include <spmv/error.hpp>
#include <spmv/registry.hpp>

#include "common.hpp"
#include "spmv_call.hpp"

namespace spmv::python {
namespace {

template <typename T>
struct is_vector : std::false_type {};
template <typename T, typename A>
struct is_vector<std::vector<T, A>> : std::true_type {};

// Array members by name, in the order a teacher reads a layout: permutation and per-row
// arrays, then the pointers into the slots, then the slots themselves.
#define SPMV_PY_ARRAYS(X)                                                                          \
    X(row_perm)                                                                                    \
    X(row_lengths) X(nz_count) X(row_ptrs) X(col_ptrs) X(jd_ptrs) X(slice_ptrs) X(slice_widths)    \
        X(col_start) X(group_ptrs) X(row_idxs) X(col_idxs) X(values) X(ell_col_idxs) X(ell_values) \
            X(coo_row_idxs) X(coo_col_idxs) X(coo_values)

// Scalar members by name.
#define SPMV_PY_SCALARS(X)                                                                   \
    X(num_rows)                                                                              \
    X(num_cols) X(width) X(stride) X(ell_width) X(block_rows) X(padded_rows) X(slice_height) \
        X(sort_window) X(diag_pad) X(warp_size) X(pitch_bytes)

/// The value type of an AnyMatrix<V>.
template <typename Any>
using value_type_of = typename std::variant_alternative_t<0, Any>::value_type;

template <typename F, typename Fn>
void for_each_array(const F& f, Fn&& fn)
{
#define SPMV_PY_ARRAY(name)                                                      \
    if constexpr (requires { f.name; }) {                                        \
        if constexpr (is_vector<std::remove_cvref_t<decltype(f.name)>>::value) { \
            fn(#name, f.name);                                                   \
        }                                                                        \
    }
    SPMV_PY_ARRAYS(SPMV_PY_ARRAY)
#undef SPMV_PY_ARRAY
}

template <typename F, typename Fn>
void for_each_scalar(const F& f, Fn&& fn)
{
#define SPMV_PY_SCALAR(name)                                                         \
    if constexpr (requires { f.name; }) {                                            \
        if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(f.name)>>) { \
            fn(#name, static_cast<long long>(f.name));                               \
        }                                                                            \
    }
    SPMV_PY_SCALARS(SPMV_PY_SCALAR)
#undef SPMV_PY_SCALAR
}

/// Calls fn(const AnyMatrix<V>&) for whichever precision the format holds.
template <typename Fn>
decltype(auto) with_matrix(const Format& f, Fn&& fn)
{
    return std::visit([&](const auto& any) -> decltype(auto) { return fn(any); }, f.m);
}

/// Calls fn(const Xyz<V, int32_t>&) on the concrete format struct.
template <typename Fn>
decltype(auto) with_struct(const Format& f, Fn&& fn)
{
    return with_matrix(f, [&](const auto& any) -> decltype(auto) {
        return std::visit([&](const auto& s) -> decltype(auto) { return fn(s); }, any);
    });
}

std::string shape_text(std::int64_t rows, std::int64_t cols)
{
    return std::to_string(rows) + " x " + std::to_string(cols);
}

Format build_format(const std::string& name, const Matrix& a, bool single, const py::dict& kwargs)
{
    const auto& info = find_format(name);  // InvalidArgument listing the names
    FormatParams p = params_from(kwargs, name);
    resolve_auto(p, a.csr);
    if (analysis::has_footprint_estimate(name)) {
        std::uint64_t need = analysis::estimate_footprint(a.csr, name, p).total_bytes();
        if (single) {  // the float copy of the CSR it is built from
            need += static_cast<std::uint64_t>(nnz(a.csr)) * 8 +
                    static_cast<std::uint64_t>(a.csr.num_rows + 1) * 4;
        }
        require(need, "format '" + name + "' of the " + shape_text(a.csr.num_rows, a.csr.num_cols) +
                          " matrix with " + std::to_string(nnz(a.csr)) + " entries (estimated)");
    }
    Format f;
    f.name = std::string(info.name);
    {
        py::gil_scoped_release release;
        if (single) {
            f.m = build<float>(name, convert_values<float>(a.csr), p);
        } else {
            f.m = build<double>(name, a.csr, p);
        }
    }
    f.params = p;
    return f;
}

py::dict thread_work_dict(const ThreadWork& w)
{
    ThreadWork t = w;
    py::dict d;
    d["iterations"] = adopt(std::move(t.iterations));
    d["useful"] = adopt(std::move(t.useful));
    d["stored"] = adopt(std::move(t.stored));
    return d;
}

}  // namespace

void bind_formats(py::module_& m)
{
    py::class_<Footprint>(m, "Footprint", R"doc(Exact memory footprint of a stored matrix, in bytes,
by role (spmv::Footprint). value_bytes and index_bytes count the REAL entries only; everything a
format stores for its padding slots (values and indices, alignment gaps) is padding_bytes;
aux_bytes holds row pointers, permutations, widths, col_start, ...)doc")
        .def(py::init<>())
        .def_readonly("stored_entries", &Footprint::stored_entries,
                      "Value slots, padding included.")
        .def_readonly("padding_entries", &Footprint::padding_entries,
                      "Value slots that hold padding.")
        .def_readonly("value_bytes", &Footprint::value_bytes)
        .def_readonly("index_bytes", &Footprint::index_bytes)
        .def_readonly("aux_bytes", &Footprint::aux_bytes)
        .def_readonly("padding_bytes", &Footprint::padding_bytes)
        .def_property_readonly("total_bytes", &Footprint::total_bytes)
        .def("as_dict",
             [](const Footprint& f) {
                 py::dict d;
                 d["stored_entries"] = f.stored_entries;
                 d["padding_entries"] = f.padding_entries;
                 d["value_bytes"] = f.value_bytes;
                 d["index_bytes"] = f.index_bytes;
                 d["aux_bytes"] = f.aux_bytes;
                 d["padding_bytes"] = f.padding_bytes;
                 d["total_bytes"] = f.total_bytes();
                 return d;
             })
        .def("__eq__",
             [](const Footprint& a, const Footprint& b) {
                 return a.stored_entries == b.stored_entries &&
                        a.padding_entries == b.padding_entries && a.value_bytes == b.value_bytes &&
                        a.index_bytes == b.index_bytes && a.aux_bytes == b.aux_bytes &&
                        a.padding_bytes == b.padding_bytes;
             })
        .def("__repr__", [](const Footprint& f) {
            return "<Footprint " + std::to_string(f.total_bytes()) + " bytes: stored " +
                   std::to_string(f.stored_entries) + " (padding " +
                   std::to_string(f.padding_entries) + "), values " +
                   std::to_string(f.value_bytes) + ", indices " + std::to_string(f.index_bytes) +
                   ", aux " + std::to_string(f.aux_bytes) + ", padding " +
                   std::to_string(f.padding_bytes) + ">";
        });

    py::class_<FormatInfo>(m, "FormatInfo", "One registered storage format (spmv::FormatInfo).")
        .def_property_readonly(
            "name", [](const FormatInfo& f) { return std::string(f.name); },
            "Registry name, e.g. 'pjds'.")
        .def_property_readonly(
            "title", [](const FormatInfo& f) { return std::string(f.title); },
            "Display name, e.g. 'pJDS'.")
        .def_property_readonly("description",
                               [](const FormatInfo& f) { return std::string(f.description); })
        .def_property_readonly(
            "source", [](const FormatInfo& f) { return std::string(f.source); },
            "Paper and section.")
        .def_property_readonly(
            "permuted", [](const FormatInfo& f) { return f.permuted; },
            "True when the rows are reordered (row_perm present).")
        .def_property_readonly(
            "params",
            [](const FormatInfo& f) {
                FormatParams defaults;
                return params_dict(defaults, std::string(f.name));
            },
            "The parameters it reads, with their defaults, e.g. {'br': 32, 'pjds_pad': 0}.")
        .def("__repr__", [](const FormatInfo& f) {
            return "<FormatInfo " + std::string(f.name) + ": " + std::string(f.description) + ">";
        });

    m.def(
        "formats",
        []() {
            std::vector<const FormatInfo*> v;
            for (const auto& f : formats()) {
                v.push_back(&f);
            }
            return v;
        },
        py::return_value_policy::reference,
        "Every registered storage format (FormatInfo), in the project's teaching order.");
    m.def(
        "format_info", [](const std::string& name) { return &find_format(name); }, py::arg("name"),
        py::return_value_policy::reference,
        "The FormatInfo of one format; InvalidArgumentError listing the names when unknown.");
    m.def(
        "parameters",
        []() {
            py::list out;
            const FormatParams defaults;
            for (const auto& p : parameters()) {
                py::dict d;
                std::string key(p.name);
                std::replace(key.begin(), key.end(), '-', '_');
                d["name"] = key;
                d["cli_name"] = std::string(p.name);
                d["description"] = std::string(p.description);
                d["min"] = p.min_value;
                d["max"] = p.max_value;
                d["default"] = get(defaults, p.id);
                out.append(d);
            }
            return out;
        },
        "The format parameters as dicts: name (keyword for build()), cli_name, description, "
        "min, max, default.");

    py::class_<Format>(m, "Format", R"doc(A storage format built from a Matrix (spmv::AnyMatrix).

Its layout arrays are read-only NumPy views by their C++ names (values, col_idxs, row_ptrs,
row_perm, col_start, slice_ptrs, ...): fmt.arrays is a dict of all of them, fmt.array(name)
one of them; the spmvlab package also allows fmt.col_start. Scalars (width, stride,
block_rows, ...) are in fmt.scalars.)doc")
        .def_property_readonly("name", [](const Format& f) { return f.name; })
        .def_property_readonly(
            "title", [](const Format& f) { return std::string(find_format(f.name).title); })
        .def_property_readonly(
            "description",
            [](const Format& f) { return std::string(find_format(f.name).description); })
        .def_property_readonly("permuted",
                               [](const Format& f) { return find_format(f.name).permuted; })
        .def_property_readonly(
            "params", [](const Format& f) { return params_dict(f.params, f.name); },
            "The parameters it was built with (only the ones this format reads; sigma resolved).")
        .def_property_readonly(
            "dtype",
            [](const Format& f) {
                return f.single() ? py::dtype::of<float>() : py::dtype::of<double>();
            },
            "float64 or float32: the precision of the values.")
        .def_property_readonly("shape",
                               [](const Format& f) {
                                   return with_matrix(f, [](const auto& a) {
                                       return py::make_tuple(num_rows(a), num_cols(a));
                                   });
                               })
        .def_property_readonly(
            "nnz",
            [](const Format& f) { return with_matrix(f, [](const auto& a) { return nnz(a); }); })
        .def_property_readonly(
            "footprint",
            [](const Format& f) {
                return with_matrix(f, [](const auto& a) { return footprint(a); });
            },
            "The exact Footprint of this layout (in its own precision).")
        .def_property_readonly(
            "arrays",
            [](py::object self) {
                py::dict d;
                with_struct(self.cast<Format&>(), [&](const auto& s) {
                    for_each_array(
                        s, [&](const char* name, const auto& v) { d[name] = view(v, self); });
                });
                return d;
            },
            "Every layout array by name, as read-only NumPy views (no copy) that keep the "
            "Format alive. Padding slots hold index -1 and value 0.")
        .def(
            "array",
            [](py::object self, const std::string& name) {
                py::object out = py::none();
                with_struct(self.cast<Format&>(), [&](const auto& s) {
                    for_each_array(s, [&](const char* n, const auto& v) {
                        if (name == n) {
                            out = view(v, self);
                        }
                    });
                });
                if (out.is_none()) {
                    throw py::key_error("format '" + self.cast<Format&>().name +
                                        "' has no array '" + name + "'");
                }
                return out;
            },
            py::arg("name"), "One layout array by name (KeyError when the format has none).")
        .def_property_readonly(
            "scalars",
            [](const Format& f) {
                py::dict d;
                with_struct(f, [&](const auto& s) {
                    for_each_scalar(s, [&](const char* name, long long v) { d[name] = v; });
                });
                return d;
            },
            "The layout's scalar members: num_rows, num_cols, width, stride, block_rows, ...")
        .def_property_readonly(
            "row_perm",
            [](py::object self) -> py::object {
                py::object out = py::none();
                with_struct(self.cast<Format&>(), [&](const auto& s) {
                    if constexpr (requires { s.row_perm; }) {
                        out = view(s.row_perm, self);
                    }
                });
                return out;
            },
            "row_perm[k] = original row stored k-th, or None for a format that keeps the row "
            "order.")
        .def(
            "thread_work",
            [](const Format& f) {
                return thread_work_dict(
                    with_matrix(f, [](const auto& a) { return thread_work(a); }));
            },
            "How the format's GPU kernel spreads the work over threads, in launch order: dict of "
            "int64 arrays iterations, useful, stored (spmv::ThreadWork).")
        .def(
            "warps",
            [](const Format& f, const py::object& warp_size) {
                const int w = warp_size.is_none() ? f.params.warp_size : warp_size.cast<int>();
                return with_matrix(f, [&](const auto& a) { return analysis::analyze_warps(a, w); });
            },
            py::arg("warp_size") = py::none(),
            "Per-warp work and waste of the kernel (WarpAnalysis), warps of warp_size threads "
            "(default: the format's warp parameter, 32).")
        .def(
            "spmv",
            [](const Format& f, const py::object& x, double alpha, double beta, const py::object& y,
               const std::string& order) {
                const auto o = row_order(order);
                return std::visit(
                    [&](const auto& any) -> py::object {
                        using V = value_type_of<std::remove_cvref_t<decltype(any)>>;
                        return run_spmv<V>(num_rows(any), num_cols(any), x, alpha, beta, y,
                                           [&](V al, std::span<const V> xs, V be, std::span<V> ys) {
                                               spmv_reference(any, al, xs, be, ys, o);
                                           });
                    },
                    f.m);
            },
            py::arg("x"), py::arg("alpha") = 1.0, py::arg("beta") = 0.0, py::arg("y") = py::none(),
            py::arg("order") = "original",
            R"doc(The format's host reference SpMV: returns alpha * A @ x + beta * y (new array,
in the format's precision; y, needed when beta != 0, is not modified).

order='original': y[i] is row i of A. order='permuted' (permuted formats): y[k] is row
row_perm[k] of A, the basis the GPU kernel writes before un-permuting (y given with beta != 0
must then be in that basis too).)doc")
        .def(
            "to_matrix",
            [](const Format& f) {
                Matrix a;
                with_matrix(f,
                            [&](const auto& any) { a.csr = convert_values<double>(to_csr(any)); });
                a.source = "to_matrix(" + f.name + ")";
                return a;
            },
            "Back to CSR (a Matrix): the round trip to_matrix(build(fmt, A)) == A is exact.")
        .def(
            "validate", [](const Format& f) { with_matrix(f, [](const auto& a) { validate(a); }); },
            "Checks the layout's invariants; raises InvalidLayoutError when one is broken.")
        .def("__repr__", [](const Format& f) {
            std::string ps;
            auto d = params_dict(f.params, f.name);
            for (auto item : d) {
                ps += ", " + py::str(item.first).cast<std::string>() + "=" +
                      py::str(item.second).cast<std::string>();
            }
            const auto fp = with_matrix(f, [](const auto& a) { return footprint(a); });
            const auto shape =
                with_matrix(f, [](const auto& a) { return shape_text(num_rows(a), num_cols(a)); });
            return "<spmvlab.Format " + f.name + ps + (f.single() ? ", float32" : "") + ": " +
                   shape + ", " + std::to_string(fp.stored_entries) + " slots (" +
                   std::to_string(fp.padding_entries) + " padding), " +
                   std::to_string(fp.total_bytes()) + " bytes>";
        });

    m.def(
        "_build",
        [](const std::string& name, const Matrix& a, const py::object& dtype,
           const py::kwargs& kwargs) {
            return build_format(name, a, single_precision(dtype), kwargs);
        },
        py::arg("name"), py::arg("matrix"), py::arg("dtype") = py::none(),
        "Builds a format from a Matrix (use spmvlab.build, which also takes SciPy matrices).");
}

}  // namespace spmv::python
