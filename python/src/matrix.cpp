/// The host matrix (class Matrix: CSR, double values) and the ways to get one: a Matrix Market
/// file, a generator, triplets. Every way checks the memory budget before it allocates anything
/// whose size the input decides.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <pybind11/stl.h>
#include <sstream>
#include <pybind11/stl/filesystem.h>
#include <span>
#include <string>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/io/matrix_market.hpp>

#include "common.hpp"
#include "spmv_call.hpp"

namespace spmv::python {
namespace {

std::string shape_text(std::int64_t rows, std::int64_t cols)
{
    return std::to_string(rows) + " x " + std::to_string(cols);
}

py::dict info_dict(const io::MatrixMarketInfo& i)
{
    py::dict d;
    d["field"] = std::string(io::to_string(i.field));
    d["symmetry"] = std::string(io::to_string(i.symmetry));
    d["rows"] = i.rows;
    d["cols"] = i.cols;
    d["entries"] = i.entries;
    d["diagonal_entries"] = i.diagonal_entries;
    d["expanded_entries"] = i.expanded_entries;
    d["duplicates_summed"] = i.duplicates_summed;
    d["explicit_zeros"] = i.explicit_zeros;
    d["nnz"] = i.nnz;
    d["comments"] = i.comments;
    return d;
}

io::ReadOptions read_options(const std::string& pattern, std::uint64_t seed, unsigned threads)
{
    io::ReadOptions options;
    if (pattern == "ones") {
        options.pattern_values = io::PatternValues::ones;
    } else if (pattern == "random") {
        options.pattern_values = io::PatternValues::random;
    } else {
        SPMV_THROW(InvalidArgument, "pattern must be 'ones' or 'random', not '" + pattern + "'");
    }
    options.pattern_seed = seed;
    options.threads = threads;
    options.memory = budget();
    return options;
}

Matrix read_file(const std::filesystem::path& path, const std::string& pattern, std::uint64_t seed,
                 unsigned threads)
{
    const auto options = read_options(pattern, seed, threads);
    Matrix m;
    io::MatrixMarketInfo info;
    {
        py::gil_scoped_release release;
        m.csr = io::read_matrix_market(path, &info, options);
    }
    m.source = path.string();
    m.info = std::move(info);
    return m;
}

/// A Matrix Market file's contents already in memory (what spmvlab.load reads from a file
/// object); compressed data is decompressed as from a file. `name` stands for the file in
/// error messages and becomes Matrix.source.
Matrix read_data(const py::bytes& data, const std::string& name, const std::string& pattern,
                 std::uint64_t seed, unsigned threads)
{
    const auto options = read_options(pattern, seed, threads);
    // the text, its copy in the stream, and what the reader builds (checked by the reader)
    std::string text = data;
    require(2 * static_cast<std::uint64_t>(text.size()), "the Matrix Market data of " + name);
    Matrix m;
    io::MatrixMarketInfo info;
    {
        py::gil_scoped_release release;
        std::istringstream in(std::move(text));
        m.csr = io::read_matrix_market(in, name, &info, options);
    }
    m.source = name;
    m.info = std::move(info);
    return m;
}

// ---- pickling: the CSR arrays, the source and the file's info, restored exactly ------------

template <typename T>
py::bytes raw_bytes(const std::vector<T>& v)
{
    return py::bytes(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

template <typename T>
std::vector<T> from_raw(const py::bytes& b, const char* what)
{
    const std::string_view s = b;
    if (s.size() % sizeof(T) != 0) {
        SPMV_THROW(InvalidArgument, std::string("a pickled Matrix's ") + what +
                                        " does not hold whole entries");
    }
    std::vector<T> v(s.size() / sizeof(T));
    std::copy(s.begin(), s.end(), reinterpret_cast<char*>(v.data()));
    return v;
}

py::tuple info_state(const io::MatrixMarketInfo& i)
{
    return py::make_tuple(std::string(io::to_string(i.field)),
                          std::string(io::to_string(i.symmetry)), i.rows, i.cols, i.entries,
                          i.diagonal_entries, i.expanded_entries, i.duplicates_summed,
                          i.explicit_zeros, i.nnz, i.comments, i.collection_name,
                          i.collection_id, i.compression, i.archive_member);
}

io::MatrixMarketInfo info_from_state(const py::tuple& t)
{
    if (t.size() != 15) {
        SPMV_THROW(InvalidArgument, "a pickled Matrix's info has " + std::to_string(t.size()) +
                                        " fields, not 15");
    }
    io::MatrixMarketInfo i;
    const auto field = t[0].cast<std::string>();
    const auto symmetry = t[1].cast<std::string>();
    bool field_ok = false;
    for (auto f : {io::Field::real, io::Field::integer, io::Field::pattern}) {
        if (io::to_string(f) == field) {
            i.field = f;
            field_ok = true;
        }
    }
    bool symmetry_ok = false;
    for (auto s : {io::Symmetry::general, io::Symmetry::symmetric, io::Symmetry::skew_symmetric}) {
        if (io::to_string(s) == symmetry) {
            i.symmetry = s;
            symmetry_ok = true;
        }
    }
    if (!field_ok || !symmetry_ok) {
        SPMV_THROW(InvalidArgument, "a pickled Matrix's info names field '" + field +
                                        "' and symmetry '" + symmetry + "'");
    }
    i.rows = t[2].cast<std::int64_t>();
    i.cols = t[3].cast<std::int64_t>();
    i.entries = t[4].cast<std::int64_t>();
    i.diagonal_entries = t[5].cast<std::int64_t>();
    i.expanded_entries = t[6].cast<std::int64_t>();
    i.duplicates_summed = t[7].cast<std::int64_t>();
    i.explicit_zeros = t[8].cast<std::int64_t>();
    i.nnz = t[9].cast<std::int64_t>();
    i.comments = t[10].cast<std::vector<std::string>>();
    i.collection_name = t[11].cast<std::string>();
    i.collection_id = t[12].cast<std::int64_t>();
    i.compression = t[13].cast<std::string>();
    i.archive_member = t[14].cast<std::string>();
    return i;
}

/// (version, num_rows, num_cols, row_ptrs, col_idxs, values, source, info): the arrays as raw
/// bytes of their C++ types (int32, int32, float64), so the round trip is bit for bit.
py::tuple matrix_state(const Matrix& a)
{
    return py::make_tuple(1, a.csr.num_rows, a.csr.num_cols, raw_bytes(a.csr.row_ptrs),
                          raw_bytes(a.csr.col_idxs), raw_bytes(a.csr.values), a.source,
                          a.info ? py::object(info_state(*a.info)) : py::object(py::none()));
}

/// The Matrix of matrix_state, its CSR validated (a corrupted pickle is refused, not used).
Matrix matrix_from_state(const py::tuple& t)
{
    if (t.size() != 8 || t[0].cast<int>() != 1) {
        SPMV_THROW(InvalidArgument, "not a pickled spmvlab.Matrix of this version (state of " +
                                        std::to_string(t.size()) + " fields)");
    }
    Matrix m;
    m.csr.num_rows = t[1].cast<std::int32_t>();
    m.csr.num_cols = t[2].cast<std::int32_t>();
    const auto rp = t[3].cast<py::bytes>();
    const auto ci = t[4].cast<py::bytes>();
    const auto va = t[5].cast<py::bytes>();
    require(static_cast<std::uint64_t>(std::string_view(rp).size() + std::string_view(ci).size() +
                                       std::string_view(va).size()),
            "an unpickled " + shape_text(m.csr.num_rows, m.csr.num_cols) + " matrix");
    m.csr.row_ptrs = from_raw<std::int32_t>(rp, "row_ptrs");
    m.csr.col_idxs = from_raw<std::int32_t>(ci, "col_idxs");
    m.csr.values = from_raw<double>(va, "values");
    validate(m.csr);
    m.source = t[6].cast<std::string>();
    if (!t[7].is_none()) {
        m.info = info_from_state(t[7].cast<py::tuple>());
    }
    return m;
}

Matrix generate_spec(const gen::Spec& spec, const std::string& source)
{
    Matrix m;
    {
        py::gil_scoped_release release;
        m.csr = gen::generate(spec, budget());
    }
    m.source = source;
    return m;
}

/// The spec string of a generator call, e.g. "gen:pde:size=10" (for Matrix.source).
std::string spec_text(const gen::Spec& s)
{
    std::string t = "gen:" + s.name;
    char sep = ':';
    for (const auto& [k, v] : s.params) {
        std::string num = std::to_string(v);
        if (v == static_cast<double>(static_cast<long long>(v))) {
            num = std::to_string(static_cast<long long>(v));
        }
        t += sep + k + "=" + num;
        sep = ',';
    }
    if (s.seed != 1) {
        t += sep + std::string("seed=") + std::to_string(s.seed);
    }
    return t;
}

using IndexArray = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using ValueArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// CSR from triplets (any order, duplicates summed), after checking the shape, the lengths and
/// the memory the conversion needs.
Matrix from_triplets(const IndexArray& rows, const IndexArray& cols, const ValueArray& values,
                     std::int64_t num_rows, std::int64_t num_cols)
{
    constexpr std::int64_t max_index = std::numeric_limits<std::int32_t>::max();
    if (num_rows < 0 || num_cols < 0 || num_rows > max_index || num_cols > max_index) {
        SPMV_THROW(InvalidArgument, "shape (" + std::to_string(num_rows) + ", " +
                                        std::to_string(num_cols) +
                                        ") is outside [0, 2^31-1] (32-bit indices)");
    }
    if (rows.ndim() != 1 || cols.ndim() != 1 || values.ndim() != 1) {
        SPMV_THROW(InvalidArgument, "rows, cols and values must be 1-D arrays");
    }
    const auto n = rows.size();
    if (cols.size() != n || values.size() != n) {
        SPMV_THROW(InvalidArgument, "rows, cols and values must have equal lengths (got " +
                                        std::to_string(n) + ", " + std::to_string(cols.size()) +
                                        ", " + std::to_string(values.size()) + ")");
    }
    const auto& b = budget();
    if (b.unconfirmed_dimension > 0) {
        const std::int64_t allowed = std::max<std::int64_t>(b.unconfirmed_dimension, 16 * n);
        if (num_rows > allowed || num_cols > allowed) {
            SPMV_THROW(InvalidArgument,
                       "shape (" + std::to_string(num_rows) + ", " + std::to_string(num_cols) +
                           ") declares more rows or columns than " + std::to_string(n) +
                           " entries justify (at most max(2^24, 16 per entry) = " +
                           std::to_string(allowed) +
                           " with the default memory limit; call spmvlab.set_memory_limit(SIZE) "
                           "to lift it)");
        }
    }
    // int32 copies of the indices, the sort order (8 per entry), the CSR (rows + 1 pointers,
    // 12 bytes per entry)
    const auto need = static_cast<std::uint64_t>(n) * (4 + 4 + 8 + 12) +
                      static_cast<std::uint64_t>(num_rows + 1) * 4;
    require(need, "a " + shape_text(num_rows, num_cols) + " matrix from " + std::to_string(n) +
                      " triplets");
    std::vector<std::int32_t> r(static_cast<std::size_t>(n));
    std::vector<std::int32_t> c(static_cast<std::size_t>(n));
    const auto rv = rows.unchecked<1>();
    const auto cv = cols.unchecked<1>();
    for (py::ssize_t k = 0; k < n; ++k) {
        if (rv(k) < 0 || rv(k) >= num_rows || cv(k) < 0 || cv(k) >= num_cols) {
            SPMV_THROW(InvalidArgument, "triplet " + std::to_string(k) + " (" +
                                            std::to_string(rv(k)) + ", " + std::to_string(cv(k)) +
                                            ") is outside the " + shape_text(num_rows, num_cols) +
                                            " matrix");
        }
        r[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(rv(k));
        c[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(cv(k));
    }
    const std::span<const double> v(values.data(), static_cast<std::size_t>(n));
    for (py::ssize_t k = 0; k < n; ++k) {
        if (!std::isfinite(v[static_cast<std::size_t>(k)])) {
            SPMV_THROW(InvalidArgument, "value " + std::to_string(k) + " is not finite");
        }
    }
    Matrix m;
    {
        py::gil_scoped_release release;
        m.csr = csr_from_triplets<double, std::int32_t>(
            static_cast<std::int32_t>(num_rows), static_cast<std::int32_t>(num_cols),
            std::span<const std::int32_t>(r), std::span<const std::int32_t>(c), v);
    }
    m.source = "triplets";
    return m;
}

}  // namespace

void bind_matrix(py::module_& m)
{
    py::class_<Matrix>(m, "Matrix", R"doc(A sparse matrix on the host in CSR (double values,
32-bit indices): what every storage format is built from.

Get one with spmvlab.load(), read_matrix_market(), generate(), from_scipy() or
from_triplets(). The arrays row_ptrs, col_idxs and values are read-only NumPy views (no copy)
that keep the Matrix alive.)doc")
        .def_property_readonly(
            "shape", [](const Matrix& a) { return py::make_tuple(a.csr.num_rows, a.csr.num_cols); })
        .def_property_readonly("num_rows", [](const Matrix& a) { return a.csr.num_rows; })
        .def_property_readonly("num_cols", [](const Matrix& a) { return a.csr.num_cols; })
        .def_property_readonly(
            "nnz", [](const Matrix& a) { return nnz(a.csr); },
            "Stored entries (explicit zeros of a file included).")
        .def_property_readonly(
            "row_ptrs",
            [](py::object self) { return view(self.cast<Matrix&>().csr.row_ptrs, self); },
            "num_rows + 1 offsets: row i holds entries row_ptrs[i] .. row_ptrs[i+1]-1.")
        .def_property_readonly(
            "col_idxs",
            [](py::object self) { return view(self.cast<Matrix&>().csr.col_idxs, self); },
            "Column of every entry, increasing within a row.")
        .def_property_readonly(
            "values", [](py::object self) { return view(self.cast<Matrix&>().csr.values, self); },
            "Value of every entry.")
        .def_property_readonly(
            "source", [](const Matrix& a) { return a.source; },
            "Where the matrix came from: a file, a gen: spec, 'triplets'.")
        .def_property_readonly(
            "info",
            [](const Matrix& a) -> py::object {
                return a.info ? py::object(info_dict(*a.info)) : py::object(py::none());
            },
            "What a Matrix Market file contained (field, symmetry, entries, duplicates_summed, "
            "explicit_zeros, comments, ...), or None when the matrix was not read from a file.")
        .def(
            "row_lengths", [](const Matrix& a) { return adopt(row_lengths(a.csr)); },
            "Entries of every row (int32 array of num_rows).")
        .def(
            "spmv",
            [](const Matrix& a, const py::object& x, double alpha, double beta,
               const py::object& y) {
                return run_spmv<double>(
                    a.csr.num_rows, a.csr.num_cols, x, alpha, beta, y,
                    [&](double al, std::span<const double> xs, double be, std::span<double> ys) {
                        spmv_reference(a.csr, al, xs, be, ys);
                    });
            },
            py::arg("x"), py::arg("alpha") = 1.0, py::arg("beta") = 0.0, py::arg("y") = py::none(),
            R"doc(The CSR reference SpMV: returns alpha * A @ x + beta * y as a new array.

y (needed when beta != 0) is not modified. x must have num_cols entries.)doc")
        .def(
            "to_dense",
            [](const Matrix& a) {
                const auto n = static_cast<std::uint64_t>(a.csr.num_rows) *
                               static_cast<std::uint64_t>(a.csr.num_cols);
                require(n * sizeof(double),
                        "the dense " + shape_text(a.csr.num_rows, a.csr.num_cols) + " matrix");
                py::array_t<double> d({static_cast<py::ssize_t>(a.csr.num_rows),
                                       static_cast<py::ssize_t>(a.csr.num_cols)});
                auto w = d.mutable_unchecked<2>();
                for (py::ssize_t i = 0; i < a.csr.num_rows; ++i) {
                    for (py::ssize_t j = 0; j < a.csr.num_cols; ++j) {
                        w(i, j) = 0.0;
                    }
                    for (auto k = a.csr.row_ptrs[static_cast<std::size_t>(i)];
                         k < a.csr.row_ptrs[static_cast<std::size_t>(i) + 1]; ++k) {
                        w(i, a.csr.col_idxs[static_cast<std::size_t>(k)]) =
                            a.csr.values[static_cast<std::size_t>(k)];
                    }
                }
                return d;
            },
            "A dense NumPy copy (checked against the memory budget).")
        .def(
            "write_matrix_market",
            [](const Matrix& a, const std::filesystem::path& path, bool symmetric, bool pattern,
               int precision, const std::string& comment) {
                io::WriteOptions o;
                o.symmetric = symmetric;
                o.pattern = pattern;
                o.precision = precision;
                o.comment = comment;
                io::write_matrix_market(path, a.csr, o);
            },
            py::arg("path"), py::arg("symmetric") = false, py::arg("pattern") = false,
            py::arg("precision") = 17, py::arg("comment") = "",
            "Writes the matrix as a Matrix Market coordinate file (atomically). precision 17 "
            "(default) reads back bit for bit.")
        .def("__eq__", [](const Matrix& a, const Matrix& b) { return a.csr == b.csr; })
        .def(py::pickle(&matrix_state, &matrix_from_state))
        .def("__repr__", [](const Matrix& a) {
            return "<spmvlab.Matrix " + shape_text(a.csr.num_rows, a.csr.num_cols) + ", nnz " +
                   std::to_string(nnz(a.csr)) + (a.source.empty() ? "" : ", from " + a.source) +
                   ">";
        });

    m.def("read_matrix_market", &read_file, py::arg("path"), py::arg("pattern") = "ones",
          py::arg("seed") = std::uint64_t{0x5eed5eed5eedULL}, py::arg("threads") = 0u,
          R"doc(Reads a coordinate Matrix Market file into a Matrix.

Symmetric and skew-symmetric files are expanded, duplicates summed. pattern: 'ones' (every
entry 1.0) or 'random' (a fixed hash of (row, col, seed) in (0, 1]). threads: parser threads,
0 = all cores. The declared sizes are checked against the memory budget before anything is
allocated. Raises MatrixMarketError (a ValueError; `.line` = the 1-based line) for bad input.
The matrix's `info` tells what the file contained.)doc");

    m.def("_read_matrix_market_data", &read_data, py::arg("data"), py::arg("name"),
          py::arg("pattern") = "ones", py::arg("seed") = std::uint64_t{0x5eed5eed5eedULL},
          py::arg("threads") = 0u,
          "read_matrix_market from the file's contents (bytes); spmvlab.load reads file "
          "objects with it.");

    m.def("_from_triplets", &from_triplets, py::arg("rows"), py::arg("cols"), py::arg("values"),
          py::arg("num_rows"), py::arg("num_cols"),
          "CSR from triplets (use spmvlab.from_triplets, which checks dtypes first).");

    m.def(
        "generate",
        [](const std::string& name, std::uint64_t seed, const py::kwargs& kwargs) {
            gen::Spec spec;
            spec.name = name;
            spec.seed = seed;
            for (auto item : kwargs) {
                auto key = py::str(item.first).cast<std::string>();
                std::replace(key.begin(), key.end(), '_', '-');
                spec.params[key] = item.second.cast<double>();
            }
            return generate_spec(spec, spec_text(spec));
        },
        py::arg("name"), py::arg("seed") = std::uint64_t{1},
        R"doc(Generates a matrix by name: generate("pde", size=10), generate("powerlaw",
rows=1000, max_len=100, seed=3). Parameter names as in `spmvlab generate` with '_' for '-';
generators() lists them with their defaults and ranges. The size is checked against the memory
budget first. Same parameters and seed, same matrix, bit for bit.)doc");

    m.def(
        "_load",
        [](const std::string& source) {
            if (gen::is_spec(source)) {
                return generate_spec(gen::parse_spec(source), source);
            }
            return read_file(source, "ones", 0x5eed5eed5eedULL, 0);
        },
        py::arg("source"),
        "A Matrix from a path string or a gen: spec (use spmvlab.load, which also takes "
        "os.PathLike and file objects).");

    m.def(
        "generators",
        []() {
            py::list out;
            for (const auto& g : gen::generators()) {
                py::dict d;
                d["name"] = std::string(g.name);
                d["title"] = std::string(g.title);
                d["description"] = std::string(g.description);
                d["source"] = std::string(g.source);
                d["uses_seed"] = g.uses_seed;
                py::list ps;
                for (const auto& p : g.params) {
                    py::dict pd;
                    auto key = std::string(p.name);
                    std::replace(key.begin(), key.end(), '-', '_');
                    pd["name"] = key;
                    pd["description"] = std::string(p.description);
                    pd["default"] = p.default_value;
                    pd["min"] = p.min_value;
                    pd["max"] = p.max_value;
                    pd["integer"] = p.integer;
                    ps.append(pd);
                }
                d["params"] = ps;
                out.append(d);
            }
            return out;
        },
        "Every generator as a dict: name, title, description, source, uses_seed, params "
        "(name, description, default, min, max, integer).");
}

}  // namespace spmv::python
