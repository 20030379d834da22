#pragma once
/// y = alpha A x + beta y from Python: checks and converts x and y, runs `apply` without the GIL
/// and hands the result to NumPy without a copy. Shared by Matrix.spmv, Format.spmv and the
/// GPU's DeviceMatrix.spmv.
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <spmv/error.hpp>

#include "common.hpp"

namespace spmv::python {

/// "original" / "permuted" -> RowOrder.
inline RowOrder row_order(const std::string& s)
{
    if (s == "original") {
        return RowOrder::original;
    }
    if (s == "permuted") {
        return RowOrder::permuted;
    }
    SPMV_THROW(InvalidArgument, "order must be 'original' or 'permuted', not '" + s + "'");
}

/// A 1-D vector of `n` entries of type V from any array-like (converted, never modified).
template <typename V>
std::vector<V> vector_arg(const py::object& v, std::int64_t n, const char* name, const char* what)
{
    // Real numbers only: forcecast would drop a complex vector's imaginary part silently and
    // meets an object array with pybind11's "internal error".
    const py::array raw = py::module_::import("numpy").attr("asarray")(v);
    const char kind = raw.dtype().kind();
    if (kind == 'c') {
        throw py::type_error(std::string(name) +
                             " is complex: SpMV Lab computes with real vectors (pass the real "
                             "and imaginary parts separately)");
    }
    if (raw.size() > 0 && kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b') {
        throw py::type_error(std::string(name) + " must hold real numbers, not " +
                             py::str(raw.dtype()).cast<std::string>());
    }
    const auto a = py::array_t<V, py::array::c_style | py::array::forcecast>::ensure(raw);
    if (!a) {
        throw py::error_already_set();
    }
    if (a.ndim() != 1 || a.size() != n) {
        SPMV_THROW(DimensionMismatch, std::string(name) + " must be a 1-D array of " +
                                          std::to_string(n) + " entries (" + what +
                                          "), got shape " +
                                          py::str(a.attr("shape")).cast<std::string>());
    }
    return std::vector<V>(a.data(), a.data() + a.size());
}

template <typename V, typename Apply>
py::array_t<V> run_spmv(std::int64_t rows, std::int64_t cols, const py::object& x, double alpha,
                        double beta, const py::object& y, Apply&& apply)
{
    const auto xs = vector_arg<V>(x, cols, "x", "the matrix's columns");
    std::vector<V> ys;
    if (y.is_none()) {
        if (beta != 0.0) {
            SPMV_THROW(InvalidArgument, "beta != 0 needs y");
        }
        ys.assign(static_cast<std::size_t>(rows), V{0});
    } else {
        ys = vector_arg<V>(y, rows, "y", "the matrix's rows");
    }
    {
        py::gil_scoped_release release;
        apply(static_cast<V>(alpha), std::span<const V>(xs), static_cast<V>(beta),
              std::span<V>(ys));
    }
    return adopt(std::move(ys));
}

}  // namespace spmv::python
