#pragma once
/// Memory footprint and warp work of every registered format side by side (what the CLI
/// `formats` subcommand and the GUI memory view print), and the data reduction against
/// ELLPACK of Kreutzer Table I (pJDS: DLR1 17.5 %, DLR2 48.0 %, HMEp 36.0 %, sAMG 68.4 %).
///
/// Canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] in double precision:
///   ELLPACK stores 4 x 3 = 12 slots (3 padding), 9*12 + 3*12 = 144 bytes;
///   CSR stores 9 entries: 9*8 + 9*4 + 5*4 (row_ptrs) = 128 bytes;
///   reduction of CSR vs ELLPACK: entries 100 (1 - 9/12) = 25 %, bytes 100 (1 - 128/144) = 11.1 %.
/// Worst case (Kreutzer §II.A): row 0 full, one entry in every other row, N rows:
///   ELLPACK stores N*N, pJDS (b_r) stores (b_r + 1) N - b_r, a reduction of
///   100 (1 - ((b_r + 1) N - b_r) / N^2) %  (N = 1000, b_r = 32: 96.7 %).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/registry.hpp>
#include <spmv/types.hpp>

namespace spmv::analysis {

/// 100 (1 - fmt.stored_entries / ell.stored_entries): the data reduction against ELLPACK on
/// stored value slots (padding included), counting entries as Kreutzer §II.A does (Table I's
/// caption does not say). Negative when the format stores more than ELLPACK. Throws
/// InvalidArgument when ELLPACK stores nothing (all rows empty): the reduction is undefined
/// there.
double data_reduction_percent(const Footprint& fmt, const Footprint& ell);

/// The same on total bytes (values, indices, auxiliary arrays and padding).
/// Throws InvalidArgument when ELLPACK needs 0 bytes.
double data_reduction_bytes_percent(const Footprint& fmt, const Footprint& ell);

/// The footprint ELLPACK (spmv::Ell) would have for `a`, in closed form: N * max stored slots,
/// N * max - nnz of them padding (value + index bytes each), no auxiliary arrays. Works for
/// matrices too large to build as ELLPACK (more than 2^31 - 1 slots); tests check it against
/// footprint(to_ell(a)).
template <typename ValueType, typename IndexType>
Footprint ell_footprint(const Csr<ValueType, IndexType>& a);

/// One registered format built from one matrix (double precision values, 32-bit indices).
struct FormatSummary {
    std::string name;   ///< registry name, e.g. "pjds"
    std::string title;  ///< display name, e.g. "pJDS"
    /// Empty when the format was built. Otherwise why it could not be (e.g. "ELLPACK would
    /// store 4900000000 slots ..."), and every number below is 0 / empty.
    std::string error;
    /// True when the format was NOT built because estimate_footprint (analysis/estimate.hpp)
    /// said it would need more than the memory limit given to summarize(): `error` then reads
    /// "not built: would need X GiB ...", the footprint numbers below (stored, padding, bytes,
    /// footprint, reductions) are the exact estimate, and the warp numbers are 0.
    bool estimated = false;

    std::int64_t stored_entries = 0;
    std::int64_t padding_entries = 0;
    std::size_t bytes = 0;  ///< footprint.total_bytes()
    Footprint footprint;
    /// data_reduction_percent against ELLPACK; empty when ELLPACK stores nothing.
    std::optional<double> data_reduction_vs_ell_percent;
    /// data_reduction_bytes_percent against ELLPACK; empty when ELLPACK needs 0 bytes.
    std::optional<double> bytes_reduction_vs_ell_percent;

    int warp_size = 32;  ///< warp size the numbers below were computed with (params.warp_size)
    std::int64_t n_iter = 0;
    std::int64_t n_p = 0;
    std::int64_t idle_slots = 0;
    double useful_fraction = 0.0;

    bool ok() const noexcept { return error.empty(); }
};

/// Builds `info`'s format from `a` with `params` and summarises it (warps of
/// params.warp_size threads). A format that cannot be built (spmv::Error such as a layout
/// beyond 32-bit slot indices, std::bad_alloc, std::length_error) gives a summary whose
/// `error` says why instead of throwing; any other exception propagates (it is a bug).
/// A format whose estimated footprint (estimate_footprint) exceeds `max_bytes` is not built
/// at all: the summary carries the estimate (FormatSummary::estimated).
FormatSummary summarize(const FormatInfo& info, const Csr<double, std::int32_t>& a,
                        const FormatParams& params,
                        std::size_t max_bytes = static_cast<std::size_t>(-1));

/// summarize() for every registered format, in registry order.
std::vector<FormatSummary> summarize_all(const Csr<double, std::int32_t>& a,
                                         const FormatParams& params,
                                         std::size_t max_bytes = static_cast<std::size_t>(-1));

/// "1.5 GiB", "320 MiB", "12 KiB", "144 B": a byte count for messages (binary units, three
/// significant digits).
std::string format_bytes(double bytes);

}  // namespace spmv::analysis
