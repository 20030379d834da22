#pragma once
/// ELLPACK-R on the device (Kreutzer Listing 1, PELLR §2.3.2): the ELLPACK arrays plus
/// row_lengths (rowmax[] / rl[]). ellr_spmv_kernel runs one thread per row and stops at the
/// row's length, so padding slots are neither read nor computed; a warp still waits for its
/// longest row (the idle slots of Kreutzer Fig. 2).
#include <cstddef>
#include <cstdint>

#include <spmv/formats/ellr.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
struct DeviceEllR {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int32_t width = 0;
    std::int32_t stride = 0;
    DeviceBuffer<std::int32_t> col_idxs;  ///< stride * width, column-major
    DeviceBuffer<ValueType> values;
    DeviceBuffer<std::int32_t> row_lengths;

    std::size_t device_bytes() const noexcept
    {
        return col_idxs.bytes() + values.bytes() + row_lengths.bytes();
    }
};

/// Throws OutOfDeviceMemory ("ellr needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_ELLR_UPLOAD(V, D) DeviceEllR<V> upload(const EllR<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_ELLR_UPLOAD, "ellr");

/// y = alpha A x + beta y (beta == 0 does not read y). x, y are device pointers.
#define SPMV_GPU_DECLARE_ELLR_SPMV(V, D) \
    void spmv(const DeviceEllR<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_ELLR_SPMV, "ellr");

}  // namespace spmv::gpu
