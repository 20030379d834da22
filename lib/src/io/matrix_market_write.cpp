// The Matrix Market writer (write_matrix_market, matrix_market.hpp): "coordinate real" or
// "pattern", general or (after checking that the matrix is) symmetric, the kept and the new
// comments, and the entries in CSR order with the shortest exact or a given number of digits.
// A file is written through AtomicFile: a failed write leaves the previous file in place.
#include <spmv/io/matrix_market.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include <spmv/error.hpp>
#include <spmv/io/atomic_file.hpp>

namespace spmv::io {
namespace {

/// Appends `v` with `precision` significant digits (0: shortest exact form).
void append_value(std::string& buf, double v, int precision)
{
    char tmp[64];
    const auto r = precision == 0 ? std::to_chars(tmp, tmp + sizeof tmp, v)
                                  : std::to_chars(tmp, tmp + sizeof tmp, v,
                                                  std::chars_format::general, precision);
    buf.append(tmp, r.ptr);
}

void append_int(std::string& buf, std::int64_t v)
{
    char tmp[24];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf.append(tmp, r.ptr);
}

/// The value stored at (i, j), or nullptr.
const double* find_entry(const Csr<double, std::int32_t>& a, std::int32_t i, std::int32_t j)
{
    const auto b = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(i)];
    const auto e = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(i) + 1];
    const auto it = std::lower_bound(b, e, j);
    return (it != e && *it == j) ? &a.values[static_cast<std::size_t>(it - a.col_idxs.begin())]
                                 : nullptr;
}

/// The text of write_matrix_market into `out`; the caller checks the stream.
void write_text(std::ostream& out, const Csr<double, std::int32_t>& a, const WriteOptions& options)
{
    validate(a);
    SPMV_EXPECTS(options.precision >= 0 && options.precision <= 40,
                 "write_matrix_market: precision must be in 0..40");
    if (!options.pattern) {
        for (std::int32_t i = 0; i < a.num_rows; ++i) {
            for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                if (!std::isfinite(a.values[static_cast<std::size_t>(k)])) {
                    SPMV_THROW(InvalidArgument,
                               "write_matrix_market: value at (" + std::to_string(i + 1) + ", " +
                                   std::to_string(a.col_idxs[static_cast<std::size_t>(k)] + 1) +
                                   ") is not finite; Matrix Market files cannot hold NaN/inf");
                }
            }
        }
    }
    std::int64_t count = nnz(a);
    if (options.symmetric) {
        SPMV_EXPECTS(a.num_rows == a.num_cols,
                     "write_matrix_market: a symmetric file needs a square matrix");
        count = 0;
        for (std::int32_t i = 0; i < a.num_rows; ++i) {
            for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                const auto j = a.col_idxs[static_cast<std::size_t>(k)];
                const double* mirror = find_entry(a, j, i);
                const bool ok =
                    mirror && (options.pattern || *mirror == a.values[static_cast<std::size_t>(k)]);
                if (!ok) {
                    SPMV_THROW(InvalidArgument,
                               "write_matrix_market: matrix is not symmetric at (" +
                                   std::to_string(i + 1) + ", " + std::to_string(j + 1) + ")");
                }
                count += j <= i ? 1 : 0;
            }
        }
    }
    std::string buf;
    buf.reserve(std::size_t{1} << 20);
    buf += "%%MatrixMarket matrix coordinate ";
    buf += options.pattern ? "pattern " : "real ";
    buf += options.symmetric ? "symmetric\n" : "general\n";
    for (const auto& kept : options.comments) {  // verbatim, as MatrixMarketInfo holds them
        std::string_view c = kept;
        do {
            const auto nl = c.find('\n');
            auto piece = c.substr(0, nl);
            while (!piece.empty() && piece.back() == '\r') {
                piece.remove_suffix(1);
            }
            buf += '%';
            buf += piece;
            buf += '\n';
            c = nl == std::string_view::npos ? std::string_view{} : c.substr(nl + 1);
        } while (!c.empty());
    }
    if (!options.comment.empty()) {
        std::string_view c = options.comment;
        while (!c.empty()) {
            const auto nl = c.find('\n');
            const auto piece = c.substr(0, nl);
            buf += piece.empty() ? "%\n" : "% " + std::string(piece) + "\n";
            c = nl == std::string_view::npos ? std::string_view{} : c.substr(nl + 1);
        }
    }
    append_int(buf, a.num_rows);
    buf += ' ';
    append_int(buf, a.num_cols);
    buf += ' ';
    append_int(buf, count);
    buf += '\n';
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            const auto j = a.col_idxs[static_cast<std::size_t>(k)];
            if (options.symmetric && j > i) {
                continue;
            }
            append_int(buf, i + 1);
            buf += ' ';
            append_int(buf, j + 1);
            if (!options.pattern) {
                buf += ' ';
                append_value(buf, a.values[static_cast<std::size_t>(k)], options.precision);
            }
            buf += '\n';
            if (buf.size() > (std::size_t{1} << 20) - 256) {
                out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
                buf.clear();
            }
        }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

}  // namespace

void write_matrix_market(std::ostream& out, const Csr<double, std::int32_t>& a,
                         const WriteOptions& options)
{
    write_text(out, a, options);
    out.flush();
    if (!out) {
        SPMV_THROW(Error, "write_matrix_market: write failed");
    }
}

void write_matrix_market(const std::filesystem::path& path, const Csr<double, std::int32_t>& a,
                         const WriteOptions& options)
{
    validate(a);  // before the target is touched
    SPMV_EXPECTS(options.precision >= 0 && options.precision <= 40,
                 "write_matrix_market: precision must be in 0..40");
    AtomicFile out(path);
    write_text(out.stream(), a, options);
    out.commit();  // names the file and the system's reason for a failed write
}

}  // namespace spmv::io
