// BiJAD kernel: W lanes per warp of rows, per-group shuffle reduction (kernels/src/bisection.cuh).
#include <cstdint>

#include <spmv/gpu/bijad.hpp>

#include "bisection.cuh"
#include "launch.cuh"
#include "permuted.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {

template <typename V>
DeviceBiJad<V> upload(const BiJad<V, std::int32_t>& a)
{
    const int log_w = detail::bisection_log2(a.warp_size, "bijad");
    ensure_device_memory("bijad", (a.row_perm.size() + a.group_ptrs.size() + a.col_idxs.size()) *
                                          sizeof(std::int32_t) +
                                      a.values.size() * sizeof(V));
    DeviceBiJad<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.warp_size = a.warp_size;
    d.log_warp = log_w;
    d.num_warps = (a.num_rows + a.warp_size - 1) / a.warp_size;
    SPMV_EXPECTS(a.group_ptrs.size() == static_cast<std::size_t>(d.num_warps) * (log_w + 1) + 1,
                 "bijad: group_ptrs must hold num_warps * (log2(W) + 1) + 1 entries");
    d.identity_perm = detail::is_identity(a.row_perm);
    d.row_perm = DeviceBuffer<std::int32_t>::from_host(a.row_perm, "bijad row_perm");
    d.group_ptrs = DeviceBuffer<std::int32_t>::from_host(a.group_ptrs, "bijad group_ptrs");
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "bijad col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, "bijad values");
    return d;
}

template <typename V>
void spmv(const DeviceBiJad<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
          StreamRef stream)
{
    detail::launch_bisection(a, alpha, x, beta, y, order, stream);
}

template DeviceBiJad<float> upload<float>(const BiJad<float, std::int32_t>&);
template DeviceBiJad<double> upload<double>(const BiJad<double, std::int32_t>&);
template void spmv<float>(const DeviceBiJad<float>&, float, const float*, float, float*, RowOrder,
                          StreamRef);
template void spmv<double>(const DeviceBiJad<double>&, double, const double*, double, double*,
                           RowOrder, StreamRef);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_bijad(const AnyMatrix<V>& m)
{
    const auto* f = alternative<BiJad<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V, /*permuted=*/true>(
        upload(*f), [](const DeviceBiJad<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                       StreamRef s) { spmv(a, alpha, x, beta, y, order, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(bijad)
