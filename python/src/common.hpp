#pragma once
/// Shared pieces of the Python module `spmvlab._spmvlab`: the wrapped host matrix, the wrapped
/// storage format (double or single precision), the module-wide memory budget and the helpers
/// that hand C++ arrays to NumPy.
///
/// Arrays go to NumPy without a copy where the object that owns them lives on: a layout array
/// of a Format is a read-only NumPy view whose `base` is the Python Format object itself, so the
/// view keeps the format alive and nobody can break the layout's invariants by writing into it.
/// Results computed on the fly (thread work, row lengths, y = A x) are moved into a capsule that
/// owns the std::vector: no copy either.
#include <cstdint>
#include <optional>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <spmv/any_matrix.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/memory.hpp>
#include <spmv/registry.hpp>

namespace spmv::python {

namespace py = pybind11;

using CsrD = Csr<double, std::int32_t>;

/// A host matrix in CSR (double values, 32-bit indices), where it came from, and what its
/// Matrix Market file contained (when it was read from one). Python class `Matrix`.
struct Matrix {
    CsrD csr;
    std::string source;                        ///< file path, gen: spec, "triplets", ...
    std::optional<io::MatrixMarketInfo> info;  ///< only for matrices read from a file
};

/// A storage format built from a Matrix. Python class `Format`.
struct Format {
    std::string name;     ///< registry name
    FormatParams params;  ///< the parameters it was built with (sigma resolved)
    std::variant<AnyMatrix<double>, AnyMatrix<float>> m;

    bool single() const noexcept { return m.index() == 1; }
};

// ---- memory budget -----------------------------------------------------------------------

/// The budget every allocation sized by an input is checked against (spmv/memory.hpp). Default:
/// half of the memory available when it is first asked for, and at most 2^24 rows or columns
/// beyond 16 per entry (as the CLI without --max-memory).
MemoryBudget& budget();
MemoryBudget default_budget();

/// Throws MemoryLimitExceeded (Python MemoryLimitError) when `need` bytes exceed the budget.
void require(std::uint64_t need, const std::string& what);

// ---- NumPy helpers -------------------------------------------------------------------------

/// A read-only 1-D NumPy view of `v` whose base object is `owner` (which must keep `v` alive).
template <typename T>
py::array view(const std::vector<T>& v, py::handle owner)
{
    py::array_t<T> a({static_cast<py::ssize_t>(v.size())}, {static_cast<py::ssize_t>(sizeof(T))},
                     v.data(), owner);
    a.attr("flags").attr("writeable") = false;
    return a;
}

/// A 1-D NumPy array that takes ownership of `v` (no copy; a capsule deletes the vector).
template <typename T>
py::array_t<T> adopt(std::vector<T>&& v)
{
    auto* p = new std::vector<T>(std::move(v));
    py::capsule owner(p, [](void* q) { delete static_cast<std::vector<T>*>(q); });
    return py::array_t<T>({static_cast<py::ssize_t>(p->size())},
                          {static_cast<py::ssize_t>(sizeof(T))}, p->data(), owner);
}

/// The parameters in `kwargs` (CLI names "br", "slice", "sigma", "hyb-width" with '_' for '-',
/// or the FormatParams field names "block_rows", "slice_height", ...), checked against their
/// ranges. sigma="auto" is 0. When `format` is not empty, a parameter that format does not read
/// is an error (a typo caught rather than silently ignored). Throws InvalidArgument.
FormatParams params_from(const py::dict& kwargs, const std::string& format);

/// sigma = 0 ("auto") replaced by the window SELL-C-sigma's builder would choose for `a`
/// (spmv::resolve_params, the registry's one place), so that estimates and summaries see the
/// layout that build() makes.
void resolve_auto(FormatParams& p, const CsrD& a);

/// The parameters of `format` (the ones it reads) as {cli name with '_': value}.
py::dict params_dict(const FormatParams& p, const std::string& format);

/// "double" / "float64" / numpy.float64 -> false, "float" / "single" / "float32" -> true.
bool single_precision(const py::object& dtype);

// ---- module parts ----------------------------------------------------------------------------
void bind_errors(py::module_& m);
void bind_matrix(py::module_& m);
void bind_formats(py::module_& m);
void bind_analysis(py::module_& m);
void bind_model(py::module_& m);
void bind_gpu(py::module_& m);

}  // namespace spmv::python
