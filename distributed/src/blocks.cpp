// A rank's blocks (blocks.hpp): the split into row chunks and the two passes, the memory
// estimate, and the products on the host (spmv_reference over the registry's formats) and on
// the GPU (the kernels' DeviceMatrix, queued on the rank's compute stream), chunk by chunk.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include <spmv/dist/model.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/vector_ops.hpp>
#include <spmv/parallel.hpp>
#include <spmv/registry.hpp>

#include "blocks.hpp"

namespace spmv::dist::detail {

namespace {

template <typename ValueType>
using CsrBlock = Csr<ValueType, std::int32_t>;

/// Row offsets (row_ptrs) of n rows of lengths len(i): each piece of rows sums its lengths,
/// then writes its offsets from the sums before it (spmv/parallel.hpp: the same offsets on any
/// number of threads). The caller's block fits 32-bit offsets (a row chunk's).
template <typename Len>
std::vector<std::int32_t> offsets_of(std::size_t n, const Len& len)
{
    std::vector<std::int32_t> ptrs(n + 1, 0);
    const auto b = range_bounds(n, std::size_t{1} << 14);
    std::vector<std::int64_t> sums(b.size(), 0);  // sums[r + 1]: the entries of piece r
    parallel_for(b.size() - 1, build_threads(), [&](std::size_t r) {
        std::int64_t total = 0;
        for (auto i = b[r]; i < b[r + 1]; ++i) {
            total += len(i);
        }
        sums[r + 1] = total;
    });
    std::partial_sum(sums.begin(), sums.end(), sums.begin());
    parallel_for(b.size() - 1, build_threads(), [&](std::size_t r) {
        std::int64_t at = sums[r];
        for (auto i = b[r]; i < b[r + 1]; ++i) {
            at += len(i);
            ptrs[i + 1] = static_cast<std::int32_t>(at);
        }
    });
    return ptrs;
}

/// Rows [r0, r1) of `a`, the rows `emptied` (ascending, counted from r0) left empty: their
/// offsets first, then every piece of rows copies its entries (on the build threads).
template <typename ValueType>
CsrBlock<ValueType> copy_rows(const CsrBlock<ValueType>& a, std::int32_t r0, std::int32_t r1,
                              const std::vector<std::int32_t>& emptied = {})
{
    const auto n = static_cast<std::size_t>(r1 - r0);
    std::vector<bool> gone(emptied.empty() ? 0 : n, false);
    for (const auto i : emptied) {
        gone[static_cast<std::size_t>(i)] = true;
    }
    const auto src = [&](std::size_t i) { return static_cast<std::size_t>(a.row_ptrs[r0 + i]); };
    CsrBlock<ValueType> c;
    c.num_rows = r1 - r0;
    c.num_cols = a.num_cols;
    c.row_ptrs = offsets_of(n, [&](std::size_t i) -> std::int64_t {
        return !gone.empty() && gone[i] ? 0 : a.row_ptrs[r0 + i + 1] - a.row_ptrs[r0 + i];
    });
    c.col_idxs.resize(static_cast<std::size_t>(c.row_ptrs.back()));
    c.values.resize(static_cast<std::size_t>(c.row_ptrs.back()));
    parallel_ranges(n, [&](std::size_t b, std::size_t e) {
        for (auto i = b; i < e; ++i) {
            const auto at = static_cast<std::size_t>(c.row_ptrs[i]);
            const auto len = static_cast<std::size_t>(c.row_ptrs[i + 1]) - at;
            std::copy_n(a.col_idxs.begin() + static_cast<std::ptrdiff_t>(src(i)), len,
                        c.col_idxs.begin() + static_cast<std::ptrdiff_t>(at));
            std::copy_n(a.values.begin() + static_cast<std::ptrdiff_t>(src(i)), len,
                        c.values.begin() + static_cast<std::ptrdiff_t>(at));
        }
    });
    return c;
}

/// The listed rows (of the chunk `v`, in that order) of the merged block [local | non-local]:
/// a matrix of rows.size() rows over the ghosted x [x_own | halo].
template <typename ValueType>
CsrBlock<ValueType> merged_rows(const ChunkView<ValueType>& v,
                                const std::vector<std::int32_t>& rows)
{
    const auto& l = *v.local;
    const auto& n = *v.nonlocal;
    CsrBlock<ValueType> c;
    c.num_rows = static_cast<std::int32_t>(rows.size());
    c.num_cols = l.num_cols + n.num_cols;
    c.row_ptrs = offsets_of(rows.size(), [&](std::size_t j) -> std::int64_t {
        const auto i = rows[j];
        return l.row_ptrs[i + 1] - l.row_ptrs[i] + n.row_ptrs[i + 1] - n.row_ptrs[i];
    });
    c.col_idxs.resize(static_cast<std::size_t>(c.row_ptrs.back()));
    c.values.resize(static_cast<std::size_t>(c.row_ptrs.back()));
    parallel_ranges(rows.size(), [&](std::size_t b, std::size_t e) {
        for (auto j = b; j < e; ++j) {
            const auto i = rows[j];
            auto at = static_cast<std::size_t>(c.row_ptrs[j]);
            for (auto k = l.row_ptrs[i]; k < l.row_ptrs[i + 1]; ++k, ++at) {
                c.col_idxs[at] = l.col_idxs[static_cast<std::size_t>(k)];
                c.values[at] = l.values[static_cast<std::size_t>(k)];
            }
            for (auto k = n.row_ptrs[i]; k < n.row_ptrs[i + 1]; ++k, ++at) {
                c.col_idxs[at] = l.num_cols + n.col_idxs[static_cast<std::size_t>(k)];
                c.values[at] = n.values[static_cast<std::size_t>(k)];
            }
        }
    });
    return c;
}

/// [local | non-local] over [x_own | halo] for the rows of chunk `c`: vector mode's single step.
template <typename ValueType>
CsrBlock<ValueType> merge_chunk(const LocalMatrix<ValueType>& part, const BlockChunk<ValueType>& c)
{
    const auto views = chunk_views(part);
    std::vector<std::int32_t> rows(static_cast<std::size_t>(c.rows));
    std::iota(rows.begin(), rows.end(), c.view_row);
    return merged_rows(views[c.view], rows);
}

/// The CSR blocks of the two passes of chunk `c`: the interior rows and the boundary rows
/// whole (`by_rows`), or the chunk's local and non-local rows. A block that is a whole view's
/// (one chunk, split by columns) is not copied: `first` / `second` point into the rank's part.
template <typename ValueType>
struct PassBlocks {
    std::unique_ptr<CsrBlock<ValueType>> first_copy, second_copy;  // where one was made
    const CsrBlock<ValueType>* first = nullptr;
    const CsrBlock<ValueType>* second = nullptr;

    void drop_first() { first_copy.reset(), first = nullptr; }
    void drop_second() { second_copy.reset(), second = nullptr; }
};

/// The format built from a pass block: from the copy, given up (spmv::build's moving overload:
/// CSR keeps the copy's arrays, the others release it as soon as they are built), or from the
/// view of the rank's part when no copy was made. The slot is empty afterwards either way.
template <typename ValueType>
AnyMatrix<ValueType> build_from(const std::string& format,
                                std::unique_ptr<CsrBlock<ValueType>>& copy,
                                const CsrBlock<ValueType>*& view, const FormatParams& params)
{
    AnyMatrix<ValueType> m = copy ? spmv::build<ValueType>(format, std::move(*copy), params)
                                  : spmv::build<ValueType>(format, *view, params);
    copy.reset();
    view = nullptr;
    return m;
}

template <typename ValueType>
PassBlocks<ValueType> pass_blocks(const LocalMatrix<ValueType>& part,
                                  const BlockChunk<ValueType>& c, bool by_rows)
{
    const auto v = chunk_views(part)[c.view];
    const std::int32_t r0 = c.view_row;
    const std::int32_t r1 = c.view_row + c.rows;
    PassBlocks<ValueType> b;
    const auto keep = [](std::unique_ptr<CsrBlock<ValueType>>& slot, CsrBlock<ValueType>&& m) {
        slot = std::make_unique<CsrBlock<ValueType>>(std::move(m));
        return slot.get();
    };
    if (!by_rows) {
        const bool whole = r0 == 0 && r1 == v.local->num_rows;
        b.first = whole ? v.local : keep(b.first_copy, copy_rows(*v.local, r0, r1));
        b.second = whole ? v.nonlocal : keep(b.second_copy, copy_rows(*v.nonlocal, r0, r1));
        return b;
    }
    std::vector<std::int32_t> rows(c.boundary.size());  // of the view
    for (std::size_t k = 0; k < rows.size(); ++k) {
        rows[k] = r0 + c.boundary[k];
    }
    b.first = keep(b.first_copy, copy_rows(*v.local, r0, r1, c.boundary));
    b.second = keep(b.second_copy, merged_rows(v, rows));
    return b;
}

/// The footprint format `fmt` would take for rows of these lengths (parameters resolved by the
/// format's own rule, as the builder resolves them), from the lengths alone: the registry's
/// estimate (spmv/analysis/estimate.hpp), or plain CSR-like counts for a format without one.
/// Values are counted at 8 bytes: an upper bound for float blocks.
Footprint footprint_of(const std::string& fmt, const FormatParams& params,
                       std::span<const std::int32_t> lengths, std::int64_t num_cols)
{
    const auto& info = find_format(fmt);
    std::vector<std::int32_t> ptrs(lengths.size() + 1, 0);
    std::int64_t nnz = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        nnz += lengths[i];
        ptrs[i + 1] = static_cast<std::int32_t>(
            std::min<std::int64_t>(nnz, std::numeric_limits<std::int32_t>::max()));
    }
    if (info.estimate == nullptr) {
        Footprint f;
        f.stored_entries = nnz;
        f.value_bytes = static_cast<std::size_t>(nnz) * 8;
        f.index_bytes = static_cast<std::size_t>(nnz) * 4;
        f.aux_bytes = ptrs.size() * 4;
        return f;
    }
    const FormatParams resolved = info.resolve != nullptr ? info.resolve(ptrs, params) : params;
    RowLengthProfile rows;
    rows.num_rows = static_cast<std::int64_t>(lengths.size());
    rows.num_cols = num_cols;
    rows.nnz = nnz;
    rows.lengths = lengths;
    rows.row_ptrs = ptrs;
    return info.estimate(rows, resolved);
}

/// The merged row lengths (local + non-local entries) of rows [r0, r1) of chunk `v`.
template <typename ValueType>
std::vector<std::int32_t> merged_lengths(const ChunkView<ValueType>& v, std::int32_t r0,
                                         std::int32_t r1)
{
    std::vector<std::int32_t> len(static_cast<std::size_t>(r1 - r0));
    for (auto i = r0; i < r1; ++i) {
        len[static_cast<std::size_t>(i - r0)] =
            v.local->row_ptrs[i + 1] - v.local->row_ptrs[i] + v.nonlocal->row_ptrs[i + 1] -
            v.nonlocal->row_ptrs[i];
    }
    return len;
}

/// Cuts rows [r0, r1) of chunk `v` into halves until each range's merged rows hold at most
/// `limit` nonzeros and stored slots in `fmt` (ours, issue 36). Appends the ranges to `out`.
template <typename ValueType>
void cut_rows(const ChunkView<ValueType>& v, std::int32_t r0, std::int32_t r1,
              const std::string& fmt, const FormatParams& params, std::int64_t limit, int rank,
              std::vector<std::pair<std::int32_t, std::int32_t>>& out)
{
    const auto len = merged_lengths(v, r0, r1);
    std::int64_t nnz = 0;
    for (auto l : len) {
        nnz += l;
    }
    const std::int64_t cols = std::int64_t{v.local->num_cols} + v.nonlocal->num_cols;
    // A shortcut before the estimate (which sorts, and searches sigma = auto): the registered
    // formats pad the rows to a multiple of at most g rows (slices, blocks, warps, a pitch) and
    // a row to at most g slots past the longest, so (rows + g) (longest + g) + nnz slots bound
    // every layout; a range within that bound needs no estimate (a rank of pde400 on 4 GPUs,
    // 16 million rows of 7, stays far under it).
    const std::int64_t g =
        std::max({64, params.slice_height, params.block_rows, params.warp_size,
                  params.pitch_bytes / 4, params.diag_pad});
    const std::int64_t longest = len.empty() ? 0 : *std::max_element(len.begin(), len.end());
    std::int64_t slots = nnz;
    const bool surely_fits = (std::int64_t{r1 - r0} + g) * (longest + g) + nnz <= limit;
    if (nnz <= limit && nnz > 0 && !surely_fits) {  // the estimate's int32 offsets hold nnz
        slots = std::max(nnz, footprint_of(fmt, params, len, cols).stored_entries);
    }
    if (std::max(nnz, slots) <= limit || r1 - r0 <= 1) {
        if (slots > max_chunk_entries) {
            SPMV_THROW(DimensionMismatch,
                       "rank " + std::to_string(rank) + "'s row " +
                           std::to_string(v.first_row + r0) + " takes " + std::to_string(slots) +
                           " stored slots in " + fmt + ", more than one 32-bit block addresses "
                           "(at most 2^31 - 1 = 2147483647): choose another format");
        }
        out.emplace_back(r0, r1);
        return;
    }
    const std::int32_t mid = r0 + (r1 - r0) / 2;
    cut_rows(v, r0, mid, fmt, params, limit, rank, out);
    cut_rows(v, mid, r1, fmt, params, limit, rank, out);
}

/// Host ranks: the blocks in host memory, each product computed by the calling thread, chunk
/// by chunk.
template <typename ValueType>
class HostBlocks final : public RankBlocks<ValueType> {
public:
    HostBlocks(const LocalMatrix<ValueType>& part, BlockSplit<ValueType> split,
               std::int64_t halo, const DistOptions& opt)
        : own_(static_cast<std::size_t>(part.num_own_cols)),
          halo_(static_cast<std::size_t>(halo)),
          by_rows_(split.by_rows)
    {
        std::size_t most_boundary = 0;
        for (auto& c : split.chunks) {
            Chunk h;
            h.first_row = static_cast<std::size_t>(c.first_row);
            h.rows = static_cast<std::size_t>(c.rows);
            {  // the chunk's CSR copies live only while its blocks are built
                auto pass = pass_blocks(part, c, by_rows_);
                // each copy given up as it is built: not held beside the next block
                h.first = build_from(opt.format, pass.first_copy, pass.first, opt.params);
                h.second = build_from(opt.format, pass.second_copy, pass.second, opt.params);
            }
            h.boundary = std::move(c.boundary);
            most_boundary = std::max(most_boundary, h.boundary.size());
            if (split.merged) {
                h.merged = spmv::build<ValueType>(opt.format, merge_chunk(part, c), opt.params);
            }
            chunks_.push_back(std::move(h));
        }
        boundary_tmp_.resize(most_boundary);
    }

    void local(Product<ValueType>& p) override
    {
        Span s(p.rec, Lane::compute, Phase::local);
        for (auto& c : chunks_) {
            spmv_reference(*c.first, ValueType{1}, x_own(p), ValueType{0}, y(p, c));
        }
    }
    void nonlocal(Product<ValueType>& p) override
    {
        if (halo_ == 0) {
            return;
        }
        Span s(p.rec, Lane::compute, Phase::nonlocal);
        for (auto& c : chunks_) {
            auto ys = y(p, c);
            if (!by_rows_) {  // the full-row block adds into y itself
                spmv_reference(*c.second, ValueType{1},
                               std::span<const ValueType>(p.x_ghost + own_, halo_), ValueType{1},
                               ys);
                continue;
            }
            if (c.boundary.empty()) {
                continue;
            }
            const auto tmp = std::span<ValueType>(boundary_tmp_).first(c.boundary.size());
            spmv_reference(*c.second, ValueType{1}, x_ghost(p), ValueType{0}, tmp);
            for (std::size_t k = 0; k < c.boundary.size(); ++k) {
                ys[static_cast<std::size_t>(c.boundary[k])] += tmp[k];
            }
        }
    }
    void whole(Product<ValueType>& p) override
    {
        if (chunks_.empty() || !chunks_.front().merged) {
            local(p);
            nonlocal(p);
            return;
        }
        Span s(p.rec, Lane::compute, Phase::local);  // the whole SpMV in one step
        for (auto& c : chunks_) {
            spmv_reference(*c.merged, ValueType{1}, x_ghost(p), ValueType{0}, y(p, c));
        }
    }
    int chunks() const noexcept override { return static_cast<int>(chunks_.size()); }

private:
    struct Chunk {
        std::size_t first_row = 0, rows = 0;
        std::optional<AnyMatrix<ValueType>> first, second, merged;
        std::vector<std::int32_t> boundary;  // by rows: the chunk's boundary rows
    };

    std::span<const ValueType> x_own(const Product<ValueType>& p) const
    {
        return {p.x_ghost, own_};
    }
    std::span<const ValueType> x_ghost(const Product<ValueType>& p) const
    {
        return {p.x_ghost, own_ + halo_};
    }
    static std::span<ValueType> y(const Product<ValueType>& p, const Chunk& c)
    {
        return {p.y + c.first_row, c.rows};
    }

    std::size_t own_, halo_;
    bool by_rows_;
    std::vector<Chunk> chunks_;
    std::vector<ValueType> boundary_tmp_;  // shared: the chunks run one after the other
};

/// GPU ranks: the blocks on the rank's GPU, every product queued on its compute stream (one
/// launch per chunk); the host waits only where the schedule says (wait_local) and at the end.
template <typename ValueType>
class DeviceBlocks final : public RankBlocks<ValueType> {
public:
    DeviceBlocks(const LocalMatrix<ValueType>& part, BlockSplit<ValueType> split,
                 std::int64_t halo, const DistOptions& opt, DeviceRank& device)
        : device_(device), own_(part.num_own_cols), halo_(halo), by_rows_(split.by_rows)
    {
        // a pass block's format (from its copy, given up, or from the view) on the GPU
        auto up = [&](std::unique_ptr<CsrBlock<ValueType>>& copy,
                      const CsrBlock<ValueType>*& view) {
            if (opt.variant.empty()) {
                return gpu::assemble(build_from(opt.format, copy, view, opt.params));
            }
            const auto& v = gpu::find_variant(opt.variant);
            return gpu::assemble(v, build_from(std::string(v.format), copy, view, opt.params));
        };
        std::size_t most_boundary = 0;
        bool wide = opt.double_sums;
        for (auto& c : split.chunks) {
            Chunk d;
            d.first_row = c.first_row;
            auto pass = pass_blocks(part, c, by_rows_);
            d.first = up(pass.first_copy, pass.first);
            if (halo > 0) {
                d.second = up(pass.second_copy, pass.second);
                if (by_rows_ && !c.boundary.empty()) {
                    d.boundary = gpu::DeviceBuffer<std::int32_t>::from_host(c.boundary,
                                                                            "non-local rows");
                    d.n_boundary = static_cast<std::int64_t>(c.boundary.size());
                    most_boundary = std::max(most_boundary, c.boundary.size());
                }
            }
            pass.drop_second();
            if (split.merged) {
                auto merged = std::make_unique<CsrBlock<ValueType>>(merge_chunk(part, c));
                const CsrBlock<ValueType>* view = merged.get();
                d.merged = up(merged, view);
            }
            wide = wide && d.first.has_double_sums() &&
                   (!d.second || d.second.has_double_sums()) &&
                   (!d.merged || d.merged.has_double_sums());
            chunks_.push_back(std::move(d));
        }
        if (most_boundary > 0) {
            boundary_tmp_ = gpu::DeviceBuffer<ValueType>(most_boundary, "non-local products");
        }
        merged_ = split.merged && !chunks_.empty();
        sums_ = wide ? gpu::Sums::double_precision : gpu::Sums::value_type;
    }

    void begin(Product<ValueType>& p) override
    {
        p.rec.start_gpu(device_.compute);
        // x_ghost's own part was written on the compute stream: the comm stream's gather waits
        gpu::Event x_ready;
        x_ready.record(device_.compute);
        device_.comm.wait(x_ready);
    }
    void local(Product<ValueType>& p) override
    {
        auto& s = device_.compute;
        p.rec.gpu.span(Phase::local, s, [&] {
            for (auto& c : chunks_) {
                c.first.spmv(ValueType{1}, p.x_ghost, ValueType{0}, p.y + c.first_row,
                             RowOrder::original, s, sums_);
            }
        }, false);
    }
    void nonlocal(Product<ValueType>& p) override
    {
        if (halo_ == 0) {
            return;
        }
        auto& s = device_.compute;
        p.rec.gpu.span(Phase::nonlocal, s, [&] {
            for (auto& c : chunks_) {
                if (!by_rows_) {
                    c.second.spmv(ValueType{1}, p.x_ghost + own_, ValueType{1},
                                  p.y + c.first_row, RowOrder::original, s, sums_);
                    continue;
                }
                if (c.n_boundary == 0) {
                    continue;
                }
                // the boundary rows whole, over the ghosted x (the chunks share the products'
                // buffer: their launches are ordered on the one stream)
                c.second.spmv(ValueType{1}, p.x_ghost, ValueType{0}, boundary_tmp_.data(),
                              RowOrder::original, s, sums_);
                gpu::scatter_add(boundary_tmp_.data(), c.boundary.data(), c.n_boundary,
                                 p.y + c.first_row, s);
            }
        }, false);
    }
    void whole(Product<ValueType>& p) override
    {
        if (!merged_) {
            local(p);
            nonlocal(p);
            return;
        }
        auto& s = device_.compute;
        p.rec.gpu.span(Phase::local, s, [&] {
            for (auto& c : chunks_) {
                c.merged.spmv(ValueType{1}, p.x_ghost, ValueType{0}, p.y + c.first_row,
                              RowOrder::original, s, sums_);
            }
        }, false);
    }
    void wait_local(Product<ValueType>& p) override
    {
        Span s(p.rec, Lane::compute, Phase::idle);  // the host blocked on the kernel
        device_.compute.synchronize();
    }
    void halo_ready(Queue q) override
    {
        if (q != Queue::comm) {
            return;  // the halo came in on the compute stream, before the second pass
        }
        gpu::Event halo_in;
        halo_in.record(device_.comm);
        device_.compute.wait(halo_in);
    }
    void end(Product<ValueType>& p) override
    {
        device_.compute.synchronize();
        p.rec.finish_gpu();
    }
    bool double_sums() const noexcept override { return sums_ == gpu::Sums::double_precision; }
    int chunks() const noexcept override { return static_cast<int>(chunks_.size()); }

private:
    struct Chunk {
        std::int64_t first_row = 0;
        gpu::DeviceMatrix<ValueType> first, second, merged;
        gpu::DeviceBuffer<std::int32_t> boundary;  // by rows: the chunk's boundary rows
        std::int64_t n_boundary = 0;
    };

    DeviceRank& device_;
    std::int64_t own_, halo_;
    bool by_rows_;
    bool merged_ = false;
    std::vector<Chunk> chunks_;
    gpu::DeviceBuffer<ValueType> boundary_tmp_;
    gpu::Sums sums_ = gpu::Sums::value_type;
};

}  // namespace

template <typename ValueType>
BlockSplit<ValueType> split_blocks(const LocalMatrix<ValueType>& part, std::int64_t halo,
                                   const DistOptions& opt, bool any_halo, int rank)
{
    SPMV_EXPECTS(opt.max_chunk_nnz >= 1 && opt.max_chunk_nnz <= max_chunk_entries,
                 "DistOptions::max_chunk_nnz (" + std::to_string(opt.max_chunk_nnz) +
                     ") must lie in [1, 2^31 - 1]");
    BlockSplit<ValueType> s;
    s.merged = opt.merged_block && any_halo && halo > 0;
    const auto views = chunk_views(part);
    // the rule of the passes, for the rank as a whole (the model's): every chunk alike
    std::int64_t boundary = 0;
    for (const auto& v : views) {
        for (std::int32_t i = 0; i < v.nonlocal->num_rows; ++i) {
            boundary += v.nonlocal->row_ptrs[i + 1] > v.nonlocal->row_ptrs[i] ? 1 : 0;
        }
    }
    s.by_rows = compressed_nonlocal(boundary, local_rows(part)) && boundary > 0;
    const std::int64_t ghosted_cols = std::int64_t{part.num_own_cols} + halo;
    if (s.by_rows) {
        check_ghosted_block(GhostedBlock::boundary_rows, ghosted_cols, rank);
    }
    if (s.merged) {
        check_ghosted_block(GhostedBlock::merged, ghosted_cols, rank);
    }
    const std::string fmt = opt.variant.empty()
                                ? opt.format
                                : std::string(gpu::find_variant(opt.variant).format);
    // Every block this rank builds, estimated before any is (DistOptions::budget); inside the
    // build's collective step, a refusal on one rank ends every rank with its message.
    std::uint64_t need = 0;
    auto add = [&](const std::vector<std::int32_t>& lengths, std::int64_t cols) {
        need += footprint_of(fmt, opt.params, lengths, cols).total_bytes();
    };
    for (std::size_t k = 0; k < views.size(); ++k) {
        const auto& v = views[k];
        std::vector<std::pair<std::int32_t, std::int32_t>> ranges;
        cut_rows(v, 0, v.local->num_rows, fmt, opt.params, opt.max_chunk_nnz, rank, ranges);
        for (const auto& [r0, r1] : ranges) {
            BlockChunk<ValueType> c;
            c.first_row = v.first_row + r0;
            c.rows = r1 - r0;
            c.view = k;
            c.view_row = r0;
            const bool estimate = opt.budget.limited();
            std::vector<std::int32_t> first_len, second_len;  // the passes' row lengths
            for (auto i = r0; i < r1; ++i) {
                const std::int32_t l = v.local->row_ptrs[i + 1] - v.local->row_ptrs[i];
                const std::int32_t n = v.nonlocal->row_ptrs[i + 1] - v.nonlocal->row_ptrs[i];
                const bool boundary_row = s.by_rows && n > 0;
                if (boundary_row) {
                    c.boundary.push_back(i - r0);
                }
                if (estimate) {
                    first_len.push_back(boundary_row ? 0 : l);
                    if (boundary_row || !s.by_rows) {
                        second_len.push_back(boundary_row ? l + n : n);
                    }
                }
            }
            if (estimate) {
                add(first_len, part.num_own_cols);
                if (halo > 0) {
                    add(second_len, s.by_rows ? ghosted_cols : halo);
                }
                if (s.merged) {
                    add(merged_lengths(v, r0, r1), ghosted_cols);
                }
            }
            s.chunks.push_back(std::move(c));
        }
    }
    if (opt.budget.limited()) {
        require_memory(opt.budget, need,
                       "rank " + std::to_string(rank) + "'s " + fmt + " blocks (" +
                           std::to_string(local_rows(part)) + " rows in " +
                           std::to_string(s.chunks.size()) + " row chunk" +
                           (s.chunks.size() == 1 ? "" : "s") + "; " +
                           (opt.gpu ? "device" : "host") + " memory, estimated)");
    }
    return s;
}

template <typename ValueType>
std::unique_ptr<RankBlocks<ValueType>> make_blocks(const LocalMatrix<ValueType>& part,
                                                   BlockSplit<ValueType> split,
                                                   std::int64_t halo, const DistOptions& opt,
                                                   DeviceRank* device)
{
    if (device == nullptr) {
        return std::make_unique<HostBlocks<ValueType>>(part, std::move(split), halo, opt);
    }
    return std::make_unique<DeviceBlocks<ValueType>>(part, std::move(split), halo, opt, *device);
}

#define SPMV_DIST_INSTANTIATE(V)                                                               \
    template BlockSplit<V> split_blocks<V>(const LocalMatrix<V>&, std::int64_t,                \
                                           const DistOptions&, bool, int);                     \
    template std::unique_ptr<RankBlocks<V>> make_blocks<V>(const LocalMatrix<V>&, BlockSplit<V>, \
                                                           std::int64_t, const DistOptions&,   \
                                                           DeviceRank*)
SPMV_DIST_INSTANTIATE(double);
SPMV_DIST_INSTANTIATE(float);
#undef SPMV_DIST_INSTANTIATE

}  // namespace spmv::dist::detail
