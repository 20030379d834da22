// [gpu][sell_i16] What is specific to sell_i16 (SELL-C-sigma with 16-bit column offsets from a
// per-slice base); test_variants_gpu.cpp already runs it over the zoo with every parameter set.
// Here: a slice spanning more than 65,535 columns is refused with the slice named, a 3-D
// Laplacian gives sell's y, and the device arrays are exactly 2 bytes per slot smaller than
// sell's, less 4 bytes per slice for the bases.
#include <cstdint>
#include <variant>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/registry.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;

TEST_CASE("sell_i16 refuses a slice spanning more than 65,535 columns and names it",
          "[gpu][sell_i16]")
{
    // 64 x 100,000: row i holds column i, row 0 also column 99,999 (slice 0 spans 100,000)
    std::vector<std::int32_t> r, c;
    for (std::int32_t i = 0; i < 64; ++i) {
        r.push_back(i);
        c.push_back(i);
    }
    r.push_back(0);
    c.push_back(99999);
    const std::vector<double> v(r.size(), 1.0);
    const auto a = csr_from_triplets<double, std::int32_t>(64, 100000, r, c, v);

    CHECK_THROWS_AS(prepare<double>("sell_i16", a), InvalidArgument);
    CHECK_THROWS_WITH(prepare<double>("sell_i16", a),
                      Catch::Contains("sell_i16: slice 0 (stored rows 0..31) spans columns "
                                      "0..99999 (100,000 > 65,535 wide); use sell"));
    CHECK_NOTHROW(prepare<double>("sell", a));
}

TEST_CASE("sell_i16 gives sell's y on a 3-D Laplacian with 2 index bytes less per slot",
          "[gpu][sell_i16]")
{
    const auto a = gen::pde(20);  // 8000 rows; a 32-row slice spans ~830 columns
    FormatParams sorted;
    sorted.sort_window = 64;
    for (const FormatParams& p : {FormatParams{}, sorted}) {
        INFO("sigma " << p.sort_window);
        const auto host = build<double>("sell", a, p);
        const auto& s = std::get<SellCSigma<double, std::int32_t>>(host);
        const std::vector<double> x = test::random_vector(static_cast<std::size_t>(a.num_cols), 7);
        const std::vector<double> y0 = test::random_vector(static_cast<std::size_t>(a.num_rows), 8);

        const auto sell = prepare<double>("sell", a, p);
        const auto i16 = prepare<double>("sell_i16", a, p);
        for (const RowOrder order : {RowOrder::original, RowOrder::permuted}) {
            const auto ys = test::run_once<double>(sell, 1.5, x, -0.5, y0, order);
            const auto yi = test::run_once<double>(i16, 1.5, x, -0.5, y0, order);

            CHECK(test::relative_error(yi, ys) <= 1e-12);
        }

        const std::size_t slots = s.col_idxs.size();
        const std::size_t slices = s.slice_widths.size();
        CHECK(sell.device_bytes() - i16.device_bytes() == 2 * slots - 4 * slices);
        CHECK(i16.has_double_sums());
    }
    synchronize();
}
