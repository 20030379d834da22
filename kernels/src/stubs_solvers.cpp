// Build without CUDA: the GPU solver entry points exist and report that CUDA was not compiled in,
// so the CLI and the tests link and print a clear error instead of an #ifdef.
#include <spmv/error.hpp>
#include <spmv/gpu/solver.hpp>

namespace spmv::gpu {

solvers::SolveResult solve_gpu(const Csr<double, std::int32_t>&, std::span<const double>,
                               std::span<double>, solvers::Method, std::string_view,
                               const FormatParams&, const solvers::SolveOptions&, std::string_view)
{
    SPMV_THROW(NotCompiled,
               "the GPU solvers need CUDA: SpMV Lab was built without it (SPMV_ENABLE_CUDA=OFF "
               "or no nvcc); run without --gpu for the host reference");
}

}  // namespace spmv::gpu
