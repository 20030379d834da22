// The format advisor (spmv/model/advisor.hpp).
#include <spmv/model/advisor.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <spmv/analysis/estimate.hpp>
#include <spmv/error.hpp>
#include <spmv/memory.hpp>

namespace spmv::model {
namespace {

std::string num(double v, int digits = 1)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string micro(double s) { return num(s * 1e6, s * 1e6 < 100 ? 2 : 1) + " us"; }

std::string percent(double f) { return num(100.0 * f, f < 0.1 ? 1 : 0) + " %"; }

std::string layout_name(const KernelShape& s)
{
    if (s.format == "sell") {
        return "SELL-" + std::to_string(s.params.slice_height) + "-" +
               std::to_string(s.params.sort_window);
    }
    if (s.format == "pjds") {
        return "pJDS, b_r = " + std::to_string(s.params.block_rows);
    }
    return s.format;
}

}  // namespace

const Recommendation& Advice::best() const
{
    if (ranked.empty() || !ranked.front().candidate) {
        SPMV_THROW(InvalidArgument, "no GPU kernel variant can run this matrix within the limits");
    }
    return ranked.front();
}

std::string Advice::summary() const
{
    const auto& b = best();
    std::string s = b.variant + " (" + b.format + "): " + micro(b.spmv_s) +
                    (b.measured_s > 0 ? " measured" : " predicted") + " per SpMV in " +
                    std::string(to_string(precision)) + " on " + profile;
    if (iterations > 0) {
        s += ", " + micro(b.total_s) + " for setup + " + std::to_string(iterations) + " SpMVs";
    }
    if (ranked.size() > 1 && ranked[1].candidate) {
        const double ratio = iterations > 0 ? ranked[1].total_s / b.total_s : ranked[1].spmv_s / b.spmv_s;
        s += ", " + num(ratio, 2) + "x faster than the next (" + ranked[1].variant + ")";
    }
    if (!b.reasons.empty()) {
        s += "; " + b.reasons.front();
    }
    return s;
}

Advice advise(const Csr<double, std::int32_t>& a, const GpuProfile& gpu,
              const AdvisorOptions& o, const FormatModelConstants* constants_in,
              const std::map<std::string, double>& measured)
{
    SPMV_EXPECTS(o.iterations >= 0, "the number of iterations cannot be negative");
    const auto constants = constants_in != nullptr ? *constants_in : builtin_constants(gpu);
    std::vector<std::string_view> names;
    for (const auto& v : o.variants) names.push_back(v);
    // the one per-format model call every entry point shares (format_model.hpp)
    const auto modelled = predict_variants(a, o.params, gpu, o.precision, names, &constants);

    Advice advice;
    advice.profile = gpu.name;
    advice.precision = o.precision;
    advice.iterations = o.iterations;
    advice.constants_source = constants.source;
    advice.overlap_q = constants.overlap_q;
    const double n = static_cast<double>(a.num_rows);
    const double sort_cost = o.host_ns_per_sort_entry * 1e-9 * n * std::log2(std::max(2.0, n));
    for (const auto& [s, prediction] : modelled) {
        Recommendation r;
        r.variant = s.variant;
        r.format = s.format;
        r.params = s.params;
        r.prediction = prediction;
        r.candidate = s.feasible;
        r.why_not = s.why_not;
        const auto fp = analysis::estimate_footprint(a, s.format, s.params);
        r.footprint_bytes = static_cast<double>(fp.total_bytes());
        if (r.candidate && o.max_format_bytes > 0 && r.footprint_bytes > o.max_format_bytes) {
            r.candidate = false;
            r.why_not = "the layout would need " + format_bytes(r.footprint_bytes) +
                        ", over the limit of " + format_bytes(o.max_format_bytes);
        }
        if (const auto it = measured.find(s.variant); it != measured.end() && it->second > 0) {
            r.measured_s = it->second;
        }
        r.spmv_s = r.measured_s > 0 ? r.measured_s : r.prediction.time_s;
        const double vb = value_bytes(o.precision);
        const double upload = s.stored_slots * (vb + s.index_bytes) + s.extra_index_slots * 4.0 +
                              s.row_info_bytes;
        r.setup_s = o.host_ns_per_slot * 1e-9 * s.stored_slots + (s.permuted ? sort_cost : 0.0) +
                    (s.format == "sell" && s.params.sort_window > 1 ? sort_cost : 0.0) +
                    upload / (gpu.pcie_bandwidth_gbs * 1e9);
        r.total_s = r.setup_s + static_cast<double>(o.iterations) * r.spmv_s;
        r.padding_share = s.stored_slots > 0
                              ? std::max(0.0, (s.stored_slots - static_cast<double>(s.nnz)) / s.stored_slots)
                              : 0.0;
        r.idle_lanes = 1.0 - s.useful_fraction;
        if (const auto* v = find_modelled_variant(s.variant)) r.equivalent = std::string(v->equivalent);
        r.breakeven_iterations = s.permuted ? -1 : 0;

        // Reasons, the binding one first.
        const auto& p = r.prediction;
        if (p.bound == "latency") {
            // an "_xs" kernel that stages x (not one that runs the plain kernel: x too large)
            const bool staged = !s.plain_variant.empty() && timed_variant(s, o.precision) == s.variant;
            const auto trips = std::to_string(latency_trips(s, o.precision));
            r.reasons.push_back("latency-bound: " +
                                (staged ? std::to_string(extra_stage_steps(s, o.precision) + 1) +
                                              " steps of staging x in shared memory and " + trips +
                                              " rounds of the longest row's reads"
                                        : trips + " serial loop trips on the busiest warp") +
                                " (" + micro(p.latency_s) +
                                ") outweigh moving " + format_bytes(p.dram_bytes) + " (" +
                                micro(std::max(p.dram_s, p.l2_s)) + ")");
        } else if (p.bound == "DRAM bandwidth") {
            r.reasons.push_back("bandwidth-bound: moves " + format_bytes(p.dram_bytes) + " (" +
                                micro(p.dram_s) + " at " + num(constants.bandwidth_gbs, 0) +
                                " GB/s)");
        } else if (p.bound == "L2 gather") {
            r.reasons.push_back("gather-bound: " + num(p.l2_sectors / 1e6, 2) +
                                " M sectors of 32 bytes requested from L2 (" + micro(p.l2_s) + ")");
        } else if (p.bound == "heaviest warp") {
            r.reasons.push_back("one warp's rows hold most of the time: its " +
                                num(warp_sectors(s, o.precision) / 1e3, 1) +
                                " k sectors (its share of a full GPU) outlast the rest (" +
                                micro(p.warp_s) + "); a split kernel shares them out");
        } else {
            r.reasons.push_back("issue-bound: " + std::to_string(s.warp_trips) +
                                " warp loop trips, idle lanes included (" + micro(p.issue_s) + ")");
        }
        if (r.padding_share > 0.005) {
            r.reasons.push_back("padding is " + percent(r.padding_share) + " of the " +
                                layout_name(s) + " slots" +
                                (s.loaded_slots > static_cast<double>(s.nnz) ? " (loaded)" : " (not loaded)"));
        }
        if (r.idle_lanes > 0.05) {
            r.reasons.push_back(percent(r.idle_lanes) + " of the lanes' loop trips do no useful work");
        }
        if (s.index_bytes < 4) {
            r.reasons.push_back("16-bit column offsets: 2 index bytes per slot instead of 4");
        }
        const double x_sectors = o.precision == Precision::double_precision ? s.x_sectors_dp : s.x_sectors_sp;
        const double ideal = static_cast<double>(s.nnz) * vb / 32.0;
        if (s.x_staged > 0 && static_cast<double>(s.cols) * vb <= 48.0 * 1024.0) {
            r.reasons.push_back("x staged in shared memory (" + std::to_string(s.cols) + " values)");
        } else if (ideal > 0) {
            r.reasons.push_back("x gather: " + num(x_sectors / static_cast<double>(s.nnz), 2) +
                                " sectors per nonzero (" + num(vb / 32.0, 3) + " if perfectly packed)");
        }
        if (!r.candidate) {
            r.reasons.insert(r.reasons.begin(), "not a candidate: " + r.why_not);
        }
        advice.ranked.push_back(std::move(r));
    }
    // Amortisation of the permutation against the best unpermuted candidate.
    const Recommendation* best_plain = nullptr;
    for (const auto& r : advice.ranked) {
        if (r.candidate && r.breakeven_iterations == 0 && (best_plain == nullptr || r.spmv_s < best_plain->spmv_s)) {
            best_plain = &r;
        }
    }
    if (best_plain != nullptr) {
        const auto plain = *best_plain;
        for (auto& r : advice.ranked) {
            if (r.breakeven_iterations != -1 || !r.candidate) continue;
            const double saved = plain.spmv_s - r.spmv_s;
            if (saved > 0) {
                r.breakeven_iterations = static_cast<std::int64_t>(
                    std::ceil(std::max(0.0, r.setup_s - plain.setup_s) / saved));
                r.reasons.push_back("the row sort pays off after " + std::to_string(r.breakeven_iterations) +
                                    " SpMVs against " + plain.variant + " (" + micro(saved) +
                                    " saved per SpMV, " + micro(r.setup_s - plain.setup_s) + " more setup)");
            } else {
                r.reasons.push_back("the row sort never pays off: not faster than " + plain.variant);
            }
        }
    }
    const bool by_total = o.iterations > 0;
    std::stable_sort(advice.ranked.begin(), advice.ranked.end(),
                     [by_total](const Recommendation& x, const Recommendation& y) {
                         if (x.candidate != y.candidate) return x.candidate;
                         return by_total ? x.total_s < y.total_s : x.spmv_s < y.spmv_s;
                     });
    int rank = 0;
    for (auto& r : advice.ranked) r.rank = r.candidate ? ++rank : 0;
    return advice;
}

}  // namespace spmv::model
