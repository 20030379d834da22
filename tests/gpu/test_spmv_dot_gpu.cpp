// [gpu][spmv_dot] DeviceMatrix::spmv_dot: y = A x with x.y summed in the same launch, what CG
// uses for q = A p and p.q (sell and sell_i16 have the fused path). y must be apply()'s y bit for
// bit (the same kernel arithmetic, poisoned output), x.y must match a host dot product of x and
// that y in double, a second launch must give the same bits (the ticket is reset, the partial
// sums are added in a fixed order), in both bases, in float with float and double sums.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/registry.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;

namespace {

/// The caller-owned device memory of a DotSink.
struct Sink {
    DeviceBuffer<double> partials;
    DeviceBuffer<unsigned> ticket = DeviceBuffer<unsigned>::from_host(std::vector<unsigned>{0u});
    DeviceBuffer<double> result = DeviceBuffer<double>::from_host(std::vector<double>{-1.0});

    explicit Sink(std::size_t capacity) : partials(capacity, "test dot partials") {}
    DotSink view() { return {partials.data(), partials.size(), ticket.data(), result.data()}; }
};

template <typename V>
struct DotRun {
    std::vector<V> y;
    double dot = 0.0;
    unsigned ticket = 1;
};

template <typename V>
DotRun<V> run_dot(const DeviceMatrix<V>& m, const std::vector<V>& x, RowOrder order, Sums sums,
                  Sink& sink)
{
    auto dx = DeviceBuffer<V>::from_host(x);
    auto dy = DeviceBuffer<V>::from_host(
        std::vector<V>(static_cast<std::size_t>(m.num_rows()), std::numeric_limits<V>::quiet_NaN()));
    REQUIRE(m.spmv_dot(dx.data(), dy.data(), order, {}, sums, sink.view()));
    synchronize();
    DotRun<V> r;
    r.y = dy.to_host();
    r.dot = sink.result.to_host()[0];
    r.ticket = sink.ticket.to_host()[0];
    return r;
}

template <typename V>
void check_dot_variant(const char* variant)
{
    FormatParams sorted;
    sorted.sort_window = 64;
    for (const auto& m : test::gpu_zoo()) {
        if (m.a.num_rows != m.a.num_cols || m.a.num_rows == 0) {
            continue;  // x.y needs x and y of one length
        }
        const auto a = convert_values<V>(m.a);
        const auto xd = test::random_vector(static_cast<std::size_t>(a.num_cols), 31);
        const std::vector<V> x(xd.begin(), xd.end());
        for (const FormatParams& p : {FormatParams{}, sorted}) {
            const auto dm = prepare<V>(variant, a, p);
            REQUIRE(dm.has_dot());
            Sink sink((static_cast<std::size_t>(a.num_rows) + 255) / 256);
            for (const RowOrder order : {RowOrder::original, RowOrder::permuted}) {
                for (const Sums sums : {Sums::value_type, Sums::double_precision}) {
                    INFO(variant << ", " << m.name << ", sigma " << p.sort_window << ", "
                                 << (order == RowOrder::original ? "original" : "permuted")
                                 << " order, " << (sums == Sums::value_type ? "value" : "double")
                                 << " sums");
                    // apply()'s y with a poisoned output and beta = 0
                    auto dx = DeviceBuffer<V>::from_host(x);
                    auto dy = DeviceBuffer<V>::from_host(std::vector<V>(
                        static_cast<std::size_t>(a.num_rows), std::numeric_limits<V>::quiet_NaN()));
                    dm.spmv(V{1}, dx.data(), V{0}, dy.data(), order, {}, sums);
                    synchronize();
                    const std::vector<V> y_ref = dy.to_host();

                    const auto first = run_dot(dm, x, order, sums, sink);
                    const auto second = run_dot(dm, x, order, sums, sink);

                    CHECK(first.y == y_ref);  // bit for bit, and no NaN left: every row written
                    double host = 0.0;
                    double scale = 0.0;
                    for (std::size_t i = 0; i < x.size(); ++i) {
                        host += static_cast<double>(x[i]) * static_cast<double>(first.y[i]);
                        scale += std::abs(static_cast<double>(x[i]) * static_cast<double>(first.y[i]));
                    }
                    CHECK(std::abs(first.dot - host) <= 1e-13 * scale);
                    CHECK(first.ticket == 0u);  // reset by the last block
                    CHECK(second.dot == first.dot);  // fixed order: bitwise reproducible
                    CHECK(second.y == first.y);
                }
            }
        }
    }
}

}  // namespace

TEST_CASE("spmv_dot gives apply()'s y and x.y in double, in both bases, launch after launch",
          "[gpu][spmv_dot]")
{
    for (const char* variant : {"sell", "sell_i16"}) {
        check_dot_variant<double>(variant);
        check_dot_variant<float>(variant);
    }
}

TEST_CASE("spmv_dot: a 3 x 3 system by hand, and an empty matrix gives 0", "[gpu][spmv_dot]")
{
    // A = [2 1 0; 1 3 0; 0 0 0] (row 2 empty), x = (1, 2, 5): y = (4, 7, 0), x.y = 4 + 14 = 18
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = 3;
    a.row_ptrs = {0, 2, 4, 4};
    a.col_idxs = {0, 1, 0, 1};
    a.values = {2.0, 1.0, 1.0, 3.0};
    const auto dm = prepare<double>("sell", a, {});
    Sink sink(1);
    const auto r = run_dot(dm, {1.0, 2.0, 5.0}, RowOrder::original, Sums::value_type, sink);
    CHECK(r.y == std::vector<double>{4.0, 7.0, 0.0});
    CHECK(r.dot == 18.0);

    Csr<double, std::int32_t> empty;
    empty.num_rows = empty.num_cols = 0;
    empty.row_ptrs = {0};
    const auto de = prepare<double>("sell", empty, {});
    Sink sink0(1);
    REQUIRE(de.spmv_dot(nullptr, nullptr, RowOrder::original, {}, Sums::value_type, sink0.view()));
    synchronize();
    CHECK(sink0.result.to_host()[0] == 0.0);
}

TEST_CASE("spmv_dot: formats without the fused path say so, bad shapes and sinks are refused",
          "[gpu][spmv_dot]")
{
    const auto a = test::pde7(20);  // 8000 rows: 32 blocks of 256
    const auto csr = prepare<double>("csr_vector", a, {});
    CHECK_FALSE(csr.has_dot());
    Sink sink(64);
    auto x = DeviceBuffer<double>::from_host(std::vector<double>(8000, 1.0));
    auto y = DeviceBuffer<double>(8000, "y");
    CHECK_FALSE(csr.spmv_dot(x.data(), y.data(), RowOrder::original, {}, Sums::value_type,
                             sink.view()));  // launches nothing: the caller runs both parts

    const auto sell = prepare<double>("sell", a, {});
    Sink small(31);  // one partial short
    CHECK_THROWS_WITH(sell.spmv_dot(x.data(), y.data(), RowOrder::original, {},
                                    Sums::value_type, small.view()),
                      Catch::Contains("the dot sink holds 31 partial sums, the launch needs 32"));

    const auto rect = test::random_csr(64, 100, 1, 4, 5);
    const auto sr = prepare<double>("sell", rect, {});
    CHECK_THROWS_AS(sr.spmv_dot(x.data(), y.data(), RowOrder::original, {}, Sums::value_type,
                                sink.view()),
                    DimensionMismatch);
    synchronize();
}

TEST_CASE("spmv_dot: a set skip flag makes the launch do nothing, a clear one runs it",
          "[gpu][spmv_dot]")
{
    // CG passes its stop flag as DotSink::skip: the SpMV queued after the iteration that stopped
    // must leave y, x.y and the ticket alone.
    const auto a = test::pde7(20);  // 8000 rows: several blocks of the resident wave
    for (const char* variant : {"sell", "sell_i16"}) {
        INFO(variant);
        const auto dm = prepare<double>(variant, a, {});
        Sink sink(64);
        const std::vector<double> x(8000, 1.0);
        auto dx = DeviceBuffer<double>::from_host(x);
        const std::vector<double> poison(8000, 42.0);
        auto dy = DeviceBuffer<double>::from_host(poison);
        auto flag = DeviceBuffer<int>::from_host(std::vector<int>{2});  // cg_stop_residual
        DotSink view = sink.view();
        view.skip = flag.data();
        REQUIRE(dm.spmv_dot(dx.data(), dy.data(), RowOrder::original, {}, Sums::value_type, view));
        synchronize();
        CHECK(dy.to_host() == poison);
        CHECK(sink.result.to_host()[0] == -1.0);
        CHECK(sink.ticket.to_host()[0] == 0u);

        flag = DeviceBuffer<int>::from_host(std::vector<int>{0});  // running: the launch runs
        view.skip = flag.data();
        REQUIRE(dm.spmv_dot(dx.data(), dy.data(), RowOrder::original, {}, Sums::value_type, view));
        synchronize();
        // A times ones: each row's sum of values (integers: exact in any order); x.y their sum
        std::vector<double> row_sums(8000, 0.0);
        double expect = 0.0;
        for (std::int32_t i = 0; i < a.num_rows; ++i) {
            for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                row_sums[static_cast<std::size_t>(i)] += a.values[static_cast<std::size_t>(k)];
            }
            expect += row_sums[static_cast<std::size_t>(i)];
        }
        CHECK(dy.to_host() == row_sums);
        CHECK(expect > 0.0);  // boundary rows have fewer than 6 neighbours
        CHECK(sink.result.to_host()[0] == expect);
    }
}
