#include <spmv/analysis/summary.hpp>

#include <spmv/memory.hpp>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/warps.hpp>
#include <spmv/error.hpp>

namespace spmv::analysis {

double data_reduction_percent(const Footprint& fmt, const Footprint& ell)
{
    SPMV_EXPECTS(ell.stored_entries > 0,
                 "data reduction vs ELLPACK is undefined: ELLPACK stores no entries");
    return 100.0 * (1.0 - static_cast<double>(fmt.stored_entries) /
                              static_cast<double>(ell.stored_entries));
}

double data_reduction_bytes_percent(const Footprint& fmt, const Footprint& ell)
{
    SPMV_EXPECTS(ell.total_bytes() > 0,
                 "data reduction vs ELLPACK is undefined: ELLPACK needs 0 bytes");
    return 100.0 *
           (1.0 - static_cast<double>(fmt.total_bytes()) / static_cast<double>(ell.total_bytes()));
}

template <typename ValueType, typename IndexType>
Footprint ell_footprint(const Csr<ValueType, IndexType>& a)
{
    const auto len = row_lengths(a);
    const std::int64_t width = len.empty() ? 0 : *std::max_element(len.begin(), len.end());
    Footprint f;
    f.stored_entries = std::int64_t{a.num_rows} * width;  // stride = num_rows (spmv::Ell)
    f.padding_entries = f.stored_entries - nnz(a);
    f.value_bytes = static_cast<std::size_t>(nnz(a)) * sizeof(ValueType);
    f.index_bytes = static_cast<std::size_t>(nnz(a)) * sizeof(IndexType);
    f.padding_bytes =
        static_cast<std::size_t>(f.padding_entries) * (sizeof(ValueType) + sizeof(IndexType));
    return f;
}

std::string format_bytes(double bytes)
{
    return spmv::format_bytes(bytes);
}

namespace {

void add_reductions(FormatSummary& s, const Csr<double, std::int32_t>& a)
{
    const auto ell = ell_footprint(a);
    if (ell.stored_entries > 0) {
        s.data_reduction_vs_ell_percent = data_reduction_percent(s.footprint, ell);
    }
    if (ell.total_bytes() > 0) {
        s.bytes_reduction_vs_ell_percent = data_reduction_bytes_percent(s.footprint, ell);
    }
}

}  // namespace

FormatSummary summarize(const FormatInfo& info, const Csr<double, std::int32_t>& a,
                        const FormatParams& given, std::size_t max_bytes)
{
    SPMV_EXPECTS(given.warp_size >= 1,
                 "summarize: warp size must be >= 1, got " + std::to_string(given.warp_size));
    FormatSummary s;
    FormatParams params;
    try {
        params = resolve_params(info.name, a, given);  // sigma = auto, once, before anything
    } catch (const Error& e) {
        s.name = std::string(info.name);
        s.title = std::string(info.title);
        s.error = e.what();
        return s;
    }
    s.name = std::string(info.name);
    s.title = std::string(info.title);
    s.warp_size = params.warp_size;
    if (max_bytes != static_cast<std::size_t>(-1) && has_footprint_estimate(info.name)) {
        try {
            const auto est = estimate_footprint(a, info.name, params);
            if (est.total_bytes() > max_bytes) {
                s.estimated = true;
                s.footprint = est;
                s.stored_entries = est.stored_entries;
                s.padding_entries = est.padding_entries;
                s.bytes = est.total_bytes();
                add_reductions(s, a);
                s.error = "not built: would need " +
                          format_bytes(static_cast<double>(est.total_bytes())) + " (limit " +
                          format_bytes(static_cast<double>(max_bytes)) + ")";
                return s;
            }
        } catch (const Error& e) {
            // no estimate, no build: the limit could not be checked
            s.error = std::string("not built: no footprint estimate (") + e.what() + ")";
            return s;
        }
    }
    AnyMatrix<double> m;
    WarpAnalysis w;
    try {
        m = info.build_double(a, params);
        w = analyze_warps(m, params.warp_size);
    } catch (const Error& e) {
        s.error = e.what();
        return s;
    } catch (const std::bad_alloc&) {
        s.error = s.title + ": out of memory while building the format";
        return s;
    } catch (const std::length_error& e) {
        s.error = s.title + ": too large to build (" + e.what() + ")";
        return s;
    }
    s.footprint = footprint(m);
    s.stored_entries = s.footprint.stored_entries;
    s.padding_entries = s.footprint.padding_entries;
    s.bytes = s.footprint.total_bytes();
    add_reductions(s, a);
    s.n_iter = w.n_iter;
    s.n_p = w.n_p;
    s.idle_slots = w.idle_slots;
    s.useful_fraction = w.useful_fraction;
    return s;
}

std::vector<FormatSummary> summarize_all(const Csr<double, std::int32_t>& a,
                                         const FormatParams& params, std::size_t max_bytes)
{
    std::vector<FormatSummary> all;
    for (const auto& info : formats()) {
        all.push_back(summarize(info, a, params, max_bytes));
    }
    return all;
}

template Footprint ell_footprint<float, std::int32_t>(const Csr<float, std::int32_t>&);
template Footprint ell_footprint<double, std::int32_t>(const Csr<double, std::int32_t>&);

}  // namespace spmv::analysis
