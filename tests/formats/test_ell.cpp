#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/formats/ell.hpp>

#include "test_matrices.hpp"

using namespace spmv;

TEST_CASE("ELL of the canonical 4x4 matches the header comment", "[formats][ell]")
{
    const auto e = to_ell(test::canonical4());
    CHECK(e.width == 3);
    CHECK(e.stride == 4);
    CHECK(e.col_idxs == std::vector<int>{0, 1, 0, 1, 2, -1, 2, 3, 3, -1, 3, -1});
    CHECK(e.values == std::vector<double>{1, 4, 5, 8, 2, 0, 6, 9, 3, 0, 7, 0});
    const auto f = footprint(e);
    CHECK(f.stored_entries == 12);
    CHECK(f.padding_entries == 3);
    CHECK(f.value_bytes == 9 * 8);
    CHECK(f.index_bytes == 9 * 4);
    CHECK(f.padding_bytes == 3 * 12);
    CHECK(f.aux_bytes == 0);
    std::vector<double> x{1, 2, 3, 4}, y(4, 0.0);
    spmv_reference(e, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    CHECK(y == std::vector<double>{19, 8, 51, 52});
    const auto w = thread_work(e);
    CHECK(w.iterations == std::vector<std::int64_t>{3, 3, 3, 3});
    CHECK(w.useful == std::vector<std::int64_t>{3, 1, 3, 2});
}

TEST_CASE("ELL stores N x max entries (closed form)", "[formats][ell]")
{
    for (const auto& m : test::zoo()) {
        INFO(m.name);
        const auto e = to_ell(m.a);
        const auto len = row_lengths(m.a);
        const std::int64_t maxlen = len.empty() ? 0 : *std::max_element(len.begin(), len.end());
        CHECK(footprint(e).stored_entries == std::int64_t{m.a.num_rows} * maxlen);
    }
}

TEST_CASE("ELL validate rejects broken layouts", "[formats][ell]")
{
    auto e = to_ell(test::canonical4());
    SECTION("real entry after padding")
    {
        e.col_idxs[9] = 0;  // row 1, column 2 slot, after row 1's padding at slot 5
        e.values[9] = 1.0;
        CHECK_THROWS_AS(validate(e), InvalidLayout);
    }
    SECTION("column out of range")
    {
        e.col_idxs[0] = 4;
        CHECK_THROWS_AS(validate(e), InvalidLayout);
    }
    SECTION("padding with a value")
    {
        e.values[5] = 1.0;
        CHECK_THROWS_AS(validate(e), InvalidLayout);
    }
    SECTION("wrong array size")
    {
        e.values.pop_back();
        CHECK_THROWS_AS(validate(e), InvalidLayout);
    }
}

TEST_CASE("ELL refuses layouts beyond 32-bit slot indices with the size", "[formats][ell]")
{
    // one full row of 70000 entries in a 70000-row matrix: 4.9e9 slots
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = 70000;
    for (std::int32_t j = 0; j < 70000; ++j) {
        a.col_idxs.push_back(j);
        a.values.push_back(1.0);
    }
    a.row_ptrs.assign(70001, 70000);
    a.row_ptrs[0] = 0;
    CHECK_THROWS_WITH(to_ell(a), Catch::Contains("ELLPACK would store 4900000000 slots"));
}
