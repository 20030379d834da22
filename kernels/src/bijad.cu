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
