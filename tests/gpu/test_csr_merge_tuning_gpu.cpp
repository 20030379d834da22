// TEMPORARY tuning sweep for csr_merge (hidden): block size x items per thread x partition mode.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/generators.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/csr_merge.hpp>
#include <spmv/gpu/variants.hpp>

using namespace spmv;
using namespace spmv::gpu;

namespace {
template <typename V>
class TuneOp final : public DeviceOp<V> {
public:
    explicit TuneOp(DeviceCsrMerge<V> d) : d_(std::move(d)) {}
    void apply(V alpha, const V* x, V beta, V* y, RowOrder, StreamRef s) const override
    {
        gpu::spmv(d_, alpha, x, beta, y, s);
    }
    std::size_t device_bytes() const noexcept override { return d_.device_bytes(); }

private:
    DeviceCsrMerge<V> d_;
};

template <typename V>
void sweep(const std::string& name, const Csr<double, std::int32_t>& a64)
{
    const auto a = convert_values<V>(a64);
    BenchOptions o;
    o.xgpu = false;
    o.min_reps = 30;
    o.min_time_ms = 30;
    auto line = [&](const std::string& label, const DeviceMatrix<V>& m) {
        const auto r = bench(m, o);
        std::printf("TUNE %-10s %s %-26s %8.1f GF/s %5.1f %% copy %8.2f us\n", name.c_str(),
                    sizeof(V) == 8 ? "dp" : "sp", label.c_str(), r.gflops,
                    100 * r.fraction_of_copy, 1000 * r.kernel.median_ms);
    };
    for (const char* base : {"cusparse_csr_alg1", "csr_vector"}) {
        line(base, prepare<V>(base, a));
    }
    for (const int b : {64, 128, 256}) {
        for (const int p : {4, 6, 8, 12}) {
            for (const auto part : {CsrMergePartition::precomputed, CsrMergePartition::search}) {
                if (part == CsrMergePartition::search && !(p == 8 || p == 12)) {
                    continue;
                }
                DeviceMatrix<V> m(std::make_unique<TuneOp<V>>(upload_csr_merge(a, {b, p, part})),
                                  "csr", "csr_merge", a.num_rows, a.num_cols, nnz(a));
                line("merge " + std::to_string(b) + "x" + std::to_string(p) +
                         (part == CsrMergePartition::search ? " search" : ""),
                     m);
            }
        }
    }
}
}  // namespace

TEST_CASE("csr_merge tuning sweep", "[.][csr_merge_tuning]")
{
    const auto pde = gen::generate("pde", {{"size", 100}});
    sweep<double>("pde100", pde);
    sweep<float>("pde100", pde);
    const auto pl = gen::generate("powerlaw", {{"rows", 1000000}, {"min-len", 4}, {"max-len", 1000}});
    sweep<double>("powerlaw", pl);
    sweep<double>("onefull", gen::generate("onefull", {{"n", 200000}}));
    sweep<double>("blocks5", gen::generate("blocks5", {{"block-rows", 100000}}));
}
