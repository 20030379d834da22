#include <catch2/catch.hpp>

#include <string>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>

using namespace spmv;
using namespace spmv::model;
using spmv::analysis::RowLengthStats;

namespace {

constexpr auto dp = Precision::double_precision;
constexpr auto sp = Precision::single_precision;

// Square matrix statistics: only rows, cols and nnz enter the model.
RowLengthStats square(std::int64_t rows, std::int64_t nnz)
{
    RowLengthStats s;
    s.rows = s.cols = rows;
    s.nnz = nnz;
    s.ave = static_cast<double>(nnz) / static_cast<double>(rows);
    return s;
}

}  // namespace

TEST_CASE("code balance matches Kreutzer eq. 1 and its SP variant", "[model]")
{
    // DP, N_nzr = 7, alpha = 1:   (8 + 4 + 8 + 16/7) / 2 = 11.142857 bytes/flop
    CHECK(code_balance(7.0, 1.0, dp) == Approx(11.142857142857));
    // DP, alpha = 1/7 (x loaded once): (12 + 8/7 + 16/7) / 2 = 6 + 12/7 = 7.714286
    CHECK(code_balance(7.0, 1.0 / 7.0, dp) == Approx(7.714285714286));
    // eq. 1 second form: 6 + 4 alpha + 8/N_nzr
    CHECK(code_balance(7.0, 0.5, dp) == Approx(6.0 + 2.0 + 8.0 / 7.0));
    // SP, N_nzr = 7, alpha = 1:   (4 + 4 + 4 + 8/7) / 2 = 6.571429
    CHECK(code_balance(7.0, 1.0, sp) == Approx(6.571428571429));
}

TEST_CASE("T_MVM and T_PCI match Kreutzer eq. 2 for a hand-computed case", "[model]")
{
    // N = 10^6, N_nzr = 7, alpha = 1, B_GPU = 100 GB/s, B_PCI = 10 GB/s
    // DP: T_MVM = 8e6 / 1e11 * (7 * 2.5 + 2) = 8e-5 * 19.5 = 1.56e-3 s
    //     (bytes 1e6 * (7 * (8 + 4 + 8) + 16) = 156e6)
    CHECK(t_mvm_seconds(1e6, 7.0, 1.0, 100.0, dp) == Approx(1.56e-3));
    CHECK(device_bytes(1e6, 7.0, 1.0, dp) == Approx(156e6));
    // SP: T_MVM = 4e6 / 1e11 * (7 * (1 + 2) + 2) = 4e-5 * 23 = 9.2e-4 s (bytes 92e6)
    CHECK(t_mvm_seconds(1e6, 7.0, 1.0, 100.0, sp) == Approx(9.2e-4));
    // T_PCI DP = 16e6 / 1e10 = 1.6e-3 s, SP = 8e6 / 1e10 = 8e-4 s
    CHECK(t_pci_seconds(1e6, 1e6, 10.0, dp) == Approx(1.6e-3));
    CHECK(t_pci_seconds(1e6, 1e6, 10.0, sp) == Approx(8e-4));
    // rectangular: x has cols entries, y rows entries: 8 * (1e6 + 2e6) / 1e10
    CHECK(t_pci_seconds(1e6, 2e6, 10.0, dp) == Approx(2.4e-3));
}

TEST_CASE("predict combines the model terms", "[model]")
{
    const auto gpu = custom("test", 100.0, 10.0, 500.0, 1000.0);

    const auto p = predict(square(1000000, 7000000), gpu, dp, 1.0);

    CHECK(p.n_nzr == 7.0);
    CHECK(p.code_balance == Approx(11.142857142857));
    CHECK(p.t_mvm_s == Approx(1.56e-3));
    CHECK(p.t_pci_s == Approx(1.6e-3));
    CHECK(p.device_bytes == Approx(156e6));
    CHECK(p.pcie_bytes == Approx(16e6));
    // 2 nnz / T_MVM = 14e6 / 1.56e-3 = 8.974 GF/s = B_GPU / code balance = 100 / 11.142857
    CHECK(p.gflops == Approx(8.974358974));
    CHECK(p.gflops == Approx(100.0 / p.code_balance));
    // with PCIe: 14e6 / 3.16e-3 = 4.430 GF/s, share 1.6 / 3.16 = 0.50633
    CHECK(p.gflops_with_pcie == Approx(4.430379747));
    CHECK(p.pcie_share == Approx(0.5063291139));
    CHECK(p.peak_gflops == 500.0);
    // thresholds at r = 10, alpha = 1 (see the next test)
    CHECK(p.n_nzr_pcie_over_half == Approx(7.2));
    CHECK(p.n_nzr_pcie_under_tenth == Approx(71.2));
    CHECK(p.n_nzr_paper_eq4 == Approx(79.2));
}

TEST_CASE("PCIe thresholds: eq. 3 is exactly the 50 % share, eq. 4 is T_MVM = 10 T_PCI", "[model]")
{
    // r = B_GPU/B_PCI = 10, alpha = 1:
    //   eq. 3: 2 (10 - 1) / 2.5 = 7.2       eq. 4: (200 - 2) / 2.5 = 79.2
    //   exact 10 % share (T_MVM = 9 T_PCI): (180 - 2) / 2.5 = 71.2
    CHECK(kreutzer_eq3_n_nzr(10.0, 1.0) == Approx(7.2));
    CHECK(kreutzer_eq4_n_nzr(10.0, 1.0) == Approx(79.2));
    CHECK(n_nzr_at_pcie_share(0.5, 10.0, 1.0, dp) == Approx(7.2));
    CHECK(n_nzr_at_pcie_share(0.1, 10.0, 1.0, dp) == Approx(71.2));
    CHECK(n_nzr_at_pcie_share(1.0 / 11.0, 10.0, 1.0, dp) == Approx(79.2));
    for (const double alpha : {0.05, 0.3, 1.0}) {
        for (const double r : {5.0, 20.0, 54.5}) {
            CHECK(n_nzr_at_pcie_share(0.5, r, alpha, dp) == Approx(kreutzer_eq3_n_nzr(r, alpha)));
        }
    }

    // Plug the thresholds back into T_MVM and T_PCI (N = 1000 rows, B_GPU 100, B_PCI 10):
    const auto gpu = custom("r10", 100.0, 10.0);
    // N_nzr = 7.2: T_MVM = 8e3/1e11 (7.2 * 2.5 + 2) = 1.6e-6 s = T_PCI = 16e3/1e10
    const auto half = predict(square(1000, 7200), gpu, dp, 1.0);
    CHECK(half.t_mvm_s == Approx(1.6e-6));
    CHECK(half.t_pci_s == Approx(1.6e-6));
    CHECK(half.pcie_share == Approx(0.5));
    // N_nzr = 71.2: T_MVM = 8e-8 (178 + 2) = 1.44e-5 = 9 T_PCI: share 0.1
    CHECK(predict(square(1000, 71200), gpu, dp, 1.0).pcie_share == Approx(0.1));
    // N_nzr = 79.2 (eq. 4): T_MVM = 8e-8 * 200 = 1.6e-5 = 10 T_PCI: share 1/11 = 9.09 %
    CHECK(predict(square(1000, 79200), gpu, dp, 1.0).pcie_share == Approx(1.0 / 11.0));
    // on either side of the 50 % threshold
    CHECK(predict(square(1000, 7000), gpu, dp, 1.0).pcie_share > 0.5);
    CHECK(predict(square(1000, 7400), gpu, dp, 1.0).pcie_share < 0.5);
}

TEST_CASE("SP thresholds follow from the SP traffic", "[model]")
{
    // SP: N_nzr = 2 (q r - 1) / (alpha + 2); r = 10, alpha = 1: 50 %: 18/3 = 6; 10 %: 178/3
    CHECK(n_nzr_at_pcie_share(0.5, 10.0, 1.0, sp) == Approx(6.0));
    CHECK(n_nzr_at_pcie_share(0.1, 10.0, 1.0, sp) == Approx(178.0 / 3.0));
    const auto gpu = custom("r10", 100.0, 10.0);
    // N_nzr = 6: T_MVM = 4e3/1e11 (6 * 3 + 2) = 8e-7 = T_PCI = 8e3/1e10
    CHECK(predict(square(1000, 6000), gpu, sp, 1.0).pcie_share == Approx(0.5));
    CHECK(predict(square(3000, 178000), gpu, sp, 1.0).pcie_share == Approx(0.1));
}

TEST_CASE("the model reproduces the paper's worked threshold numbers", "[model]")
{
    // alpha = 1/N_nzr, B_GPU = 20 B_PCI: (2 * 20 - 3) / 1.5 = 24.7 ("N_nzr <= 25")
    CHECK(n_nzr_at_pcie_share_perfect_reuse(0.5, 20.0, dp) == Approx(24.6666667));
    // alpha = 1, B_GPU = 10 B_PCI: 7.2 ("N_nzr <= 7")
    CHECK(kreutzer_eq3_n_nzr(10.0, 1.0) == Approx(7.2));
    // 10 %: alpha = 1, r = 10: 79.2 ("N_nzr >~ 80")
    CHECK(kreutzer_eq4_n_nzr(10.0, 1.0) == Approx(79.2));
    // worst case r = 20, alpha = 1/N_nzr, T_MVM = 10 T_PCI: (400 - 3) / 1.5 = 264.7; the paper's
    // "~266" is eq. 4 with the alpha term dropped: (400 - 2) / 1.5 = 265.3
    CHECK(n_nzr_at_pcie_share_perfect_reuse(1.0 / 11.0, 20.0, dp) == Approx(264.6666667));
    CHECK(kreutzer_eq4_n_nzr(20.0, 0.0) == Approx(265.3333333));
    // the perfect-reuse threshold is a fixed point: at that N_nzr, alpha = 1/N_nzr gives 50 %
    const double n = n_nzr_at_pcie_share_perfect_reuse(0.5, 20.0, dp);
    CHECK(n_nzr_at_pcie_share(0.5, 20.0, 1.0 / n, dp) == Approx(n));
    // Kreutzer §II.B: HMeP (N_nzr ~ 15) and sAMG (~ 7) lose more than half to PCIe on a C2070
    // (r = 120/6 = 20, alpha = 1: threshold 2 * 19 / 2.5 = 15.2)
    const auto& c2070 = find_profile("C2070");
    CHECK(predict(square(100000, 1500000), c2070, dp, 1.0).pcie_share > 0.5);
    CHECK(predict(square(100000, 700000), c2070, dp, 1.0).pcie_share > 0.5);
    CHECK(predict(square(100000, 700000), c2070, dp, 1.0).n_nzr_pcie_over_half == Approx(15.2));
}

TEST_CASE("predict validates alpha, bandwidths and the matrix", "[model]")
{
    const auto gpu = custom("g", 100.0, 10.0);
    const auto s = square(1000, 7000);  // N_nzr = 7: alpha in [1/7, 1]

    CHECK_NOTHROW(predict(s, gpu, dp, 1.0 / 7.0));
    CHECK_NOTHROW(predict(s, gpu, dp, 1.0));
    CHECK_THROWS_WITH(predict(s, gpu, dp, 0.1), Catch::Contains("[0.142857, 1]"));
    CHECK_THROWS_AS(predict(s, gpu, dp, 1.01), InvalidArgument);
    CHECK_THROWS_AS(predict(s, gpu, dp, 0.0), InvalidArgument);
    CHECK_THROWS_AS(code_balance(7.0, 0.1, dp), InvalidArgument);

    auto bad = gpu;
    bad.pcie_bandwidth_gbs = 0.0;
    CHECK_THROWS_AS(predict(s, bad, dp, 1.0), InvalidArgument);
    bad = gpu;
    bad.memory_bandwidth_gbs = -5.0;
    CHECK_THROWS_AS(predict(s, bad, dp, 1.0), InvalidArgument);
    CHECK_THROWS_AS(custom("x", 0.0, 10.0), InvalidArgument);
    CHECK_THROWS_AS(custom("x", 100.0, -1.0), InvalidArgument);
    CHECK_THROWS_AS(predict(square(1000, 0), gpu, dp, 1.0), InvalidArgument);
    CHECK_THROWS_AS(predict(RowLengthStats{}, gpu, dp, 1.0), InvalidArgument);
}

TEST_CASE("min_alpha is 1/N_nzr capped at 1", "[model]")
{
    CHECK(min_alpha(7.0) == Approx(1.0 / 7.0));
    CHECK(min_alpha(1.0) == 1.0);
    CHECK(min_alpha(0.5) == 1.0);  // fewer nonzeros than rows: only alpha = 1 is allowed
    CHECK_THROWS_AS(min_alpha(0.0), InvalidArgument);
}

TEST_CASE("built-in GPU profiles carry their sources", "[model]")
{
    const auto& c2070 = find_profile("C2070");
    const auto& ecc = find_profile("c2070-ecc");
    const auto& h100 = find_profile("h100");
    const auto& h200 = find_profile("H200");

    // Kreutzer §I.B streaming bandwidths: 120 GB/s (ECC off), 91 GB/s (ECC on)
    CHECK(c2070.memory_bandwidth_gbs == 120.0);
    CHECK(ecc.memory_bandwidth_gbs == 91.0);
    CHECK(find_profile("C2050").memory_bandwidth_gbs == 120.0);
    // B_GPU / B_PCI inside the paper's 10 .. 20
    CHECK(c2070.memory_bandwidth_gbs / c2070.pcie_bandwidth_gbs <= 20.0);
    CHECK(ecc.memory_bandwidth_gbs / ecc.pcie_bandwidth_gbs >= 10.0);
    CHECK(c2070.peak_gflops_dp * 2.0 == c2070.peak_gflops_sp);
    CHECK(h100.memory_bandwidth_gbs == 3000.0);
    CHECK(h100.pcie_bandwidth_gbs == 55.0);
    CHECK(h200.memory_bandwidth_gbs > h100.memory_bandwidth_gbs);
    CHECK(h200.memory_bandwidth_gbs < 4800.0);  // attained, below the nominal 4.8 TB/s
    for (const auto& p : profiles()) {
        INFO(p.name);
        CHECK(p.memory_bandwidth_gbs > 0.0);
        CHECK(p.pcie_bandwidth_gbs > 0.0);
        CHECK(p.note.find("ASSUM") != std::string::npos);
    }
    CHECK_THROWS_WITH(find_profile("V100"), Catch::Contains("C2050") && Catch::Contains("H100"));
}

TEST_CASE("A CUDA device name picks its built-in profile, auto falls back to H100 and says so",
          "[model]")
{
    using spmv::model::profile_for_device;
    using spmv::model::resolve_profile;
    REQUIRE(profile_for_device("NVIDIA H200"));
    CHECK(profile_for_device("NVIDIA H200")->name == "H200");
    CHECK(profile_for_device("NVIDIA H100 80GB HBM3")->name == "H100");
    CHECK(profile_for_device("Tesla C2050")->name == "C2050");  // never the -ECC twin
    CHECK(profile_for_device("nvidia h100 nvl")->name == "H100");
    CHECK(profile_for_device("NVIDIA A100-SXM4-80GB")->name == "A100");
    CHECK(profile_for_device("Tesla V100-SXM2-32GB") == nullptr);
    CHECK(profile_for_device("NVIDIA GH100X") == nullptr);  // a whole word, not a substring
    CHECK(profile_for_device("") == nullptr);
    bool assumed = true;
    CHECK(resolve_profile("auto", "NVIDIA H200", &assumed).name == "H200");
    CHECK_FALSE(assumed);
    CHECK(resolve_profile("auto", "Tesla V100-SXM2-32GB", &assumed).name == "H100");
    CHECK(assumed);
    CHECK(resolve_profile("C2050", "NVIDIA H200", &assumed).name == "C2050");  // a name wins
    CHECK_FALSE(assumed);
    CHECK_THROWS_AS(resolve_profile("B200", "x"), spmv::InvalidArgument);
}

TEST_CASE("Kreutzer eq. 3 and 4: the paper's worked numbers, alpha = 1, 1/N_nzr and 1/N_nzr -> 0",
          "[model]")
{
    // r = 10, alpha = 1: eq. 3 2 * 9 / 2.5 = 7.2 ("N_nzr <= 7"), eq. 4 198 / 2.5 = 79.2 (">~ 80")
    const auto r10 = kreutzer_thresholds(10.0, AlphaCase::no_reuse);
    CHECK(r10.eq3_n_nzr == Approx(7.2));
    CHECK(r10.eq4_n_nzr == Approx(79.2));
    CHECK(r10.paper_eq3 == 7.0);
    CHECK(r10.paper_eq4 == 80.0);
    // r = 20, alpha = 1/N_nzr with the term dropped, as the paper: 38 / 1.5 = 25.3 ("<= 25"),
    // 398 / 1.5 = 265.3 (">~ 266")
    const auto r20 = kreutzer_thresholds(20.0, AlphaCase::perfect_reuse_dropped);
    CHECK(r20.eq3_n_nzr == Approx(25.3333333));
    CHECK(r20.eq4_n_nzr == Approx(265.3333333));
    CHECK(r20.paper_eq3 == 25.0);
    CHECK(r20.paper_eq4 == 266.0);
    // exact alpha = 1/N_nzr of the threshold itself: (40 - 3) / 1.5 = 24.7, (400 - 3) / 1.5
    const auto exact = kreutzer_thresholds(20.0, AlphaCase::perfect_reuse);
    CHECK(exact.eq3_n_nzr == Approx(24.6666667));
    CHECK(exact.eq4_n_nzr == Approx(264.6666667));
    CHECK(exact.paper_eq3 == 0.0);  // the paper's numbers belong to the dropped term
    // the exact case is a fixed point: at N_nzr = 264.67 with alpha = 1/N_nzr, T_MVM = 10 T_PCI
    const double n = exact.eq4_n_nzr;
    CHECK(t_mvm_seconds(1000.0, n, 1.0 / n, 200.0, dp) ==
          Approx(10.0 * t_pci_seconds(1000.0, 1000.0, 10.0, dp)));
    // eq. 4 is T_MVM = 10 T_PCI (q = 10), not a 10 % share of the total (q = 9: 71.2)
    CHECK(n_nzr_at_time_ratio(10.0, 10.0, 1.0, dp) == Approx(kreutzer_eq4_n_nzr(10.0, 1.0)));
    CHECK(n_nzr_at_time_ratio(1.0, 10.0, 1.0, dp) == Approx(kreutzer_eq3_n_nzr(10.0, 1.0)));
    CHECK(n_nzr_at_time_ratio(9.0, 10.0, 1.0, dp) == Approx(71.2));
    CHECK(n_nzr_at_time_ratio(10.0, 20.0, 0.0, dp) == Approx(kreutzer_eq4_n_nzr(20.0, 0.0)));
    CHECK(n_nzr_at_time_ratio_perfect_reuse(10.0, 20.0, dp) ==
          Approx(n_nzr_at_pcie_share_perfect_reuse(1.0 / 11.0, 20.0, dp)));
    // SP: 2 (q r - 1) / (alpha + 2); no paper numbers
    const auto sp10 = kreutzer_thresholds(10.0, AlphaCase::no_reuse, sp);
    CHECK(sp10.eq3_n_nzr == Approx(6.0));
    CHECK(sp10.eq4_n_nzr == Approx(198.0 / 3.0));
    CHECK(sp10.paper_eq4 == 0.0);
    CHECK_THROWS_AS(n_nzr_at_time_ratio(10.0, 10.0, -0.1, dp), InvalidArgument);
    CHECK_THROWS_AS(n_nzr_at_time_ratio(0.0, 10.0, 1.0, dp), InvalidArgument);
    CHECK_THROWS_AS(kreutzer_thresholds(0.0, AlphaCase::no_reuse), InvalidArgument);
}

TEST_CASE("kreutzer_worked_cases lists r = 10 and 20 with the three alpha cases", "[model]")
{
    const auto cases = kreutzer_worked_cases();
    REQUIRE(cases.size() == 6);
    int with_paper = 0;
    for (std::size_t k = 0; k < cases.size(); ++k) {
        INFO(k);
        CHECK(cases[k].bandwidth_ratio == (k < 3 ? 10.0 : 20.0));
        CHECK(cases[k].precision == dp);
        // more reuse of x: a faster kernel, so PCIe matters up to larger N_nzr
        if (k % 3 > 0) {
            CHECK(cases[k].eq4_n_nzr > cases[k - 1].eq4_n_nzr);
        }
        CHECK(cases[k].eq4_n_nzr > cases[k].eq3_n_nzr);
        with_paper += cases[k].paper_eq4 > 0 ? 1 : 0;
    }
    CHECK(with_paper == 2);
    CHECK(cases[0].alpha_case == AlphaCase::no_reuse);
    CHECK(cases[0].eq4_n_nzr == Approx(79.2));
    CHECK(cases[5].alpha_case == AlphaCase::perfect_reuse_dropped);
    CHECK(cases[5].eq4_n_nzr == Approx(265.3333333));
    CHECK(to_string(AlphaCase::perfect_reuse) == "1/N_nzr");
    CHECK(kreutzer_worked_cases(sp)[0].precision == sp);
}
