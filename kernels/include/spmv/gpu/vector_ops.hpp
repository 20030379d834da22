#pragma once
/// Device "BLAS-1": the vector operations and reductions of the distributed SpMV and the
/// distributed (multi-GPU, MPI) CG, on raw device pointers of the current device. Plain C++
/// (kernels/src/vector_ops.cu; kernels/src/stubs_vector_ops.cpp throws spmv::NotCompiled in a
/// build without CUDA).
///
///   spmv::gpu::gather(x, halo_idx, n_send, send_buf, s);     // pack the halo to send
///   spmv::gpu::DotEngine<double> dots;                        // scratch, allocated once
///   auto [rr, rz] = dots.cg_update(alpha, p, q, x, r, inv_diag, z, n, s);
///   // MPI_Allreduce the two local sums, then beta = rz_new / rz_old ...
///   spmv::gpu::xpay(z, beta, p, n, s);                        // p = z + beta p
///
/// Every function is asynchronous on `stream` unless it returns a sum; n == 0 launches
/// nothing (null pointers are then fine); n < 0, or a null vector with n > 0, throws
/// InvalidArgument. A vector that is written must not overlap any other argument vector (the
/// kernels read through the read-only path); updating it in place (y of xpay) is what they do.
/// Scalars given as double are rounded to ValueType where the arithmetic is in ValueType (xpay,
/// axpy, cg_update), as the solvers do.
#include <array>
#include <cstdint>
#include <utility>

#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

/// dst[i] = src[idx[i]] for i < n: the "local gather" of the distributed SpMV, which packs the
/// entries another rank needs into a contiguous send buffer. idx may repeat and be in any
/// order; every idx[i] must be a valid index of src. One thread per entry.
template <typename ValueType>
void gather(const ValueType* src, const std::int32_t* idx, std::int64_t n, ValueType* dst,
            StreamRef stream = {});

/// dst[idx[i]] += src[i] for i < n: the distributed SpMV adds the products of its compressed
/// non-local block (one per row with non-local entries) into y. idx must not repeat (no two
/// threads add into the same entry). One thread per entry.
template <typename ValueType>
void scatter_add(const ValueType* src, const std::int32_t* idx, std::int64_t n, ValueType* dst,
                 StreamRef stream = {});

/// y = x + a y (CG's p = z + beta p), in ValueType.
template <typename ValueType>
void xpay(const ValueType* x, double a, ValueType* y, std::int64_t n, StreamRef stream = {});

/// y = y + a x, in ValueType.
template <typename ValueType>
void axpy(double a, const ValueType* x, ValueType* y, std::int64_t n, StreamRef stream = {});

/// z = d .* r (element-wise product; Jacobi's z = inv_diag .* r).
template <typename ValueType>
void multiply(const ValueType* d, const ValueType* r, ValueType* z, std::int64_t n,
              StreamRef stream = {});

/// dst = (To)(s * src), the product in double (mixed precision: e.g. a double residual scaled
/// and demoted to float). From and To are float or double (all four pairs).
template <typename From, typename To>
void convert_scaled(const From* src, double s, To* dst, std::int64_t n, StreamRef stream = {});

/// dst += (To)(s * src), the product in double (e.g. a float correction promoted and added to
/// a double iterate). From and To are float or double (all four pairs).
template <typename From, typename To>
void add_scaled(const From* src, double s, To* dst, std::int64_t n, StreamRef stream = {});

/// The reductions: sums of products in double, returned on the host, bitwise reproducible.
///
/// Each launch is one resident wave of blocks (the same grid for every reduction of a given n
/// on a given device); each thread adds its elements in index order, each block its threads
/// with cub::BlockReduce, and the last block the per-block partials in block order. So the
/// same n, device and data give the same bits, run after run, whatever the alignment of the
/// pointers (16-byte aligned vectors take 16-byte loads, others element loads, in the same
/// order). A sum is the rank-local part of a distributed dot product: the caller adds the
/// ranks' parts (MPI_Allreduce).
///
/// The engine owns its device scratch (per-block partials, a ticket) and the page-locked host
/// memory the last block writes the result into. Every call waits for `stream` (all work
/// queued on it, not only the reduction) before it returns, so one engine may serve several
/// streams from one host thread, one call at a time; it is not for concurrent use by several
/// host threads. Create it on the device it will run on. Move-only.
template <typename ValueType>
class DotEngine {
public:
    /// Allocates the scratch on the current device (throws NotCompiled without CUDA).
    DotEngine();
    DotEngine(DotEngine&& o) noexcept
        : partials_(std::move(o.partials_)),
          ticket_(std::move(o.ticket_)),
          result_(std::move(o.result_)),
          max_blocks_(std::exchange(o.max_blocks_, 0u))
    {}
    DotEngine& operator=(DotEngine&& o) noexcept
    {
        partials_ = std::move(o.partials_);
        ticket_ = std::move(o.ticket_);
        result_ = std::move(o.result_);
        max_blocks_ = std::exchange(o.max_blocks_, 0u);
        return *this;
    }
    DotEngine(const DotEngine&) = delete;
    DotEngine& operator=(const DotEngine&) = delete;
    ~DotEngine() = default;  // the buffers' deleters never throw

    /// False after a move (then every call throws InvalidArgument).
    explicit operator bool() const noexcept { return max_blocks_ != 0; }

    /// {x.y, u.v} in one pass; u == nullptr gives {x.y, 0} (v is then ignored).
    std::array<double, 2> dot2(const ValueType* x, const ValueType* y, const ValueType* u,
                               const ValueType* v, std::int64_t n, StreamRef stream = {});

    /// x.y (the first sum of dot2(x, y, nullptr, nullptr, n, stream), bit for bit).
    double dot(const ValueType* x, const ValueType* y, std::int64_t n, StreamRef stream = {});

    /// CG's fused update, one pass: x += alpha p, r -= alpha q, and with inv_diag z =
    /// inv_diag .* r (Jacobi; inv_diag and z both given or both nullptr). Returns {r.r, r.z}
    /// of the updated r (r.z = r.r without inv_diag). The same arithmetic as the fused step
    /// of the single-GPU solvers (alpha rounded to ValueType; sums in double).
    std::array<double, 2> cg_update(double alpha, const ValueType* p, const ValueType* q,
                                    ValueType* x, ValueType* r, const ValueType* inv_diag,
                                    ValueType* z, std::int64_t n, StreamRef stream = {});

private:
    unsigned blocks_for(std::int64_t n) const;

    DeviceBuffer<double> partials_;  ///< two doubles per block
    DeviceBuffer<unsigned> ticket_;  ///< 0 between launches
    PinnedBuffer<double> result_;    ///< two doubles, written by the last block
    unsigned max_blocks_ = 0;        ///< one resident wave of the reduction kernels; 0: moved from
};

}  // namespace spmv::gpu
