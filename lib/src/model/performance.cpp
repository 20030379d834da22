#include <spmv/model/performance.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include <spmv/error.hpp>

namespace spmv::model {
namespace {

// alpha = 1/N_nzr computed by a caller may be off by an ulp or so; accept that much.
constexpr double alpha_tolerance = 1e-12;

std::string num(double v)
{
    std::ostringstream s;
    s.precision(6);
    s << v;
    return s.str();
}

void check_alpha(double n_nzr, double alpha)
{
    const double lo = min_alpha(n_nzr);
    SPMV_EXPECTS(std::isfinite(alpha) && alpha >= lo * (1.0 - alpha_tolerance) &&
                     alpha <= 1.0 + alpha_tolerance,
                 "alpha = " + num(alpha) + " is outside the allowed range [" + num(lo) +
                     ", 1] (1/N_nzr <= alpha <= 1 with N_nzr = " + num(n_nzr) + ")");
}

void check_positive(double v, const char* what)
{
    SPMV_EXPECTS(std::isfinite(v) && v > 0.0,
                 std::string(what) + " must be positive, got " + num(v));
}

// Bytes per row that grow with N_nzr: s_v + s_i + s_v alpha per nonzero.
double bytes_per_nonzero(double alpha, Precision p)
{
    const double sv = value_bytes(p);
    return sv + index_bytes + sv * alpha;
}

// N_nzr solving T_MVM / T_PCI = q for a square matrix (see the header):
// N_nzr (s_v + s_i + s_v alpha) + 2 s_v = 2 s_v q r.
double n_nzr_at_ratio(double q, double r, double alpha, Precision p)
{
    const double sv = value_bytes(p);
    return 2.0 * sv * (q * r - 1.0) / bytes_per_nonzero(alpha, p);
}

double ratio_for_share(double share)
{
    SPMV_EXPECTS(share > 0.0 && share < 1.0, "PCIe share must be in (0, 1), got " + num(share));
    return (1.0 - share) / share;  // share = 1 / (1 + q)
}

}  // namespace

std::string_view to_string(Precision p)
{
    return p == Precision::single_precision ? "SP" : "DP";
}

int value_bytes(Precision p)
{
    return p == Precision::single_precision ? 4 : 8;
}

double min_alpha(double n_nzr)
{
    check_positive(n_nzr, "N_nzr");
    return std::min(1.0, 1.0 / n_nzr);
}

double code_balance(double n_nzr, double alpha, Precision p)
{
    check_alpha(n_nzr, alpha);
    // DP: (8 + 4 + 8 alpha + 16/N_nzr) / 2; SP: (4 + 4 + 4 alpha + 8/N_nzr) / 2.
    return (bytes_per_nonzero(alpha, p) + 2.0 * value_bytes(p) / n_nzr) / 2.0;
}

double device_bytes(double rows, double n_nzr, double alpha, Precision p)
{
    SPMV_EXPECTS(rows >= 0.0, "row count must be >= 0, got " + num(rows));
    check_alpha(n_nzr, alpha);
    return rows * (n_nzr * bytes_per_nonzero(alpha, p) + 2.0 * value_bytes(p));
}

double t_mvm_seconds(double rows, double n_nzr, double alpha, double memory_bandwidth_gbs,
                     Precision p)
{
    check_positive(memory_bandwidth_gbs, "device memory bandwidth (GB/s)");
    return device_bytes(rows, n_nzr, alpha, p) / (memory_bandwidth_gbs * 1e9);
}

double t_pci_seconds(double rows, double cols, double pcie_bandwidth_gbs, Precision p)
{
    check_positive(pcie_bandwidth_gbs, "PCIe bandwidth (GB/s)");
    SPMV_EXPECTS(rows >= 0.0 && cols >= 0.0, "row and column counts must be >= 0");
    return value_bytes(p) * (rows + cols) / (pcie_bandwidth_gbs * 1e9);
}

double n_nzr_at_pcie_share(double share, double bandwidth_ratio, double alpha, Precision p)
{
    check_positive(bandwidth_ratio, "B_GPU / B_PCI");
    SPMV_EXPECTS(std::isfinite(alpha) && alpha > 0.0 && alpha <= 1.0 + alpha_tolerance,
                 "alpha = " + num(alpha) + " is outside (0, 1]");
    return n_nzr_at_ratio(ratio_for_share(share), bandwidth_ratio, alpha, p);
}

double n_nzr_at_pcie_share_perfect_reuse(double share, double bandwidth_ratio, Precision p)
{
    check_positive(bandwidth_ratio, "B_GPU / B_PCI");
    // alpha = 1/N_nzr: N_nzr (s_v + s_i) + s_v + 2 s_v = 2 s_v q r.
    const double sv = value_bytes(p);
    const double q = ratio_for_share(share);
    return (2.0 * sv * q * bandwidth_ratio - 3.0 * sv) / (sv + index_bytes);
}

double kreutzer_eq3_n_nzr(double bandwidth_ratio, double alpha)
{
    return 2.0 * (bandwidth_ratio - 1.0) / (alpha + 1.5);
}

double kreutzer_eq4_n_nzr(double bandwidth_ratio, double alpha)
{
    return (20.0 * bandwidth_ratio - 2.0) / (alpha + 1.5);
}

double n_nzr_at_time_ratio(double q, double bandwidth_ratio, double alpha, Precision p)
{
    check_positive(q, "T_MVM / T_PCI");
    check_positive(bandwidth_ratio, "B_GPU / B_PCI");
    SPMV_EXPECTS(std::isfinite(alpha) && alpha >= 0.0 && alpha <= 1.0 + alpha_tolerance,
                 "alpha = " + num(alpha) + " is outside [0, 1]");
    return n_nzr_at_ratio(q, bandwidth_ratio, alpha, p);
}

double n_nzr_at_time_ratio_perfect_reuse(double q, double bandwidth_ratio, Precision p)
{
    check_positive(q, "T_MVM / T_PCI");
    check_positive(bandwidth_ratio, "B_GPU / B_PCI");
    // alpha = 1/N_nzr: N_nzr (s_v + s_i) + s_v + 2 s_v = 2 s_v q r.
    const double sv = value_bytes(p);
    return (2.0 * sv * q * bandwidth_ratio - 3.0 * sv) / (sv + index_bytes);
}

std::string_view to_string(AlphaCase c)
{
    switch (c) {
    case AlphaCase::no_reuse: return "1";
    case AlphaCase::perfect_reuse: return "1/N_nzr";
    case AlphaCase::perfect_reuse_dropped: return "1/N_nzr -> 0";
    }
    return "?";
}

Thresholds kreutzer_thresholds(double bandwidth_ratio, AlphaCase c, Precision p)
{
    Thresholds t;
    t.precision = p;
    t.bandwidth_ratio = bandwidth_ratio;
    t.alpha_case = c;
    // eq. 3: T_MVM = T_PCI (q = 1); eq. 4: T_MVM = 10 T_PCI (q = 10)
    if (c == AlphaCase::perfect_reuse) {
        t.eq3_n_nzr = n_nzr_at_time_ratio_perfect_reuse(1.0, bandwidth_ratio, p);
        t.eq4_n_nzr = n_nzr_at_time_ratio_perfect_reuse(10.0, bandwidth_ratio, p);
    } else {
        const double alpha = c == AlphaCase::no_reuse ? 1.0 : 0.0;
        t.eq3_n_nzr = n_nzr_at_time_ratio(1.0, bandwidth_ratio, alpha, p);
        t.eq4_n_nzr = n_nzr_at_time_ratio(10.0, bandwidth_ratio, alpha, p);
    }
    // Kreutzer §II.B's numbers for the two cases it works out (DP): "alpha = 1 and B_GPU ~ 10
    // B_PCI: N_nzr <= 7 ... N_nzr >~ 80"; "alpha = 1/N_nzr and B_GPU ~ 20 B_PCI: N_nzr <= 25
    // ... N_nzr >~ 266" (25.3 and 265.3 with the alpha term dropped)
    if (p == Precision::double_precision) {
        if (bandwidth_ratio == 10.0 && c == AlphaCase::no_reuse) {
            t.paper_eq3 = 7.0;
            t.paper_eq4 = 80.0;
        } else if (bandwidth_ratio == 20.0 && c == AlphaCase::perfect_reuse_dropped) {
            t.paper_eq3 = 25.0;
            t.paper_eq4 = 266.0;
        }
    }
    return t;
}

std::vector<Thresholds> kreutzer_worked_cases(Precision p)
{
    std::vector<Thresholds> out;
    for (const double r : {10.0, 20.0}) {
        for (const auto c :
             {AlphaCase::no_reuse, AlphaCase::perfect_reuse, AlphaCase::perfect_reuse_dropped}) {
            out.push_back(kreutzer_thresholds(r, c, p));
        }
    }
    return out;
}

Prediction predict(const analysis::RowLengthStats& stats, const GpuProfile& gpu, Precision p,
                   double alpha)
{
    SPMV_EXPECTS(stats.rows > 0 && stats.nnz > 0,
                 "the model needs a matrix with rows and nonzeros (rows = " +
                     std::to_string(stats.rows) + ", nnz = " + std::to_string(stats.nnz) + ")");
    check_positive(gpu.memory_bandwidth_gbs, "device memory bandwidth (GB/s)");
    check_positive(gpu.pcie_bandwidth_gbs, "PCIe bandwidth (GB/s)");
    Prediction r;
    r.profile = gpu.name;
    r.precision = p;
    r.alpha = alpha;
    r.rows = stats.rows;
    r.cols = stats.cols;
    r.nnz = stats.nnz;
    const auto rows = static_cast<double>(stats.rows);
    r.n_nzr = static_cast<double>(stats.nnz) / rows;
    check_alpha(r.n_nzr, alpha);

    r.code_balance = code_balance(r.n_nzr, alpha, p);
    r.device_bytes = device_bytes(rows, r.n_nzr, alpha, p);
    r.pcie_bytes = value_bytes(p) * (rows + static_cast<double>(stats.cols));
    r.t_mvm_s = t_mvm_seconds(rows, r.n_nzr, alpha, gpu.memory_bandwidth_gbs, p);
    r.t_pci_s = t_pci_seconds(rows, static_cast<double>(stats.cols), gpu.pcie_bandwidth_gbs, p);
    const double flops = 2.0 * static_cast<double>(stats.nnz);
    r.gflops = flops / r.t_mvm_s / 1e9;
    r.gflops_with_pcie = flops / (r.t_mvm_s + r.t_pci_s) / 1e9;
    r.pcie_share = r.t_pci_s / (r.t_mvm_s + r.t_pci_s);
    r.peak_gflops = p == Precision::single_precision ? gpu.peak_gflops_sp : gpu.peak_gflops_dp;

    const double ratio = gpu.memory_bandwidth_gbs / gpu.pcie_bandwidth_gbs;
    r.n_nzr_pcie_over_half = n_nzr_at_ratio(1.0, ratio, alpha, p);
    r.n_nzr_pcie_under_tenth = n_nzr_at_ratio(9.0, ratio, alpha, p);
    r.n_nzr_paper_eq4 = n_nzr_at_ratio(10.0, ratio, alpha, p);
    return r;
}

}  // namespace spmv::model
