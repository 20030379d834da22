// The one verdict rule of `spmvlab replicate` (cli/src/replicate/verdict.hpp) on hand-made
// inputs: the band, both bounds of a range, the paper's kind, reconstructions, absent records.
#include <catch2/catch.hpp>

#include "replicate/verdict.hpp"

using namespace spmvlab::replicate;

TEST_CASE("the rule's band widens a paper's number by one tolerance", "[replicate][verdict]")
{
    const auto r = band(within(0.91, 1.30, Scale::relative, Statistic::each_matrix));
    CHECK(r.first == Approx(0.819));
    CHECK(r.second == Approx(1.43));
    const auto s = band(at_least(0.85, Scale::share, Statistic::mean));  // 85 % of matrices
    CHECK(s.first == Approx(0.75));
    CHECK(std::isinf(s.second));
    const auto e = band(at_least(1.0, Scale::exact, Statistic::median));  // "faster"
    CHECK(e.first == 1.0);
    const auto m = band(at_most(2.0, Scale::relative, Statistic::max));
    CHECK(std::isinf(m.first));
    CHECK(m.second == Approx(2.2));
}

TEST_CASE(
    "a range claim tests both bounds: a lower-bound pass with an upper-bound failure does "
    "not hold",
    "[replicate][verdict]")
{
    // K1's shape: pJDS at 91 % to 130 % of ELLPACK-R on each matrix. Every value clears the
    // lower bound; 3 of 10 lie above 1.30 x 1.1 = 1.43 (more than the 10 % allowed outside).
    const auto t = within(0.91, 1.30, Scale::relative, Statistic::each_matrix);
    const std::vector<double> v = {1.0, 1.1, 1.2, 1.05, 0.95, 1.3, 1.4, 1.6, 1.9, 2.2};
    CellResult r;
    CHECK_FALSE(meets(t, v, &r));
    CHECK(r.outside == 3);
    CHECK(r.statistic == Approx(0.7));
    const auto j = judge(t, {{"DP large", true, v}});
    CHECK(j.verdict == Verdict::fails);
    CHECK(j.text == "does not hold");
    // one value of ten outside is allowed (10 %, rounded down); two are not
    CHECK(meets(t, {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5}));
    CHECK_FALSE(meets(t, {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5}));
    // below the lower bound fails as well
    CHECK_FALSE(meets(t, {0.80}));
    CHECK(meets(t, {0.82}));
}

TEST_CASE("only the paper's kind of matrix decides, partly names the cells", "[replicate][verdict]")
{
    // W5's shape: PELLR about 1.6x HYB (median). The one large matrix at 1.52 agrees, but the
    // paper's matrices are small: the large cell is shown, not counted.
    const auto t = at_least(1.6, Scale::relative, Statistic::median);
    const std::vector<Cell> cells = {{"DP latency-bound", true, {0.53, 0.4, 0.6}},
                                     {"DP medium", true, {0.85, 0.9}},
                                     {"DP large", false, {1.52}}};
    const auto j = judge(t, cells, "our HYB reconstruction");
    CHECK(j.verdict == Verdict::fails);
    CHECK(j.text == "does not hold (against our HYB reconstruction)");
    CHECK(j.cells[2].met);
    CHECK_FALSE(j.cells[2].paper_kind);

    const std::vector<Cell> mixed = {{"DP large", true, {1.5, 1.7}}, {"SP large", true, {1.0}}};
    const auto p = judge(t, mixed);
    CHECK(p.verdict == Verdict::partly);
    CHECK(p.text == "holds partly: on DP large; not on SP large");

    const auto h = judge(t, {{"DP large", true, {1.5, 1.7}}}, "our HYB reconstruction");
    CHECK(h.verdict == Verdict::holds);
    CHECK(h.text == "holds (against our HYB reconstruction)");
}

TEST_CASE("absent records are not measured, said visibly", "[replicate][verdict]")
{
    const auto t = at_least(1.0, Scale::exact, Statistic::each_matrix);
    const auto none = judge(t, {});
    CHECK(none.verdict == Verdict::not_measured);
    CHECK(none.text == "not measured");
    const auto why = judge(t, {}, "", "awaiting re-measurement with float inner CG");
    CHECK(why.text == "not measured (awaiting re-measurement with float inner CG)");
    // values only outside the paper's kind: still not measured, and it says where
    const auto elsewhere = judge(t, {{"cuda-ipc", false, {1.2, 1.3}}});
    CHECK(elsewhere.verdict == Verdict::not_measured);
    CHECK(elsewhere.text == "not measured on the paper's kind of matrix");
    // an empty cell of the paper's kind does not count as a pass
    const auto empty = judge(t, {{"host-staged", true, {}}, {"cuda-ipc", false, {2.0}}});
    CHECK(empty.verdict == Verdict::not_measured);
    CHECK(std::string(verdict_word(Verdict::not_measured)) == "not measured");
}

TEST_CASE("statistics: mean, max, min and shares follow the paper's", "[replicate][verdict]")
{
    // Cevahir Fig. 5: averages. 2 GPUs: speedups / 1.73 = 0.70, 1.13, 1.14, 1.11: mean 1.02
    const auto avg = at_least(1.0, Scale::relative, Statistic::mean);
    CHECK(meets(avg, {0.70, 1.13, 1.14, 1.11}));
    CHECK_FALSE(meets(avg, {0.70, 0.80}));
    // K3's "up to 68.4 %": the largest value must reach 68.4 % - 10 %
    const auto up_to = at_least(0.684, Scale::relative, Statistic::max);
    CHECK(meets(up_to, {0.1, 0.2, 0.62}));
    CHECK_FALSE(meets(up_to, {0.1, 0.2, 0.61}));
    // W8: HYB fastest on at most 5 % (+10 points): 0/1 per matrix, the mean is the share
    const auto rare = at_most(0.05, Scale::share, Statistic::mean);
    CHECK(meets(rare, {0, 0, 0, 0, 0, 0, 0, 1}));  // 12.5 %
    CHECK_FALSE(meets(rare, {0, 0, 0, 1}));        // 25 %
    // non-finite values are no measurement
    CellResult r;
    CHECK_FALSE(meets(avg, {NAN}, &r));
    CHECK(r.n == 0);
}
