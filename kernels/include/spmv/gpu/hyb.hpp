#pragma once
/// HYB on the device (PELLR §2.3.4): an ELL part of width K and a COO part with the entries
/// beyond K. spmv runs the ELL kernel (one thread per row, y = alpha*ell_sum + beta*y), then the
/// COO kernel (spmv/gpu/coo.hpp) with beta = 1, adding alpha*coo_sum to the rows it holds.
/// With K = 0 the ELL part is empty and the COO kernel does all the work, rows without
/// entries included.
#include <cstddef>
#include <cstdint>

#include <spmv/formats/hyb.hpp>
#include <spmv/gpu/coo.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/ell.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
struct DeviceHyb {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    DeviceEll<ValueType> ell;  ///< width K (0: no ELL pass)
    DeviceCoo<ValueType> coo;

    std::size_t device_bytes() const noexcept { return ell.device_bytes() + coo.device_bytes(); }
};

/// Throws OutOfDeviceMemory ("hyb needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_HYB_UPLOAD(V, D) DeviceHyb<V> upload(const Hyb<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_HYB_UPLOAD, "hyb");

/// y = alpha A x + beta y (beta == 0 does not read y). x, y are device pointers.
#define SPMV_GPU_DECLARE_HYB_SPMV(V, D) \
    void spmv(const DeviceHyb<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_HYB_SPMV, "hyb");

}  // namespace spmv::gpu
