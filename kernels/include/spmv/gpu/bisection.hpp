#pragma once
/// The device arrays shared by BiELL and BiJAD (the same bisection-group layout; BiJAD sorts
/// globally, BiELL inside each warp of rows): DeviceBiEll and DeviceBiJad derive from it, so that
/// spmv() and upload() stay overloads per format while the members are written once.
#include <cstddef>
#include <cstdint>

#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
struct DeviceBisectionArrays {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int32_t warp_size = 32;            ///< W
    std::int32_t log_warp = 5;              ///< log2(W)
    std::int32_t num_warps = 0;             ///< ceil(num_rows / W)
    bool identity_perm = true;              ///< row_perm[k] == k for all k: the kernel skips it
    DeviceBuffer<std::int32_t> row_perm;    ///< num_rows
    DeviceBuffer<std::int32_t> group_ptrs;  ///< num_warps * G + 1
    DeviceBuffer<std::int32_t> col_idxs;
    DeviceBuffer<ValueType> values;

    std::size_t device_bytes() const noexcept
    {
        return row_perm.bytes() + group_ptrs.bytes() + col_idxs.bytes() + values.bytes();
    }
};

}  // namespace spmv::gpu
