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
    return detail::upload_bisection<DeviceBiJad<V>>(a, "bijad");
}

template <typename V>
void spmv(const DeviceBiJad<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
          StreamRef stream)
{
    detail::launch_bisection(a, alpha, x, beta, y, order, stream);
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_BIJAD_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_BIJAD_SPMV);

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
