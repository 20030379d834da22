// sell_i16's column encoding (spmv::gpu::encode_sell_i16_columns): plain host code, so these run
// in the build without CUDA as well. Hand-checked tiny cases, both sides of the 65,535-column
// limit, and the round trip base + offset == column on the test zoo.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/gpu/sell_i16.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using spmv::gpu::encode_sell_i16_columns;

namespace {

using Ints = std::vector<std::int32_t>;
using Offsets = std::vector<std::uint16_t>;
constexpr std::uint16_t pad = 0xFFFF;

Csr<double, std::int32_t> from_entries(std::int32_t rows, std::int32_t cols, const Ints& r,
                                       const Ints& c)
{
    const std::vector<double> v(r.size(), 1.0);
    return csr_from_triplets<double, std::int32_t>(rows, cols, r, c, v);
}

/// rows x cols: row i holds column i (if in range), except `row`, which holds exactly `wide`.
Csr<double, std::int32_t> diagonal_with_row(std::int32_t rows, std::int32_t cols, std::int32_t row,
                                            const Ints& wide)
{
    Ints r, c;
    for (std::int32_t i = 0; i < rows; ++i) {
        if (i == row) {
            for (const auto j : wide) {
                r.push_back(i);
                c.push_back(j);
            }
        } else if (i < cols) {
            r.push_back(i);
            c.push_back(i);
        }
    }
    return from_entries(rows, cols, r, c);
}

/// Every slot decodes to its column (padding to padding), and each base is its slice's
/// smallest real column (0 without one).
void check_round_trip(const SellCSigma<double, std::int32_t>& s, const gpu::SellI16Columns& e)
{
    REQUIRE(e.bases.size() == s.slice_widths.size());
    REQUIRE(e.offsets.size() == s.col_idxs.size());
    for (std::size_t k = 0; k + 1 < s.slice_ptrs.size(); ++k) {
        std::int32_t lo = -1;
        for (auto slot = s.slice_ptrs[k]; slot < s.slice_ptrs[k + 1]; ++slot) {
            const auto c = s.col_idxs[static_cast<std::size_t>(slot)];
            const auto o = e.offsets[static_cast<std::size_t>(slot)];
            if (c == padding_index<std::int32_t>) {
                CHECK(o == pad);
            } else {
                CHECK(o != pad);
                CHECK(e.bases[k] + std::int32_t{o} == c);
                lo = lo < 0 ? c : std::min(lo, c);
            }
        }
        CHECK(e.bases[k] == (lo < 0 ? 0 : lo));
    }
}

}  // namespace

TEST_CASE("sell_i16 encodes SELL-2-4 of the canonical 4x4 as in its header", "[kernels][sell_i16]")
{
    const auto s = to_sell_c_sigma(test::canonical4(), SellCSigmaOptions{2, 4});

    const auto e = encode_sell_i16_columns(s);

    REQUIRE(s.col_idxs == Ints{0, 0, 2, 2, 3, 3, 1, 1, 3, -1});
    CHECK(e.bases == Ints{0, 1});
    CHECK(e.offsets == Offsets{0, 0, 2, 2, 3, 3, 0, 0, 2, pad});
}

TEST_CASE("sell_i16 gives each slice its smallest column as base, 0 to a slice of empty rows",
          "[kernels][sell_i16]")
{
    // 6x6, C = 2: rows {1,3} {2} | {} {} | {3,5} {5}
    const auto a = from_entries(6, 6, {0, 0, 1, 4, 4, 5}, {1, 3, 2, 3, 5, 5});
    const auto s = to_sell_c_sigma(a, SellCSigmaOptions{2, 1});

    const auto e = encode_sell_i16_columns(s);

    REQUIRE(s.slice_ptrs == Ints{0, 4, 4, 8});
    REQUIRE(s.col_idxs == Ints{1, 2, 3, -1, 3, 5, 5, -1});
    CHECK(e.bases == Ints{1, 0, 3});
    CHECK(e.offsets == Offsets{0, 1, 2, pad, 0, 2, 2, pad});
}

TEST_CASE("sell_i16 fits a slice spanning exactly 65,535 columns (offset 0xFFFE)",
          "[kernels][sell_i16]")
{
    // 40 x 70000, C = 32: slice 1 (rows 32..39 and 24 padding rows) holds row 35 = {3, 65537}
    const auto a = diagonal_with_row(40, 70000, 35, {3, 65537});
    const auto s = to_sell_c_sigma(a, SellCSigmaOptions{32, 1});

    const auto e = encode_sell_i16_columns(s);

    REQUIRE(s.slice_ptrs == Ints{0, 32, 96});
    CHECK(e.bases == Ints{0, 3});
    CHECK(e.offsets[32 + 3] == 0);            // row 35, column 3
    CHECK(e.offsets[32 + 32 + 3] == 0xFFFE);  // row 35, column 65537
    CHECK(e.offsets[32 + 0] == 32 - 3);       // row 32, column 32
    CHECK(e.offsets[32 + 8] == pad);          // padding row 40
    CHECK(e.offsets[32 + 32 + 4] == pad);     // row 36 has one entry
    check_round_trip(s, e);
}

TEST_CASE("sell_i16 refuses a slice spanning 65,536 columns, naming the slice",
          "[kernels][sell_i16]")
{
    const auto a = diagonal_with_row(40, 70000, 35, {3, 65538});
    const auto s = to_sell_c_sigma(a, SellCSigmaOptions{32, 1});

    CHECK_THROWS_AS(encode_sell_i16_columns(s), InvalidArgument);
    CHECK_THROWS_WITH(encode_sell_i16_columns(s),
                      Catch::Contains("sell_i16: slice 1 (stored rows 32..63) spans columns "
                                      "3..65538 (65,536 > 65,535 wide); use sell"));
}

TEST_CASE("sell_i16 offsets plus bases give back every column of the test zoo",
          "[kernels][sell_i16]")
{
    for (const auto& m : test::zoo()) {
        for (const auto& opt : {SellCSigmaOptions{32, 1}, SellCSigmaOptions{4, 8},
                                SellCSigmaOptions{3, 1 << 20}, SellCSigmaOptions{1, 1}}) {
            INFO(m.name << ", C = " << opt.slice_height << ", sigma = " << opt.sort_window);
            const auto s = to_sell_c_sigma(m.a, opt);

            const auto e = encode_sell_i16_columns(s);

            check_round_trip(s, e);
        }
    }
}
