// JDS CSR-like kernel (Cevahir Fig. 3): one thread per sorted row walking the jagged diagonals.
#include <cstdint>
#include <span>

#include <spmv/gpu/jds_csr.hpp>

#include "jagged.cuh"
#include "launch.cuh"
#include "permuted.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;
static_assert(jds_csr_constant_diagonals == detail::max_constant_offsets);

template <typename V>
struct JdsCsrView {
    std::int32_t num_rows;
    const std::int32_t* nz_count;
    const std::int32_t* jd_ptrs;  ///< read only by the global-memory path (capacity 0)
    const std::int32_t* out_map;  ///< nullptr: y[t]; else y[out_map[t]]
    const std::int32_t* col_idxs;
    const V* values;
};

// One thread per sorted row t: mult += values[jd_ptrs[i] + t] * x[col_ind[jd_ptrs[i] + t]] for
// i < nz_count[t]; jd_ptrs from the constant-bank table (capacity > 0) or global memory.
// `streaming`: the matrix arrays' load kind (detail::ld_matrix, chosen per launch).
template <bool streaming, int capacity, typename V>
__global__ void __launch_bounds__(block_size)
    jds_csr_spmv_kernel(JdsCsrView<V> a,
                        const __grid_constant__ detail::OffsetTable<capacity> jd_ptrs, V alpha,
                        const V* __restrict__ x, V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= static_cast<std::uint32_t>(a.num_rows)) {
        return;
    }
    trace.row(t);
    const std::uint32_t row = detail::output_row(a.out_map, t);
    const std::int32_t len = detail::ldg(a.nz_count + t);
    const V mult = detail::jagged_row_sum<streaming, detail::row_unroll>(
        jd_ptrs, a.jd_ptrs, a.col_idxs, a.values, static_cast<std::int32_t>(t), len, x);
    detail::store_row(y, row, alpha, mult, beta);
}

}  // namespace

template <typename V>
DeviceJdsCsr<V> upload(const JdsCsr<V, std::int32_t>& a)
{
    ensure_device_memory(
        "jds_csr", (a.row_perm.size() + a.nz_count.size() + a.jd_ptrs.size() + a.col_idxs.size()) *
                           sizeof(std::int32_t) +
                       a.values.size() * sizeof(V));
    DeviceJdsCsr<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.num_diags = static_cast<std::int32_t>(a.jd_ptrs.size()) - 1;
    d.diag_pad = a.diag_pad;
    d.identity_perm = detail::is_identity(a.row_perm);
    d.jd_ptrs_host = a.jd_ptrs;
    d.row_perm = DeviceBuffer<std::int32_t>::from_host(a.row_perm, "jds_csr row_perm");
    d.nz_count = DeviceBuffer<std::int32_t>::from_host(a.nz_count, "jds_csr nz_count");
    d.jd_ptrs = DeviceBuffer<std::int32_t>::from_host(a.jd_ptrs, "jds_csr jd_ptrs");
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "jds_csr col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, "jds_csr values");
    return d;
}

template <typename V>
void spmv(const DeviceJdsCsr<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
          StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    const JdsCsrView<V> v{
        a.num_rows,        a.nz_count.data(),
        a.jd_ptrs.data(),  detail::output_map(a.row_perm.data(), a.identity_perm, order),
        a.col_idxs.data(), a.values.data()};
    const int b = detail::block_size_for(a.num_rows, block_size);
    const auto blocks = static_cast<unsigned>(detail::ceil_div(a.num_rows, b));
    // the kernel reads jd_ptrs[0..num_diags): the end pointer is not needed
    const std::span<const std::int32_t> starts(a.jd_ptrs_host.data(),
                                               static_cast<std::size_t>(a.num_diags));
    detail::with_stream_policy(detail::stream_matrix_loads_for<V>(a), [&](auto s) {
        detail::with_offset_table(starts, [&](const auto& table) {
            constexpr int capacity = std::decay_t<decltype(table)>::size;
            jds_csr_spmv_kernel<decltype(s)::value, capacity>
                <<<blocks, b, 0, detail::native(stream)>>>(v, table, alpha, x, beta, y);
        });
    });
    SPMV_CUDA_CHECK(cudaGetLastError());
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_JDS_CSR_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_JDS_CSR_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_jds_csr(const AnyMatrix<V>& m)
{
    const auto* f = alternative<JdsCsr<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V, /*permuted=*/true>(
        upload(*f), [](const DeviceJdsCsr<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                       StreamRef s) { spmv(a, alpha, x, beta, y, order, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(jds_csr)
