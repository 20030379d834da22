// [gpu] CSR merge-path (csr_merge): the cases that break load balancing: one row holding every
// nonzero, runs of empty rows, rows that start or end exactly on a tile boundary, every tile
// configuration with strips of 1, 2, 3 tiles and the automatic size (so that rows are carried
// across tiles inside a block and fixed up across blocks), degenerate shapes, float and double.
// Every product is checked by spmv::gpu::verify against the host CSR reference (alpha,
// beta != 0, then beta = 0 with y poisoned by NaN).
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
#include <spmv/gpu/csr_merge.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;
using spmv::test::with_lengths;

namespace {

// A DeviceMatrix around one csr_merge configuration, so that verify() can check it.
template <typename V>
class MergeOp final : public DeviceOp<V> {
public:
    explicit MergeOp(DeviceCsrMerge<V> d) : d_(std::move(d)) {}
    void apply(V alpha, const V* x, V beta, V* y, RowOrder, StreamRef s) const override
    {
        gpu::spmv(d_, alpha, x, beta, y, s);
    }
    std::size_t device_bytes() const noexcept override { return d_.device_bytes(); }

private:
    DeviceCsrMerge<V> d_;
};

template <typename V>
DeviceMatrix<V> merge_matrix(const Csr<V, std::int32_t>& a, const CsrMergeConfig& c)
{
    return DeviceMatrix<V>(std::make_unique<MergeOp<V>>(upload_csr_merge(a, c)), "csr", "csr_merge",
                           a.num_rows, a.num_cols, nnz(a));
}

// n x n, row `full` holds all n columns, every other row is empty.
Csr<double, std::int32_t> single_full_row(std::int32_t n, std::int32_t full)
{
    std::vector<std::int32_t> lengths(static_cast<std::size_t>(n), 0);
    lengths[static_cast<std::size_t>(full)] = n;
    return with_lengths(lengths, n, 77);
}

template <typename V>
void check_variant(const Csr<double, std::int32_t>& a, const std::string& what)
{
    const auto av = convert_values<V>(a);
    const auto r = verify(find_variant("csr_merge"), av);
    INFO(what << ": " << r.message);
    CHECK(r.passed);
    CHECK(r.error_beta_zero <= r.tolerance);
}

template <typename V>
void check_config(const Csr<double, std::int32_t>& a, const CsrMergeConfig& c,
                  const std::string& what)
{
    const auto av = convert_values<V>(a);
    const auto r = verify(merge_matrix(av, c), av);
    INFO(what << ", block " << c.block_size << ", items/thread " << c.items_per_thread
              << ", tiles/strip " << c.tiles_per_strip << ": " << r.message);
    CHECK(r.passed);
}

// The tile boundary cases for tile size T: rows of exactly one tile of items (T - 1 nonzeros +
// their finish), rows whose nonzeros fill a tile exactly and whose finish falls into the next one
// (T), rows shifted by one item per row, two-tile rows, and runs of empty rows that cross tiles.
std::vector<std::int32_t> boundary_lengths(std::int32_t t, std::uint32_t seed)
{
    std::vector<std::int32_t> l;
    for (int i = 0; i < 4; ++i) {
        l.push_back(t - 1);  // rows 0..3 each cover exactly tiles 0..3
    }
    for (int i = 0; i < 3; ++i) {
        l.push_back(t);  // nonzeros end on the boundary, the finish lies in the next tile
    }
    l.push_back(t - 2);
    l.push_back(2 * t - 1);
    l.push_back(2 * t);
    l.insert(l.end(), static_cast<std::size_t>(t) + 3, 0);  // empty rows across a boundary
    l.push_back(3 * t + 1);
    l.push_back(1);
    std::mt19937 rng(seed);
    const std::int32_t pick[] = {0, 1, 2, t - 2, t - 1, t, t + 1, 2 * t - 1, 2 * t, 3 * t};
    std::uniform_int_distribution<int> which(0, 9);
    for (int i = 0; i < 40; ++i) {
        l.push_back(pick[which(rng)]);
    }
    return l;
}

std::vector<CsrMergeConfig> all_configs()
{
    std::vector<CsrMergeConfig> c;
    for (const int b : {64, 128, 256}) {
        for (const int p : {4, 6, 8, 12}) {
            if (b == 256 && p == 12) {
                continue;  // not supported (shared memory)
            }
            for (const int strip : {1, 2, 3, 0}) {
                c.push_back({b, p, strip});
            }
        }
    }
    return c;
}

}  // namespace

TEST_CASE("csr_merge: one row holding all nonzeros (n = 300000)", "[gpu][csr_merge]")
{
    const std::int32_t n = 300000;
    for (const std::int32_t full : {0, n / 2 + 7, n - 1}) {
        const auto a = single_full_row(n, full);
        const std::string what = "300000x300000, row " + std::to_string(full) + " full";
        check_variant<double>(a, what);
        check_variant<float>(a, what);
    }
    // the onefull pattern: row 0 full, the diagonal elsewhere
    auto a = single_full_row(n, 0);
    Csr<double, std::int32_t> b;
    b.num_rows = b.num_cols = n;
    b.col_idxs = a.col_idxs;
    b.values = a.values;
    b.row_ptrs = {0, n};
    for (std::int32_t i = 1; i < n; ++i) {
        b.col_idxs.push_back(i);
        b.values.push_back(0.5 + 1e-6 * i);
        b.row_ptrs.push_back(static_cast<std::int32_t>(b.values.size()));
    }
    check_variant<double>(b, "onefull 300000");
    check_variant<float>(b, "onefull 300000");
}

TEST_CASE("csr_merge: many empty rows", "[gpu][csr_merge]")
{
    // 200000 rows, one in 997 holds 1..60 entries: long runs of empty rows span whole tiles
    std::vector<std::int32_t> lengths(200000, 0);
    std::mt19937 rng(5);
    std::uniform_int_distribution<std::int32_t> len(1, 60);
    for (std::size_t i = 3; i < lengths.size(); i += 997) {
        lengths[i] = len(rng);
    }
    const auto sparse_rows = with_lengths(lengths, 5000, 6);
    check_variant<double>(sparse_rows, "200000 rows, 1 in 997 non-empty");
    check_variant<float>(sparse_rows, "200000 rows, 1 in 997 non-empty");

    // no entries at all: y = beta y, and 0 for beta = 0
    const auto none = with_lengths(std::vector<std::int32_t>(100000, 0), 10, 7);
    check_variant<double>(none, "100000 x 10 without entries");
    check_variant<float>(none, "100000 x 10 without entries");

    // the last rows empty, the first rows empty
    std::vector<std::int32_t> edges(50000, 0);
    std::fill(edges.begin() + 20000, edges.begin() + 30000, 9);
    const auto middle = with_lengths(edges, 50000, 8);
    check_variant<double>(middle, "50000 rows, only rows 20000..29999 non-empty");
    check_variant<float>(middle, "50000 rows, only rows 20000..29999 non-empty");
}

TEST_CASE("csr_merge: rows exactly at tile boundaries, every configuration and strip size",
          "[gpu][csr_merge]")
{
    for (const auto& c : all_configs()) {
        const std::int32_t t = c.block_size * c.items_per_thread;
        const auto a = with_lengths(boundary_lengths(t, static_cast<std::uint32_t>(t)), 4 * t, 9);
        check_config<double>(a, c, "boundary rows, tile " + std::to_string(t));
        check_config<float>(a, c, "boundary rows, tile " + std::to_string(t));
    }
}

TEST_CASE("csr_merge: rows of every length 0..2500 and the GPU zoo, every configuration",
          "[gpu][csr_merge]")
{
    std::vector<std::int32_t> lengths(2501);
    for (std::int32_t i = 0; i <= 2500; ++i) {
        lengths[static_cast<std::size_t>(i)] = i;
    }
    std::shuffle(lengths.begin(), lengths.end(), std::mt19937(10));
    const auto ramp = with_lengths(lengths, 2600, 11);
    const auto zoo = test::gpu_zoo();
    for (const auto& c : all_configs()) {
        check_config<double>(ramp, c, "lengths 0..2500 shuffled");
        check_config<float>(ramp, c, "lengths 0..2500 shuffled");
        for (const auto& m : zoo) {
            check_config<double>(m.a, c, m.name);
        }
    }
}

TEST_CASE("csr_merge: 1x1, 0 rows, rectangular, float and double", "[gpu][csr_merge]")
{
    for (const auto& [name, a] : test::degenerate_shapes()) {
        check_variant<double>(a, name);
        check_variant<float>(a, name);
    }

    // exact small integers: the canonical 4x4 gives (19, 8, 51, 52) for x = (1, 2, 3, 4)
    const auto d = prepare("csr_merge", test::canonical4());
    const auto y = test::run_once<double>(d, 1.0, {1, 2, 3, 4}, 0.0, std::vector<double>(4, -7));
    CHECK(y == std::vector<double>{19, 8, 51, 52});
    const auto y2 = test::run_once<double>(d, 2.0, {1, 2, 3, 4}, -1.0, {1, 2, 3, 4});
    CHECK(y2 == std::vector<double>{37, 14, 99, 100});
}

TEST_CASE("csr_merge: the result is bitwise reproducible", "[gpu][csr_merge]")
{
    // a row of 300000 cut into ~400 tiles, rows of 0..4 around it: many carries per product
    std::vector<std::int32_t> lengths(300000);
    std::mt19937 rng(16);
    for (auto& l : lengths) {
        l = std::uniform_int_distribution<std::int32_t>(0, 4)(rng);
    }
    lengths[123456] = 300000;
    const auto a = with_lengths(lengths, 300000, 16);
    const auto x = test::random_vector(300000, 17);
    const auto y0 = test::random_vector(300000, 18);
    std::vector<double> expected = y0;
    spmv_reference(a, 1.25, std::span<const double>(x), -0.5, std::span<double>(expected));
    for (const int strip : {1, 5, 0}) {
        const auto m = merge_matrix(a, {128, 6, strip});
        const auto first = test::run_once<double>(m, 1.25, x, -0.5, y0);
        for (int rep = 0; rep < 4; ++rep) {
            INFO("tiles per strip " << strip << ", run " << rep);
            const auto again = test::run_once<double>(m, 1.25, x, -0.5, y0);
            CHECK(std::memcmp(again.data(), first.data(), first.size() * sizeof(double)) == 0);
        }
        CHECK(test::relative_error(first, expected) < 1e-12);
    }
}

TEST_CASE("csr_merge: the partition is the merge path", "[gpu][csr_merge]")
{
    // lengths 3, 0, 5, 0, 0, 2 (N = 6, NZ = 10, 16 items): tile t of 256 items (block 64 x 4)
    // starts after max{ i : row_ptrs[i] + i <= 256 t } rows: a single tile, rows 0 and 6.
    const auto a = with_lengths({3, 0, 5, 0, 0, 2}, 8, 19);
    const auto d = upload_csr_merge(a, {64, 4, 0});
    CHECK(d.num_items == 16);
    CHECK(d.tile_items == 256);
    CHECK(d.num_tiles == 1);
    CHECK(d.num_strips == 1);
    CHECK(d.tile_rows.to_host() == std::vector<std::int32_t>{0, 6});

    // 1000 rows of 300: items 301 000, tiles of 256: tile t starts after floor(256 t / 301) rows
    const auto b = with_lengths(std::vector<std::int32_t>(1000, 300), 400, 20);
    const auto e = upload_csr_merge(b, {64, 4, 7});
    const auto rows = e.tile_rows.to_host();
    REQUIRE(rows.size() == static_cast<std::size_t>(e.num_tiles) + 1);
    CHECK(e.num_tiles == (301000 + 255) / 256);
    for (std::size_t t = 0; t + 1 < rows.size(); ++t) {
        CHECK(rows[t] == static_cast<std::int32_t>(256 * t / 301));
    }
    CHECK(rows.back() == 1000);
    CHECK(e.tiles_per_strip == 7);
    CHECK(e.num_strips == (e.num_tiles + 6) / 7);
    CHECK(e.head_vals.size() == static_cast<std::size_t>(e.num_strips));
    CHECK(e.arrivals.to_host() == std::vector<std::uint32_t>(e.arrivals.size(), 0u));

    // the default: one wave of resident blocks, at most csr_merge_max_strip_tiles tiles each
    const auto f = upload_csr_merge(b);
    CHECK(f.block_size == csr_merge_default_block_size);
    CHECK(f.items_per_thread == csr_merge_default_items_per_thread<double>());
    CHECK(f.tiles_per_strip >= 1);
    CHECK(f.tiles_per_strip <= csr_merge_max_strip_tiles);
    CHECK(f.num_strips == (f.num_tiles + f.tiles_per_strip - 1) / f.tiles_per_strip);

    CHECK_THROWS_AS(upload_csr_merge(a, {96, 8, 0}), InvalidArgument);
    CHECK_THROWS_AS(upload_csr_merge(a, {128, 5, 0}), InvalidArgument);
    CHECK_THROWS_AS(upload_csr_merge(a, {256, 12, 0}), InvalidArgument);
    CHECK_THROWS_AS(upload_csr_merge(a, {128, 8, csr_merge_max_strip_tiles + 1}), InvalidArgument);
}
