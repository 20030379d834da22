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

namespace {

// Parameter sets for the formats that read parameters (FormatInfo::params).
std::vector<FormatParams> parameter_sets(const KernelVariant& v)
{
    std::vector<FormatParams> sets(1);
    if (find_format(v.format).params.empty()) {
        return sets;
    }
    sets.resize(3);
    sets[1].hyb_width = 0;
    sets[1].pitch_bytes = 64;
    sets[1].block_rows = 4;
    sets[1].slice_height = 4;
    sets[1].sort_window = 8;
    sets[1].warp_size = 4;
    sets[1].diag_pad = 4;
    sets[2].hyb_width = 2;
    sets[2].pitch_bytes = 4;
    sets[2].sort_window = 1 << 20;
    sets[2].diag_pad = 1;
    return sets;
}

template <typename V>
void check_every_variant()
{
    const auto zoo = test::gpu_zoo();
    for (const auto& v : kernel_variants()) {
        for (const auto& m : zoo) {
            const auto a = convert_values<V>(m.a);
            const auto sets = parameter_sets(v);
            for (std::size_t s = 0; s < sets.size(); ++s) {
                INFO("variant " << v.name << ", matrix " << m.name << ", parameter set " << s);
                const auto r = verify(v, a, sets[s]);
                INFO(r.message);
                CHECK(r.passed);
                CHECK(r.error_beta_zero <= r.tolerance);  // NaN in y never leaks with beta = 0
            }
        }
    }
}

}  // namespace

TEST_CASE("the GPU registry lists our kernels and the cuSPARSE baselines", "[gpu][variants]")
{
    std::set<std::string> names;
    for (const auto& v : kernel_variants()) {
        names.insert(std::string(v.name));
        CHECK_NOTHROW(find_format(v.format));  // every variant runs a registered host format
        CHECK(v.assemble_double != nullptr);
        CHECK(v.assemble_float != nullptr);
    }

    for (const char* n :
         {"csr", "csr_vector", "coo", "ell", "ellr", "ellg", "hyb", "cusparse_csr_alg1",
          "cusparse_csr_alg2", "cusparse_coo_alg1", "cusparse_coo_alg2", "cusparse_sell"}) {
        INFO(n);
        CHECK(names.count(n) == 1);
    }
    CHECK(find_variant("csr_vector").format == "csr");
    CHECK(find_variant("cusparse_sell").baseline);
    CHECK_FALSE(find_variant("ellg").baseline);
    CHECK_THROWS_AS(find_variant("no_such_kernel"), InvalidArgument);
}

TEST_CASE("every GPU variant matches the double CSR reference in double precision",
          "[gpu][variants]")
{
    check_every_variant<double>();
}

TEST_CASE("every GPU variant matches the double CSR reference in single precision",
          "[gpu][variants]")
{
    check_every_variant<float>();
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
