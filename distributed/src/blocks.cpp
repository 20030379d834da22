// A rank's blocks (blocks.hpp): the split into the two passes, the memory estimate, and the
// products on the host (spmv_reference over the registry's formats) and on the GPU (the
// kernels' DeviceMatrix, queued on the rank's compute stream).
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include <spmv/analysis/estimate.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/vector_ops.hpp>

#include "blocks.hpp"

namespace spmv::dist::detail {

namespace {

/// The rows with non-local entries (the "boundary" rows), ascending.
template <typename ValueType>
std::vector<std::int32_t> boundary_rows(const Csr<ValueType, std::int32_t>& nonlocal)
{
    std::vector<std::int32_t> rows;
    for (std::int32_t i = 0; i < nonlocal.num_rows; ++i) {
        if (nonlocal.row_ptrs[i + 1] > nonlocal.row_ptrs[i]) {
            rows.push_back(i);
        }
    }
    return rows;
}

/// `a` with the listed rows (ascending) left empty.
template <typename ValueType>
Csr<ValueType, std::int32_t> without_rows(const Csr<ValueType, std::int32_t>& a,
                                          const std::vector<std::int32_t>& rows)
{
    Csr<ValueType, std::int32_t> c;
    c.num_rows = a.num_rows;
    c.num_cols = a.num_cols;
    c.row_ptrs.assign(1, 0);
    std::size_t next = 0;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        if (next < rows.size() && rows[next] == i) {
            ++next;
        } else {
            for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                c.col_idxs.push_back(a.col_idxs[static_cast<std::size_t>(k)]);
                c.values.push_back(a.values[static_cast<std::size_t>(k)]);
            }
        }
        c.row_ptrs.push_back(static_cast<std::int32_t>(c.col_idxs.size()));
    }
    return c;
}

/// The listed rows of the merged block [local | non-local] (merge_blocks), in that order: a
/// matrix of rows.size() rows over the ghosted x [x_own | halo].
template <typename ValueType>
Csr<ValueType, std::int32_t> merged_rows(const LocalMatrix<ValueType>& m,
                                         const std::vector<std::int32_t>& rows)
{
    Csr<ValueType, std::int32_t> c;
    c.num_rows = static_cast<std::int32_t>(rows.size());
    c.num_cols = m.local.num_cols + m.nonlocal.num_cols;
    c.row_ptrs.assign(1, 0);
    for (auto i : rows) {
        for (auto k = m.local.row_ptrs[i]; k < m.local.row_ptrs[i + 1]; ++k) {
            c.col_idxs.push_back(m.local.col_idxs[static_cast<std::size_t>(k)]);
            c.values.push_back(m.local.values[static_cast<std::size_t>(k)]);
        }
        for (auto k = m.nonlocal.row_ptrs[i]; k < m.nonlocal.row_ptrs[i + 1]; ++k) {
            c.col_idxs.push_back(m.local.num_cols +
                                 m.nonlocal.col_idxs[static_cast<std::size_t>(k)]);
            c.values.push_back(m.nonlocal.values[static_cast<std::size_t>(k)]);
        }
        c.row_ptrs.push_back(static_cast<std::int32_t>(c.col_idxs.size()));
    }
    return c;
}

/// [local | non-local] over [x_own | halo], every row: vector mode's single step.
template <typename ValueType>
Csr<ValueType, std::int32_t> merge_blocks(const LocalMatrix<ValueType>& m)
{
    std::vector<std::int32_t> all(static_cast<std::size_t>(m.local.num_rows));
    std::iota(all.begin(), all.end(), 0);
    return merged_rows(m, all);
}

/// Host ranks: the blocks in host memory, each product computed by the calling thread.
template <typename ValueType>
class HostBlocks final : public RankBlocks<ValueType> {
public:
    HostBlocks(const LocalMatrix<ValueType>& part, BlockSplit<ValueType> split,
               std::int64_t halo, const DistOptions& opt)
        : own_(static_cast<std::size_t>(part.num_own_cols)),
          halo_(static_cast<std::size_t>(halo)),
          rows_(static_cast<std::size_t>(part.local.num_rows)),
          boundary_(std::move(split.boundary))
    {
        local_ = spmv::build<ValueType>(opt.format, split.first, opt.params);
        nonlocal_ = spmv::build<ValueType>(opt.format, split.second, opt.params);
        boundary_tmp_.resize(boundary_.size());
        if (split.merged) {
            merged_ = spmv::build<ValueType>(opt.format, merge_blocks(part), opt.params);
        }
    }

    void local(Product<ValueType>& p) override
    {
        Span s(p.rec, Lane::compute, Phase::local);
        spmv_reference(*local_, ValueType{1}, x_own(p), ValueType{0}, y(p));
    }
    void nonlocal(Product<ValueType>& p) override
    {
        if (halo_ == 0) {
            return;
        }
        Span s(p.rec, Lane::compute, Phase::nonlocal);
        auto ys = y(p);
        if (boundary_.empty()) {  // the full-row block adds into y itself
            spmv_reference(*nonlocal_, ValueType{1},
                           std::span<const ValueType>(p.x_ghost + own_, halo_), ValueType{1}, ys);
            return;
        }
        spmv_reference(*nonlocal_, ValueType{1}, x_ghost(p), ValueType{0},
                       std::span<ValueType>(boundary_tmp_));
        for (std::size_t k = 0; k < boundary_.size(); ++k) {
            ys[static_cast<std::size_t>(boundary_[k])] += boundary_tmp_[k];
        }
    }
    void whole(Product<ValueType>& p) override
    {
        if (!merged_) {
            local(p);
            nonlocal(p);
            return;
        }
        Span s(p.rec, Lane::compute, Phase::local);  // the whole SpMV in one step
        spmv_reference(*merged_, ValueType{1}, x_ghost(p), ValueType{0}, y(p));
    }

private:
    std::span<const ValueType> x_own(const Product<ValueType>& p) const
    {
        return {p.x_ghost, own_};
    }
    std::span<const ValueType> x_ghost(const Product<ValueType>& p) const
    {
        return {p.x_ghost, own_ + halo_};
    }
    std::span<ValueType> y(const Product<ValueType>& p) const { return {p.y, rows_}; }

    std::size_t own_, halo_, rows_;
    std::optional<AnyMatrix<ValueType>> local_, nonlocal_, merged_;
    std::vector<std::int32_t> boundary_;  // empty: the non-local block keeps every row
    std::vector<ValueType> boundary_tmp_;
};

/// GPU ranks: the blocks on the rank's GPU, every product queued on its compute stream; the
/// host waits only where the schedule says (wait_local) and at the end.
template <typename ValueType>
class DeviceBlocks final : public RankBlocks<ValueType> {
public:
    DeviceBlocks(const LocalMatrix<ValueType>& part, BlockSplit<ValueType> split,
                 std::int64_t halo, const DistOptions& opt, DeviceRank& device)
        : device_(device), own_(part.num_own_cols), halo_(halo),
          n_boundary_(static_cast<std::int64_t>(split.boundary.size()))
    {
        auto up = [&](const Csr<ValueType, std::int32_t>& c) {
            if (opt.variant.empty()) {
                return gpu::assemble(spmv::build<ValueType>(opt.format, c, opt.params));
            }
            const auto& v = gpu::find_variant(opt.variant);
            return gpu::assemble(v, spmv::build<ValueType>(v.format, c, opt.params));
        };
        local_ = up(split.first);
        if (halo > 0) {
            nonlocal_ = up(split.second);
            if (n_boundary_ > 0) {
                boundary_ = gpu::DeviceBuffer<std::int32_t>::from_host(split.boundary,
                                                                       "non-local rows");
                boundary_tmp_ = gpu::DeviceBuffer<ValueType>(split.boundary.size(),
                                                             "non-local products");
            }
        }
        if (split.merged) {
            merged_ = up(merge_blocks(part));
        }
        const bool wide = opt.double_sums && local_.has_double_sums() &&
                          (!nonlocal_ || nonlocal_.has_double_sums()) &&
                          (!merged_ || merged_.has_double_sums());
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
            local_.spmv(ValueType{1}, p.x_ghost, ValueType{0}, p.y, RowOrder::original, s, sums_);
        }, false);
    }
    void nonlocal(Product<ValueType>& p) override
    {
        if (halo_ == 0) {
            return;
        }
        auto& s = device_.compute;
        p.rec.gpu.span(Phase::nonlocal, s, [&] {
            if (n_boundary_ == 0) {
                nonlocal_.spmv(ValueType{1}, p.x_ghost + own_, ValueType{1}, p.y,
                               RowOrder::original, s, sums_);
                return;
            }
            // the boundary rows whole, over the ghosted x
            nonlocal_.spmv(ValueType{1}, p.x_ghost, ValueType{0}, boundary_tmp_.data(),
                           RowOrder::original, s, sums_);
            gpu::scatter_add(boundary_tmp_.data(), boundary_.data(), n_boundary_, p.y, s);
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
            merged_.spmv(ValueType{1}, p.x_ghost, ValueType{0}, p.y, RowOrder::original, s,
                         sums_);
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

private:
    DeviceRank& device_;
    std::int64_t own_, halo_;
    std::int64_t n_boundary_;  // 0: the non-local block keeps every row
    gpu::DeviceMatrix<ValueType> local_, nonlocal_, merged_;
    gpu::DeviceBuffer<std::int32_t> boundary_;
    gpu::DeviceBuffer<ValueType> boundary_tmp_;
    gpu::Sums sums_ = gpu::Sums::value_type;
};

}  // namespace

template <typename ValueType>
BlockSplit<ValueType> split_blocks(const LocalMatrix<ValueType>& part, std::int64_t halo,
                                   const DistOptions& opt, bool any_halo, int rank)
{
    BlockSplit<ValueType> s;
    s.merged = opt.merged_block && any_halo && halo > 0;
    std::vector<std::int32_t> rows_with_entries = boundary_rows(part.nonlocal);
    const bool compress = compressed_nonlocal(static_cast<std::int64_t>(rows_with_entries.size()),
                                              part.nonlocal.num_rows);
    s.first = part.local;
    s.second = part.nonlocal;
    if (compress && !rows_with_entries.empty()) {
        s.boundary = std::move(rows_with_entries);
        s.first = without_rows(part.local, s.boundary);
        s.second = merged_rows(part, s.boundary);
    }
    // Every block this rank builds, estimated before any is (DistOptions::budget); inside the
    // build's collective step, a refusal on one rank ends every rank with its message.
    if (opt.budget.limited()) {
        const std::string fmt = opt.variant.empty()
                                    ? opt.format
                                    : std::string(gpu::find_variant(opt.variant).format);
        std::uint64_t need = 0;
        auto add = [&](const Csr<ValueType, std::int32_t>& c) {
            if constexpr (std::is_same_v<ValueType, double>) {
                need += analysis::estimate_footprint(c, fmt, opt.params).total_bytes();
            } else {  // the estimate counts 8-byte values: an upper bound for float blocks
                need += analysis::estimate_footprint(convert_values<double>(c), fmt, opt.params)
                            .total_bytes();
            }
        };
        add(s.first);
        if (halo > 0) {
            add(s.second);
        }
        if (s.merged) {
            add(merge_blocks(part));
        }
        require_memory(opt.budget, need,
                       "rank " + std::to_string(rank) + "'s " + fmt + " blocks (" +
                           std::to_string(part.local.num_rows) + " rows; " +
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
