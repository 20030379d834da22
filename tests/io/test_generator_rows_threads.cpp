// Row ranges generated on several threads (spmv/parallel.hpp, issue 36): generate_rows,
// row_lengths and count_nonzeros give the same rows bit for bit on one thread and on several,
// for every generator, random ones included, over ranges long enough to be cut into many parts
// and starting and ending at odd rows (blocks5: inside a block row).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/generator_rows.hpp>
#include <spmv/generators.hpp>
#include <spmv/parallel.hpp>

using namespace spmv;

namespace {

/// Restores the default thread count when a test ends, however it ends.
struct DefaultThreadsAfter {
    DefaultThreadsAfter() = default;
    DefaultThreadsAfter(const DefaultThreadsAfter&) = delete;
    DefaultThreadsAfter& operator=(const DefaultThreadsAfter&) = delete;
    ~DefaultThreadsAfter() { set_build_threads(0); }
};

/// Every generator kind with 100,000 to 200,000 rows (the threads take parts of 2^15 rows),
/// random ones with seeds other than the default, banded with fill < 1 (lengths drawn).
const std::vector<std::string> specs = {
    "gen:pde:size=47",
    "gen:laplace2d:nx=331,ny=307",
    "gen:powerlaw:rows=120001,min-len=1,max-len=200,exponent=1.7,seed=9",
    "gen:onefull:n=100003,seed=5",
    "gen:blocks5:block-rows=24001,blocks=4,seed=4",
    "gen:banded:n=150001,bandwidth=2,offdiags=6,fill=0.4,seed=3",
    "gen:banded:n=110000,bandwidth=1,offdiags=2,seed=8",
    "gen:random:rows=100001,cols=777,nnz-per-row=6,seed=3",
};

bool same(const dist::GlobalRows<double>& x, const dist::GlobalRows<double>& y)
{
    return x.num_rows == y.num_rows && x.num_cols == y.num_cols && x.rows == y.rows &&
           x.row_ptrs == y.row_ptrs && x.col_idxs == y.col_idxs && x.values == y.values;
}

}  // namespace

TEST_CASE("generate_rows is the same bit for bit on one thread and on several",
          "[generators][row-range][threads]")
{
    const DefaultThreadsAfter restore;
    for (const auto& text : specs) {
        INFO(text);
        const auto spec = gen::parse_spec(text);
        const auto n = gen::shape(spec).num_rows;
        // the whole range, and one from an odd row to an odd row (blocks5: mid block row)
        for (const auto& [first, end] : {std::pair{std::int64_t{0}, n},
                                         std::pair{std::int64_t{12343}, n - 4321}}) {
            INFO("rows [" << first << ", " << end << ")");
            set_build_threads(1);
            const auto one = gen::generate_rows(spec, first, end);
            const auto lengths = gen::row_lengths(spec, first, end);
            const auto count = gen::count_nonzeros(spec, first, end);
            REQUIRE(static_cast<std::int64_t>(one.rows.size()) == end - first);
            REQUIRE(one.row_ptrs.back() == count);
            for (std::size_t i = 0; i < lengths.size(); ++i) {
                REQUIRE(one.row_ptrs[i + 1] - one.row_ptrs[i] == lengths[i]);
            }

            for (const unsigned threads : {2u, 3u, 8u}) {
                INFO("threads = " << threads);
                set_build_threads(threads);
                const auto many = gen::generate_rows(spec, first, end);

                CHECK(same(many, one));
                CHECK(gen::row_lengths(spec, first, end) == lengths);
                CHECK(gen::count_nonzeros(spec, first, end) == count);
            }
        }
    }
}

TEST_CASE("generate_rows on several threads is the whole generator's rows",
          "[generators][row-range][threads]")
{
    const DefaultThreadsAfter restore;
    // the whole matrix on one thread (generate: one CsrSink over every row) against the row
    // range on four, for a random generator whose lengths are drawn per row
    const auto spec = gen::parse_spec("gen:powerlaw:rows=90001,min-len=2,max-len=90,seed=12");
    const auto a = gen::generate(spec);
    set_build_threads(4);

    const auto g = gen::generate_rows(spec, 777, 90001);

    REQUIRE(g.rows.size() == 90001 - 777);
    for (std::size_t i = 0; i < g.rows.size(); ++i) {
        const auto row = static_cast<std::size_t>(g.rows[i]);
        REQUIRE(row == i + 777);
        const auto begin = a.row_ptrs[row];
        REQUIRE(g.row_ptrs[i + 1] - g.row_ptrs[i] == a.row_ptrs[row + 1] - begin);
        for (auto k = g.row_ptrs[i]; k < g.row_ptrs[i + 1]; ++k) {
            const auto e = static_cast<std::size_t>(begin + (k - g.row_ptrs[i]));
            REQUIRE(g.col_idxs[static_cast<std::size_t>(k)] == a.col_idxs[e]);
            REQUIRE(g.values[static_cast<std::size_t>(k)] == a.values[e]);
        }
    }
}
