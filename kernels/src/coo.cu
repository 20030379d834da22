// COO kernels: segmented warp reduction per chunk of nonzeros + a carry pass (no atomics).
#include <cstdint>
#include <vector>

#include <spmv/gpu/coo.hpp>

#include "launch.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 128;  // 4 warps, one chunk each
constexpr int warp_size = 32;
constexpr unsigned full_mask = 0xffffffffu;

template <typename V>
struct CooView {
    std::int64_t nnz;
    std::int64_t num_chunks;
    const std::int32_t* row_idxs;
    const std::int32_t* col_idxs;
    const V* values;
    std::int32_t* head_rows;  // per chunk: row continued from the previous chunk, or -1
    std::int32_t* tail_rows;  // per chunk: row continued into the next chunk and owned here, or -1
    V* head_vals;
    V* tail_vals;
};

// One warp per chunk of coo_chunk nonzeros, 32 per step: each lane multiplies one entry per step, a
// segmented inclusive scan (shuffle up, adding only within the same row; rows are sorted, so
// equal rows are contiguous) leaves each row's partial sum in its last lane. Complete rows are
// written to y; the chunk's first row, if it began in an earlier chunk, becomes the chunk's
// head carry, its last row, if it goes on in a later chunk, its tail carry.
template <typename V>
__global__ void __launch_bounds__(block_size)
    coo_spmv_kernel(CooView<V> a, V alpha, const V* __restrict__ x, V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::int64_t chunk = (std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x) / warp_size;
    const int lane = static_cast<int>(threadIdx.x % warp_size);
    if (chunk >= a.num_chunks) {
        return;  // the whole warp leaves together
    }
    const std::int64_t begin = chunk * coo_chunk;
    const std::int64_t end = begin + coo_chunk < a.nnz ? begin + coo_chunk : a.nnz;
    const std::int32_t first_row = detail::ldg(a.row_idxs + begin);
    if (trace.active() && lane == 0) {  // the chunk's rows: its first and last entry's
        trace.row(first_row);
        trace.row(detail::ldg(a.row_idxs + end - 1));
    }
    const bool head_continues = begin > 0 && detail::ldg(a.row_idxs + begin - 1) == first_row;
    const bool tail_continues =
        end < a.nnz && detail::ldg(a.row_idxs + end) == detail::ldg(a.row_idxs + end - 1);
    if (lane == 0) {
        a.head_rows[chunk] = head_continues ? first_row : -1;
    }
    // A finished row: the head carry if it is the chunk's continued first row, else y itself.
    auto emit = [&](std::int32_t row, V sum) {
        if (head_continues && row == first_row) {
            a.head_vals[chunk] = sum;
        } else {
            detail::axpby_store(y + row, alpha, sum, beta);
        }
    };

    // All loads of the chunk first (8 steps of 32 coalesced entries, x gathered), so that they
    // are in flight together; then the scans, which depend on them.
    constexpr int steps = coo_chunk / warp_size;
    std::int32_t rows[steps];
    V prods[steps];
#pragma unroll
    for (int s = 0; s < steps; ++s) {
        const std::int64_t k = begin + s * warp_size + lane;
        const bool valid = k < end;
        rows[s] = valid ? detail::ldg(a.row_idxs + k) : -1;
        prods[s] =
            valid ? detail::ldg(a.values + k) * detail::ldg(x + detail::ldg(a.col_idxs + k)) : V{0};
    }

    std::int32_t run_row = -1;  // row of the segment left open by the previous step (uniform)
    V run_sum{0};
#pragma unroll
    for (int s = 0; s < steps; ++s) {
        const std::int64_t base = begin + s * warp_size;
        if (base >= end) {
            break;  // uniform over the warp
        }
        const bool valid = base + lane < end;
        const std::int32_t r = rows[s];
        V v = prods[s];
        // The open segment ended exactly at the previous step's last lane: emit it now.
        const std::int32_t step_first = __shfl_sync(full_mask, r, 0);
        if (run_row >= 0 && run_row != step_first) {
            if (lane == 0) {
                emit(run_row, run_sum);
            }
            run_row = -1;
            run_sum = V{0};
        }
#pragma unroll
        for (int offset = 1; offset < warp_size; offset *= 2) {
            const V t = __shfl_up_sync(full_mask, v, offset);
            const std::int32_t rt = __shfl_up_sync(full_mask, r, offset);
            if (lane >= offset && rt == r) {
                v += t;
            }
        }
        if (valid && r == run_row) {
            v += run_sum;  // only the step's first segment can continue the open one
        }
        const std::int32_t r_next = __shfl_down_sync(full_mask, r, 1);
        const int last = static_cast<int>(end - base < warp_size ? end - base - 1 : warp_size - 1);
        if (valid && lane != last && r_next != r) {
            emit(r, v);  // a segment that ends inside this step
        }
        run_row = __shfl_sync(full_mask, r, last);
        run_sum = __shfl_sync(full_mask, v, last);
    }
    if (lane == 0) {
        const bool owner = tail_continues && !(head_continues && run_row == first_row);
        if (owner) {
            a.tail_vals[chunk] = run_sum;
        } else {
            emit(run_row, run_sum);
        }
        a.tail_rows[chunk] = owner ? run_row : -1;
    }
}

// One thread per chunk (rows cut by a chunk boundary: its tail plus the heads of the following
// chunks of the same row) and one per row without entries (y = beta*y).
template <typename V>
__global__ void __launch_bounds__(256)
    coo_spmv_carry_kernel(std::int64_t num_chunks, const std::int32_t* __restrict__ head_rows,
                          const V* __restrict__ head_vals,
                          const std::int32_t* __restrict__ tail_rows,
                          const V* __restrict__ tail_vals, std::int64_t num_empty,
                          const std::int32_t* __restrict__ empty_rows, V alpha, V beta,
                          V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::int64_t t = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (t < num_chunks) {
        const std::int32_t row = tail_rows[t];
        if (row < 0) {
            return;
        }
        V sum = tail_vals[t];
        for (std::int64_t k = t + 1; k < num_chunks && head_rows[k] == row; ++k) {
            sum += head_vals[k];
        }
        detail::axpby_store(y + row, alpha, sum, beta);
    } else if (t - num_chunks < num_empty) {
        detail::axpby_store(y + empty_rows[t - num_chunks], alpha, V{0}, beta);
    }
}

}  // namespace

template <typename V>
DeviceCoo<V> upload_coo(std::int32_t num_rows, std::int32_t num_cols,
                        std::span<const std::int32_t> row_idxs,
                        std::span<const std::int32_t> col_idxs, std::span<const V> values,
                        bool list_empty_rows, std::string_view what)
{
    SPMV_EXPECTS(row_idxs.size() == col_idxs.size() && row_idxs.size() == values.size(),
                 "COO arrays must have equal lengths");
    const auto nnz = static_cast<std::int64_t>(values.size());
    std::vector<std::int32_t> empty;
    std::int32_t next = 0;  // rows [next, r) have no entry
    for (std::int64_t k = 0; k < nnz; ++k) {
        const auto r = row_idxs[static_cast<std::size_t>(k)];
        SPMV_EXPECTS(r >= 0 && r < num_rows && (k == 0 || row_idxs[k - 1] <= r),
                     "COO row indices must be in range and sorted");
        for (; list_empty_rows && next < r; ++next) {
            empty.push_back(next);
        }
        next = r + 1;
    }
    for (; list_empty_rows && next < num_rows; ++next) {
        empty.push_back(next);
    }
    DeviceCoo<V> d;
    d.num_rows = num_rows;
    d.num_cols = num_cols;
    d.nnz = nnz;
    d.num_chunks = detail::ceil_div<std::int64_t>(nnz, coo_chunk);
    for (std::int64_t c = 1; c < d.num_chunks; ++c) {
        const auto b = static_cast<std::size_t>(c * coo_chunk);
        d.has_cut_rows = d.has_cut_rows || row_idxs[b - 1] == row_idxs[b];
    }
    const auto chunks = static_cast<std::size_t>(d.num_chunks);
    ensure_device_memory(what, values.size() * (2 * sizeof(std::int32_t) + sizeof(V)) +
                                   empty.size() * sizeof(std::int32_t) +
                                   chunks * 2 * (sizeof(std::int32_t) + sizeof(V)));
    d.row_idxs = DeviceBuffer<std::int32_t>::from_host(row_idxs, "coo row_idxs");
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(col_idxs, "coo col_idxs");
    d.values = DeviceBuffer<V>::from_host(values, "coo values");
    d.empty_rows = DeviceBuffer<std::int32_t>::from_host(empty, "coo empty_rows");
    d.head_rows = DeviceBuffer<std::int32_t>(chunks, "coo carries");
    d.tail_rows = DeviceBuffer<std::int32_t>(chunks, "coo carries");
    d.head_vals = DeviceBuffer<V>(chunks, "coo carries");
    d.tail_vals = DeviceBuffer<V>(chunks, "coo carries");
    return d;
}

template <typename V>
DeviceCoo<V> upload(const Coo<V, std::int32_t>& a)
{
    return upload_coo<V>(a.num_rows, a.num_cols, a.row_idxs, a.col_idxs, a.values, true, "coo");
}

template <typename V>
void spmv(const DeviceCoo<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    const auto s = detail::native(stream);
    if (a.num_chunks > 0) {
        const CooView<V> v{a.nnz,
                           a.num_chunks,
                           a.row_idxs.data(),
                           a.col_idxs.data(),
                           a.values.data(),
                           a.head_rows.data(),
                           a.tail_rows.data(),
                           a.head_vals.data(),
                           a.tail_vals.data()};
        const std::int64_t threads = a.num_chunks * warp_size;
        const auto blocks =
            static_cast<unsigned>(detail::ceil_div<std::int64_t>(threads, block_size));
        coo_spmv_kernel<<<blocks, block_size, 0, s>>>(v, alpha, x, beta, y);
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
    const auto num_empty = static_cast<std::int64_t>(a.empty_rows.size());
    if (a.has_cut_rows || num_empty > 0) {
        const std::int64_t threads = (a.has_cut_rows ? a.num_chunks : 0) + num_empty;
        const int b = detail::block_size_for(threads, 256);
        const auto blocks = static_cast<unsigned>(detail::ceil_div<std::int64_t>(threads, b));
        // Without cut rows the chunk threads would find no tail: start at the empty rows.
        coo_spmv_carry_kernel<<<blocks, b, 0, s>>>(
            a.has_cut_rows ? a.num_chunks : 0, a.head_rows.data(), a.head_vals.data(),
            a.tail_rows.data(), a.tail_vals.data(), num_empty, a.empty_rows.data(), alpha, beta, y);
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_UPLOAD_COO);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_COO_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_COO_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_coo(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Coo<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V>(upload(*f), [](const DeviceCoo<V>& a, V alpha, const V* x, V beta, V* y,
                                     RowOrder, StreamRef s) { spmv(a, alpha, x, beta, y, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(coo)
