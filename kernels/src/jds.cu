// Plain JDS kernels, our reading of Cevahir §4.1's GPU-JDS: one thread per nonzero of a jagged
// diagonal, one launch per diagonal into y_temp, then one thread per sorted row scatters y_temp
// into y. The paper describes its kernel in prose only (a thread per nonzero, 512-thread
// blocks, y_temp, diagonals padded to multiples of 16) and says nothing of how it is launched:
// the launch per diagonal, the 256-thread blocks and the unpadded diagonals are ours
// (tutorials/16_jds_csr_cevahir counts what the paper's padding would store).
#include <cstdint>

#include <spmv/gpu/jds.hpp>

#include "launch.cuh"
#include "permuted.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;

// One thread per nonzero r of one jagged diagonal (r = sorted row): y_temp[r] (+)= v * x[c].
// The first diagonal overwrites y_temp, so no clearing pass is needed.
template <bool first, typename V>
__global__ void __launch_bounds__(block_size)
    jds_spmv_kernel(const std::int32_t* __restrict__ col_idxs, const V* __restrict__ values,
                    std::int32_t len, const V* __restrict__ x, V* __restrict__ y_temp)
{
    SPMV_WARP_TRACE(trace);
    const std::uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= static_cast<std::uint32_t>(len)) {
        return;
    }
    trace.row(r);
    const V p = detail::ldg(values + r) * detail::ldg(x + detail::ldg(col_idxs + r));
    y_temp[r] = first ? p : y_temp[r] + p;
}

// One thread per sorted row r: y[map[r]] = alpha y_temp[r] + beta y; rows past the first
// diagonal's length (empty rows) have y_temp = 0 and were never written by jds_spmv_kernel.
template <typename V>
__global__ void __launch_bounds__(block_size)
    jds_spmv_scatter_kernel(const V* __restrict__ y_temp, std::int32_t filled,
                            std::int32_t num_rows, const std::int32_t* __restrict__ out_map,
                            V alpha, V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= static_cast<std::uint32_t>(num_rows)) {
        return;
    }
    trace.row(r);
    const std::uint32_t row = detail::output_row(out_map, r);
    const V sum = r < static_cast<std::uint32_t>(filled) ? y_temp[r] : V{0};
    detail::store_row(y, row, alpha, sum, beta);
}

}  // namespace

template <typename V>
DeviceJds<V> upload(const Jds<V, std::int32_t>& a)
{
    ensure_device_memory("jds", (a.row_perm.size() + a.col_idxs.size()) * sizeof(std::int32_t) +
                                    (a.values.size() + a.row_perm.size()) * sizeof(V));
    DeviceJds<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.identity_perm = detail::is_identity(a.row_perm);
    d.jd_ptrs_host = a.jd_ptrs;
    d.row_perm = DeviceBuffer<std::int32_t>::from_host(a.row_perm, "jds row_perm");
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "jds col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, "jds values");
    d.y_temp = DeviceBuffer<V>(static_cast<std::size_t>(a.num_rows), "jds y_temp");
    return d;
}

template <typename V>
void spmv(const DeviceJds<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
          StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    const auto s = detail::native(stream);
    V* y_temp = a.y_temp.data();
    const auto& ptrs = a.jd_ptrs_host;
    for (std::size_t d = 0; d + 1 < ptrs.size(); ++d) {  // one launch per jagged diagonal
        const std::int32_t len = ptrs[d + 1] - ptrs[d];
        const int b = detail::block_size_for(len, block_size);
        const auto blocks = static_cast<unsigned>(detail::ceil_div(len, b));
        if (d == 0) {
            jds_spmv_kernel<true><<<blocks, b, 0, s>>>(a.col_idxs.data() + ptrs[d],
                                                       a.values.data() + ptrs[d], len, x, y_temp);
        } else {
            jds_spmv_kernel<false><<<blocks, b, 0, s>>>(a.col_idxs.data() + ptrs[d],
                                                        a.values.data() + ptrs[d], len, x, y_temp);
        }
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
    const std::int32_t filled = ptrs.size() > 1 ? ptrs[1] - ptrs[0] : 0;
    const int b = detail::block_size_for(a.num_rows, block_size);
    jds_spmv_scatter_kernel<<<detail::ceil_div(a.num_rows, b), b, 0, s>>>(
        y_temp, filled, a.num_rows, detail::output_map(a.row_perm.data(), a.identity_perm, order),
        alpha, beta, y);
    SPMV_CUDA_CHECK(cudaGetLastError());
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_JDS_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_JDS_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_jds(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Jds<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V, /*permuted=*/true>(
        upload(*f), [](const DeviceJds<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                       StreamRef s) { spmv(a, alpha, x, beta, y, order, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(jds)
