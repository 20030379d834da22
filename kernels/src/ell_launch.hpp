#pragma once
// The ELL launcher with the load kind of the matrix arrays given by the caller (see
// detail::ld_matrix in launch.cuh). spmv(const DeviceEll&, ...) decides from the ELL arrays
// alone; HYB (hyb.cu) decides once from all of its arrays, its COO part included, and passes the
// answer down. Plain C++ (no CUDA types).
#include <spmv/gpu/ell.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu::detail {

/// y = alpha A x + beta y with the ELL kernel; streaming: ld_matrix<true> (evict-first) for the
/// matrix arrays, else the read-only path. Instantiated for float and double in ell.cu.
template <typename V>
void launch_ell(const DeviceEll<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream,
                bool streaming);

}  // namespace spmv::gpu::detail
