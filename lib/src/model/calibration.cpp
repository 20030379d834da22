// Fitting and validating the format model (spmv/model/calibration.hpp).
#include <spmv/model/calibration.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <utility>

#include <spmv/error.hpp>

namespace spmv::model {
namespace {

// What a sample contributes once B_L2 is fixed: pred = F + overlap_time(c * crit + lambda * stage,
// memory, q).
struct Term {
    double crit = 0;
    double stage = 0;  // an "_xs" kernel's staging steps beyond the first, at lambda each
    double dram_s = 0;
    double l2_bytes = 0;      // streamed: the matrix, row info, y
    double gather_bytes = 0;  // the x gather, at e_v B_L2
    double warp_trips = 0;
    double warp_bytes = 0;   // the heaviest warp's, at B_w
    double log_measured = 0;
};

// Minimum of f on [lo, hi] by golden-section search (f unimodal enough in practice).
double golden(const std::function<double(double)>& f, double lo, double hi, int steps = 60)
{
    const double g = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = lo, b = hi;
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = f(c), fd = f(d);
    for (int i = 0; i < steps; ++i) {
        if (fc < fd) {
            b = d; d = c; fd = fc; c = b - g * (b - a); fc = f(c);
        } else {
            a = c; c = d; fc = fd; d = a + g * (b - a); fd = f(d);
        }
    }
    return (a + b) / 2.0;
}

// Minimum of f on [lo, hi]: the best of `grid` evenly spaced points first, then golden-section
// search between its neighbours. A loss flat over most of the range (a trip cost below which
// every sample is memory-bound) has no slope for golden() alone to follow.
double scan_golden(const std::function<double(double)>& f, double lo, double hi, int steps,
                   int grid = 24)
{
    int best = 0;
    double best_f = 0;
    for (int i = 0; i <= grid; ++i) {
        const double v = f(lo + (hi - lo) * i / grid);
        if (i == 0 || v < best_f) {
            best = i;
            best_f = v;
        }
    }
    const double a = lo + (hi - lo) * std::max(best - 1, 0) / grid;
    const double b = lo + (hi - lo) * std::min(best + 1, grid) / grid;
    return golden(f, a, b, steps);
}

struct Globals {
    double l2_bps = 0;
    double issue_s = 0;  // tau, seconds per warp trip
    double warp_bps = 0;  // B_w; 0: no heaviest-warp term
    double stage_s = 0;   // lambda, seconds per staging step of x
    double q = 0;         // the overlap exponent (overlap_time); 0: max
};

// e_v's pull toward 1 (per variant, added to the sum of squared log errors): a variant whose
// samples never wait on L2 stays near 1 (the model before e_v) instead of wherever the flat loss
// leaves it; 1e-3 is (ln 1.2)^2 / 33, far below one sample's error at the fitted optimum.
constexpr double e_pull = 1e-3;
// the smallest e_v the search may give (Nsight's L2 busy on an H200 power law: 53-78 %); the
// largest is 1: a gather no faster than the streamed sectors
constexpr double e_min = 0.25;

double loss(const std::vector<Term>& terms, double floor_s, double trip_s, double e,
            const Globals& g)
{
    double sum = 0;
    for (const auto& t : terms) {
        const double mem =
            std::max({t.dram_s, (t.l2_bytes + t.gather_bytes / e) / g.l2_bps,
                      g.issue_s * t.warp_trips,
                      g.warp_bps > 0 ? t.warp_bytes / g.warp_bps : 0.0});
        const double pred = floor_s + overlap_time(trip_s * t.crit + g.stage_s * t.stage, mem, g.q);
        const double err = std::log(pred) - t.log_measured;
        sum += err * err;
    }
    const double le = std::log(e);
    return sum + e_pull * le * le;
}

struct VariantFit {
    double floor_s = 0;
    double trip_s = 0;
    double e = 1;
};

// Per variant: F, c and e (in log space) by alternating golden searches.
VariantFit fit_variant(const std::vector<Term>& terms, const Globals& g, double f0, double c0,
                       double e0, double* out_loss)
{
    double lf = std::log(f0), lc = std::log(c0), le = std::log(std::clamp(e0, e_min, 1.0));
    // F and c first at the starting e_v (the fit before e_v), then all three: e_v let loose
    // from the start would explain a latency-bound variant's time by a slow L2 instead
    auto at = [&](double f, double c, double e) {
        return loss(terms, std::exp(f), std::exp(c), std::exp(e), g);
    };
    for (int round = 0; round < 12; ++round) {
        lf = scan_golden([&](double x) { return at(x, lc, le); }, std::log(0.5e-6), std::log(2e-3), 30);
        lc = scan_golden([&](double x) { return at(lf, x, le); }, std::log(1e-11), std::log(1e-4), 30);
        if (round < 4) continue;
        le = golden([&](double x) { return at(lf, lc, x); }, std::log(e_min), 0.0, 30);
    }
    if (out_loss != nullptr) {
        *out_loss = loss(terms, std::exp(lf), std::exp(lc), std::exp(le), g);
    }
    return {std::exp(lf), std::exp(lc), std::exp(le)};
}

}  // namespace

FormatModelConstants fit(const std::vector<Sample>& samples, const FormatModelConstants& start)
{
    SPMV_EXPECTS(!samples.empty(), "fitting the format model needs measured samples");
    SPMV_EXPECTS(start.bandwidth_gbs > 0, "fitting needs the profile's bandwidth");
    std::map<std::string, std::vector<std::pair<Term, double>>> by_variant;  // term, l2 sectors
    for (const auto& s : samples) {
        SPMV_EXPECTS(s.measured_s > 0, "a measured time must be positive (" + s.matrix + ")");
        if (timed_variant(s.shape, s.precision) != s.shape.variant) {
            continue;  // an "_xs" kernel that ran the plain one (x too large): not its constants
        }
        Term t;
        t.crit = static_cast<double>(latency_trips(s.shape, s.precision));
        t.stage = static_cast<double>(extra_stage_steps(s.shape, s.precision));
        t.dram_s = dram_bytes(s.shape, s.precision) / (start.bandwidth_gbs * 1e9);
        t.gather_bytes = l2_gather_sectors(s.shape, s.precision) * 32.0;
        t.l2_bytes = l2_sectors(s.shape, s.precision) * 32.0 - t.gather_bytes;
        t.warp_trips = static_cast<double>(s.shape.warp_trips);
        t.warp_bytes = warp_sectors(s.shape, s.precision) * 32.0;
        t.log_measured = std::log(s.measured_s);
        by_variant[s.shape.variant].push_back({t, 0});
    }
    std::map<std::string, std::vector<Term>> terms;
    for (auto& [v, list] : by_variant) {
        for (auto& [t, unused] : list) terms[v].push_back(t);
    }
    FormatModelConstants best = start;
    double best_total = 0;
    auto total_for = [&](const Globals& g, FormatModelConstants* into) {
        double total = 0;
        for (const auto& [v, list] : terms) {
            const auto* k0 = start.find(v);
            double l = 0;
            const auto vf = fit_variant(list, g, k0 ? k0->floor_us * 1e-6 : 5e-6,
                                        k0 ? k0->trip_ns * 1e-9 : 5e-8,
                                        k0 ? k0->l2_efficiency : 1.0, &l);
            total += l;
            if (into != nullptr) {
                bool found = false;
                for (auto& k : into->kernels) {
                    if (k.variant == v) {
                        k.floor_us = vf.floor_s * 1e6;
                        k.trip_ns = vf.trip_s * 1e9;
                        k.l2_efficiency = vf.e;
                        found = true;
                    }
                }
                if (!found) {
                    into->kernels.push_back({v, vf.floor_s * 1e6, vf.trip_s * 1e9, vf.e});
                }
            }
        }
        return total;
    };
    // The four device-wide constants (B_L2, tau, B_w, lambda) by alternating golden searches
    // (log space), each variant's F_v, c_v and e_v refitted inside every evaluation.
    Globals g{start.l2_gbs > 0 ? start.l2_gbs * 1e9 : 2.5 * start.bandwidth_gbs * 1e9,
              start.issue_ps > 0 ? start.issue_ps * 1e-12 : 1e-11,
              start.warp_gbs > 0 ? start.warp_gbs * 1e9 : start.bandwidth_gbs * 1e9 / 100.0,
              start.stage_ns > 0 ? start.stage_ns * 1e-9 : 2e-7,
              start.overlap_q > 0 ? start.overlap_q : 4.0};
    // lambda only where some sample stages x in more than one step (else it is not identifiable
    // and stays at its start)
    const bool staging = std::any_of(terms.begin(), terms.end(), [](const auto& v) {
        return std::any_of(v.second.begin(), v.second.end(), [](const Term& t) { return t.stage > 0; });
    });
    // B_w, one warp's sector rate at full occupancy, between B_GPU / 2000 and B_GPU / 5 (fitted
    // 8.2-9.4 GB/s on the H100 and H200 with latency added to memory, about B_GPU / 370 to / 450;
    // 4.5-4.9 under their max)
    // one device-wide constant by golden search in log space, the others held
    auto search = [&](double Globals::*field, double lo, double hi) {
        g.*field = std::exp(golden(
            [&](double x) {
                Globals at = g;
                at.*field = std::exp(x);
                return total_for(at, nullptr);
            },
            std::log(lo), std::log(hi), 18));
    };
    for (int round = 0; round < 3; ++round) {
        search(&Globals::l2_bps, start.bandwidth_gbs * 1e9 * 0.5, start.bandwidth_gbs * 1e9 * 8.0);
        search(&Globals::issue_s, 1e-14, 1e-9);
        search(&Globals::warp_bps, start.bandwidth_gbs * 1e9 / 2000.0, start.bandwidth_gbs * 1e9 / 5.0);
        // lambda between 10 ns and 2 us (a dependent L2 read: 0.2 us on the H200)
        if (staging) search(&Globals::stage_s, 1e-8, 2e-6);
        // q between 1 (latency and memory in series) and 64 (within 1.1 % of their max)
        search(&Globals::q, 1.0, 64.0);
    }
    best_total = total_for(g, &best);
    (void)best_total;
    // identifiable: B_L2 prices every kernel's streamed sectors, e_v only its x gather
    best.l2_gbs = g.l2_bps / 1e9;
    best.issue_ps = g.issue_s * 1e12;
    best.warp_gbs = g.warp_bps / 1e9;
    best.stage_ns = staging ? g.stage_s * 1e9 : start.stage_ns;  // not fitted: as given
    best.overlap_q = g.q;
    return best;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b)
{
    SPMV_EXPECTS(a.size() == b.size(), "spearman needs two lists of one length");
    const auto n = a.size();
    if (n < 2) return 1.0;
    auto ranks = [n](const std::vector<double>& x) {
        std::vector<std::size_t> idx(n);
        std::iota(idx.begin(), idx.end(), 0);
        std::sort(idx.begin(), idx.end(), [&](std::size_t i, std::size_t j) { return x[i] < x[j]; });
        std::vector<double> r(n);
        for (std::size_t i = 0; i < n;) {
            std::size_t j = i;
            while (j + 1 < n && x[idx[j + 1]] == x[idx[i]]) ++j;
            const double mean_rank = (static_cast<double>(i) + static_cast<double>(j)) / 2.0;
            for (std::size_t k = i; k <= j; ++k) r[idx[k]] = mean_rank;
            i = j + 1;
        }
        return r;
    };
    const auto ra = ranks(a), rb = ranks(b);
    const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / static_cast<double>(n);
    const double mb = std::accumulate(rb.begin(), rb.end(), 0.0) / static_cast<double>(n);
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sab += (ra[i] - ma) * (rb[i] - mb);
        saa += (ra[i] - ma) * (ra[i] - ma);
        sbb += (rb[i] - mb) * (rb[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 1.0;
}

Validation validate(const std::vector<Sample>& samples, const FormatModelConstants& constants)
{
    Validation v;
    std::map<std::pair<std::string, int>, std::vector<const Sample*>> groups;
    std::vector<double> ratios, abs_logs, correlations;
    for (const auto& s : samples) {
        groups[{s.matrix, static_cast<int>(s.precision)}].push_back(&s);
    }
    for (const auto& [key, list] : groups) {
        ChoiceCheck c;
        c.matrix = key.first;
        c.precision = list.front()->precision;
        std::vector<double> pred, meas;
        double best_pred = 0;
        for (const auto* s : list) {
            if (!s->shape.feasible) continue;
            const double p = predict(s->shape, constants, s->precision).time_s;
            pred.push_back(p);
            meas.push_back(s->measured_s);
            ratios.push_back(p / s->measured_s);
            abs_logs.push_back(std::abs(std::log(p / s->measured_s)));
            if (c.chosen.empty() || p < best_pred) {
                best_pred = p;
                c.chosen = s->shape.variant;
                c.chosen_predicted_s = p;
                c.chosen_measured_s = s->measured_s;
            }
            if (c.fastest.empty() || s->measured_s < c.fastest_measured_s) {
                c.fastest = s->shape.variant;
                c.fastest_measured_s = s->measured_s;
            }
        }
        if (pred.empty()) continue;
        c.variants = static_cast<int>(pred.size());
        c.slowdown = c.chosen_measured_s / c.fastest_measured_s;
        c.prediction_ratio = c.chosen_predicted_s / c.chosen_measured_s;
        c.rank_correlation = spearman(pred, meas);
        c.within_10 = c.slowdown <= 1.10;
        c.predicted_within_25 = std::abs(c.prediction_ratio - 1.0) <= 0.25;
        v.within_10 += c.within_10 ? 1 : 0;
        v.predicted_within_25 += c.predicted_within_25 ? 1 : 0;
        correlations.push_back(c.rank_correlation);
        v.checks.push_back(std::move(c));
    }
    auto median = [](std::vector<double> x) {
        if (x.empty()) return 0.0;
        std::sort(x.begin(), x.end());
        const auto m = x.size() / 2;
        return x.size() % 2 ? x[m] : (x[m - 1] + x[m]) / 2.0;
    };
    v.median_ratio = median(ratios);
    v.median_abs_log_error = median(abs_logs);
    v.median_rank_correlation = median(correlations);
    double worst = 1.0;
    for (const double r : ratios) {
        if (std::max(r, 1.0 / r) > std::max(worst, 1.0 / worst)) worst = r;
    }
    v.worst_ratio = worst;
    return v;
}

}  // namespace spmv::model
