// [gpu] COO: segmented reduction with row carries across warp chunks.
#include <span>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/formats/coo.hpp>
#include <spmv/gpu/coo.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;

namespace {

std::vector<double> coo_gpu(const Csr<double, std::int32_t>& a, double alpha, double beta,
                            const std::vector<double>& x, const std::vector<double>& y0)
{
    const auto d = upload(to_coo(a));
    auto dx = DeviceBuffer<double>::from_host(x);
    auto dy = DeviceBuffer<double>::from_host(y0);
    gpu::spmv(d, alpha, dx.data(), beta, dy.data());
    return dy.to_host();
}

}  // namespace

TEST_CASE("COO rows that span many chunks are summed by the carry pass", "[gpu][coo]")
{
    // row 700 holds 5000 entries: about 20 chunks of 256, the middle ones entirely inside it;
    // rows around it are short or empty, so chunk boundaries fall everywhere.
    const auto a = test::one_long_row(5000, 700, 41);
    const auto x = test::random_vector(5000, 42);
    const auto y0 = test::random_vector(5000, 43);
    std::vector<double> expected = y0;
    spmv_reference(a, -1.0, std::span<const double>(x), 0.75, std::span<double>(expected));

    const auto got = coo_gpu(a, -1.0, 0.75, x, y0);
    const auto d = upload(to_coo(a));

    CHECK(d.has_cut_rows);
    CHECK(d.num_chunks == (static_cast<std::int64_t>(a.values.size()) + 255) / 256);
    CHECK(test::relative_error(got, expected) < 1e-14);
}

TEST_CASE("COO writes beta*y into rows without entries and 0 for beta == 0", "[gpu][coo]")
{
    Csr<double, std::int32_t> a;  // 6x3, only rows 1 and 4 hold entries
    a.num_rows = 6;
    a.num_cols = 3;
    a.row_ptrs = {0, 0, 2, 2, 2, 3, 3};
    a.col_idxs = {0, 2, 1};
    a.values = {1.0, 2.0, 3.0};
    const std::vector<double> x = {1, 10, 100};
    const std::vector<double> y0 = {1, 2, 3, 4, 5, 6};

    const auto y1 = coo_gpu(a, 1.0, 2.0, x, y0);
    const auto y2 = coo_gpu(a, 1.0, 0.0, x, std::vector<double>(6, std::nan("")));

    CHECK(y1 == std::vector<double>{2, 201 + 4, 6, 8, 30 + 10, 12});
    CHECK(y2 == std::vector<double>{0, 201, 0, 0, 30, 0});
}

TEST_CASE("COO rows ending exactly on a chunk boundary are not carried", "[gpu][coo]")
{
    // 4 rows of exactly 256 entries: every row is one chunk, nothing is cut
    auto a = test::random_csr(4, 300, 256, 256, 44);

    const auto d = upload(to_coo(a));
    const auto x = test::random_vector(300, 45);
    std::vector<double> expected(4);
    spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(expected));

    CHECK_FALSE(d.has_cut_rows);
    CHECK(d.empty_rows.size() == 0);
    CHECK(test::relative_error(coo_gpu(a, 1.0, 0.0, x, std::vector<double>(4, 1.0)), expected) <
          1e-14);
}
