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
//
// Row chunks (ours, issue 36): a rank whose rows hold more nonzeros than one 32-bit block
// addresses builds every block per row chunk (BlockChunk); each pass and the single step run
// one launch per chunk, in row order, writing y from the chunk's first row. Every row is
// still summed by one launch in the same order, so y is the same to the last bit as without
// chunks.
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
    /// The row chunks every pass runs over (1 unless the rank's rows pass the chunk limit).
    virtual int chunks() const noexcept = 0;
};

/// One row chunk of what a rank builds (ours, issue 36; the papers' nodes never held 2^31
/// nonzeros per process): rows [first_row, first_row + rows) of the rank, taken from one chunk
/// of its LocalMatrix (chunk_views(part)[view], from that chunk's row view_row). Every block of
/// a chunk has fewer than 2^31 nonzeros and stored slots, so it is an ordinary 32-bit block in
/// any format; the passes run chunk after chunk, each writing y from first_row. Its CSR blocks
/// are cut from the LocalMatrix only when make_blocks builds that chunk, so that the host holds
/// one chunk's copies at a time besides the LocalMatrix.
template <typename ValueType>
struct BlockChunk {
    std::int32_t first_row = 0;
    std::int32_t rows = 0;
    std::size_t view = 0;
    std::int32_t view_row = 0;
    std::vector<std::int32_t> boundary;  ///< split by rows: the boundary rows (chunk's own)
};

/// What a rank builds: its chunks (one unless its rows pass DistOptions::max_chunk_nnz or a
/// block's stored slots would), how the passes are split (the boundary rows' rule above,
/// decided for the rank as a whole), and whether vector mode's merged block is built too.
template <typename ValueType>
struct BlockSplit {
    std::vector<BlockChunk<ValueType>> chunks;
    bool by_rows = false;  ///< the second pass runs the boundary rows whole (rule above)
    bool merged = false;   ///< build the merged block (DistOptions::merged_block)
};

/// The split of `part` into chunks and passes (the rule above) and the estimate of every block
/// this rank builds against opt.budget (MemoryLimitExceeded naming `rank`). Chunks: each chunk
/// of `part` (split() cut them by DistOptions::max_chunk_nnz), halved by rows until its merged
/// rows' nonzeros and stored slots in the blocks' format (the footprint estimate, from row
/// lengths) are at most opt.max_chunk_nnz; every other block of the chunk has at most as
/// many per row (a conservative bound where the merged block is not built). A single row
/// over 2^31 - 1 slots is refused (DimensionMismatch). `any_halo`: some rank exchanges;
/// `halo`: this rank's halo size. Host-only work: no device is touched.
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
