// Host-only build of spmv::kernels: traced runs (spmv/gpu/warp_trace.hpp) need CUDA.
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/warp_trace.hpp>

namespace spmv::gpu {

bool warp_recorder_compiled() noexcept
{
    return false;
}

WarpTrace trace_warps(const std::function<void()>&, StreamRef, std::size_t)
{
    detail::not_compiled("trace_warps (warp timelines)");
}

}  // namespace spmv::gpu
