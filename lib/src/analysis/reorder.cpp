// Symmetric reorderings and their metrics (analysis/reorder.hpp). The orderings themselves live
// in rcm_boost.cpp / rcm_none.cpp (Boost.Graph) and ../metis/nested_dissection_*.cpp (METIS),
// chosen by lib/CMakeLists.txt; this file is the part every build has.
#include <spmv/analysis/reorder.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <numeric>
#include <string>

#include <spmv/analysis/estimate.hpp>
#include <spmv/error.hpp>

namespace spmv::analysis {

std::string_view to_string(Ordering o) noexcept
{
    switch (o) {
        case Ordering::original:
            return "none";
        case Ordering::rcm:
            return "rcm";
        case Ordering::nested_dissection:
            return "nd";
    }
    return "none";
}

std::string_view title(Ordering o) noexcept
{
    switch (o) {
        case Ordering::original:
            return "original";
        case Ordering::rcm:
            return "RCM";
        case Ordering::nested_dissection:
            return "nested dissection (METIS)";
    }
    return "original";
}

Ordering parse_ordering(std::string_view name)
{
    if (name == "none" || name == "original") return Ordering::original;
    if (name == "rcm") return Ordering::rcm;
    if (name == "nd") return Ordering::nested_dissection;
    SPMV_THROW(InvalidArgument, "unknown ordering '" + std::string(name) +
                                    "' (valid: none, rcm, nd)");
}

bool is_available(Ordering o) noexcept
{
    switch (o) {
        case Ordering::original:
            return true;
        case Ordering::rcm:
            return has_rcm();
        case Ordering::nested_dissection:
            return has_nested_dissection();
    }
    return false;
}

namespace {

std::string not_square(const Csr<double, std::int32_t>& a)
{
    return "a symmetric reordering P A P^T needs a square matrix, this one is " +
           std::to_string(a.num_rows) + " x " + std::to_string(a.num_cols) +
           " (rows and columns are permuted alike)";
}

void require_square(const Csr<double, std::int32_t>& a)
{
    if (a.num_rows != a.num_cols) SPMV_THROW(InvalidArgument, not_square(a));
}

/// The metrics of `b` as stored into `r` (everything but the ordering's name and perm).
void measure(const Csr<double, std::int32_t>& b, const FormatParams& params, OrderingReport& r)
{
    r.num_rows = b.num_rows;
    r.nnz = nnz(b);
    r.bandwidth = bandwidth(b);
    r.profile = profile(b);
    r.mean_distance = mean_distance(b);
    r.warp_size = params.warp_size;
    r.x = x_locality(b, params.warp_size);
    r.padding = format_padding(b, params);
}

OrderingReport named_report(Ordering o)
{
    OrderingReport r;
    r.ordering = o;
    r.name = std::string(to_string(o));
    r.title = std::string(title(o));
    return r;
}

}  // namespace

AdjacencyGraph symmetrised_graph(const Csr<double, std::int32_t>& a)
{
    require_square(a);
    const auto n = static_cast<std::size_t>(a.num_rows);
    // Two passes over A: count each vertex's neighbours in A and A^T (both directions of every
    // off-diagonal entry), then fill, sort and drop the duplicates that symmetric entries give.
    std::vector<std::int64_t> count(n + 1, 0);
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            const auto j = a.col_idxs[static_cast<std::size_t>(k)];
            if (j != i) {
                ++count[static_cast<std::size_t>(i) + 1];
                ++count[static_cast<std::size_t>(j) + 1];
            }
        }
    }
    std::partial_sum(count.begin(), count.end(), count.begin());
    std::vector<std::int32_t> all(static_cast<std::size_t>(count[n]));
    std::vector<std::int64_t> next(count.begin(), count.end() - 1);
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            const auto j = a.col_idxs[static_cast<std::size_t>(k)];
            if (j != i) {
                all[static_cast<std::size_t>(next[static_cast<std::size_t>(i)]++)] = j;
                all[static_cast<std::size_t>(next[static_cast<std::size_t>(j)]++)] = i;
            }
        }
    }
    AdjacencyGraph g;
    g.offsets.reserve(n + 1);
    g.neighbours.reserve(all.size());
    for (std::size_t v = 0; v < n; ++v) {
        const auto first = all.begin() + count[v];
        const auto last = all.begin() + count[v + 1];
        std::sort(first, last);
        g.neighbours.insert(g.neighbours.end(), first, std::unique(first, last));
        g.offsets.push_back(static_cast<std::int64_t>(g.neighbours.size()));
    }
    return g;
}

std::vector<std::int32_t> ordering_permutation(const Csr<double, std::int32_t>& a, Ordering o)
{
    // before anything else, so that a rectangular matrix is refused for that reason in every
    // build (not with "needs Boost.Graph" where Boost is missing)
    require_square(a);
    switch (o) {
        case Ordering::rcm:
            return reverse_cuthill_mckee(a);
        case Ordering::nested_dissection:
            return nested_dissection(a);
        case Ordering::original:
            break;
    }
    std::vector<std::int32_t> perm(static_cast<std::size_t>(a.num_rows));
    std::iota(perm.begin(), perm.end(), 0);
    return perm;
}

std::int64_t bandwidth(const Csr<double, std::int32_t>& a)
{
    std::int64_t b = 0;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        if (a.row_ptrs[i] == a.row_ptrs[i + 1]) continue;
        // columns are sorted: the farthest entry is the first or the last one of the row
        const std::int64_t first = a.col_idxs[static_cast<std::size_t>(a.row_ptrs[i])];
        const std::int64_t last = a.col_idxs[static_cast<std::size_t>(a.row_ptrs[i + 1] - 1)];
        b = std::max({b, std::abs(i - first), std::abs(last - i)});
    }
    return b;
}

std::int64_t profile(const Csr<double, std::int32_t>& a)
{
    std::int64_t p = 0;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        if (a.row_ptrs[i] == a.row_ptrs[i + 1]) continue;
        const std::int64_t first = a.col_idxs[static_cast<std::size_t>(a.row_ptrs[i])];
        p += std::max<std::int64_t>(0, i - first);
    }
    return p;
}

double mean_distance(const Csr<double, std::int32_t>& a)
{
    if (a.values.empty()) return 0.0;
    double sum = 0.0;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            sum += static_cast<double>(std::abs(
                static_cast<std::int64_t>(a.col_idxs[static_cast<std::size_t>(k)]) - i));
        }
    }
    return sum / static_cast<double>(a.values.size());
}

XLocality x_locality(const Csr<double, std::int32_t>& a, int warp_size, int sector_bytes,
                     int value_bytes)
{
    SPMV_EXPECTS(warp_size >= 1 && warp_size <= 1024,
                 "x locality: the warp size must lie in [1, 1024], got " +
                     std::to_string(warp_size));
    SPMV_EXPECTS(value_bytes >= 1 && sector_bytes >= value_bytes,
                 "x locality: a sector (" + std::to_string(sector_bytes) +
                     " bytes) must hold at least one value (" + std::to_string(value_bytes) +
                     " bytes)");
    XLocality r;
    std::int64_t ideal = 0;
    std::vector<std::int64_t> sectors;
    sectors.reserve(static_cast<std::size_t>(warp_size));
    for (std::int64_t first = 0; first < a.num_rows; first += warp_size) {
        const auto last = std::min<std::int64_t>(a.num_rows, first + warp_size);
        std::int32_t trips = 0;
        for (auto i = first; i < last; ++i) {
            trips = std::max(trips, a.row_ptrs[static_cast<std::size_t>(i) + 1] -
                                        a.row_ptrs[static_cast<std::size_t>(i)]);
        }
        for (std::int32_t k = 0; k < trips; ++k) {
            sectors.clear();
            for (auto i = first; i < last; ++i) {
                const auto at = a.row_ptrs[static_cast<std::size_t>(i)] + k;
                if (at < a.row_ptrs[static_cast<std::size_t>(i) + 1]) {
                    // byte address / sector size: x starts on a sector boundary
                    sectors.push_back(std::int64_t{a.col_idxs[static_cast<std::size_t>(at)]} *
                                      value_bytes / sector_bytes);
                }
            }
            const auto active = static_cast<std::int64_t>(sectors.size());
            std::sort(sectors.begin(), sectors.end());
            r.sectors += std::unique(sectors.begin(), sectors.end()) - sectors.begin();
            ideal += (active * value_bytes + sector_bytes - 1) / sector_bytes;
            ++r.trips;
        }
    }
    if (r.trips > 0) {
        r.sectors_per_trip = static_cast<double>(r.sectors) / static_cast<double>(r.trips);
        r.ideal_sectors_per_trip = static_cast<double>(ideal) / static_cast<double>(r.trips);
    }
    return r;
}

std::vector<FormatPadding> format_padding(const Csr<double, std::int32_t>& a,
                                          const FormatParams& params)
{
    std::vector<FormatPadding> out;
    for (const auto& info : formats()) {
        FormatPadding f;
        f.name = std::string(info.name);
        f.title = std::string(info.title);
        try {
            // the closed-form estimate is exact (tests/analysis/test_estimate.cpp) and never
            // allocates the layout: ELLPACK of a power-law matrix may not fit in memory
            const auto fp = estimate_footprint(a, info.name, params);
            f.stored_entries = fp.stored_entries;
            f.padding_entries = fp.padding_entries;
            f.padding_share = fp.stored_entries > 0 ? static_cast<double>(fp.padding_entries) /
                                                          static_cast<double>(fp.stored_entries)
                                                    : 0.0;
        } catch (const Error& e) {
            f.error = e.what();  // a format without an estimate or parameters it rejects
        }
        out.push_back(std::move(f));
    }
    return out;
}

OrderingReport report_permutation(const Csr<double, std::int32_t>& a, Ordering o,
                                  std::span<const std::int32_t> perm, const FormatParams& params,
                                  Csr<double, std::int32_t>* permuted)
{
    require_square(a);
    validate_permutation(perm, a.num_rows, "reordering permutation");
    auto r = named_report(o);
    r.perm.assign(perm.begin(), perm.end());
    auto b = permute_symmetric(a, perm);
    measure(b, params, r);
    if (permuted != nullptr) *permuted = std::move(b);
    return r;
}

OrderingReport report_as_given(const Csr<double, std::int32_t>& a, const FormatParams& params)
{
    auto r = named_report(Ordering::original);
    r.perm.resize(static_cast<std::size_t>(a.num_rows));
    std::iota(r.perm.begin(), r.perm.end(), 0);
    measure(a, params, r);
    return r;
}

OrderingReport report_ordering(const Csr<double, std::int32_t>& a, Ordering o,
                               const FormatParams& params, Csr<double, std::int32_t>* permuted)
{
    const auto start = std::chrono::steady_clock::now();
    const auto perm = ordering_permutation(a, o);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    auto r = report_permutation(a, o, perm, params, permuted);
    r.seconds = took.count();
    return r;
}

std::vector<OrderingReport> compare_orderings(const Csr<double, std::int32_t>& a,
                                              const FormatParams& params)
{
    std::vector<OrderingReport> out;
    out.push_back(report_as_given(a, params));  // meaningful for any shape
    for (auto o : {Ordering::rcm, Ordering::nested_dissection}) {
        if (a.num_rows != a.num_cols) {
            auto r = named_report(o);
            r.error = not_square(a);
            out.push_back(std::move(r));
            continue;
        }
        try {
            out.push_back(report_ordering(a, o, params));
        } catch (const NotCompiled& e) {
            auto r = named_report(o);
            r.error = e.what();
            out.push_back(std::move(r));
        }
    }
    return out;
}

}  // namespace spmv::analysis
