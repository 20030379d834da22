// [gpu] Every GPU variant x float and double x the GPU test matrices, against the host
// double-precision CSR reference (spmv::gpu::verify: alpha, beta != 0, then beta = 0 with y
// poisoned by NaN, then the permuted basis for permuted formats).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>
#include <spmv/registry.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;


TEST_CASE("the GPU registry lists our kernels and the cuSPARSE baselines", "[gpu][variants]")
{
    std::set<std::string> names;
    std::set<std::string> formats_with_kernel;
    for (const auto& v : kernel_variants()) {
        const std::string name(v.name);
        INFO(name);
        CHECK(names.insert(name).second);      // names are unique...
        CHECK(&find_variant(v.name) == &v);    // ...and found by name
        CHECK_NOTHROW(find_format(v.format));  // every variant runs a registered host format
        CHECK(v.assemble_double != nullptr);
        CHECK(v.assemble_float != nullptr);
        CHECK(v.baseline == (name.rfind("cusparse_", 0) == 0));
        // our first kernel of a layout is its default and carries the format's name (variants.hpp)
        if (!v.baseline && formats_with_kernel.insert(std::string(v.format)).second) {
            CHECK(name == v.format);
        }
    }

    CHECK(find_variant("csr_vector").format == "csr");
    CHECK(find_variant("cusparse_sell").baseline);
    CHECK_FALSE(find_variant("ellg").baseline);
    CHECK_THROWS_AS(find_variant("no_such_kernel"), InvalidArgument);
}

TEST_CASE("every GPU variant matches the double CSR reference in double precision",
          "[gpu][variants]")
{
    test::check_every_variant<double>();
}

TEST_CASE("every GPU variant matches the double CSR reference in single precision",
          "[gpu][variants]")
{
    test::check_every_variant<float>();
}

TEST_CASE("assemble picks the format's default variant, or the one named", "[gpu][variants]")
{
    const auto a = test::random_csr(100, 90, 0, 9, 5);

    const auto ell = assemble(build<double>("ell", a));
    const auto csr = assemble(build<double>("csr", a));
    const auto vec = assemble(build<double>("csr", a), "csr_vector");

    CHECK(ell.variant() == "ell");
    CHECK(ell.format() == "ell");
    CHECK(csr.variant() == "csr");
    CHECK(vec.variant() == "csr_vector");
    CHECK(ell.nnz() == nnz(a));
    CHECK(ell.num_rows() == 100);
    CHECK(ell.num_cols() == 90);
    const auto len = row_lengths(a);
    const auto width = static_cast<std::size_t>(*std::max_element(len.begin(), len.end()));
    CHECK(ell.device_bytes() == 100 * width * (8 + 4));  // 100 x (longest row) slots
    CHECK_THROWS_AS(assemble(find_variant("ellr"), build<double>("ell", a)), InvalidArgument);
    CHECK_THROWS_AS(ell.unpermute(nullptr, nullptr), InvalidArgument);
}

TEST_CASE("the canonical 4x4 gives exactly (19, 8, 51, 52) with every variant", "[gpu][variants]")
{
    const auto a = test::canonical4();
    const std::vector<double> x = {1, 2, 3, 4};

    for (const auto& v : kernel_variants()) {
        INFO(v.name);
        const auto d = prepare(v, a);
        const auto yd = test::run_once<double>(d, 1.0, x, 0.0, std::vector<double>(4, -7.0));
        const auto yf = test::run_once<float>(prepare(v, convert_values<float>(a)), 1.0f,
                                              {1, 2, 3, 4}, 0.0f, std::vector<float>(4, -7.0f));
        CHECK(yd == std::vector<double>{19, 8, 51, 52});
        CHECK(yf == std::vector<float>{19, 8, 51, 52});
    }
}

TEST_CASE("float kernels with double sums are exact where a float sum cancels", "[gpu][variants]")
{
    // Every row is x0 + x1 + x2 - x3 with x = (2^24, 1, 1, 2^24): exactly 2. A float sum in any
    // order (one accumulator, even/odd slots, a shuffle tree) rounds 2^24 + 1 to 2^24 somewhere
    // and gives 0 or 1. Sums::double_precision adds the exact products in double: 2.
    const std::int32_t n = 100;  // several warps and slices
    std::vector<std::int32_t> r, c;
    std::vector<double> val;
    for (std::int32_t i = 0; i < n; ++i) {
        for (std::int32_t j = 0; j < 4; ++j) {
            r.push_back(i);
            c.push_back(j);
            val.push_back(j == 3 ? -1.0 : 1.0);
        }
    }
    const auto ad = csr_from_triplets<double, std::int32_t>(n, n, r, c, val);
    const auto af = convert_values<float>(ad);
    std::vector<float> x(static_cast<std::size_t>(n), 0.0f);
    x[0] = x[3] = 16777216.0f;
    x[1] = x[2] = 1.0f;
    auto dx = DeviceBuffer<float>::from_host(x);

    int wide = 0;
    for (const auto& v : kernel_variants()) {
        INFO(v.name);
        CHECK(prepare(v, ad).has_double_sums());  // a double kernel sums in double anyway
        const auto m = prepare(v, af);
        auto dy = DeviceBuffer<float>::from_host(std::vector<float>(static_cast<std::size_t>(n),
                                                                    1.5f));
        if (!m.has_double_sums()) {
            CHECK_THROWS_AS(m.spmv(1.0f, dx.data(), 0.0f, dy.data(), RowOrder::original, {},
                                   Sums::double_precision),
                            InvalidArgument);
            continue;
        }
        ++wide;
        // alpha = 0.5, beta = 2 on y = 1.5: 0.5 * 2 + 2 * 1.5 = 4, also exact
        m.spmv(0.5f, dx.data(), 2.0f, dy.data(), RowOrder::original, {}, Sums::double_precision);
        synchronize();
        CHECK(dy.to_host() == std::vector<float>(static_cast<std::size_t>(n), 4.0f));
        m.spmv(1.0f, dx.data(), 0.0f, dy.data(), RowOrder::original, {}, Sums::double_precision);
        synchronize();
        CHECK(dy.to_host() == std::vector<float>(static_cast<std::size_t>(n), 2.0f));
        // the float sums of the same kernel cannot give 2 here
        m.spmv(1.0f, dx.data(), 0.0f, dy.data(), RowOrder::original, {}, Sums::value_type);
        synchronize();
        CHECK(dy.to_host()[0] != 2.0f);
    }
    // CSR scalar, vector and adaptive, SELL, SELL with 16-bit offsets and PELLR have the
    // double-sum kernels
    CHECK(wide == 6);
}
