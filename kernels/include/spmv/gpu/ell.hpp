#pragma once
/// ELLPACK on the device (Kreutzer §II.A, Listing 1 without rowmax[]): the column-major
/// num_rows x width arrays of spmv::Ell. ell_spmv_kernel runs one thread per row; consecutive
/// threads read consecutive addresses (coalesced), and every thread walks all `width` slots,
/// padding included: ELLPACK "computes the zeros". A padding slot (index -1, value 0) loads its
/// value and index like any other slot and only skips the load of x, which has no address for
/// it (so ELL moves exactly the bytes it stores; ELLPACK-R moves only the real ones).
#include <cstddef>
#include <cstdint>

#include <spmv/formats/ell.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
struct DeviceEll {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int32_t width = 0;
    std::int32_t stride = 0;
    DeviceBuffer<std::int32_t> col_idxs;  ///< stride * width, column-major
    DeviceBuffer<ValueType> values;

    std::size_t device_bytes() const noexcept { return col_idxs.bytes() + values.bytes(); }
};

/// Throws OutOfDeviceMemory ("ell needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_ELL_UPLOAD(V, D) DeviceEll<V> upload(const Ell<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_ELL_UPLOAD, "ell");

/// y = alpha A x + beta y (beta == 0 does not read y). x, y are device pointers.
#define SPMV_GPU_DECLARE_ELL_SPMV(V, D) \
    void spmv(const DeviceEll<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_ELL_SPMV, "ell");

}  // namespace spmv::gpu
