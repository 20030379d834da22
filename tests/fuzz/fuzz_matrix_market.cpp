/// libFuzzer target for the Matrix Market reader: spmv::io::read_matrix_market on a stream.
///
/// Every input must end in one of two ways:
/// - rejected with an spmv::Error (malformed text, unsupported kinds, sizes over the memory
///   budget): the expected outcome for most mutations;
/// - accepted, giving a CSR that keeps CSR's invariants, agrees with the MatrixMarketInfo filled
///   in beside it, and survives write_matrix_market + read_matrix_market unchanged.
/// In both cases the outcome must not depend on the thread count or the chunk size (the header
/// promises the same matrix, info and error message for any of them), so every input is also
/// read with one thread and one automatic chunk and the two outcomes compared.
/// Anything else -- another exception type, a crash, a leak, undefined behaviour, a failed
/// check (fuzz_checks.hpp) -- aborts, and libFuzzer keeps the input.
///
/// Input layout. An input whose first byte is '%' is a plain Matrix Market file, read with
/// options derived from its length, so the seed corpus is ordinary .mtx files. Any other first
/// byte is an option byte and the file is the rest (such a file would fail the banner check
/// anyway, so this wastes no input); mutations that insert a byte in front reach it:
///   bits 0-1  ReadOptions::threads = 1 + value (1..4)
///   bits 2-6  ReadOptions::chunk_bytes = 1 + value (1..31 bytes: chunk boundaries every line
///             or two), or 0 (automatic) for 31
///   bit 7     PatternValues::random instead of ones
/// The memory budget (256 MiB, 2^16 unconfirmed rows or columns) keeps a lying size line from
/// making the fuzzer itself run out of memory: such a header must be refused, not obeyed.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <typeinfo>

#include <spmv/error.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/io/matrix_market.hpp>

#include "fuzz_checks.hpp"

namespace {

using Matrix = spmv::Csr<double, std::int32_t>;

/// What one read gave: a matrix and its info, or the error's type and message.
struct Outcome {
    std::optional<Matrix> matrix;
    spmv::io::MatrixMarketInfo info;
    std::string error;             ///< "<dynamic type>: <what()>", empty when a matrix came back
    std::int64_t error_line = -1;  ///< MatrixMarketError::input_line(), -1 for other errors
};

spmv::io::ReadOptions options_from_byte(std::uint8_t b)
{
    spmv::io::ReadOptions options;
    options.threads = 1u + (b & 3u);
    const unsigned chunk = (b >> 2) & 31u;
    options.chunk_bytes = chunk == 31u ? 0 : 1 + chunk;
    options.pattern_values =
        (b & 0x80u) != 0 ? spmv::io::PatternValues::random : spmv::io::PatternValues::ones;
    options.memory.bytes = std::uint64_t{256} << 20;
    options.memory.unconfirmed_dimension = std::int64_t{1} << 16;
    options.memory.origin = "fuzz_matrix_market";
    return options;
}

/// Reads `text`; spmv::Error becomes Outcome::error, every other exception escapes to libFuzzer
/// (an uncaught exception is a crash, which is what it should be reported as).
Outcome read(std::string_view text, const spmv::io::ReadOptions& options)
{
    Outcome out;
    std::istringstream in{std::string(text)};
    try {
        out.matrix = spmv::io::read_matrix_market(in, "fuzz.mtx", &out.info, options);
    } catch (const spmv::MatrixMarketError& e) {
        out.error = std::string(typeid(e).name()) + ": " + e.what();
        out.error_line = e.input_line();
    } catch (const spmv::Error& e) {
        out.error = std::string(typeid(e).name()) + ": " + e.what();
    }
    return out;
}

/// The counts of MatrixMarketInfo must describe the matrix that came back (matrix_market.hpp).
void check_info(const Matrix& a, const spmv::io::MatrixMarketInfo& info)
{
    using spmv::fuzz::check;
    check(info.rows == a.num_rows && info.cols == a.num_cols, "info: rows/cols != matrix size");
    check(info.nnz == spmv::nnz(a), "info: nnz != stored entries");
    const std::int64_t expanded = info.symmetry == spmv::io::Symmetry::general
                                      ? info.entries
                                      : 2 * info.entries - info.diagonal_entries;
    check(info.expanded_entries == expanded, "info: expanded_entries != 2*entries - diagonal");
    check(info.nnz == info.expanded_entries - info.duplicates_summed,
          "info: nnz != expanded_entries - duplicates_summed");
    check(info.symmetry != spmv::io::Symmetry::skew_symmetric || info.diagonal_entries == 0,
          "info: skew-symmetric matrix with diagonal entries");
    std::int64_t zeros = 0;
    for (const double v : a.values) {
        zeros += v == 0.0 ? 1 : 0;
    }
    check(info.explicit_zeros == zeros, "info: explicit_zeros != stored zero values");
}

bool same_info(const spmv::io::MatrixMarketInfo& x, const spmv::io::MatrixMarketInfo& y)
{
    return x.field == y.field && x.symmetry == y.symmetry && x.rows == y.rows && x.cols == y.cols &&
           x.entries == y.entries && x.diagonal_entries == y.diagonal_entries &&
           x.expanded_entries == y.expanded_entries && x.duplicates_summed == y.duplicates_summed &&
           x.explicit_zeros == y.explicit_zeros && x.nnz == y.nnz && x.comments == y.comments;
}

/// write_matrix_market (17 significant digits, general) and read back must give `a` exactly.
void check_round_trip(const Matrix& a, const spmv::io::ReadOptions& options)
{
    std::ostringstream out;
    try {
        spmv::io::write_matrix_market(out, a);
    } catch (const spmv::Error& e) {
        std::fprintf(stderr, "write_matrix_market: %s\n", e.what());
        spmv::fuzz::fail("round trip: the writer refused a matrix the reader returned");
    }
    // The matrix exists already, so its text is bounded by it: no budget for the re-read (the
    // general file of a symmetric input holds twice the entries the first read was budgeted for).
    spmv::io::ReadOptions again = options;
    again.memory = {};
    const Outcome back = read(out.str(), again);
    if (!back.matrix) {
        std::fprintf(stderr, "re-read: %s\n", back.error.c_str());
        spmv::fuzz::fail("round trip: the reader refused what the writer wrote");
    }
    spmv::fuzz::check(*back.matrix == a, "round trip: read(write(A)) != A");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::uint8_t option_byte = static_cast<std::uint8_t>(size);
    if (!text.empty() && text.front() != '%') {
        option_byte = static_cast<std::uint8_t>(text.front());
        text.remove_prefix(1);
    }
    const spmv::io::ReadOptions options = options_from_byte(option_byte);

    const Outcome got = read(text, options);

    spmv::io::ReadOptions serial = options;
    serial.threads = 1;
    serial.chunk_bytes = 0;
    const Outcome reference = read(text, serial);
    if (got.error != reference.error || got.error_line != reference.error_line) {
        std::fprintf(stderr, "threads=%u chunk_bytes=%zu: %s (line %lld)\n", options.threads,
                     options.chunk_bytes, got.error.empty() ? "accepted" : got.error.c_str(),
                     static_cast<long long>(got.error_line));
        std::fprintf(stderr, "threads=1 chunk_bytes=auto: %s (line %lld)\n",
                     reference.error.empty() ? "accepted" : reference.error.c_str(),
                     static_cast<long long>(reference.error_line));
        spmv::fuzz::fail("threads/chunk_bytes changed the outcome");
    }
    if (!got.matrix) {
        return 0;
    }
    spmv::fuzz::check(
        reference.matrix && *reference.matrix == *got.matrix && same_info(reference.info, got.info),
        "threads/chunk_bytes changed the matrix or its info");
    spmv::fuzz::check_csr(*got.matrix);
    check_info(*got.matrix, got.info);
    check_round_trip(*got.matrix, options);
    return 0;
}
