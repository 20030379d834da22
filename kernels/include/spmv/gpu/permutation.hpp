#pragma once
/// Row permutation kernels shared by the permuted formats (JDS, pJDS, PELLR, BiJAD, SELL-C-sigma):
/// the separate "un-permute" step whose cost the benchmark reports on its own.
/// perm[k] is the original row stored k-th (the row_perm of lib/).
#include <cstdint>

#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

/// dst[perm[k]] = src[k] for k < n (permuted basis -> original basis). One thread per entry.
#define SPMV_GPU_DECLARE_UNPERMUTE_ROWS(V, D)                                           \
    void unpermute_rows(const std::int32_t* perm, const V* src, V* dst, std::int32_t n, \
                        StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_UNPERMUTE_ROWS, "unpermute_rows");

/// dst[k] = src[perm[k]] for k < n (original basis -> permuted basis).
#define SPMV_GPU_DECLARE_PERMUTE_ROWS(V, D)                                           \
    void permute_rows(const std::int32_t* perm, const V* src, V* dst, std::int32_t n, \
                      StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_PERMUTE_ROWS, "permute_rows");

}  // namespace spmv::gpu
