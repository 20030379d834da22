// BiELL kernel: W lanes per warp of rows, per-group shuffle reduction (kernels/src/bisection.cuh).
#include <cstdint>

#include <spmv/gpu/biell.hpp>

#include "bisection.cuh"
#include "launch.cuh"
#include "permuted.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {

template <typename V>
DeviceBiEll<V> upload(const BiEll<V, std::int32_t>& a)
{
    return detail::upload_bisection<DeviceBiEll<V>>(a, "biell");
}

template <typename V>
void spmv(const DeviceBiEll<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
          StreamRef stream)
{
    detail::launch_bisection(a, alpha, x, beta, y, order, stream);
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_BIELL_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_BIELL_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_biell(const AnyMatrix<V>& m)
{
    const auto* f = alternative<BiEll<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V, /*permuted=*/true>(
        upload(*f), [](const DeviceBiEll<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                       StreamRef s) { spmv(a, alpha, x, beta, y, order, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(biell)
