#pragma once
/// Row permutation kernels shared by the permuted formats (JDS, pJDS, PELLR, BiJAD, SELL-C-sigma):
/// the separate "un-permute" step whose cost the benchmark reports on its own.
/// perm[k] is the original row stored k-th (the row_perm of lib/).
#include <cstdint>

#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

/// dst[perm[k]] = src[k] for k < n (permuted basis -> original basis). One thread per entry.
template <typename ValueType>
void unpermute_rows(const std::int32_t* perm, const ValueType* src, ValueType* dst, std::int32_t n,
                    StreamRef stream = {});

/// dst[k] = src[perm[k]] for k < n (original basis -> permuted basis).
template <typename ValueType>
void permute_rows(const std::int32_t* perm, const ValueType* src, ValueType* dst, std::int32_t n,
                  StreamRef stream = {});

}  // namespace spmv::gpu
