// Build without CUDA: distributed CG's device steps (spmv/gpu/dist_cg.hpp) exist and report that
// CUDA was not compiled in (spmv::NotCompiled), so spmv::dist links without an #ifdef.
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/dist_cg.hpp>

namespace spmv::gpu {

using detail::not_compiled;  // spmv/gpu/declare.hpp

template <typename V>
DistCgSteps<V>::DistCgSteps(std::size_t)
{
    not_compiled("DistCgSteps");
}
template <typename V>
unsigned DistCgSteps<V>::blocks_for(std::int64_t) const
{
    not_compiled("DistCgSteps");
}
template <typename V>
void DistCgSteps<V>::begin(double, const solvers::CgLimits&, StreamRef)
{
    not_compiled("DistCgSteps::begin");
}
template <typename V>
void DistCgSteps<V>::alpha_sums(const V*, const V*, const V*, std::int64_t, StreamRef)
{
    not_compiled("DistCgSteps::alpha_sums");
}
template <typename V>
void DistCgSteps<V>::alpha(bool, std::size_t, StreamRef)
{
    not_compiled("DistCgSteps::alpha");
}
template <typename V>
void DistCgSteps<V>::update_sums(const V*, const V*, V*, V*, const V*, V*, std::int64_t,
                                 StreamRef)
{
    not_compiled("DistCgSteps::update_sums");
}
template <typename V>
void DistCgSteps<V>::after_update(std::size_t, StreamRef)
{
    not_compiled("DistCgSteps::after_update");
}
template <typename V>
void DistCgSteps<V>::direction(const V*, V*, std::int64_t, StreamRef)
{
    not_compiled("DistCgSteps::direction");
}
template <typename V>
const solvers::CgScalars& DistCgSteps<V>::record(std::size_t) const
{
    not_compiled("DistCgSteps::record");
}

template class DistCgSteps<double>;
template class DistCgSteps<float>;

}  // namespace spmv::gpu
