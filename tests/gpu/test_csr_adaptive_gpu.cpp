// [gpu] CSR-adaptive (csr_adaptive): every kind of group (stream groups of short rows, row groups,
// rows cut into pieces and summed by the last piece to arrive), the group table in the kernel
// parameters and in device memory, empty rows, float, double and float with double sums.
// Every product is checked by spmv::gpu::verify against the host CSR reference (alpha,
// beta != 0, then beta = 0 with y poisoned by NaN).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/csr_adaptive.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;
using spmv::test::with_lengths;

namespace {

// A DeviceMatrix around one csr_adaptive configuration, so that verify() can check it;
// `double_sums`: the float kernel that adds in double runs as apply().
template <typename V>
class AdaptiveOp final : public DeviceOp<V> {
public:
    AdaptiveOp(DeviceCsrAdaptive<V> d, bool double_sums)
        : d_(std::move(d)), double_sums_(double_sums)
    {
    }
    void apply(V alpha, const V* x, V beta, V* y, RowOrder, StreamRef s) const override
    {
        gpu::spmv(d_, alpha, x, beta, y, s, double_sums_);
    }
    std::size_t device_bytes() const noexcept override { return d_.device_bytes(); }
    const DeviceCsrAdaptive<V>& device() const { return d_; }

private:
    DeviceCsrAdaptive<V> d_;
    bool double_sums_;
};

template <typename V>
void check_config(const Csr<double, std::int32_t>& a, const CsrAdaptiveConfig& c,
                  const std::string& what, bool double_sums = false)
{
    const auto av = convert_values<V>(a);
    auto op = std::make_unique<AdaptiveOp<V>>(upload_csr_adaptive(av, c), double_sums);
    const bool param = op->device().param_table;
    const auto groups = op->device().num_groups;
    DeviceMatrix<V> m(std::move(op), "csr", "csr_adaptive", av.num_rows, av.num_cols, nnz(av));
    for (int rep = 0; rep < 2; ++rep) {  // twice: the piece counters must have reset
        const auto r = verify(m, av);
        INFO(what << ", stream " << c.stream_nnz << ", serial " << c.serial << ", piece "
                  << c.piece_nnz << ", " << groups << " groups, table in "
                  << (param ? "parameters" : "device memory") << (double_sums ? ", double sums" : "")
                  << ", run " << rep << ": " << r.message);
        CHECK(r.passed);
    }
}

template <typename V>
void check_all(const Csr<double, std::int32_t>& a, const std::string& what)
{
    for (const int s : {0, 256, 1024}) {
        for (const int serial : {1, 8}) {
            for (const int piece : {256, 2048}) {
                for (const int param : {0, csr_adaptive_param_groups}) {
                    check_config<V>(a, CsrAdaptiveConfig{s, serial, piece, param}, what);
                }
            }
        }
    }
    if constexpr (std::is_same_v<V, float>) {
        check_config<float>(a, {}, what, true);
    }
}

// Short rows, empty runs, rows on both sides of the stream / row / piece limits.
std::vector<std::int32_t> mixed_lengths(std::uint32_t seed)
{
    std::vector<std::int32_t> l{0, 0, 1, 255, 256, 257, 511, 512, 513, 2047, 2048, 2049, 4097};
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> kind(0, 19);
    std::uniform_int_distribution<std::int32_t> shortlen(0, 9);
    std::uniform_int_distribution<std::int32_t> longlen(30, 3000);
    for (int i = 0; i < 3000; ++i) {
        l.push_back(kind(rng) == 0 ? longlen(rng) : shortlen(rng));
    }
    l.insert(l.end(), 600, 0);  // empty rows across several groups
    l.push_back(6000);          // the last row cut into pieces
    return l;
}

}  // namespace

TEST_CASE("csr_adaptive: every kind of group, both table paths", "[gpu][csr_adaptive]")
{
    const auto a = with_lengths(mixed_lengths(3), 7000, 4);
    check_all<double>(a, "mixed 3614 rows");
    check_all<float>(a, "mixed 3614 rows");
}

TEST_CASE("csr_adaptive: small matrices (table in the parameters)", "[gpu][csr_adaptive]")
{
    for (const std::int32_t n : {1, 31, 33, 300, 1723}) {
        const auto a = with_lengths(std::vector<std::int32_t>(static_cast<std::size_t>(n), 5),
                                    std::max(n, 7), static_cast<std::uint32_t>(n));
        const auto av = convert_values<double>(a);
        CHECK(upload_csr_adaptive(av).param_table);
        check_config<double>(a, {}, std::to_string(n) + " rows of 5");
        check_config<float>(a, {}, std::to_string(n) + " rows of 5");
    }
    // rectangular, a long row among short ones (the long-row collection matrices' shape)
    std::vector<std::int32_t> l(500, 3);
    l[17] = 480;
    l[250] = 1500;
    const auto wide = with_lengths(l, 2000, 9);
    check_config<double>(wide, {}, "500 x 2000, two long rows");
    check_config<float>(wide, {}, "500 x 2000, two long rows");
}

TEST_CASE("csr_adaptive: every size of the parameter table, at its edges", "[gpu][csr_adaptive]")
{
    // rows of 200 with stream groups of at most 256 nonzeros: one group per row, so n rows give
    // n groups; the kernel takes the smallest of its parameter tables (7, 31, 127, 255 groups)
    for (const std::int32_t n : {7, 8, 31, 32, 127, 128, 255}) {
        const auto a = with_lengths(std::vector<std::int32_t>(static_cast<std::size_t>(n), 200),
                                    1000, static_cast<std::uint32_t>(n));
        const CsrAdaptiveConfig c{256};
        const auto d = upload_csr_adaptive(convert_values<double>(a), c);
        REQUIRE(d.num_groups == n);
        CHECK(d.param_table);
        check_config<double>(a, c, std::to_string(n) + " groups");
        check_config<float>(a, c, std::to_string(n) + " groups");
    }
}

TEST_CASE("csr_adaptive: a dense row (onefull) and many groups", "[gpu][csr_adaptive]")
{
    const std::int32_t n = 200000;
    std::vector<std::int32_t> l(static_cast<std::size_t>(n), 1);
    l[0] = n;  // 98 pieces of 2048 (782 of 256)
    const auto a = with_lengths(l, n, 12);
    const auto av = convert_values<double>(a);
    CHECK_FALSE(upload_csr_adaptive(av).param_table);  // far more than 255 groups
    check_config<double>(a, {}, "onefull 200000");
    check_config<float>(a, {}, "onefull 200000");
    check_config<double>(a, CsrAdaptiveConfig{256, 8, 256}, "onefull 200000");
    // (the registry's variant runs the shared GPU zoo in test_variants_gpu.cpp)
}

TEST_CASE("csr_adaptive: no entries and configuration errors", "[gpu][csr_adaptive]")
{
    const auto none = with_lengths(std::vector<std::int32_t>(1000, 0), 10, 7);
    check_config<double>(none, {}, "1000 x 10 without entries");
    check_config<float>(none, {}, "1000 x 10 without entries");
    const auto av = convert_values<double>(none);
    CHECK_THROWS_AS(upload_csr_adaptive(av, CsrAdaptiveConfig{0, 8, 2048, 256}), InvalidArgument);
    CHECK_THROWS_AS(upload_csr_adaptive(av, CsrAdaptiveConfig{100}), InvalidArgument);
}
