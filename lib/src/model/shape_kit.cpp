// The format model's kit (shape_kit.hpp).
#include "shape_kit.hpp"

#include <algorithm>
#include <array>
#include <numeric>

#include <spmv/error.hpp>

namespace spmv::model {
namespace {

// Distinct 32-byte sectors of x among the n columns `cols` for doubles (4 per sector)
// and floats (8): the column keys sorted once, then counted by one scan each (a float
// sector is two double sectors, c >> 3 == (c >> 2) >> 1, so sorted double keys are sorted
// float keys too). Reorders `cols`.
std::pair<int, int> distinct_sectors(std::int32_t* cols, int n)
{
    if (n <= 1) return {n, n};
    for (int l = 0; l < n; ++l) cols[l] >>= 2;
    std::sort(cols, cols + n);
    int dp = 1, sp = 1;
    for (int l = 1; l < n; ++l) {
        dp += cols[l] != cols[l - 1];
        sp += (cols[l] >> 1) != (cols[l - 1] >> 1);
    }
    return {dp, sp};
}

// Distinct x sectors (doubles: 4 columns per 32-byte sector, floats: 8) of groups of columns
// (a warp's or a block's, shape_kit.hpp), one group after another: each sector is stamped with
// the group's number, so a column costs O(1) instead of its share of a sort. The stamps take
// 6 bytes per 4 columns (3.6 MB for 2.4M columns); above 2^24 columns the groups are sorted
// instead (distinct_sectors). Both give the same counts.
class SectorCounter {
public:
    explicit SectorCounter(std::int64_t num_cols)
    {
        if (num_cols <= (std::int64_t{1} << 24)) {
            dp_.assign(static_cast<std::size_t>(num_cols >> 2) + 1, 0);
            sp_.assign(static_cast<std::size_t>(num_cols >> 3) + 1, 0);
        }
    }

    /// {DP sectors, SP sectors} of cols[0 .. n) (may reorder them).
    std::pair<int, int> count(std::int32_t* cols, int n)
    {
        if (n <= 1) return {n, n};
        if (dp_.empty()) return distinct_sectors(cols, n);
        if (++stamp_ == 0) {  // wrapped after 2^32 groups: start the stamps afresh
            std::fill(dp_.begin(), dp_.end(), 0u);
            std::fill(sp_.begin(), sp_.end(), 0u);
            stamp_ = 1;
        }
        int dp = 0, sp = 0;
        for (int l = 0; l < n; ++l) {
            auto& d = dp_[static_cast<std::size_t>(cols[l] >> 2)];
            dp += d != stamp_;
            d = stamp_;
            auto& f = sp_[static_cast<std::size_t>(cols[l] >> 3)];
            sp += f != stamp_;
            f = stamp_;
        }
        return {dp, sp};
    }

private:
    std::vector<std::uint32_t> dp_, sp_;
    std::uint32_t stamp_ = 0;
};

// Distinct sectors of 2^shift slots among the slots [lo, hi).
std::int64_t range_sectors(std::int64_t lo, std::int64_t hi, int shift)
{
    return hi > lo ? ((hi - 1) >> shift) - (lo >> shift) + 1 : 0;
}

// Warps of 32 rows of `order` (empty: the identity), each lane looping over its row; a warp's
// x sectors are the distinct sectors of all its rows' columns, whatever the trip that reads
// them (shape_kit.hpp: L1 serves a warp's repeats). Each lane's row is read once, front to
// back; the next warp's row pointers and row starts are fetched while this warp is counted.
// trip_sectors also counts the sectors per warp and trip (RowPass::trip_x_dp: JDS, whose warps
// live one trip): each trip's columns are bucketed (trip t of every lane together) and counted
// apart. No count depends on the order in which a trip's columns are gathered.
RowPass row_parallel(const Csr<double, std::int32_t>& a, const std::vector<std::int32_t>& order,
                     bool slot_sectors, bool trip_sectors)
{
    // slot_sectors counts the matrix's own sectors of a warp's consecutive rows (CSR scalar):
    // identity order only, where they are one contiguous range of slots
    SPMV_EXPECTS(!slot_sectors || order.empty(), "row_parallel: slot sectors need row order");
    RowPass r;
    const auto n = static_cast<std::int64_t>(a.num_rows);
    const auto* ptrs = a.row_ptrs.data();
    const auto* col = a.col_idxs.data();
    auto row_at = [&](std::int64_t k) {
        return order.empty() ? static_cast<std::int32_t>(k) : order[static_cast<std::size_t>(k)];
    };
    // [2][warp]: this warp's and the next warp's row ranges
    std::array<std::array<std::int32_t, warp>, 2> begin{}, end{};
    auto load = [&](std::int64_t first, int which) {
        const int lanes = static_cast<int>(std::min<std::int64_t>(warp, n - first));
        for (int l = 0; l < lanes; ++l) {
            const auto row = row_at(first + l);
            begin[which][l] = ptrs[row];
            end[which][l] = ptrs[row + 1];
            __builtin_prefetch(col + begin[which][l]);
        }
        if (!order.empty()) {  // the row pointers of the warp after
            const auto after = first + warp;
            for (std::int64_t k = after; k < std::min(n, after + warp); ++k) {
                __builtin_prefetch(ptrs + row_at(k));
            }
        }
    };
    std::vector<std::int32_t> cols;    // the warp's columns, every trip
    std::vector<std::int32_t> bucket;  // trip_sectors: bucket[t * warp + m], trip t's m-th column
    std::vector<int> fill;             // columns in trip t
    SectorCounter sectors(a.num_cols);
    if (n > 0) load(0, 0);
    int cur = 0;
    for (std::int64_t first = 0; first < n; first += warp, cur ^= 1) {
        const int lanes = static_cast<int>(std::min<std::int64_t>(warp, n - first));
        if (first + warp < n) load(first + warp, cur ^ 1);
        const auto& b = begin[cur];
        const auto& e = end[cur];
        std::int32_t width = 0;
        cols.clear();
        for (int l = 0; l < lanes; ++l) {
            width = std::max(width, e[l] - b[l]);
            cols.insert(cols.end(), col + b[l], col + e[l]);
        }
        r.warp_trips += width;
        r.critical = std::max<std::int64_t>(r.critical, width);
        const auto warp_nnz = static_cast<std::int32_t>(cols.size());
        const auto [dp, sp] = sectors.count(cols.data(), static_cast<int>(cols.size()));
        r.x_dp += dp;
        r.x_sp += sp;
        r.warps.push_back({static_cast<float>(dp), static_cast<float>(sp), warp_nnz, width});
        if (trip_sectors) {
            const auto w = static_cast<std::size_t>(width);
            if (bucket.size() < w * warp) bucket.resize(w * warp);
            fill.assign(w, 0);
            for (int l = 0; l < lanes; ++l) {
                for (auto j = b[l]; j < e[l]; ++j) {
                    const auto t = static_cast<std::size_t>(j - b[l]);
                    bucket[t * warp + static_cast<std::size_t>(fill[t]++)] = col[j];
                }
            }
            for (std::size_t t = 0; t < w; ++t) {
                const auto [tdp, tsp] = sectors.count(bucket.data() + t * warp, fill[t]);
                r.trip_x_dp += tdp;
                r.trip_x_sp += tsp;
            }
        }
        if (slot_sectors) {  // values (8 B, 4 per sector), then col_idxs (4 B, 8 per sector)
            const std::int64_t lo = ptrs[first], hi = ptrs[first + lanes];
            r.matrix_sectors += static_cast<double>(range_sectors(lo, hi, 2));
            r.matrix_sectors += static_cast<double>(range_sectors(lo, hi, 3));
        }
    }
    return r;
}

// x sectors (DP, SP) of kernels whose lanes read consecutive nonzeros: the distinct sectors of
// each range [bounds[k], bounds[k + 1]) of nonzeros in CSR order (one unit, shape_kit.hpp),
// summed.
std::pair<double, double> range_units(const Csr<double, std::int32_t>& a,
                                      const std::vector<std::int64_t>& bounds)
{
    std::vector<std::int32_t> cols;
    SectorCounter sectors(a.num_cols);
    double dp = 0, sp = 0;
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
        cols.assign(a.col_idxs.begin() + static_cast<std::ptrdiff_t>(bounds[k]),
                    a.col_idxs.begin() + static_cast<std::ptrdiff_t>(bounds[k + 1]));
        const auto [d, s] = sectors.count(cols.data(), static_cast<int>(cols.size()));
        dp += d;
        sp += s;
    }
    return {dp, sp};
}

// Chunks of `chunk` consecutive nonzeros: 0, chunk, 2 chunk, ..., nnz.
std::vector<std::int64_t> chunk_bounds(std::int64_t nnz, std::int64_t chunk)
{
    std::vector<std::int64_t> b;
    for (std::int64_t k = 0; k < nnz; k += chunk) b.push_back(k);
    b.push_back(nnz);
    return b;
}

// Groups of `rows` consecutive rows: their first nonzeros, then nnz.
std::vector<std::int64_t> row_group_bounds(const Csr<double, std::int32_t>& a, std::int64_t rows)
{
    std::vector<std::int64_t> b;
    const auto n = static_cast<std::int64_t>(a.num_rows);
    for (std::int64_t r = 0; r < n; r += rows) b.push_back(a.row_ptrs[static_cast<std::size_t>(r)]);
    b.push_back(static_cast<std::int64_t>(a.col_idxs.size()));
    return b;
}

// Merge-path tiles of `tile` merge items: row r's nonzero j is item j + r (each row's nonzeros,
// then its end), so tile k holds the nonzeros with k tile <= j + r < (k + 1) tile. Empty tiles
// (only row ends) give no range.
std::vector<std::int64_t> merge_tile_bounds(const Csr<double, std::int32_t>& a, std::int64_t tile)
{
    std::vector<std::int64_t> b{0};
    std::int64_t next = tile;  // the first item of the next tile
    for (std::int64_t r = 0; r < a.num_rows; ++r) {
        const std::int64_t lo = a.row_ptrs[static_cast<std::size_t>(r)];
        const std::int64_t hi = a.row_ptrs[static_cast<std::size_t>(r) + 1];
        for (;;) {
            const std::int64_t j = std::max(lo, next - r);  // the first nonzero of the next tile
            if (j >= hi) break;
            if (j > b.back()) b.push_back(j);
            next = ((j + r) / tile + 1) * tile;
        }
    }
    b.push_back(static_cast<std::int64_t>(a.col_idxs.size()));
    return b;
}

}  // namespace


// The split kernels' warps per group of 32 rows (kernels/src/split.cuh: the smallest T of
// 1, 2, 4, 8 with ceil(width / T) <= 16).
int split_t(std::int64_t width)
{
    int t = 1;
    while (t < 8 && ceil_div(width, t) > 16) {
        t *= 2;
    }
    return t;
}

// Groups of 32 consecutive rows of `order`: their widths (longest row).
std::vector<std::int64_t> group_widths(const std::vector<std::int32_t>& lens,
                                       const std::vector<std::int32_t>& order)
{
    std::vector<std::int64_t> w;
    const auto n = static_cast<std::int64_t>(lens.size());
    for (std::int64_t first = 0; first < n; first += warp) {
        std::int64_t m = 0;
        for (std::int64_t k = first; k < std::min(n, first + warp); ++k) {
            const auto row = order.empty() ? k : order[static_cast<std::size_t>(k)];
            m = std::max<std::int64_t>(m, lens[static_cast<std::size_t>(row)]);
        }
        w.push_back(m);
    }
    return w;
}

// Rows sorted by length, longest first, stably, inside windows of `sigma` rows (sigma >= N:
// one global sort), as the SELL / pJDS / JDS builders do (sort_by_length_desc: by counting for
// long windows, the same order as a stable sort).
std::vector<std::int32_t> window_sorted(const std::vector<std::int32_t>& lens, std::int64_t sigma)
{
    std::vector<std::int32_t> order;
    order.reserve(lens.size());
    for (std::size_t first = 0; first < lens.size(); first += static_cast<std::size_t>(sigma)) {
        const auto count = std::min(lens.size() - first, static_cast<std::size_t>(sigma));
        const auto local =
            sort_by_length_desc(std::span<const std::int32_t>(lens).subspan(first, count));
        for (const auto r : local) order.push_back(static_cast<std::int32_t>(first) + r);
    }
    return order;
}

// BiELL's iterations per warp of 32 sorted lengths (formats/biell.hpp's rule, W = 32):
// width_g = max(0, ceil((len(b_g) - cap_{g-1}) / (W / h_g))), h_g = W >> g, b_g = h_{g+1}.
std::int64_t biell_trips(std::span<const std::int32_t> sorted_desc)
{
    const int n = static_cast<int>(sorted_desc.size());
    auto len_at = [&](int k) -> std::int64_t { return k < n ? sorted_desc[static_cast<std::size_t>(k)] : 0; };
    std::int64_t cap = 0, trips = 0;
    for (int g = 0; g <= 5; ++g) {
        const int h = warp >> g;
        const int b = g < 5 ? (warp >> (g + 1)) : 0;
        const std::int64_t lanes = warp / h;
        const std::int64_t need = len_at(b) - cap;
        const std::int64_t w = need > 0 ? ceil_div(need, lanes) : 0;
        cap += lanes * w;
        trips += w;
    }
    return trips;
}

ShapeContext::ShapeContext(const Csr<double, std::int32_t>& matrix, const FormatParams& p)
    : a(matrix), params(p)
{
    n = a.num_rows;
    nnz = static_cast<std::int64_t>(a.col_idxs.size());
    lens = row_lengths(a);
    max_len = lens.empty() ? 0 : *std::max_element(lens.begin(), lens.end());
    mean = n > 0 ? static_cast<double>(nnz) / static_cast<double>(n) : 0.0;
    std::vector<bool> seen(static_cast<std::size_t>(std::max(a.num_cols, 0)), false);
    for (const auto c : a.col_idxs) {
        const auto u = static_cast<std::size_t>(c);
        if (u < seen.size() && !seen[u]) {
            seen[u] = true;
            ++touched_cols;
        }
    }
}

const RowPass& ShapeContext::identity_pass()
{
    if (!identity_) identity_ = row_parallel(a, {}, true, false);
    return *identity_;
}

const std::vector<std::int32_t>& ShapeContext::global_order()
{
    if (!have_global_order_) {
        global_order_ = window_sorted(lens, n);
        have_global_order_ = true;
    }
    return global_order_;
}

const RowPass& ShapeContext::global_pass()
{
    if (!global_) global_ = row_parallel(a, global_order(), false, true);
    return *global_;
}

void ShapeContext::set_params(const FormatParams& p)
{
    if (p.sort_window != params.sort_window) {  // the only parameter a pass depends on
        windowed_.reset();
        window_order_.clear();
        window_order_.shrink_to_fit();
        have_window_order_ = false;
    }
    params = p;
}

const std::vector<std::int32_t>& ShapeContext::window_order()
{
    if (params.sort_window >= n && n > 1) return global_order();  // one window: the same sort
    if (!have_window_order_) {
        if (params.sort_window > 1) window_order_ = window_sorted(lens, params.sort_window);
        have_window_order_ = true;
    }
    return window_order_;
}

const RowPass& ShapeContext::window_pass()
{
    if (!windowed_) {
        const std::int64_t sigma = params.sort_window;
        if (sigma <= 1 || warp % sigma == 0) {
            // windows inside one warp's rows: every warp holds the same rows as without the
            // sort, only in other lanes, so every trip gathers the same columns
            windowed_ = identity_pass();
        } else if (sigma >= n) {
            windowed_ = global_pass();  // one window of every row: the global order
        } else {
            windowed_ = row_parallel(a, window_order(), false, false);
        }
    }
    return *windowed_;
}

const std::pair<double, double>& ShapeContext::chunk_pass(std::int64_t chunk)
{
    SPMV_EXPECTS(chunk >= 1, "chunk_pass: a chunk must hold a nonzero");
    return nonzero_memo({0, chunk, 0}, [&] { return range_units(a, chunk_bounds(nnz, chunk)); });
}

const std::pair<double, double>& ShapeContext::row_group_pass(std::int64_t rows)
{
    SPMV_EXPECTS(rows >= 1, "row_group_pass: a group must hold a row");
    return nonzero_memo({1, rows, 0},
                        [&] { return range_units(a, row_group_bounds(a, rows)); });
}

const std::pair<double, double>& ShapeContext::merge_pass(std::int64_t tile_dp,
                                                          std::int64_t tile_sp)
{
    SPMV_EXPECTS(tile_dp >= 1 && tile_sp >= 1, "merge_pass: a tile must hold an item");
    return nonzero_memo({2, tile_dp, tile_sp}, [&] {
        auto both = range_units(a, merge_tile_bounds(a, tile_dp));
        if (tile_sp != tile_dp) both.second = range_units(a, merge_tile_bounds(a, tile_sp)).second;
        return both;
    });
}

void set_x(KernelShape& s, double dp, double sp)
{
    s.x_sectors_dp = dp;
    s.x_sectors_sp = sp;
}

void set_x(KernelShape& s, const RowPass& p)
{
    set_x(s, p.x_dp, p.x_sp);
    heaviest_warp(s, p);
}

void from_pass(KernelShape& s, const RowPass& p)
{
    set_x(s, p);
    s.warp_trips = p.warp_trips;
    s.critical_trips = p.critical;
}

namespace {
// The heaviest warp of the pass, each group of 32 rows on `split(width)` warps that share its
// columns (1: one warp per group), times the launch's resident share (shape_kit.hpp).
template <typename Split>
void heaviest_warp_of(KernelShape& s, const RowPass& p, Split split)
{
    double dp = 0, sp = 0;
    for (const auto& w : p.warps) {
        const double t = split(w.width);
        dp = std::max(dp, (w.x_dp + w.nnz * (8.0 + 4.0) / 32.0) / t);
        sp = std::max(sp, (w.x_sp + w.nnz * (4.0 + 4.0) / 32.0) / t);
    }
    const double share =
        std::min(static_cast<double>(p.warps.size()), resident_warps) / resident_warps;
    s.warp_sectors_dp = dp * share;
    s.warp_sectors_sp = sp * share;
}
}  // namespace

void heaviest_warp(KernelShape& s, const RowPass& p)
{
    heaviest_warp_of(s, p, [](std::int32_t) { return 1.0; });
}

void heaviest_split_warp(KernelShape& s, const RowPass& p)
{
    heaviest_warp_of(s, p, [](std::int32_t width) { return static_cast<double>(split_t(width)); });
}

void sorted_groups_shape(ShapeContext& c, KernelShape& s)
{
    from_pass(s, c.global_pass());
    s.row_info_bytes = 8.0 * static_cast<double>(c.n);  // permutation + lengths
    const auto widths = group_widths(c.lens, c.global_order());
    std::int64_t padded = 0;  // the last group holds only the rows left (to_pjds)
    for (std::size_t g = 0; g < widths.size(); ++g) {
        padded += widths[g] *
                  std::min<std::int64_t>(warp, c.n - static_cast<std::int64_t>(g) * warp);
    }
    s.stored_slots = static_cast<double>(padded);
}

void sorted_groups_split_shape(ShapeContext& c, KernelShape& s)
{
    sorted_groups_shape(c, s);
    std::int64_t trips = 0, crit = 0;
    for (const auto w : group_widths(c.lens, c.global_order())) {
        const int t = split_t(w);
        trips += t * ceil_div(w, t);
        crit = std::max(crit, ceil_div(w, t) + (t > 1 ? 3 : 0));
    }
    s.warp_trips = trips;
    s.critical_trips = crit;
    heaviest_split_warp(s, c.global_pass());
}

}  // namespace spmv::model
