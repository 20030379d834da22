// Lesson 15: BiELL, BiJAD and HYB (Wang & Gu §2.3.3-2.3.5) next to ELLPACK-R and PELLR.
// ELLPACK-R gives every row one thread and pads to the longest row; a warp waits for its longest
// row. BiELL sorts the rows inside each warp and splits the warp into bisection groups, in which
// the long rows get more lanes (docs/formats/biell_bijad.md); BiJAD does the same on rows sorted
// over the whole matrix; HYB keeps K entries per row in ELLPACK and the rest in COO. The layouts
// of a small matrix, their N_iter / padding / idle lanes (hand-checked there, then on a regular
// and a power-law matrix), and the H100 records' times.
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/analysis/warps.hpp>
#include <spmv/formats/biell.hpp>
#include <spmv/formats/bijad.hpp>
#include <spmv/formats/ellr.hpp>
#include <spmv/formats/hyb.hpp>
#include <spmv/formats/pellr.hpp>
#include <spmv/generators.hpp>

#include "lesson.hpp"
#include "records.hpp"

namespace {

using Csr = spmv::Csr<double, std::int32_t>;

// pjds_fig1's values are 1..24 in row order, so a slot shows which entry it holds; '-' is
// padding. A '|' goes before every offset in `breaks`, a new line before every one in `lines`.
void print_slots(const char* label, const std::vector<double>& values,
                 const std::vector<std::int32_t>& breaks, const std::vector<std::int32_t>& lines)
{
    std::printf("  %-13s", label);
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (std::count(lines.begin(), lines.end(), std::int32_t(i)) > 0) {
            std::printf("\n  %-13s", "");
        } else if (i > 0 && std::count(breaks.begin(), breaks.end(), std::int32_t(i)) > 0) {
            std::printf(" |");
        }
        if (values[i] == 0) {
            std::printf("  -");
        } else {
            std::printf(" %2.0f", values[i]);
        }
    }
    std::printf("\n");
}

std::vector<std::int32_t> every(std::int32_t step, std::size_t size)
{
    std::vector<std::int32_t> b;
    for (std::int32_t i = step; std::size_t(i) < size; i += step) b.push_back(i);
    return b;
}

struct Counts {  // one format on one matrix
    const char* format;
    spmv::analysis::WarpAnalysis warps;
    spmv::Footprint footprint;
};

// [section: counts]
std::vector<Counts> count_all(const Csr& a, int w)
{
    const spmv::BisectionOptions bisection{w};
    auto row = [w](const char* name, const auto& f) {
        return Counts{name, spmv::analysis::analyze_warps(spmv::thread_work(f), w),
                      spmv::footprint(f)};
    };
    return {row("ellr", spmv::to_ellr(a)), row("pellr", spmv::to_pellr(a)),
            row("biell", spmv::to_biell(a, bisection)), row("bijad", spmv::to_bijad(a, bisection)),
            row("hyb", spmv::to_hyb(a))};
}
// [section: end]

void print_counts(const std::vector<Counts>& all)
{
    std::printf(
        "  format   N_iter  busiest warp  useful lanes  stored slots  padding  idle lane "
        "trips\n");
    for (const auto& c : all) {
        std::int64_t busiest = 0;  // the longest warp: the floor of the time, however many SMs
        for (const auto& w : c.warps.warps) busiest = std::max(busiest, w.max_iterations);
        std::printf(
            "  %-7s %7lld %13lld %11.1f %% %13lld %7.1f %% %16lld\n", c.format,
            static_cast<long long>(c.warps.n_iter), static_cast<long long>(busiest),
            100 * c.warps.useful_fraction, static_cast<long long>(c.footprint.stored_entries),
            100.0 * double(c.footprint.padding_entries) / double(c.footprint.stored_entries),
            static_cast<long long>(c.warps.idle_slots));
    }
}

const Counts& find(const std::vector<Counts>& all, std::string_view format)
{
    return *std::find_if(all.begin(), all.end(),
                         [&](const Counts& c) { return c.format == format; });
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;

    // [section: layouts]
    const auto a = tutorial::read_sample("pjds_fig1.mtx");   // 8 x 8, lengths [2 5 1 3 4 1 6 2]
    const auto ellr = spmv::to_ellr(a);                      // width 6, column-major
    const auto biell = spmv::to_biell(a, {.warp_size = 4});  // warps {0..3}, {4..7}
    const auto bijad = spmv::to_bijad(a, {.warp_size = 4});  // warps of globally sorted rows
    const auto hyb = spmv::to_hyb(a);                        // K by the one-third rule
    // [section: end]
    std::printf(
        "pjds_fig1 (8 x 8, row lengths [2 5 1 3 4 1 6 2]), warps of 4\n"
        "a slot shows the entry it holds (1..24 in row order), '-' padding\n");
    std::printf("  ELLR: 6 columns of 8 slots, column-major\n");
    print_slots("ELLR", ellr.values, every(8, ellr.values.size()), {24});
    auto print_bisection = [](const char* name, const auto& f) {
        std::vector<std::int32_t> groups(f.group_ptrs.begin() + 1, f.group_ptrs.end() - 1);
        std::printf("  %s: row_perm = [", name);
        for (auto r : f.row_perm) std::printf(" %d", r);
        std::printf(" ], widths per group (3 per warp) = [");
        for (auto wd : spmv::group_widths(f)) std::printf(" %d", wd);
        std::printf(" ]\n");
        print_slots(name, f.values, groups, {f.group_ptrs[3]});  // warp 1 from a new line
    };
    print_bisection("BiELL", biell);
    print_bisection("BiJAD", bijad);
    std::printf("  HYB K = %d: ELL part of %d columns, COO part rows [", hyb.ell_width,
                hyb.ell_width);
    for (auto r : hyb.coo_row_idxs) std::printf(" %d", r);
    std::printf(" ]\n");
    print_slots("HYB ELL part", hyb.ell_values, every(8, hyb.ell_values.size()), {16});
    print_slots("HYB COO part", hyb.coo_values, {}, {});

    std::printf("\nThe same matrix, warps of 4:\n");
    const auto small = count_all(a, 4);
    print_counts(small);
    auto is = [&](const char* f, std::int64_t n_iter, std::int64_t stored, std::int64_t pad,
                  std::int64_t idle) {
        const auto& c = find(small, f);
        return c.warps.n_iter == n_iter && c.footprint.stored_entries == stored &&
               c.footprint.padding_entries == pad && c.warps.idle_slots == idle;
    };
    check.expect(is("ellr", 5 + 6, 48, 24, 9 + 11), "ELLR: N_iter 5 + 6, 8 x 6 slots, idle 20");
    check.expect(is("pellr", 6 + 2, 48, 24, 6 + 2), "PELLR: sorted [6 5 4 3 | 2 2 1 1]: N_iter 8");
    check.expect(is("biell", 4 + 4, 32, 8, 8),
                 "BiELL: widths [2 1 1] in both warps: 4 + 4 trips, 32 slots, padding = idle");
    check.expect(is("bijad", 5 + 2, 28, 4, 4),
                 "BiJAD: widths [4 1 0 | 1 1 0]: 5 + 2 trips, 28 slots, padding = idle");
    check.expect(hyb.ell_width == 4 && is("hyb", 4 + 4 + 1, 8 * 4 + 3, 11, 11),
                 "HYB: K = 4 (3 of 8 rows >= 4), COO 1 + 2 entries: N_iter 4 + 4 + 1");

    const std::pair<const char*, Csr> matrices[] = {
        {"pde40 (regular: 4..7 per row)", spmv::gen::pde(40)},
        {"powerlaw_2k (lengths 1..295)", tutorial::read_sample("powerlaw_2k.mtx")}};
    for (const auto& [name, m] : matrices) {
        std::printf("\n%s, warps of 32:\n", name);
        const auto all = count_all(m, 32);
        print_counts(all);
        // [section: hand]
        const auto lens = spmv::row_lengths(m);
        std::int64_t k = 0, coo = 0;  // one third: the largest K with 3 #{len >= K} >= N
        while (3 * std::count_if(lens.begin(), lens.end(), [&](int l) { return l >= k + 1; }) >=
               m.num_rows)
            ++k;
        for (auto l : lens) coo += std::max<std::int64_t>(0, l - k);
        // [section: end]
        const auto& h = find(all, "hyb");
        check.expect(
            h.footprint.stored_entries == m.num_rows * k + coo,
            std::string(name) + ": HYB stores N K + sum max(0, len - K), K = " + std::to_string(k));
        bool lanes_busy = true;  // a bisection lane walks its group's slots, padding included
        for (const char* f : {"biell", "bijad"})
            lanes_busy = lanes_busy &&
                         find(all, f).warps.idle_slots == find(all, f).footprint.padding_entries;
        check.expect(lanes_busy, std::string(name) + ": BiELL, BiJAD: idle lane trips = padding");
        check.expect(find(all, "pellr").warps.n_iter <= find(all, "ellr").warps.n_iter &&
                         find(all, "pellr").footprint.stored_entries ==
                             find(all, "ellr").footprint.stored_entries,
                     std::string(name) + ": PELLR: N_iter <= ELLR's, the same N x width slots");
    }

    // [section: records]
    const auto large = tutorial::read_h100_records("large");
    const auto fitlarge = tutorial::read_h100_records("fitlarge");
    const std::pair<const char*, const tutorial::BenchRecords*> cases[] = {
        {"gen:pde:size=100", &large},
        {"gen:powerlaw:rows=500000,seed=7", &fitlarge},
        {"gen:powerlaw:rows=1000000", &large}};
    // [section: end]
    std::printf("\nH100 records (%s, commit %s), kernel median in us\n", large.device.c_str(),
                large.commit.c_str());
    std::printf(
        "  matrix                              prec     ellr    pellr    biell    bijad"
        "      hyb\n");
    for (const auto& [matrix, part] : cases) {
        for (const char* precision : {"dp", "sp"}) {
            std::printf("  %-35s %-4s", matrix, precision);
            for (const char* f : {"ellr", "pellr", "biell", "bijad", "hyb"}) {
                if (const auto* r = part->find(matrix, precision, f)) {
                    std::printf(" %8.1f", r->median_ms * 1e3);
                } else {
                    std::printf("        -");
                }
            }
            std::printf("\n");
        }
    }
    for (const char* f : {"ellr", "pellr"}) {  // why a time is missing: the record says
        std::printf("  %s\n", large.any("gen:powerlaw:rows=1000000", "dp", f)->error.c_str());
    }
    check.expect(large.find("gen:powerlaw:rows=1000000", "dp", "ellr") == nullptr &&
                     large.find("gen:powerlaw:rows=1000000", "dp", "biell") != nullptr &&
                     large.find("gen:powerlaw:rows=1000000", "dp", "hyb") != nullptr,
                 "the 1M-row power law: BiELL and HYB measured, ELLR and PELLR not built");

    // [section: collection]
    // The collection (parts a and b): on how many matrices does `first` beat `second`, and the
    // median time ratio first / second.
    const tutorial::BenchRecords parts[] = {tutorial::read_h100_records("a"),
                                            tutorial::read_h100_records("b")};
    auto versus = [&](const char* first, const char* second, const char* precision) {
        std::vector<double> q;
        for (const auto& part : parts)
            for (const auto& r : part.rows)
                if (r.format == first && r.precision == precision && r.error.empty())
                    if (const auto* o = part.find(r.matrix, precision, second))
                        q.push_back(r.median_ms / o->median_ms);
        std::sort(q.begin(), q.end());
        const auto wins = std::count_if(q.begin(), q.end(), [](double v) { return v < 1; });
        return std::pair{wins, q.empty() ? 0.0 : (q[(q.size() - 1) / 2] + q[q.size() / 2]) / 2};
    };
    // [section: end]
    std::printf(
        "\ncollection (parts a and b, 98 matrices): how often the first is faster, and\n"
        "the median time ratio first / second\n"
        "  first / second   sp: faster (median)   dp: faster (median)\n");
    const std::pair<const char*, const char*> pairs[] = {{"biell", "ellr"},  {"bijad", "ellr"},
                                                         {"hyb", "ellr"},    {"pellr", "hyb"},
                                                         {"pellr", "biell"}, {"pellr", "bijad"}};
    for (const auto& [first, second] : pairs) {
        const auto [sp_wins, sp_median] = versus(first, second, "sp");
        const auto [dp_wins, dp_median] = versus(first, second, "dp");
        std::printf("  %-5s / %-6s %14lld (%5.3f) %13lld (%5.3f)\n", first, second,
                    static_cast<long long>(sp_wins), sp_median, static_cast<long long>(dp_wins),
                    dp_median);
    }
    return check.finish();
}
