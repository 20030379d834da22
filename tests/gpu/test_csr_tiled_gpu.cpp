// [gpu] CSR nonzero-tiled (csr_tiled): the cases that break its chunking: one row holding every
// nonzero (a long cut row, a block in the fix-up), runs of empty rows (the row map), rows that
// start or end exactly on a chunk boundary for every S, rows of every length, degenerate shapes,
// float and double. Every product is checked by spmv::gpu::verify against the host CSR
// reference (alpha, beta != 0, then beta = 0 with y poisoned by NaN), and the result must be the
// same bit for bit from run to run.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/csr_tiled.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;
using spmv::test::with_lengths;

namespace {

// A DeviceMatrix around one csr_tiled configuration, so that verify() can check it.
template <typename V>
class TiledOp final : public DeviceOp<V> {
public:
    explicit TiledOp(DeviceCsrTiled<V> d) : d_(std::move(d)) {}
    void apply(V alpha, const V* x, V beta, V* y, RowOrder, StreamRef s) const override
    {
        gpu::spmv(d_, alpha, x, beta, y, s);
    }
    std::size_t device_bytes() const noexcept override { return d_.device_bytes(); }

private:
    DeviceCsrTiled<V> d_;
};

template <typename V>
DeviceMatrix<V> tiled_matrix(const Csr<V, std::int32_t>& a, int steps)
{
    return DeviceMatrix<V>(std::make_unique<TiledOp<V>>(upload_csr_tiled(a, {steps})), "csr",
                           "csr_tiled", a.num_rows, a.num_cols, nnz(a));
}

template <typename V>
void check_variant(const Csr<double, std::int32_t>& a, const std::string& what)
{
    const auto av = convert_values<V>(a);
    const auto r = verify(find_variant("csr_tiled"), av);
    INFO(what << ": " << r.message);
    CHECK(r.passed);
    CHECK(r.error_beta_zero <= r.tolerance);
}

template <typename V>
void check_steps(const Csr<double, std::int32_t>& a, int steps, const std::string& what)
{
    const auto av = convert_values<V>(a);
    const auto r = verify(tiled_matrix(av, steps), av);
    INFO(what << ", S = " << steps << ": " << r.message);
    CHECK(r.passed);
}

// Rows around the chunk size K: K - 1, K, K + 1, 2K, 2K + 1, 33 K (a long cut row: more than
// csr_tiled_thread_pieces pieces), runs of empty rows across a boundary, random picks.
std::vector<std::int32_t> boundary_lengths(std::int32_t k, std::uint32_t seed)
{
    std::vector<std::int32_t> l{k, k, k - 1, 1, k, k + 1, k - 2, 2 * k, 2 * k + 1};
    l.insert(l.end(), static_cast<std::size_t>(k) + 3, 0);
    l.push_back(33 * k + 5);
    l.push_back(1);
    l.push_back(0);
    std::mt19937 rng(seed);
    const std::int32_t pick[] = {0, 1, 2, k - 2, k - 1, k, k + 1, 2 * k - 1, 2 * k, 3 * k};
    std::uniform_int_distribution<int> which(0, 9);
    for (int i = 0; i < 60; ++i) {
        l.push_back(pick[which(rng)]);
    }
    return l;
}

}  // namespace

TEST_CASE("csr_tiled: one row holding all nonzeros (n = 300000), onefull", "[gpu][csr_tiled]")
{
    const std::int32_t n = 300000;
    for (const std::int32_t full : {0, n / 2 + 7, n - 1}) {
        std::vector<std::int32_t> lengths(static_cast<std::size_t>(n), 0);
        lengths[static_cast<std::size_t>(full)] = n;
        const auto a = with_lengths(lengths, n, 77);
        const std::string what = "300000x300000, row " + std::to_string(full) + " full";
        check_variant<double>(a, what);
        check_variant<float>(a, what);
    }
    std::vector<std::int32_t> onefull(static_cast<std::size_t>(n), 1);
    onefull[0] = n;
    const auto b = with_lengths(onefull, n, 78);
    check_variant<double>(b, "onefull 300000");
    check_variant<float>(b, "onefull 300000");
}

TEST_CASE("csr_tiled: many empty rows", "[gpu][csr_tiled]")
{
    std::vector<std::int32_t> lengths(200000, 0);
    std::mt19937 rng(5);
    std::uniform_int_distribution<std::int32_t> len(1, 300);
    for (std::size_t i = 3; i < lengths.size(); i += 997) {
        lengths[i] = len(rng);
    }
    const auto sparse_rows = with_lengths(lengths, 5000, 6);
    check_variant<double>(sparse_rows, "200000 rows, 1 in 997 non-empty");
    check_variant<float>(sparse_rows, "200000 rows, 1 in 997 non-empty");

    const auto none = with_lengths(std::vector<std::int32_t>(100000, 0), 10, 7);
    check_variant<double>(none, "100000 x 10 without entries");
    check_variant<float>(none, "100000 x 10 without entries");

    std::vector<std::int32_t> edges(50000, 0);
    std::fill(edges.begin() + 20000, edges.begin() + 30000, 9);
    const auto middle = with_lengths(edges, 50000, 8);
    check_variant<double>(middle, "50000 rows, only rows 20000..29999 non-empty");
    check_variant<float>(middle, "50000 rows, only rows 20000..29999 non-empty");
}

TEST_CASE("csr_tiled: rows exactly at chunk boundaries, every S", "[gpu][csr_tiled]")
{
    for (const int steps : {2, 4, 8}) {
        const std::int32_t k = 32 * steps;
        const auto a = with_lengths(boundary_lengths(k, static_cast<std::uint32_t>(k)), 4 * k, 9);
        check_steps<double>(a, steps, "boundary rows, chunk " + std::to_string(k));
        check_steps<float>(a, steps, "boundary rows, chunk " + std::to_string(k));
    }
}

TEST_CASE("csr_tiled: rows of every length 0..2500 and the GPU zoo, every S", "[gpu][csr_tiled]")
{
    std::vector<std::int32_t> lengths(2501);
    for (std::int32_t i = 0; i <= 2500; ++i) {
        lengths[static_cast<std::size_t>(i)] = i;
    }
    std::shuffle(lengths.begin(), lengths.end(), std::mt19937(10));
    const auto ramp = with_lengths(lengths, 2600, 11);
    const auto zoo = test::gpu_zoo();
    for (const int steps : {2, 4, 8}) {
        check_steps<double>(ramp, steps, "lengths 0..2500 shuffled");
        check_steps<float>(ramp, steps, "lengths 0..2500 shuffled");
        for (const auto& m : zoo) {
            check_steps<double>(m.a, steps, m.name);
        }
    }
}

TEST_CASE("csr_tiled: 1x1, 0 rows, rectangular, float and double", "[gpu][csr_tiled]")
{
    for (const auto& [name, a] : test::degenerate_shapes()) {
        check_variant<double>(a, name);
        check_variant<float>(a, name);
    }

    // exact small integers: the canonical 4x4 gives (19, 8, 51, 52) for x = (1, 2, 3, 4)
    const auto d = prepare("csr_tiled", test::canonical4());
    const auto y = test::run_once<double>(d, 1.0, {1, 2, 3, 4}, 0.0, std::vector<double>(4, -7));
    CHECK(y == std::vector<double>{19, 8, 51, 52});
    const auto y2 = test::run_once<double>(d, 2.0, {1, 2, 3, 4}, -1.0, {1, 2, 3, 4});
    CHECK(y2 == std::vector<double>{37, 14, 99, 100});
}

TEST_CASE("csr_tiled: the result is bitwise reproducible", "[gpu][csr_tiled]")
{
    // a row of 300000 (2344 chunks: a long cut row), rows of 0..200 around it (short cut rows,
    // empty rows)
    std::vector<std::int32_t> lengths(300000);
    std::mt19937 rng(16);
    for (auto& l : lengths) {
        l = std::uniform_int_distribution<std::int32_t>(0, 4)(rng) == 0
                ? std::uniform_int_distribution<std::int32_t>(0, 200)(rng)
                : std::uniform_int_distribution<std::int32_t>(0, 4)(rng);
    }
    lengths[123456] = 300000;
    const auto a = with_lengths(lengths, 300000, 16);
    const auto x = test::random_vector(300000, 17);
    const auto y0 = test::random_vector(300000, 18);
    std::vector<double> expected = y0;
    spmv_reference(a, 1.25, std::span<const double>(x), -0.5, std::span<double>(expected));
    for (const int steps : {2, 4, 8}) {
        const auto m = tiled_matrix(a, steps);
        const auto first = test::run_once<double>(m, 1.25, x, -0.5, y0);
        for (int rep = 0; rep < 4; ++rep) {
            INFO("S = " << steps << ", run " << rep);
            const auto again = test::run_once<double>(m, 1.25, x, -0.5, y0);
            CHECK(std::memcmp(again.data(), first.data(), first.size() * sizeof(double)) == 0);
        }
        CHECK(test::relative_error(first, expected) < 1e-12);
    }
}

TEST_CASE("csr_tiled: the upload holds the plan", "[gpu][csr_tiled]")
{
    // lengths 3, 0, 70, 130, 1 with S = 2 (chunks of 64): see test_csr_tiled_plan.cpp
    const auto a = with_lengths({3, 0, 70, 130, 1}, 300, 19);
    const auto d = upload_csr_tiled(a, {2});
    CHECK(d.steps == 2);
    CHECK(d.num_chunks == 4);
    CHECK(d.num_cut == 2);
    CHECK(d.num_long_cut == 0);
    CHECK(d.num_empty == 1);
    CHECK(d.mapped_rows);
    CHECK(d.chunk_row.to_host() == std::vector<std::int32_t>{0, 1, 2, 2});
    CHECK(d.rows.to_host() == std::vector<std::int32_t>{0, 2, 3, 4});
    CHECK(d.head.size() == 4);
    CHECK_THROWS_AS(upload_csr_tiled(a, {3}), InvalidArgument);
}
