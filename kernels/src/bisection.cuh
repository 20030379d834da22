#pragma once
// The warp kernel shared by BiELL (biell.cu) and BiJAD (bijad.cu): both store warps of W sorted
// rows split into G = log2(W) + 1 bisection groups (docs/formats/biell_bijad.md); they differ
// only in how row_perm sorts. W = warp_size of the host format must be a power of two <= 32
// (a W-lane group then lives inside one hardware warp, where shuffles can add its lanes); 32/W
// groups of rows share a hardware warp when W < 32.
#include <cstdint>
#include <string>

#include <spmv/error.hpp>

#include "launch.cuh"
#include "permuted.cuh"

namespace spmv::gpu::detail {

/// log2(W), or InvalidArgument when W is not a power of two in [1, 32].
inline int bisection_log2(std::int32_t warp_size, const char* format)
{
    for (int log_w = 0; log_w <= 5; ++log_w) {
        if (warp_size == (1 << log_w)) {
            return log_w;
        }
    }
    SPMV_THROW(InvalidArgument, std::string(format) +
                                    " GPU kernel: warp_size must be a power of two between 1 "
                                    "and 32 (lanes of a row group are added with warp "
                                    "shuffles inside one hardware warp), got " +
                                    std::to_string(warp_size));
}

/// The "assemble" upload shared by BiELL and BiJAD (same arrays, different row order):
/// Device = DeviceBiEll<V> / DeviceBiJad<V>, Host = BiEll<V, int32> / BiJad<V, int32>.
/// `format` names the format in errors and buffer labels.
template <typename Device, typename Host>
Device upload_bisection(const Host& a, const std::string& format)
{
    using V = typename Host::value_type;
    const int log_w = bisection_log2(a.warp_size, format.c_str());
    ensure_device_memory(format,
                         (a.row_perm.size() + a.group_ptrs.size() + a.col_idxs.size()) *
                                 sizeof(std::int32_t) +
                             a.values.size() * sizeof(V));
    Device d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.warp_size = a.warp_size;
    d.log_warp = log_w;
    d.num_warps = (a.num_rows + a.warp_size - 1) / a.warp_size;
    SPMV_EXPECTS(a.group_ptrs.size() == static_cast<std::size_t>(d.num_warps) * (log_w + 1) + 1,
                 format + ": group_ptrs must hold num_warps * (log2(W) + 1) + 1 entries");
    d.identity_perm = is_identity(a.row_perm);
    d.row_perm = DeviceBuffer<std::int32_t>::from_host(a.row_perm, format + " row_perm");
    d.group_ptrs = DeviceBuffer<std::int32_t>::from_host(a.group_ptrs, format + " group_ptrs");
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, format + " col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, format + " values");
    return d;
}

template <typename V>
struct BisectionView {
    std::int32_t num_rows;
    std::int32_t num_warps;          ///< warps of W rows (the last one completed with empty rows)
    const std::int32_t* group_ptrs;  ///< num_warps * G + 1
    const std::int32_t* out_map;     ///< nullptr: y[k]; else y[out_map[k]]
    const std::int32_t* col_idxs;
    const V* values;
};

constexpr int bisection_block_size = 256;

// W = 2^log_w lanes per warp of rows, lane t = thread % W. Group g: every lane sums its
// width_g slots (group_ptrs[w*G + g] + j*W + t, coalesced over the lanes; padding skips value and
// x), then a shuffle tree over lane offsets W/2, ..., h_g = W >> g adds the W / h_g lanes of each
// row into lane p < h_g, which keeps the running sum of sorted row p and writes it at the end.
// Lanes past the last warp of rows still join the shuffles (full-warp mask) with zeros.
// `streaming`: the matrix arrays' load kind (ld_matrix, chosen per launch).
template <bool streaming, int log_w, typename V>
__global__ void __launch_bounds__(bisection_block_size)
    bisection_spmv_kernel(BisectionView<V> a, V alpha, const V* __restrict__ x, V beta,
                          V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    constexpr int w = 1 << log_w;
    constexpr int groups = log_w + 1;
    const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    const std::uint32_t warp = t >> log_w;
    const int lane = static_cast<int>(t & (w - 1));
    const bool active = warp < static_cast<std::uint32_t>(a.num_warps);
    std::int32_t ptr[groups + 1];
#pragma unroll
    for (int g = 0; g <= groups; ++g) {  // all group starts at once (one broadcast load each)
        ptr[g] = active ? ldg(a.group_ptrs + warp * groups + g) : 0;
    }
    const bool writes = active && t < static_cast<std::uint32_t>(a.num_rows);
    const std::uint32_t row = writes ? output_row(a.out_map, t) : 0;  // stored row k = t
    if (writes) {
        trace.row(t);
    }
    V acc{0};
#pragma unroll
    for (int g = 0; g < groups; ++g) {
        const std::int32_t first = ptr[g] + lane;
        V part = strided_row_sum<streaming, 4>(a.col_idxs + first, a.values + first, w,
                                               (ptr[g + 1] - ptr[g]) >> log_w, x);
        const int h = w >> g;  // rows of group g; lanes t, t+h, t+2h, ... share row t
#pragma unroll
        for (int offset = w / 2; offset >= h; offset /= 2) {
            part += __shfl_down_sync(0xffffffffu, part, offset, w);
        }
        if (lane < h) {
            acc += part;
        }
    }
    if (writes) {
        store_row(y, row, alpha, acc, beta);
    }
}

/// Launches bisection_spmv_kernel for a DeviceBiEll or DeviceBiJad.
template <typename D, typename V>
void launch_bisection(const D& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                      StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    const auto* map = output_map(a.row_perm.data(), a.identity_perm, order);
    const BisectionView<V> v{a.num_rows, a.num_warps,       a.group_ptrs.data(),
                             map,        a.col_idxs.data(), a.values.data()};
    const std::int64_t threads = std::int64_t{a.num_warps} * a.warp_size;
    const int b = block_size_for(threads, bisection_block_size);  // a multiple of 32
    const auto blocks = static_cast<unsigned>(ceil_div<std::int64_t>(threads, b));
    const auto s = native(stream);
    with_stream_policy(stream_matrix_loads_for<V>(a), [&](auto policy) {
        constexpr bool streaming = decltype(policy)::value;
        switch (a.log_warp) {
            case 0:
                bisection_spmv_kernel<streaming, 0><<<blocks, b, 0, s>>>(v, alpha, x, beta, y);
                break;
            case 1:
                bisection_spmv_kernel<streaming, 1><<<blocks, b, 0, s>>>(v, alpha, x, beta, y);
                break;
            case 2:
                bisection_spmv_kernel<streaming, 2><<<blocks, b, 0, s>>>(v, alpha, x, beta, y);
                break;
            case 3:
                bisection_spmv_kernel<streaming, 3><<<blocks, b, 0, s>>>(v, alpha, x, beta, y);
                break;
            case 4:
                bisection_spmv_kernel<streaming, 4><<<blocks, b, 0, s>>>(v, alpha, x, beta, y);
                break;
            case 5:
                bisection_spmv_kernel<streaming, 5><<<blocks, b, 0, s>>>(v, alpha, x, beta, y);
                break;
            default:
                bisection_log2(a.warp_size, "bisection");  // throws
        }
    });
    SPMV_CUDA_CHECK(cudaGetLastError());
}

}  // namespace spmv::gpu::detail
