// The pJDS ladder (spmv/gpu/pjds_ladder.hpp): Kreutzer's Listing 2, then one optimisation per
// step up to the production pjds kernel (pjds.cu). Steps 4..6 use the production helpers
// (jagged_row_sum, output_row, store_row, block_size_for) so that step 6 is that kernel.
#include <memory>
#include <string>
#include <utility>

#include <spmv/error.hpp>
#include <spmv/gpu/pjds.hpp>
#include <spmv/gpu/pjds_ladder.hpp>

#include "cuda_check.cuh"
#include "jagged.cuh"
#include "launch.cuh"
#include "permuted.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int ladder_block = 256;


template <typename V>
struct LadderView {
    std::int32_t num_rows;
    const std::int32_t* row_lengths;
    const std::int32_t* col_start;
    const std::int32_t* out_map;  ///< steps >= 5: nullptr (y[i]) or y[out_map[i]]
    const std::int32_t* col_idxs;
    const V* values;
};

// Step 0, as printed: no __restrict__, c[i] accumulated in memory (the compiler must assume
// that the stores to c may change val, col_idx or rhs, so it reloads and re-stores each trip).
template <typename V>
__global__ void __launch_bounds__(ladder_block)
    listing2_kernel(std::int32_t n, const std::int32_t* rowmax, const std::int32_t* col_start,
                    const V* val, const std::int32_t* col_idx, const V* rhs, V* c)
{
    const std::int32_t i = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) {
        return;
    }
    for (std::int32_t j = 0; j < rowmax[i]; ++j) {
        const std::int32_t col_offset = col_start[j];
        c[i] += val[col_offset + i] * rhs[col_idx[col_offset + i]];
    }
}

// Steps 1..6. The loop of steps 1 and 2 is Listing 2's with the sum in a register; step 3
// unrolls it as jagged_row_sum does, with plain loads; from step 4 it IS jagged_row_sum.
template <int step, bool streaming, int capacity, typename V>
__global__ void __launch_bounds__(ladder_block)
    ladder_kernel(LadderView<V> a, const __grid_constant__ detail::OffsetTable<capacity> table,
                  V alpha, const V* __restrict__ x, V beta, V* __restrict__ out)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= static_cast<std::uint32_t>(a.num_rows)) {
        return;
    }
    const auto t = static_cast<std::int32_t>(i);
    std::uint32_t row = i;
    if constexpr (step >= 5) {
        row = detail::output_row(a.out_map, i);
    }
    const std::int32_t* __restrict__ idx = a.col_idxs;
    const V* __restrict__ val = a.values;
    const std::int32_t* __restrict__ offsets = a.col_start;
    V sum{0};
    if constexpr (step >= 4) {
        const std::int32_t len = detail::ldg(a.row_lengths + i);
        sum = detail::jagged_row_sum<streaming, detail::row_unroll>(table, offsets, idx, val, t,
                                                                    len, x);
    } else {
        const std::int32_t len = a.row_lengths[i];
        auto offset = [&](std::int32_t j) {
            if constexpr (step >= 2 && capacity > 0) {
                return table.at[j];
            } else {
                return offsets[j];
            }
        };
        if constexpr (step == 3) {
            constexpr int unroll = detail::row_unroll;
            V s0{0};
            V s1{0};
            for (std::int32_t j = 0; j < len; j += unroll) {
                std::int32_t c[unroll];
                V v[unroll];
#pragma unroll
                for (int u = 0; u < unroll; ++u) {
                    const bool in = j + u < len;
                    const std::int32_t o = in ? offset(j + u) + t : 0;
                    c[u] = in ? idx[o] : 0;
                    v[u] = in ? val[o] : V{0};
                }
#pragma unroll
                for (int u = 0; u < unroll; ++u) {
                    const V xv = j + u < len ? x[c[u]] : V{0};
                    if (u % 2 == 0) {
                        s0 += v[u] * xv;
                    } else {
                        s1 += v[u] * xv;
                    }
                }
            }
            sum = s0 + s1;
        } else {
            for (std::int32_t j = 0; j < len; ++j) {
                const std::int32_t o = offset(j) + t;
                sum += val[o] * x[idx[o]];
            }
        }
    }
    if constexpr (step >= 5) {
        detail::store_row(out, row, alpha, sum, beta);  // out = y
    } else {
        out[i] = sum;  // out = c, in the permuted basis
    }
}

// Steps 0..4: the separate un-permute, y[row_perm[i]] = alpha c[i] + beta y[row_perm[i]].
template <bool readonly, typename V>
__global__ void __launch_bounds__(ladder_block)
    scatter_kernel(std::int32_t n, const std::int32_t* __restrict__ perm, const V* __restrict__ c,
                   V alpha, V beta, V* __restrict__ y)
{
    const std::int32_t i = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) {
        return;
    }
    const std::int32_t row = perm == nullptr ? i : (readonly ? detail::ldg(perm + i) : perm[i]);
    detail::store_row(y, static_cast<std::uint32_t>(row), alpha, readonly ? detail::ldg(c + i) : c[i],
                      beta);
}

template <typename V>
struct DeviceLadder : DevicePjds<V> {
    int step = 0;
    DeviceBuffer<V> c;  ///< steps 0..4: the permuted result before the scatter

    std::size_t device_bytes() const noexcept { return DevicePjds<V>::device_bytes() + c.bytes(); }
};

template <int step, typename V>
void launch_step(const DeviceLadder<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                 StreamRef stream)
{
    const auto native = detail::native(stream);
    const int b = step >= 6 ? detail::block_size_for(a.num_rows, ladder_block) : ladder_block;
    const auto blocks = static_cast<unsigned>(detail::ceil_div(a.num_rows, b));
    const std::span<const std::int32_t> offsets(a.col_start_host.data(),
                                                static_cast<std::size_t>(a.width));
    const std::int32_t* map = detail::output_map(a.row_perm.data(), a.identity_perm, order);
    // steps 0..4 write c and scatter it (all of y in the permuted basis: the scatter's map is
    // then the identity); steps 5, 6 write y directly
    V* out = step >= 5 ? y : const_cast<V*>(a.c.data());
    if constexpr (step == 0) {
        detail::memset_bytes(out, 0, a.c.bytes(), stream);
        listing2_kernel<<<blocks, b, 0, native>>>(a.num_rows, a.row_lengths.data(),
                                                   a.col_start.data(), a.values.data(),
                                                   a.col_idxs.data(), x, out);
    } else {
        const LadderView<V> v{a.num_rows, a.row_lengths.data(), a.col_start.data(),
                              step >= 5 ? map : nullptr, a.col_idxs.data(), a.values.data()};
        const bool streaming = step >= 4 && detail::stream_matrix_loads_for<V>(a);
        detail::with_stream_policy(streaming, [&](auto s) {
            if constexpr (step >= 2) {
                detail::with_offset_table(offsets, [&](const auto& table) {
                    constexpr int capacity = std::decay_t<decltype(table)>::size;
                    ladder_kernel<step, decltype(s)::value, capacity>
                        <<<blocks, b, 0, native>>>(v, table, step >= 5 ? alpha : V{1}, x,
                                                   step >= 5 ? beta : V{0}, out);
                });
            } else {
                ladder_kernel<step, decltype(s)::value, 0>
                    <<<blocks, b, 0, native>>>(v, detail::OffsetTable<0>{}, V{1}, x, V{0}, out);
            }
        });
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
    if constexpr (step <= 4) {
        scatter_kernel<(step >= 4)><<<blocks, b, 0, native>>>(a.num_rows, map, a.c.data(), alpha,
                                                              beta, y);
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

template <typename V>
void launch(const DeviceLadder<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
            StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    switch (a.step) {
    case 0: launch_step<0>(a, alpha, x, beta, y, order, stream); break;
    case 1: launch_step<1>(a, alpha, x, beta, y, order, stream); break;
    case 2: launch_step<2>(a, alpha, x, beta, y, order, stream); break;
    case 3: launch_step<3>(a, alpha, x, beta, y, order, stream); break;
    case 4: launch_step<4>(a, alpha, x, beta, y, order, stream); break;
    case 5: launch_step<5>(a, alpha, x, beta, y, order, stream); break;
    default: launch_step<6>(a, alpha, x, beta, y, order, stream); break;
    }
}

}  // namespace

template <typename V>
DeviceMatrix<V> assemble_pjds_step(const Pjds<V, std::int32_t>& a, int step)
{
    const auto count = static_cast<int>(pjds_ladder_steps().size());
    SPMV_EXPECTS(step >= 0 && step < count, "pJDS ladder step must be 0.." +
                                                std::to_string(count - 1) + ", got " +
                                                std::to_string(step));
    DeviceLadder<V> d;
    static_cast<DevicePjds<V>&>(d) = upload(a);
    d.step = step;
    if (step <= 4) {
        d.c = DeviceBuffer<V>(static_cast<std::size_t>(a.num_rows), "pjds ladder c");
    }
    auto op = detail::make_op<V, /*permuted=*/true>(
        std::move(d), [](const DeviceLadder<V>& m, V alpha, const V* x, V beta, V* y,
                         RowOrder order, StreamRef s) { launch(m, alpha, x, beta, y, order, s); });
    std::int64_t nnz = 0;
    for (const auto l : a.row_lengths) {
        nnz += l;
    }
    return DeviceMatrix<V>(std::move(op), "pjds", "pjds_step" + std::to_string(step), a.num_rows,
                           a.num_cols, nnz);
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_ASSEMBLE_PJDS_STEP);

}  // namespace spmv::gpu
