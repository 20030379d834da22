#pragma once
// Shared by the kernels of the "jagged" layouts, JDS CSR-like (jds_csr.cu) and pJDS (pjds.cu):
// rows sorted by length, column j of the compressed matrix stored contiguously from offsets[j]
// (jd_ptrs of Cevahir Fig. 3, col_start of Kreutzer Listing 2), so entry j of sorted row t sits
// at offsets[j] + t. One thread per sorted row: consecutive threads read consecutive slots.
//
// Where the offsets live. Every thread of a warp reads offsets[j] for the same j in the same
// step, which is exactly what constant memory is for (one broadcast per warp, Cevahir §3.1).
// We put them in the kernel-parameter constant bank (a `__grid_constant__` struct, which CUDA
// 12.1+ allows up to 32 KiB on sm_70+) rather than in a module-wide `__constant__` array: a
// `__constant__` symbol is one per process, so every SpMV would first have to copy its matrix's
// offsets into it, and two matrices used on two streams at once would overwrite each other's.
// A parameter travels with its own launch: no copy, no race. The table comes in capacities of
// 32, 256, 1024 and 4096 entries (the smallest that fits, so a 7-diagonal matrix passes 128
// bytes, not 16 KiB); with more than max_constant_offsets columns the kernel reads the offsets
// from global memory through the read-only cache instead (capacity 0: the fallback path).
#include <cstdint>
#include <cstring>
#include <span>

#include "launch.cuh"

namespace spmv::gpu::detail {

/// Largest column count whose offsets go to constant memory (16 KiB of int32).
inline constexpr int max_constant_offsets = 4096;

/// offsets[0..capacity) passed by value as a kernel parameter (constant bank).
template <int capacity>
struct OffsetTable {
    static constexpr int size = capacity;
    std::int32_t at[capacity];
};
/// Capacity 0: the offsets stay in global memory (a pointer in the kernel's view).
template <>
struct OffsetTable<0> {
    static constexpr int size = 0;
};

template <int capacity>
OffsetTable<capacity> make_offset_table(std::span<const std::int32_t> offsets)
{
    OffsetTable<capacity> t{};
    if constexpr (capacity > 0) {
        std::memcpy(t.at, offsets.data(), offsets.size() * sizeof(std::int32_t));
    }
    return t;
}

/// Calls launch(table) with the smallest table holding `offsets`, or with OffsetTable<0> (global
/// memory) when there are more than max_constant_offsets of them.
template <typename Launch>
void with_offset_table(std::span<const std::int32_t> offsets, Launch&& launch)
{
    const auto n = offsets.size();
    if (n <= 32) {
        launch(make_offset_table<32>(offsets));
    } else if (n <= 256) {
        launch(make_offset_table<256>(offsets));
    } else if (n <= 1024) {
        launch(make_offset_table<1024>(offsets));
    } else if (n <= static_cast<std::size_t>(max_constant_offsets)) {
        launch(make_offset_table<max_constant_offsets>(offsets));
    } else {
        launch(OffsetTable<0>{});
    }
}

/// offsets[j]: from the parameter table, or from global memory for capacity 0.
template <int capacity>
__device__ __forceinline__ std::int32_t offset_at(const OffsetTable<capacity>& table,
                                                  const std::int32_t* __restrict__ global,
                                                  std::int32_t j)
{
    if constexpr (capacity > 0) {
        return table.at[j];
    } else {
        return ldg(global + j);
    }
}

/// sum_{j < len} val[offsets[j] + t] * x[idx[offsets[j] + t]] in steps of `unroll` slots:
/// the offsets, then `unroll` index and value loads (predicated on j < len, no serial
/// remainder), then the gathers of x, into two accumulators. All slots j < len are real.
/// `streaming`: the load kind of idx and val (ld_matrix, chosen per launch).
template <bool streaming, int unroll, int capacity, typename V>
__device__ __forceinline__ V jagged_row_sum(const OffsetTable<capacity>& table,
                                            const std::int32_t* __restrict__ global_offsets,
                                            const std::int32_t* __restrict__ idx,
                                            const V* __restrict__ val, std::int32_t t,
                                            std::int32_t len, const V* __restrict__ x)
{
    V s0{0};
    V s1{0};
    for (std::int32_t j = 0; j < len; j += unroll) {
        std::int32_t c[unroll];
        V v[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
            const bool in = j + u < len;
            const std::int32_t o = in ? offset_at(table, global_offsets, j + u) + t : 0;
            c[u] = in ? ld_matrix<streaming>(idx + o) : 0;
            v[u] = in ? ld_matrix<streaming>(val + o) : V{0};
        }
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
            const V xv = j + u < len ? ldg(x + c[u]) : V{0};
            if (u % 2 == 0) {
                s0 += v[u] * xv;
            } else {
                s1 += v[u] * xv;
            }
        }
    }
    return s0 + s1;
}

}  // namespace spmv::gpu::detail
