#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <utility>

#include <spmv/analysis/estimate.hpp>
#include <spmv/error.hpp>
#include <spmv/viz/coalescing.hpp>

namespace spmv::viz {

namespace {

using I = std::int32_t;
constexpr int index_bytes = static_cast<int>(sizeof(I));
// pjds_spmv_kernel takes col_start as a kernel parameter table up to this many columns and
// loads it from global memory beyond (kernels/src/jagged.cuh, max_constant_offsets).
constexpr std::int64_t pjds_constant_offsets = 4096;

const std::array<AccessKernelInfo, 6> kernel_table = {{
    {AccessKernel::csr_scalar, "csr_scalar", "CSR scalar", "csr", "csr_spmv_scalar_kernel",
     "one thread per row"},
    {AccessKernel::csr_vector, "csr_vector", "CSR vector", "csr", "csr_spmv_vector_kernel",
     "a sub-warp of lanes per row, striding the row"},
    {AccessKernel::ell, "ell", "ELLPACK", "ell", "ell_spmv_kernel",
     "one thread per row, column-major, padding computed"},
    {AccessKernel::ellr, "ellr", "ELLPACK-R", "ellr", "ellr_spmv_kernel",
     "one thread per row, stops at its row length"},
    {AccessKernel::sell, "sell", "SELL-C-\xcf\x83", "sell", "sell_spmv_kernel",
     "one thread per row, column-major inside slices of C rows"},
    {AccessKernel::pjds, "pjds", "pJDS", "pjds", "pjds_spmv_kernel",
     "one thread per sorted row, padded jagged diagonals"},
}};

bool is_identity(std::span<const I> perm)
{
    for (std::size_t k = 0; k < perm.size(); ++k) {
        if (perm[k] != static_cast<I>(k)) return false;
    }
    return true;
}

/// One lane's thread: the rows it works on and where its slots are. Slot of trip t:
/// base + t * step, or col_start[t] + base for pJDS (jagged).
struct Lane {
    bool exists = false;     ///< the thread has a row (the kernels return early otherwise)
    std::int64_t row = -1;   ///< original row number
    std::int64_t trips = 0;  ///< loop trips in which this lane loads
    std::int64_t base = 0;
    std::int64_t step = 0;
};

/// A load of several lanes (before the loop, or col_start of pJDS): element indices per lane.
struct AuxLoad {
    std::string array;
    std::string label;
    std::int64_t elements = 0;                        ///< length of the array
    std::vector<std::pair<int, std::int64_t>> reads;  ///< (lane, element index)
};

/// Distinct sectors and the ideal count of a load, from the byte offsets of its lanes
/// (reordered in place). Elements are 4 or 8 bytes at multiples of their size, so one never
/// straddles two sectors.
struct Count {
    std::int64_t sectors = 0;
    std::int64_t requested_bytes = 0;
    std::int64_t ideal = 0;
};

Count count_sectors(std::vector<std::int64_t>& offsets, int element_bytes)
{
    Count c;
    if (offsets.empty()) return c;
    std::sort(offsets.begin(), offsets.end());
    std::int64_t distinct = 0;
    std::int64_t last_offset = -1;
    std::int64_t last_sector = -1;
    for (const std::int64_t o : offsets) {
        if (o != last_offset) {
            ++distinct;
            last_offset = o;
        }
        if (o / sector_bytes != last_sector) {
            ++c.sectors;
            last_sector = o / sector_bytes;
        }
    }
    c.requested_bytes = distinct * element_bytes;
    c.ideal = (c.requested_bytes + sector_bytes - 1) / sector_bytes;
    return c;
}

}  // namespace

struct AccessModel::Layout {
    AnyMatrix<double> matrix;
    AccessKernel kernel = AccessKernel::csr_scalar;
    int threads_per_row = 1;
    bool permuted_output = false;  ///< row_perm is not the identity: the kernel loads it
    std::int64_t threads = 0;

    const Csr<double, I>* csr = nullptr;
    const Ell<double, I>* ell = nullptr;
    const EllR<double, I>* ellr = nullptr;
    const SellCSigma<double, I>* sell = nullptr;
    const Pjds<double, I>* pjds = nullptr;

    std::int64_t num_rows() const { return spmv::num_rows(matrix); }
    std::int64_t num_cols() const { return spmv::num_cols(matrix); }
    /// col_idxs of the kernel's format (set with the format pointer below).
    const std::vector<I>* col_idxs = nullptr;

    std::int64_t stored_slots() const { return static_cast<std::int64_t>(col_idxs->size()); }
    I col_at(std::int64_t slot) const { return (*col_idxs)[static_cast<std::size_t>(slot)]; }

    Lane lane(std::int64_t thread) const
    {
        Lane l;
        const std::int64_t n = num_rows();
        switch (kernel) {
            case AccessKernel::csr_scalar:
            case AccessKernel::csr_vector: {
                const std::int64_t t = threads_per_row;
                const std::int64_t row = thread / t;
                const std::int64_t in_row = thread % t;
                if (row >= n) return l;
                const auto r = static_cast<std::size_t>(row);
                const std::int64_t len = csr->row_ptrs[r + 1] - csr->row_ptrs[r];
                l = {true, row, len > in_row ? (len - in_row + t - 1) / t : 0,
                     csr->row_ptrs[r] + in_row, t};
                return l;
            }
            case AccessKernel::ell:
                if (thread >= n) return l;
                return {true, thread, ell->width, thread, ell->stride};
            case AccessKernel::ellr:
                if (thread >= n) return l;
                return {true, thread, ellr->row_lengths[static_cast<std::size_t>(thread)], thread,
                        ellr->stride};
            case AccessKernel::sell: {
                if (thread >= n) return l;  // padding rows of the last slice: no work
                const std::int64_t c = sell->slice_height;
                const auto s = static_cast<std::size_t>(thread / c);
                return {true, sell->row_perm[static_cast<std::size_t>(thread)],
                        sell->slice_widths[s], sell->slice_ptrs[s] + thread % c, c};
            }
            case AccessKernel::pjds:
                if (thread >= n) return l;
                return {true, pjds->row_perm[static_cast<std::size_t>(thread)],
                        pjds->row_lengths[static_cast<std::size_t>(thread)], thread, 0};
        }
        return l;
    }

    std::int64_t slot(const Lane& l, std::int64_t trip) const
    {
        if (kernel == AccessKernel::pjds) {
            return pjds->col_start[static_cast<std::size_t>(trip)] + l.base;
        }
        return l.base + trip * l.step;
    }

    /// The loads before the row loop, in the kernel's order, for lanes [0, lanes.size()) whose
    /// threads start at first_thread.
    void pre_loop(std::int64_t first_thread, const std::vector<Lane>& lanes,
                  std::vector<AuxLoad>& out) const
    {
        out.clear();
        const auto add = [&](std::string array, std::string label, std::int64_t elements,
                             auto index_of) {
            AuxLoad load{std::move(array), std::move(label), elements, {}};
            for (std::size_t k = 0; k < lanes.size(); ++k) {
                if (lanes[k].exists) {
                    load.reads.emplace_back(static_cast<int>(k),
                                            index_of(first_thread + static_cast<std::int64_t>(k)));
                }
            }
            out.push_back(std::move(load));
        };
        const std::int64_t n = num_rows();
        switch (kernel) {
            case AccessKernel::csr_scalar:
            case AccessKernel::csr_vector: {
                const std::int64_t t = threads_per_row;
                add("row_ptrs", "row_ptrs[row + 1]", n + 1,
                    [t](std::int64_t g) { return g / t + 1; });
                add("row_ptrs", "row_ptrs[row]", n + 1, [t](std::int64_t g) { return g / t; });
                break;
            }
            case AccessKernel::ell:
                break;
            case AccessKernel::ellr:
                add("row_lengths", "row_lengths[row]", n, [](std::int64_t g) { return g; });
                break;
            case AccessKernel::sell: {
                const std::int64_t c = sell->slice_height;
                const auto slices = static_cast<std::int64_t>(sell->slice_widths.size());
                if (permuted_output) {
                    add("row_perm", "row_perm[k] (row of y)", n, [](std::int64_t g) { return g; });
                }
                add("slice_widths", "slice_widths[k / C]", slices,
                    [c](std::int64_t g) { return g / c; });
                add("slice_ptrs", "slice_ptrs[k / C]", slices + 1,
                    [c](std::int64_t g) { return g / c; });
                break;
            }
            case AccessKernel::pjds:
                if (permuted_output) {
                    add("row_perm", "row_perm[i] (row of y)", n, [](std::int64_t g) { return g; });
                }
                add("row_lengths", "row_lengths[i]",
                    static_cast<std::int64_t>(pjds->row_lengths.size()),
                    [](std::int64_t g) { return g; });
                break;
        }
    }

    /// col_start[t] from global memory (pJDS wider than the parameter table).
    bool loads_col_start() const
    {
        return kernel == AccessKernel::pjds &&
               static_cast<std::int64_t>(pjds->col_start.size()) - 1 > pjds_constant_offsets;
    }
};

namespace {

void check_value_bytes(int value_bytes)
{
    if (value_bytes != 4 && value_bytes != 8) {
        SPMV_THROW(InvalidArgument,
                   "coalescing: value_bytes must be 8 (double) or 4 (float), not " +
                       std::to_string(value_bytes));
    }
}

/// The lanes of `warp` and their loop trips (the busiest lane's).
std::int64_t fill_lanes(const AccessModel::Layout& layout, int warp_size, std::int64_t warp,
                        std::vector<Lane>& lanes)
{
    lanes.assign(static_cast<std::size_t>(warp_size), Lane{});
    std::int64_t trips = 0;
    for (int k = 0; k < warp_size; ++k) {
        const std::int64_t g = warp * warp_size + k;
        if (g >= layout.threads) break;
        lanes[static_cast<std::size_t>(k)] = layout.lane(g);
        trips = std::max(trips, lanes[static_cast<std::size_t>(k)].trips);
    }
    return trips;
}

/// Byte offsets of the loop body's loads on `trip`: values and col_idxs of every lane that
/// loads, x for the lanes whose slot is real (padding skips the gather in every kernel).
struct TripOffsets {
    std::vector<std::int64_t> values, col_idxs, x;
};

void trip_offsets(const AccessModel::Layout& layout, const std::vector<Lane>& lanes,
                  std::int64_t trip, int value_bytes, TripOffsets& out)
{
    out.values.clear();
    out.col_idxs.clear();
    out.x.clear();
    for (std::size_t k = 0; k < lanes.size(); ++k) {
        const Lane& l = lanes[k];
        if (!l.exists || trip >= l.trips) continue;
        const std::int64_t s = layout.slot(l, trip);
        out.values.push_back(s * value_bytes);
        out.col_idxs.push_back(s * index_bytes);
        const I c = layout.col_at(s);
        if (c >= 0) {
            out.x.push_back(std::int64_t{c} * value_bytes);
        }
    }
}

ArrayReads make_reads(AccessedArray role, std::string array, std::string label, int element_bytes,
                      std::int64_t elements)
{
    ArrayReads r;
    r.role = role;
    r.array = std::move(array);
    r.label = std::move(label);
    r.element_bytes = element_bytes;
    r.array_bytes = elements * element_bytes;
    return r;
}

void finish_reads(ArrayReads& r)
{
    std::vector<std::int64_t> offsets;
    offsets.reserve(r.reads.size());
    for (const auto& read : r.reads) offsets.push_back(read.offset);
    const Count c = count_sectors(offsets, r.element_bytes);
    r.requested_bytes = c.requested_bytes;
    r.ideal_sectors = c.ideal;
    r.sectors.clear();
    for (const std::int64_t o : offsets) {
        const std::int64_t s = o / sector_bytes;
        if (r.sectors.empty() || r.sectors.back() != s) r.sectors.push_back(s);
    }
}

}  // namespace

std::span<const AccessKernelInfo> access_kernels()
{
    return kernel_table;
}

const AccessKernelInfo& access_kernel_info(AccessKernel kernel)
{
    for (const auto& k : kernel_table) {
        if (k.kernel == kernel) return k;
    }
    SPMV_THROW(InvalidArgument,
               "coalescing: unknown kernel id " + std::to_string(static_cast<int>(kernel)));
}

const AccessKernelInfo& find_access_kernel(std::string_view name)
{
    std::string names;
    for (const auto& k : kernel_table) {
        if (k.name == name) return k;
        names += (names.empty() ? "" : " ") + std::string(k.name);
    }
    SPMV_THROW(InvalidArgument,
               "coalescing: unknown kernel '" + std::string(name) + "'; known: " + names);
}

std::int64_t WarpTrip::sectors(AccessedArray role) const noexcept
{
    std::int64_t n = 0;
    for (const auto& a : arrays) {
        if (a.role == role) n += static_cast<std::int64_t>(a.sectors.size());
    }
    return n;
}

std::int64_t WarpTrip::ideal_sectors(AccessedArray role) const noexcept
{
    std::int64_t n = 0;
    for (const auto& a : arrays) {
        if (a.role == role) n += a.ideal_sectors;
    }
    return n;
}

double SectorTotals::sectors_per_nonzero() const noexcept
{
    return nnz > 0 ? static_cast<double>(matrix_sectors()) / static_cast<double>(nnz) : 0.0;
}

double SectorTotals::ideal_per_nonzero() const noexcept
{
    return nnz > 0 ? static_cast<double>(ideal) / static_cast<double>(nnz) : 0.0;
}

AccessModel::AccessModel(const Csr<double, std::int32_t>& a, AccessKernel kernel,
                         const FormatParams& params, const MemoryBudget& budget,
                         int csr_vector_threads_per_row)
    : kernel_(kernel), warp_size_(params.warp_size)
{
    const auto& info = access_kernel_info(kernel);
    if (params.warp_size < 1) {
        SPMV_THROW(InvalidArgument, "coalescing: the warp size must be at least 1, not " +
                                        std::to_string(params.warp_size));
    }
    if (kernel == AccessKernel::csr_vector) {
        const int t = csr_vector_threads_per_row;
        if (t < 0 || t > params.warp_size) {
            SPMV_THROW(InvalidArgument,
                       "coalescing: CSR vector needs 1 to " + std::to_string(params.warp_size) +
                           " threads per row (the warp size), or 0 for the kernel's choice; got " +
                           std::to_string(t));
        }
        const double mean = a.num_rows > 0 ? static_cast<double>(a.values.size()) / a.num_rows : 0;
        // the kernel's sub-warp lives inside one hardware warp: a smaller teaching warp (4 for
        // the blackboard) caps it
        threads_per_row_ =
            t > 0 ? t : std::min(spmv::csr_vector_threads_per_row(mean), params.warp_size);
    }
    if (analysis::has_footprint_estimate(info.format)) {
        const auto need = analysis::estimate_footprint(a, info.format, params).total_bytes();
        require_memory(budget, need,
                       std::string(info.title) + " of " + std::to_string(a.num_rows) +
                           " rows (for the coalescing view)");
    }
    auto layout = std::make_shared<Layout>(Layout{build<double>(info.format, a, params)});
    layout->kernel = kernel;
    layout->threads_per_row = threads_per_row_;
    layout->csr = std::get_if<Csr<double, I>>(&layout->matrix);
    layout->ell = std::get_if<Ell<double, I>>(&layout->matrix);
    layout->ellr = std::get_if<EllR<double, I>>(&layout->matrix);
    layout->sell = std::get_if<SellCSigma<double, I>>(&layout->matrix);
    layout->pjds = std::get_if<Pjds<double, I>>(&layout->matrix);
    if (layout->csr != nullptr) layout->col_idxs = &layout->csr->col_idxs;
    if (layout->ell != nullptr) layout->col_idxs = &layout->ell->col_idxs;
    if (layout->ellr != nullptr) layout->col_idxs = &layout->ellr->col_idxs;
    if (layout->sell != nullptr) layout->col_idxs = &layout->sell->col_idxs;
    if (layout->pjds != nullptr) layout->col_idxs = &layout->pjds->col_idxs;
    if (layout->col_idxs == nullptr) {
        SPMV_THROW(Error, "coalescing: the registry built another format than " +
                              std::string(info.format) + " for " + std::string(info.title));
    }
    const auto perm = row_permutation(layout->matrix);
    layout->permuted_output = !is_identity(perm);
    layout->threads = layout->num_rows() * threads_per_row_;
    warps_ = (layout->threads + warp_size_ - 1) / warp_size_;
    layout_ = std::move(layout);
}

std::int64_t AccessModel::num_rows() const noexcept
{
    return layout_->num_rows();
}

std::int64_t AccessModel::nnz() const noexcept
{
    return spmv::nnz(layout_->matrix);
}

std::int64_t AccessModel::trips(std::int64_t warp) const
{
    if (warp < 0 || warp >= warps_) {
        const auto& info = access_kernel_info(kernel_);
        SPMV_THROW(InvalidArgument,
                   "coalescing: warp " + std::to_string(warp) +
                       " is out of range: " + std::string(info.title) +
                       (warps_ == 0 ? std::string(" runs no warp on a matrix without rows")
                                    : " runs warps 0.." + std::to_string(warps_ - 1)) +
                       " (" + std::to_string(num_rows()) + " rows, warp size " +
                       std::to_string(warp_size_) + ")");
    }
    std::vector<Lane> lanes;
    return fill_lanes(*layout_, warp_size_, warp, lanes);
}

WarpTrip AccessModel::warp_trip(std::int64_t warp, std::int64_t trip, int value_bytes) const
{
    check_value_bytes(value_bytes);
    (void)trips(warp);  // range check of the warp
    const Layout& layout = *layout_;
    std::vector<Lane> lanes;
    WarpTrip w;
    w.kernel = kernel_;
    w.warp = warp;
    w.trip = trip;
    w.trips = fill_lanes(layout, warp_size_, warp, lanes);
    w.warps = warps_;
    w.warp_size = warp_size_;
    w.value_bytes = value_bytes;
    w.threads_per_row = threads_per_row_;
    if (trip < 0 || trip >= std::max<std::int64_t>(w.trips, 1)) {
        SPMV_THROW(InvalidArgument,
                   "coalescing: trip " + std::to_string(trip) + " is out of range: warp " +
                       std::to_string(warp) + " of " +
                       std::string(access_kernel_info(kernel_).title) +
                       (w.trips == 0 ? std::string(" runs no loop trip (only trip 0, its loads "
                                                   "before the loop)")
                                     : " runs trips 0.." + std::to_string(w.trips - 1)));
    }
    for (const auto& l : lanes) w.lane_rows.push_back(l.exists ? l.row : -1);

    const std::int64_t first_thread = warp * warp_size_;
    if (trip == 0) {
        std::vector<AuxLoad> pre;
        layout.pre_loop(first_thread, lanes, pre);
        for (auto& load : pre) {
            auto r = make_reads(AccessedArray::row_info, load.array, load.label, index_bytes,
                                load.elements);
            for (const auto& [lane, index] : load.reads) {
                r.reads.push_back({lane, index * index_bytes, false});
            }
            finish_reads(r);
            w.arrays.push_back(std::move(r));
        }
    }
    if (trip >= w.trips) return w;  // an empty warp's trip 0: only the loads before the loop

    if (layout.loads_col_start()) {
        auto r = make_reads(AccessedArray::row_info, "col_start", "col_start[t]", index_bytes,
                            static_cast<std::int64_t>(layout.pjds->col_start.size()));
        for (std::size_t k = 0; k < lanes.size(); ++k) {
            if (lanes[k].exists && trip < lanes[k].trips) {
                r.reads.push_back({static_cast<int>(k), trip * index_bytes, false});
            }
        }
        finish_reads(r);
        w.arrays.push_back(std::move(r));
    }
    const std::string slot = [&]() -> std::string {
        switch (kernel_) {
            case AccessKernel::csr_scalar:
                return "row_ptrs[row] + t";
            case AccessKernel::csr_vector:
                return "row_ptrs[row] + lane + t * " + std::to_string(threads_per_row_);
            case AccessKernel::ell:
            case AccessKernel::ellr:
                return "t * stride + row";
            case AccessKernel::sell:
                return "slice_ptrs[k / C] + t * C + k % C";
            case AccessKernel::pjds:
                return "col_start[t] + i";
        }
        return {};
    }();
    auto values = make_reads(AccessedArray::values, "values", "values[" + slot + "]", value_bytes,
                             layout.stored_slots());
    auto cols = make_reads(AccessedArray::col_idxs, "col_idxs", "col_idxs[" + slot + "]",
                           index_bytes, layout.stored_slots());
    auto x = make_reads(AccessedArray::x, "x", "x[col_idxs[...]]", value_bytes, layout.num_cols());
    // the same loads as trip_offsets (which totals() sums), with the lane of every read kept
    for (std::size_t k = 0; k < lanes.size(); ++k) {
        const Lane& l = lanes[k];
        if (!l.exists || trip >= l.trips) continue;
        const std::int64_t s = layout.slot(l, trip);
        const I c = layout.col_at(s);
        ++w.active_lanes;
        values.reads.push_back({static_cast<int>(k), s * value_bytes, c < 0});
        cols.reads.push_back({static_cast<int>(k), s * index_bytes, c < 0});
        if (c >= 0) {
            ++w.useful_lanes;
            x.reads.push_back({static_cast<int>(k), std::int64_t{c} * value_bytes, false});
        }
    }
    for (auto* r : {&values, &cols, &x}) {
        finish_reads(*r);
        w.arrays.push_back(std::move(*r));
    }
    return w;
}

SectorTotals AccessModel::totals(int value_bytes, const std::atomic<bool>* cancel) const
{
    check_value_bytes(value_bytes);
    const Layout& layout = *layout_;
    SectorTotals s;
    s.kernel = kernel_;
    s.value_bytes = value_bytes;
    s.threads_per_row = threads_per_row_;
    s.nnz = nnz();
    s.warps = warps_;
    std::vector<Lane> lanes;
    std::vector<AuxLoad> pre;
    std::vector<std::int64_t> offsets;
    TripOffsets t;
    for (std::int64_t warp = 0; warp < warps_; ++warp) {
        if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
            s.complete = false;
            return s;
        }
        const std::int64_t trips = fill_lanes(layout, warp_size_, warp, lanes);
        s.trips += trips;
        layout.pre_loop(warp * warp_size_, lanes, pre);
        for (const auto& load : pre) {
            offsets.clear();
            for (const auto& read : load.reads) offsets.push_back(read.second * index_bytes);
            s.row_info += count_sectors(offsets, index_bytes).sectors;
        }
        for (std::int64_t trip = 0; trip < trips; ++trip) {
            trip_offsets(layout, lanes, trip, value_bytes, t);
            const Count v = count_sectors(t.values, value_bytes);
            const Count c = count_sectors(t.col_idxs, index_bytes);
            const Count x = count_sectors(t.x, value_bytes);
            s.values += v.sectors;
            s.col_idxs += c.sectors;
            s.x += x.sectors;
            s.ideal += v.ideal + c.ideal + x.ideal;
            if (layout.loads_col_start()) s.row_info += 1;  // one broadcast address
        }
    }
    return s;
}

SectorTotals sector_totals(const Csr<double, std::int32_t>& a, AccessKernel kernel,
                           const FormatParams& params, int value_bytes, const MemoryBudget& budget,
                           const std::atomic<bool>* cancel)
{
    check_value_bytes(value_bytes);
    return AccessModel(a, kernel, params, budget).totals(value_bytes, cancel);
}

std::vector<StripRun> strip_runs(std::span<const std::int64_t> sectors, int bridge)
{
    if (bridge < 0) {
        SPMV_THROW(InvalidArgument,
                   "strip_runs: bridge must be at least 0, not " + std::to_string(bridge));
    }
    std::vector<StripRun> runs;
    for (const std::int64_t s : sectors) {
        if (!runs.empty()) {
            StripRun& last = runs.back();
            const std::int64_t end = last.first_sector + last.sectors;  // one past the last
            if (s < end) continue;                                      // repeated sector
            if (s - end <= bridge) {
                last.sectors = s - last.first_sector + 1;
                continue;
            }
        }
        runs.push_back({s, 1});
    }
    return runs;
}

}  // namespace spmv::viz
