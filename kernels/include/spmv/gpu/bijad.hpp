#pragma once
/// BiJAD on the device (PELLR §2.3.5 after Zheng et al. 2014; docs/formats/biell_bijad.md): rows
/// sorted by length over the whole matrix (as JDS), then cut into warps of W rows; each warp of
/// rows is split into G = log2(W) + 1 bisection groups, group g giving each of its h_g = W >> g
/// longest rows W / h_g lanes. bisection_spmv_kernel (shared with BiELL, in
/// kernels/src/bisection.cuh) runs W lanes per warp of rows: per group every lane sums its
/// width_g slots (coalesced over the lanes), the lanes of a row are added with warp shuffles, and
/// lane p keeps the sum of sorted row p, which it writes once, at y[row_perm[k]]
/// (RowOrder::original) or y[k] (RowOrder::permuted). W (warp_size of the host format) must be
/// a power of two <= 32; upload() throws InvalidArgument for any other W.
#include <cstddef>
#include <cstdint>

#include <spmv/formats/bijad.hpp>
#include <spmv/gpu/bisection.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
struct DeviceBiJad : DeviceBisectionArrays<ValueType> {};

/// Throws InvalidArgument when warp_size is not a power of two in [1, 32], OutOfDeviceMemory
/// ("bijad needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_BIJAD_UPLOAD(V, D) DeviceBiJad<V> upload(const BiJad<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_BIJAD_UPLOAD, "bijad");

/// y = alpha A x + beta y (beta == 0 does not read y); `order` picks y[row_perm[k]] (original)
/// or y[k] (permuted) for stored row k. x, y are device pointers.
#define SPMV_GPU_DECLARE_BIJAD_SPMV(V, D)                                 \
    void spmv(const DeviceBiJad<V>& a, V alpha, const V* x, V beta, V* y, \
              RowOrder order D(= RowOrder::original), StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_BIJAD_SPMV, "bijad");

}  // namespace spmv::gpu
