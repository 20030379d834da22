#pragma once
/// Curves of the model view (Qt-free): what spmv::model predicts as a function of N_nzr, the
/// nonzeros per row, for fixed bandwidths, so that the thresholds of Kreutzer eq. 3 and 4 can
/// be drawn on them.
///
/// For every N_nzr on a logarithmic grid from n_min to n_max:
///   pcie_share_percent = 100 T_PCI / (T_MVM + T_PCI)   (square matrix; independent of N)
///   gflops             = 2 nnz / T_MVM / 1e9          (kernel only, = B_GPU / code balance)
/// with alpha' = max(alpha, min_alpha(N_nzr)): alpha cannot be below 1/N_nzr (each x element
/// is loaded at least once), so a fixed alpha is raised where it would break that bound.
#include <vector>

#include <spmv/model/performance.hpp>
#include <spmv/viz/histogram.hpp>

namespace spmv::viz {

struct ModelCurves {
    std::vector<ChartPoint> pcie_share_percent;  ///< (N_nzr, %)
    std::vector<ChartPoint> gflops;              ///< (N_nzr, GF/s)
    double n_nzr_half = 0.0;                     ///< PCIe share 50 % (Kreutzer eq. 3 for DP)
    double n_nzr_tenth = 0.0;                    ///< PCIe share 10 % (exact)
    double n_nzr_paper_eq4 = 0.0;                ///< Kreutzer eq. 4 (T_MVM >= 10 T_PCI), DP formula
};

/// Throws InvalidArgument for non-positive bandwidths, n_min <= 0, n_max <= n_min, points < 2
/// or alpha outside (0, 1].
ModelCurves model_curves(double memory_bandwidth_gbs, double pcie_bandwidth_gbs, double alpha,
                         model::Precision precision, double n_min, double n_max, int points);

}  // namespace spmv::viz
