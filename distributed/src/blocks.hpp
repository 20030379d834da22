#pragma once
// A rank's blocks and their products (internal to spmv::dist): the compute half of the
// schedule (schedule.hpp), one implementation for host ranks and one for GPU ranks
// (blocks.cpp), built from the rank's LocalMatrix in any registered format.
//
// The two passes of naive, overlap and task mode (the same rule as the model's,
// spmv/dist/model.hpp, compressed_nonlocal):
//  - few boundary rows (rows with non-local entries, at most a third): the first pass runs the
//    interior rows (the local block with the boundary rows emptied), the second the boundary
//    rows whole (local and non-local entries, over the ghosted x) into a product per row that
//    is scattered into y. Every row is then summed in one pass, as in vector mode's merged
//    block: the same y to the last bit, whatever the mode (in float too);
//  - many: Kreutzer's split by columns, the local block over every row, then the full-row
//    non-local block adding into y (beta = 1).
// Vector mode's single step runs the merged block [local | non-local] over [x_own | halo]
// (DistOptions::merged_block), or the two passes one after the other.
#include <cstdint>
#include <memory>
#include <vector>

#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/local_matrix.hpp>

#include "device_rank.hpp"
#include "trace.hpp"

namespace spmv::dist::detail {

/// One y = A x in flight: the ghosted x [x_own | halo] (the halo written by the exchange), y
/// (this rank's rows), where the events go. Host or device pointers, as the blocks are.
template <typename ValueType>
struct Product {
    ValueType* x_ghost = nullptr;
    ValueType* y = nullptr;
    Recorder& rec;
};

/// The products of a rank's blocks. Every call records its phase (Phase::local, nonlocal;
/// GPU ranks on the GPU lane, the work queued on the device's compute stream).
template <typename ValueType>
class RankBlocks {
public:
    virtual ~RankBlocks() = default;
    /// Before anything else of the product (GPU ranks: the timeline's reference event, and
    /// the comm stream waits for x written on the compute stream).
    virtual void begin(Product<ValueType>& /*p*/) {}
    /// The first pass: the interior rows, or the local block over every row.
    virtual void local(Product<ValueType>& p) = 0;
    /// The second pass, over the halo (nothing when this rank has none).
    virtual void nonlocal(Product<ValueType>& p) = 0;
    /// Vector mode's single step: the merged block, else both passes.
    virtual void whole(Product<ValueType>& p) = 0;
    /// Naive mode: the host blocks until the first pass has ended (GPU ranks: Phase::idle on
    /// the compute lane around the synchronize; host ranks computed it themselves).
    virtual void wait_local(Product<ValueType>& /*p*/) {}
    /// The second pass must see the halo that the exchange brought in on `q`'s stream (GPU
    /// ranks, Queue::comm: an event, not the host).
    virtual void halo_ready(Queue /*q*/) {}
    /// After everything of the product: y is complete (GPU ranks: the compute stream is
    /// synchronised and the GPU lane's events are in the timeline).
    virtual void end(Product<ValueType>& /*p*/) {}
    /// Whether the kernels add in double (DistOptions::double_sums taken).
    virtual bool double_sums() const noexcept { return false; }
};

/// What a rank builds, as CSR: the two passes' blocks and whether vector mode's merged block
/// is built too.
template <typename ValueType>
struct BlockSplit {
    Csr<ValueType, std::int32_t> first;   ///< the first pass (interior rows, or local block)
    Csr<ValueType, std::int32_t> second;  ///< the second pass (boundary rows, or non-local)
    std::vector<std::int32_t> boundary;   ///< the boundary rows when split by rows, else empty
    bool merged = false;                  ///< build the merged block (DistOptions::merged_block)
};

/// The split of `part` into the passes (the rule above) and the estimate of every block this
/// rank builds against opt.budget (MemoryLimitExceeded naming `rank`). `any_halo`: some rank
/// exchanges; `halo`: this rank's halo size. Host-only work: no device is touched.
template <typename ValueType>
BlockSplit<ValueType> split_blocks(const LocalMatrix<ValueType>& part, std::int64_t halo,
                                   const DistOptions& opt, bool any_halo, int rank);

/// Builds the blocks in opt.format (opt.variant's on GPU ranks): on the host when `device` is
/// null, else on that GPU. Run inside a collective step.
template <typename ValueType>
std::unique_ptr<RankBlocks<ValueType>> make_blocks(const LocalMatrix<ValueType>& part,
                                                   BlockSplit<ValueType> split,
                                                   std::int64_t halo, const DistOptions& opt,
                                                   DeviceRank* device);

}  // namespace spmv::dist::detail
