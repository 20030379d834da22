#include <algorithm>
#include <cmath>

#include <spmv/error.hpp>
#include <spmv/viz/model_chart.hpp>

namespace spmv::viz {

ModelCurves model_curves(double memory_bandwidth_gbs, double pcie_bandwidth_gbs, double alpha,
                         model::Precision precision, double n_min, double n_max, int points)
{
    SPMV_EXPECTS(memory_bandwidth_gbs > 0 && pcie_bandwidth_gbs > 0, "bandwidths must be positive");
    SPMV_EXPECTS(n_min > 0 && n_max > n_min, "need 0 < n_min < n_max");
    SPMV_EXPECTS(points >= 2, "need at least two points");
    SPMV_EXPECTS(alpha > 0 && alpha <= 1, "alpha must be in (0, 1]");
    ModelCurves c;
    const double rows = 1e6;  // the share and the rate do not depend on N
    const double ratio = memory_bandwidth_gbs / pcie_bandwidth_gbs;
    for (int i = 0; i < points; ++i) {
        const double n = n_min * std::pow(n_max / n_min, static_cast<double>(i) / (points - 1));
        const double a = std::max(alpha, model::min_alpha(n));
        const double t_mvm = model::t_mvm_seconds(rows, n, a, memory_bandwidth_gbs, precision);
        const double t_pci = model::t_pci_seconds(rows, rows, pcie_bandwidth_gbs, precision);
        c.pcie_share_percent.push_back({n, 100.0 * t_pci / (t_mvm + t_pci)});
        c.gflops.push_back({n, 2.0 * rows * n / t_mvm / 1e9});
    }
    c.n_nzr_half = model::n_nzr_at_pcie_share(0.5, ratio, alpha, precision);
    c.n_nzr_tenth = model::n_nzr_at_pcie_share(0.1, ratio, alpha, precision);
    c.n_nzr_paper_eq4 = model::kreutzer_eq4_n_nzr(ratio, alpha);
    return c;
}

}  // namespace spmv::viz
