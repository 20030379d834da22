#pragma once
/// ELLG on the device (Barbieri, Cardellini, Filippone §2): ELLPACK-R whose leading dimension
/// (stride) is padded to a pitch so that every column starts on a 128-byte boundary.
/// ellg_spmv_kernel is Barbieri's Sspmvm_gpu_unroll_2_krn: one thread per row, the row length
/// known up front, the loop unrolled by 2 with both index/value pairs and both x entries
/// fetched before the two multiply-adds, then one more slot for an odd length. x is read
/// through the read-only data cache (__ldg), the modern form of the paper's tex1Dfetch.
#include <cstddef>
#include <cstdint>

#include <spmv/formats/ellg.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
struct DeviceEllG {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int32_t width = 0;
    std::int32_t stride = 0;  ///< pitched leading dimension (Barbieri's `pitch`, in elements)
    DeviceBuffer<std::int32_t> col_idxs;     ///< stride * width, column-major (rP)
    DeviceBuffer<ValueType> values;          ///< cM
    DeviceBuffer<std::int32_t> row_lengths;  ///< rS

    std::size_t device_bytes() const noexcept
    {
        return col_idxs.bytes() + values.bytes() + row_lengths.bytes();
    }
};

/// Throws OutOfDeviceMemory ("ellg needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_ELLG_UPLOAD(V, D) DeviceEllG<V> upload(const EllG<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_ELLG_UPLOAD, "ellg");

/// y = alpha A x + beta y (beta == 0 does not read y). x, y are device pointers.
#define SPMV_GPU_DECLARE_ELLG_SPMV(V, D) \
    void spmv(const DeviceEllG<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_ELLG_SPMV, "ellg");

}  // namespace spmv::gpu
