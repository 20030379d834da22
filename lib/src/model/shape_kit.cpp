// The format model's kit (shape_kit.hpp).
#include "shape_kit.hpp"

#include <algorithm>
#include <array>
#include <numeric>

namespace spmv::model {
namespace {

// Distinct values among n small keys (n <= 32): sort a copy.
int distinct(std::array<std::int64_t, warp>& keys, int n)
{
    std::sort(keys.begin(), keys.begin() + n);
    return static_cast<int>(std::unique(keys.begin(), keys.begin() + n) - keys.begin());
}

RowPass row_parallel(const Csr<double, std::int32_t>& a, const std::vector<std::int32_t>& order,
                     bool slot_sectors)
{
    RowPass r;
    const auto n = static_cast<std::int64_t>(a.num_rows);
    std::array<std::int64_t, warp> kd{}, ks{};
    std::array<std::int32_t, warp> rows{};
    std::vector<std::int64_t> kv, kc;
    for (std::int64_t first = 0; first < n; first += warp) {
        const int lanes = static_cast<int>(std::min<std::int64_t>(warp, n - first));
        std::int32_t width = 0;
        for (int l = 0; l < lanes; ++l) {
            const auto row = order.empty() ? static_cast<std::int32_t>(first + l)
                                           : order[static_cast<std::size_t>(first + l)];
            rows[static_cast<std::size_t>(l)] = row;
            width = std::max(width, a.row_ptrs[row + 1] - a.row_ptrs[row]);
        }
        r.warp_trips += width;
        r.critical = std::max<std::int64_t>(r.critical, width);
        kv.clear();
        kc.clear();
        for (std::int32_t t = 0; t < width; ++t) {
            int m = 0;
            for (int l = 0; l < lanes; ++l) {
                const auto row = rows[static_cast<std::size_t>(l)];
                const auto slot = a.row_ptrs[row] + t;
                if (slot < a.row_ptrs[row + 1]) {
                    const auto c = a.col_idxs[static_cast<std::size_t>(slot)];
                    kd[static_cast<std::size_t>(m)] = c >> 2;  // 4 doubles per 32-byte sector
                    ks[static_cast<std::size_t>(m)] = c >> 3;  // 8 floats
                    if (slot_sectors) {
                        kv.push_back(static_cast<std::int64_t>(slot) >> 2);
                        kc.push_back(static_cast<std::int64_t>(slot) >> 3);
                    }
                    ++m;
                }
            }
            r.x_dp += distinct(kd, m);
            r.x_sp += distinct(ks, m);
        }
        if (slot_sectors) {
            for (auto* k : {&kv, &kc}) {
                std::sort(k->begin(), k->end());
                r.matrix_sectors += static_cast<double>(std::unique(k->begin(), k->end()) - k->begin());
            }
        }
    }
    return r;
}

// x sectors of kernels whose lanes read consecutive nonzeros: chunks of 32 in CSR order.
std::pair<double, double> nonzero_parallel(const Csr<double, std::int32_t>& a)
{
    std::array<std::int64_t, warp> kd{}, ks{};
    double dp = 0, sp = 0;
    const auto nnz = a.col_idxs.size();
    for (std::size_t first = 0; first < nnz; first += warp) {
        const int m = static_cast<int>(std::min<std::size_t>(warp, nnz - first));
        for (int l = 0; l < m; ++l) {
            const auto c = a.col_idxs[first + static_cast<std::size_t>(l)];
            kd[static_cast<std::size_t>(l)] = c >> 2;
            ks[static_cast<std::size_t>(l)] = c >> 3;
        }
        dp += distinct(kd, m);
        sp += distinct(ks, m);
    }
    return {dp, sp};
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
// one global sort), as the SELL / pJDS / JDS builders do.
std::vector<std::int32_t> window_sorted(const std::vector<std::int32_t>& lens, std::int64_t sigma)
{
    std::vector<std::int32_t> order(lens.size());
    std::iota(order.begin(), order.end(), 0);
    for (std::size_t first = 0; first < order.size(); first += static_cast<std::size_t>(sigma)) {
        const auto last = std::min(order.size(), first + static_cast<std::size_t>(sigma));
        std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(first),
                         order.begin() + static_cast<std::ptrdiff_t>(last),
                         [&](std::int32_t x, std::int32_t y) {
                             return lens[static_cast<std::size_t>(x)] >
                                    lens[static_cast<std::size_t>(y)];
                         });
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
}

const RowPass& ShapeContext::identity_pass()
{
    if (!identity_) identity_ = row_parallel(a, {}, true);
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
    if (!global_) global_ = row_parallel(a, global_order(), false);
    return *global_;
}

const std::vector<std::int32_t>& ShapeContext::window_order()
{
    if (!have_window_order_) {
        if (params.sort_window > 1) window_order_ = window_sorted(lens, params.sort_window);
        have_window_order_ = true;
    }
    return window_order_;
}

const RowPass& ShapeContext::window_pass()
{
    if (!windowed_) {
        windowed_ = params.sort_window <= 1 ? identity_pass()
                                            : row_parallel(a, window_order(), false);
    }
    return *windowed_;
}

const std::pair<double, double>& ShapeContext::nonzero_pass()
{
    if (!nonzero_) nonzero_ = nonzero_parallel(a);
    return *nonzero_;
}

void set_x(KernelShape& s, double dp, double sp)
{
    s.x_sectors_dp = dp;
    s.x_sectors_sp = sp;
}

void from_pass(KernelShape& s, const RowPass& p)
{
    set_x(s, p.x_dp, p.x_sp);
    s.warp_trips = p.warp_trips;
    s.critical_trips = p.critical;
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
}

}  // namespace spmv::model
