#pragma once
/// What `spmvlab plot` (figures.cpp) and `spmvlab report` (cmd_report.cpp) decide the same
/// way, written once: which of several timed variants of one matrix is the fastest, and how a
/// count of things reads ("1 matrix", "3 matrices").
///
/// The fastest: the shortest median time per SpMV; between equal times, the variant whose
/// name sorts first (byte order: "csr" before "ell", "cusparse_csr_alg1" before
/// "cusparse_csr_alg2"). The rule depends on neither the order of the results in the records
/// nor the order a table is walked in, so the figures and the report name the same winner
/// (docs/plot.md, "Which variant is the fastest"). A time that is not a number or not > 0 is
/// never the fastest.
///
/// Example: faster(1.0, "sell", 1.0, "csr") is false (equal times: "csr" sorts first), and
/// faster(0.9, "sell", 1.0, "csr") is true.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace spmvlab::plot {

/// Whether variant a (median time a) is faster than variant b (median time b), by the rule
/// above. A strict weak order on the times that are > 0; any unit, as long as both use it.
inline bool faster(double time_a, std::string_view name_a, double time_b,
                   std::string_view name_b) noexcept
{
    const bool a_ok = std::isfinite(time_a) && time_a > 0;
    const bool b_ok = std::isfinite(time_b) && time_b > 0;
    if (a_ok != b_ok) return a_ok;
    if (!a_ok) return false;
    if (time_a != time_b) return time_a < time_b;
    return name_a < name_b;
}

/// "1 matrix", "0 matrices", "3 matrices".
inline std::string counted(std::int64_t n, const std::string& one, const std::string& many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace spmvlab::plot
