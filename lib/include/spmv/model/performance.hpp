#pragma once
/// The bandwidth model of Kreutzer et al. §II.B for ELLPACK-like SpMV kernels on a GPU, with
/// the PCIe transfer of the right-hand side x and the result y, in double and single precision.
///
/// Traffic per SpMV (N rows, N_nzr = nnz/N nonzeros per row on average, value size s_v = 8 (DP)
/// or 4 (SP) bytes, index size s_i = 4 bytes, 1/N_nzr <= alpha <= 1 the fraction of x loads
/// that go to memory; alpha = 1: no reuse of x from cache):
///   per nonzero: value s_v + column index s_i + x element s_v * alpha
///   per row:     y element loaded and stored, 2 s_v (rowmax[] / col_start[] are assumed to
///                come from cache, as in the paper)
///   bytes = N [N_nzr (s_v + s_i + s_v alpha) + 2 s_v],  flops = 2 N N_nzr = 2 nnz
/// Code balance = bytes / flops = (s_v + s_i + s_v alpha + 2 s_v / N_nzr) / 2 bytes/flop:
///   DP: (8 + 4 + 8 alpha + 16/N_nzr) / 2   (Kreutzer eq. 1)
///   SP: (4 + 4 + 4 alpha +  8/N_nzr) / 2
/// T_MVM = bytes / B_GPU:
///   DP: N [N_nzr (12 + 8 alpha) + 16] / B_GPU = 8N/B_GPU [N_nzr (alpha + 3/2) + 2]  (eq. 2)
///   SP: N [N_nzr ( 8 + 4 alpha) +  8] / B_GPU = 4N/B_GPU [N_nzr (alpha + 2)   + 2]
/// T_PCI = s_v (N_cols + N_rows) / B_PCI (x to the device, y back):
///   square DP: 16N/B_PCI (eq. 2), square SP: 8N/B_PCI.
/// Predicted kernel performance 2 nnz / T_MVM (= B_GPU / code balance); PCIe share
/// T_PCI / (T_MVM + T_PCI).
///
/// Thresholds (square matrix, r = B_GPU/B_PCI, q = T_MVM/T_PCI; the PCIe share is 1/(1+q)):
///   T_MVM / T_PCI = [N_nzr (s_v + s_i + s_v alpha) + 2 s_v] / (2 s_v r) = q
///   <=> N_nzr = 2 s_v (q r - 1) / (s_v + s_i + s_v alpha)
///   DP: N_nzr = 2 (q r - 1) / (alpha + 3/2),  SP: N_nzr = 2 (q r - 1) / (alpha + 2).
///   share 50 %  <=> q = 1: DP 2 (r - 1)/(alpha + 3/2): exactly Kreutzer eq. 3.
///   share 10 %  <=> q = 9: DP (18 r - 2)/(alpha + 3/2).
///   Kreutzer eq. 4, (20 r - 2)/(alpha + 3/2), is q = 10: "T_MVM >= 10 T_PCI", i.e. the transfer
///   adds at most 10 % to the kernel time, a PCIe share of 1/11 = 9.09 % of the total. Both
///   are provided; the paper's is the stricter one.
///   The paper's worked numbers put alpha = 1/N_nzr (perfect reuse), where alpha depends on
///   N_nzr: N_nzr (s_v + s_i) + 3 s_v = 2 s_v q r, DP N_nzr = (2 q r - 3)/(3/2):
///   r = 20, q = 1: 24.7 ("N_nzr <= 25"); r = 20, q = 10: 264.7 (the paper's "~266" drops the
///   alpha term: (400 - 2)/1.5 = 265.3). kreutzer_worked_cases() lists every case of the paper
///   (`spmvlab model --thresholds` prints them).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/model/gpu_profile.hpp>

namespace spmv::model {

enum class Precision { single_precision, double_precision };

/// "SP" or "DP".
std::string_view to_string(Precision p);

/// Bytes of one matrix/vector value: 4 (SP) or 8 (DP). Indices are always 4 bytes.
int value_bytes(Precision p);
inline constexpr int index_bytes = 4;

/// Smallest meaningful alpha, 1/N_nzr (each x element loaded once), capped at 1 for
/// N_nzr < 1 (fewer nonzeros than rows: no more than one load per nonzero is ever needed).
/// Throws InvalidArgument for n_nzr <= 0.
double min_alpha(double n_nzr);

/// Code balance in bytes/flop (formula above). Throws InvalidArgument for n_nzr <= 0 or alpha
/// outside [min_alpha(n_nzr), 1].
double code_balance(double n_nzr, double alpha, Precision p);

/// Device-memory bytes of one SpMV with `rows` rows (formula above).
double device_bytes(double rows, double n_nzr, double alpha, Precision p);

/// T_MVM in seconds for a device bandwidth in GB/s.
double t_mvm_seconds(double rows, double n_nzr, double alpha, double memory_bandwidth_gbs,
                     Precision p);

/// T_PCI in seconds: x (cols values) to the device and y (rows values) back, PCIe in GB/s.
double t_pci_seconds(double rows, double cols, double pcie_bandwidth_gbs, Precision p);

/// The N_nzr at which the PCIe share T_PCI / (T_MVM + T_PCI) of a square matrix equals
/// `share` (0 < share < 1), for a fixed alpha: the share is above `share` for smaller N_nzr,
/// below for larger. r = B_GPU / B_PCI. The result is <= 0 when even N_nzr -> 0 keeps the share
/// below `share` (PCIe nearly as fast as device memory).
double n_nzr_at_pcie_share(double share, double bandwidth_ratio, double alpha, Precision p);

/// The same with perfect reuse of x, alpha = 1/N_nzr (the paper's "worst case" examples).
double n_nzr_at_pcie_share_perfect_reuse(double share, double bandwidth_ratio, Precision p);

/// Kreutzer eq. 3 (DP): PCIe takes more than 50 % when N_nzr <= 2 (r - 1) / (alpha + 3/2).
double kreutzer_eq3_n_nzr(double bandwidth_ratio, double alpha);

/// Kreutzer eq. 4 (DP): T_MVM >= 10 T_PCI when N_nzr >= (20 r - 2) / (alpha + 3/2).
double kreutzer_eq4_n_nzr(double bandwidth_ratio, double alpha);

/// The N_nzr at which T_MVM = q T_PCI for a square matrix (q = 1: eq. 3, q = 10: eq. 4), for a
/// fixed alpha in [0, 1]: N_nzr = 2 s_v (q r - 1) / (s_v + s_i + s_v alpha). alpha = 0 is the
/// limit of alpha = 1/N_nzr for large N_nzr, the term the paper drops in its worked numbers
/// (DP, q = 10, r = 20: 398 / 1.5 = 265.3). Throws InvalidArgument for q <= 0, r <= 0 or alpha
/// outside [0, 1].
double n_nzr_at_time_ratio(double q, double bandwidth_ratio, double alpha, Precision p);

/// The same with alpha = 1/N_nzr of that very N_nzr (perfect reuse of x, exact):
/// N_nzr (s_v + s_i) + 3 s_v = 2 s_v q r, so N_nzr = (2 q r - 3) s_v / (s_v + s_i)
/// (DP, q = 10, r = 20: 397 / 1.5 = 264.7).
double n_nzr_at_time_ratio_perfect_reuse(double q, double bandwidth_ratio, Precision p);

/// How a threshold takes alpha (Kreutzer §II.B: 1/N_nzr <= alpha <= 1).
enum class AlphaCase {
    no_reuse,               ///< alpha = 1: every load of x goes to memory
    perfect_reuse,          ///< alpha = 1/N_nzr of the threshold's own N_nzr (exact)
    perfect_reuse_dropped,  ///< alpha = 1/N_nzr taken as 0 (large N_nzr): the paper's numbers
};

/// "1", "1/N_nzr", "1/N_nzr -> 0".
std::string_view to_string(AlphaCase c);

/// Kreutzer eq. 3 and eq. 4 for one bandwidth ratio and one alpha case (in SP: the same
/// conditions with the SP traffic, 2 (q r - 1) / (alpha + 2)).
struct Thresholds {
    Precision precision = Precision::double_precision;
    double bandwidth_ratio = 0.0;  ///< r = B_GPU / B_PCI
    AlphaCase alpha_case = AlphaCase::no_reuse;
    double eq3_n_nzr = 0.0;  ///< T_MVM <= T_PCI (PCIe >= 50 % of the time) for N_nzr <= this
    double eq4_n_nzr = 0.0;  ///< T_MVM >= 10 T_PCI (PCIe adds <= 10 %) for N_nzr >= this
    double paper_eq3 = 0.0;  ///< the paper's rounded eq. 3 number for this case (DP), 0: none
    double paper_eq4 = 0.0;  ///< the paper's rounded eq. 4 number for this case (DP), 0: none
};

/// Thresholds for r and an alpha case. Throws InvalidArgument for r <= 0.
Thresholds kreutzer_thresholds(double bandwidth_ratio, AlphaCase c,
                               Precision p = Precision::double_precision);

/// The cases of Kreutzer §II.B's worked numbers: r = 10 and r = 20, each with the three alpha
/// cases (six rows, r ascending, then no_reuse, perfect_reuse, perfect_reuse_dropped). In DP:
///   r = 10, alpha = 1:             eq. 3   7.2  ("N_nzr <= 7")   eq. 4  79.2  ("N_nzr >~ 80")
///   r = 20, alpha = 1/N_nzr -> 0:  eq. 3  25.3  ("N_nzr <= 25")  eq. 4 265.3  ("N_nzr >~ 266")
/// (exact alpha = 1/N_nzr at r = 20: 24.7 and 264.7).
std::vector<Thresholds> kreutzer_worked_cases(Precision p = Precision::double_precision);

/// What the model predicts for one matrix on one GPU.
struct Prediction {
    std::string profile;  ///< GpuProfile::name
    Precision precision = Precision::double_precision;
    double alpha = 1.0;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t nnz = 0;
    double n_nzr = 0.0;                   ///< nnz / rows
    double code_balance = 0.0;            ///< bytes/flop
    double device_bytes = 0.0;            ///< device-memory traffic of one SpMV
    double pcie_bytes = 0.0;              ///< x in + y out
    double t_mvm_s = 0.0;                 ///< kernel time
    double t_pci_s = 0.0;                 ///< transfer time
    double gflops = 0.0;                  ///< 2 nnz / T_MVM / 1e9 (kernel only)
    double gflops_with_pcie = 0.0;        ///< 2 nnz / (T_MVM + T_PCI) / 1e9
    double pcie_share = 0.0;              ///< T_PCI / (T_MVM + T_PCI)
    double peak_gflops = 0.0;             ///< profile's peak at this precision (0: unknown)
    double n_nzr_pcie_over_half = 0.0;    ///< share >= 50 % for N_nzr <= this (= eq. 3)
    double n_nzr_pcie_under_tenth = 0.0;  ///< share <= 10 % for N_nzr >= this (exact)
    double n_nzr_paper_eq4 = 0.0;         ///< T_MVM >= 10 T_PCI for N_nzr >= this (eq. 4, q=10)
};

/// Applies the model to a matrix with the row statistics `stats` (N = rows, N_nzr = ave).
/// The thresholds use r = B_GPU / B_PCI of `gpu` and this precision.
/// Throws InvalidArgument when the matrix has no rows or no nonzeros, when a bandwidth of
/// `gpu` is not positive, or when alpha is outside [min_alpha(N_nzr), 1] (the message gives
/// the allowed range).
Prediction predict(const analysis::RowLengthStats& stats, const GpuProfile& gpu, Precision p,
                   double alpha);

}  // namespace spmv::model
