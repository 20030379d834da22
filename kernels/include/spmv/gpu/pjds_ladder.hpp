#pragma once
/// The road from Kreutzer's Listing 2 to the project's pJDS kernel, one optimisation per step
/// (lesson 10, "SGEMM_CUDA-style"): step k is step k-1 plus one change, and every step computes
/// the same y = alpha A x + beta y in the original row order, so that each can be verified and
/// timed by the same harness (verify, bench) as the production variants.
///
///   0  Listing 2 as printed: one thread per sorted row, `c[i] += val[..] * rhs[..]` into a
///      zeroed c in global memory (no __restrict__: every trip loads and stores c[i]),
///      col_start[j] loaded from global memory, then a second kernel y[row_perm[i]] = c[i]
///   1  the row's sum in a register, stored once (__restrict__ pointers)
///   2  col_start in the constant bank (a __grid_constant__ table, jagged.cuh)
///   3  unrolled by 8, predicated, two accumulators (jagged_row_sum's loop with plain loads)
///   4  read-only loads (__ldg) for x and rowmax, streaming loads of val/col_idx when the
///      matrix exceeds the L2 (launch.cuh): now exactly jagged_row_sum
///   5  the permutation in the same store: y[row_perm[i]] written by the SpMV kernel itself
///   6  block size 256/128/64 by matrix size (block_size_for): the production `pjds` kernel
/// The split kernel (`pjds_split`, b_r = 32) is the production variant beyond step 6.
#include <cstdint>
#include <span>

#include <spmv/formats/pjds.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/device_matrix.hpp>

namespace spmv::gpu {

struct PjdsLadderStep {
    int step;
    const char* name;    ///< "listing2", "register_sum", ...
    const char* change;  ///< what this step adds, in words
};

/// Steps 0..6 in order.
std::span<const PjdsLadderStep> pjds_ladder_steps();

/// pJDS uploaded for step `step` (0..6; InvalidArgument otherwise) of the ladder, as a
/// DeviceMatrix with format "pjds" and variant "pjds_step<k>". Throws NotCompiled without CUDA.
#define SPMV_GPU_DECLARE_ASSEMBLE_PJDS_STEP(V, D) \
    DeviceMatrix<V> assemble_pjds_step(const Pjds<V, std::int32_t>& a, int step)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_ASSEMBLE_PJDS_STEP, "assemble_pjds_step");

}  // namespace spmv::gpu
