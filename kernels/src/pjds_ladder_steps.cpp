// The steps of the pJDS ladder (spmv/gpu/pjds_ladder.hpp), in both builds: a lesson without
// CUDA still names them next to the model's numbers.
#include <spmv/gpu/pjds_ladder.hpp>

namespace spmv::gpu {
namespace {

constexpr PjdsLadderStep steps[] = {
    {0, "listing2", "Listing 2 as printed: c[i] += in global memory, col_start from global "
                    "memory, then a second kernel y[row_perm[i]] = c[i]"},
    {1, "register_sum", "the row's sum in a register, stored once (__restrict__)"},
    {2, "constant_col_start", "col_start in the constant bank (__grid_constant__ table)"},
    {3, "unroll8", "unrolled by 8, predicated, two accumulators"},
    {4, "readonly_loads", "__ldg for x and rowmax, streaming val/col_idx beyond the L2"},
    {5, "fused_permutation", "y[row_perm[i]] written by the SpMV kernel: no second kernel"},
    {6, "block_size", "256/128/64 threads per block by matrix size: the production pjds"},
};

}  // namespace

std::span<const PjdsLadderStep> pjds_ladder_steps() { return steps; }

}  // namespace spmv::gpu
