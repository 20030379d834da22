#pragma once
/// Error types of SpMV Lab (STYLE.md 5.4). Every message carries where it was raised, so
/// `what()` alone is enough for a user-facing error line.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace spmv {

/// Base class of every error SpMV Lab throws. The message starts with "file:line: ".
class Error : public std::runtime_error {
public:
    Error(const char* file, int line, const std::string& what);
};

/// Operands of incompatible sizes (x too short, y of the wrong length, ...).
class DimensionMismatch : public Error {
public:
    using Error::Error;
};

/// Malformed Matrix Market input. `input_line()` is the 1-based line in the input file
/// (0 when the error is not tied to one line, e.g. "file ends early").
class MatrixMarketError : public Error {
public:
    MatrixMarketError(const char* file, int line, const std::string& source_name,
                      std::int64_t input_line, const std::string& what);
    std::int64_t input_line() const noexcept { return input_line_; }

private:
    std::int64_t input_line_;
};

/// A format whose arrays break its invariants (raised by validate()).
class InvalidLayout : public Error {
public:
    using Error::Error;
};

/// An invalid argument from a user (bad option value, unknown format name, ...).
class InvalidArgument : public Error {
public:
    using Error::Error;
};

/// A format or kernel that cannot hold this matrix by its design: a layout beyond the 2^31-1
/// slots 32-bit indices address, SELL-C-sigma with 16-bit column offsets on slices spanning
/// more than 65,535 columns. A refusal, not a wrong answer: `verify` reports it as "n/a".
/// An InvalidArgument, so callers that catch those still do.
class NotApplicable : public InvalidArgument {
public:
    using InvalidArgument::InvalidArgument;
};

/// Something would need more memory than the memory budget allows (spmv/memory.hpp), found
/// by an estimate BEFORE anything of that size was allocated. The message names what would be
/// built, its size and the limit.
class MemoryLimitExceeded : public Error {
public:
    MemoryLimitExceeded(const char* file, int line, const std::string& what, std::uint64_t needed,
                        std::uint64_t limit);
    std::uint64_t needed() const noexcept { return needed_; }  ///< bytes the estimate asked for
    std::uint64_t limit() const noexcept { return limit_; }    ///< the budget's bytes

private:
    std::uint64_t needed_;
    std::uint64_t limit_;
};

/// A capability that this build does not have (e.g. GPU kernels in a build without CUDA).
class NotCompiled : public Error {
public:
    using Error::Error;
};

/// An error message as a user reads it: without the C++ source locations ("lib/src/io/
/// matrix_market.cpp:424: ") that Error puts in front of its text, so that what remains names
/// the input, its line and what is wrong ("bad.mtx:4: row index 5 out of range ..."). With
/// SPMVLAB_DEBUG=1 in the environment the message is kept whole. Used by the CLI and the
/// explorer for every error they show.
std::string user_message(const std::string& what);

}  // namespace spmv

/// Precondition check that stays on in every build type: teaching code fails loudly.
#define SPMV_EXPECTS(cond, msg)                                                        \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            throw ::spmv::InvalidArgument(__FILE__, __LINE__,                          \
                                          std::string("precondition failed: ") + (msg)); \
        }                                                                              \
    } while (false)

/// Throws `type` (an spmv::Error subclass) with the current location and message.
#define SPMV_THROW(type, msg) throw type(__FILE__, __LINE__, (msg))

/// Invariant check used by validate(): throws InvalidLayout.
#define SPMV_ENSURE_LAYOUT(cond, msg)                                                  \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            throw ::spmv::InvalidLayout(__FILE__, __LINE__, (msg));                    \
        }                                                                              \
    } while (false)
