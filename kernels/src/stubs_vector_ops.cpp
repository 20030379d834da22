// Build without CUDA: the device BLAS-1 entry points (spmv/gpu/vector_ops.hpp) exist and report
// that CUDA was not compiled in (spmv::NotCompiled), so the distributed code links without an
// #ifdef.
#include <array>
#include <cstdint>

#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/vector_ops.hpp>

namespace spmv::gpu {

using detail::not_compiled;  // spmv/gpu/declare.hpp

template <typename V>
void gather(const V*, const std::int32_t*, std::int64_t, V*, StreamRef)
{
    not_compiled("gather");
}

template <typename V>
void scatter_add(const V*, const std::int32_t*, std::int64_t, V*, StreamRef)
{
    not_compiled("scatter_add");
}

template <typename V>
void xpay(const V*, double, V*, std::int64_t, StreamRef)
{
    not_compiled("xpay");
}

template <typename V>
void axpy(double, const V*, V*, std::int64_t, StreamRef)
{
    not_compiled("axpy");
}

template <typename V>
void multiply(const V*, const V*, V*, std::int64_t, StreamRef)
{
    not_compiled("multiply");
}

template <typename From, typename To>
void convert_scaled(const From*, double, To*, std::int64_t, StreamRef)
{
    not_compiled("convert_scaled");
}

template <typename From, typename To>
void add_scaled(const From*, double, To*, std::int64_t, StreamRef)
{
    not_compiled("add_scaled");
}

template <typename V>
DotEngine<V>::DotEngine()
{
    not_compiled("DotEngine");
}

template <typename V>
unsigned DotEngine<V>::blocks_for(std::int64_t) const
{
    not_compiled("DotEngine");
}

template <typename V>
std::array<double, 2> DotEngine<V>::dot2(const V*, const V*, const V*, const V*, std::int64_t,
                                         StreamRef)
{
    not_compiled("DotEngine::dot2");
}

template <typename V>
double DotEngine<V>::dot(const V*, const V*, std::int64_t, StreamRef)
{
    not_compiled("DotEngine::dot");
}

template <typename V>
std::array<double, 2> DotEngine<V>::cg_update(double, const V*, const V*, V*, V*, const V*, V*,
                                              std::int64_t, StreamRef)
{
    not_compiled("DotEngine::cg_update");
}

#define SPMV_VECTOR_OPS_INSTANTIATE(V)                                                   \
    template void gather<V>(const V*, const std::int32_t*, std::int64_t, V*, StreamRef); \
    template void scatter_add<V>(const V*, const std::int32_t*, std::int64_t, V*, StreamRef); \
    template void xpay<V>(const V*, double, V*, std::int64_t, StreamRef);                \
    template void axpy<V>(double, const V*, V*, std::int64_t, StreamRef);                \
    template void multiply<V>(const V*, const V*, V*, std::int64_t, StreamRef);          \
    template class DotEngine<V>;
SPMV_VECTOR_OPS_INSTANTIATE(float)
SPMV_VECTOR_OPS_INSTANTIATE(double)
#undef SPMV_VECTOR_OPS_INSTANTIATE

#define SPMV_CONVERT_INSTANTIATE(From, To)                                                     \
    template void convert_scaled<From, To>(const From*, double, To*, std::int64_t, StreamRef); \
    template void add_scaled<From, To>(const From*, double, To*, std::int64_t, StreamRef);
SPMV_CONVERT_INSTANTIATE(float, float)
SPMV_CONVERT_INSTANTIATE(float, double)
SPMV_CONVERT_INSTANTIATE(double, float)
SPMV_CONVERT_INSTANTIATE(double, double)
#undef SPMV_CONVERT_INSTANTIATE

}  // namespace spmv::gpu
