#pragma once
/// Private to lib/src/formats: the bisection layout shared by BiELL and BiJAD (see biell.hpp and
/// docs/formats/biell_bijad.md). Both store warps of W sorted rows split into G groups (log2 W + 1
/// for a power of two); they differ only in how row_perm sorts (inside each warp, or globally).
/// F is BiEll<V, I> or BiJad<V, I>: num_rows, num_cols, warp_size, row_perm, group_ptrs,
/// col_idxs, values.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>
#include <spmv/formats/bisection.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv::detail::bisection {

/// Rows kept by each group: h_0 = W, then h_{g+1} = the largest divisor of W that is at most
/// h_g / 2, down to h_{G-1} = 1. For W = 2^m this is the bisection W, W/2, ..., 1 (G = m + 1,
/// six groups for W = 32); a divisor keeps W / h_g lanes per row a whole number otherwise.
inline std::vector<std::int64_t> group_heights(std::int64_t w)
{
    std::vector<std::int64_t> divisors;  // ascending
    for (std::int64_t d = 1; d * d <= w; ++d) {
        if (w % d == 0) {
            divisors.push_back(d);
            divisors.push_back(w / d);
        }
    }
    std::sort(divisors.begin(), divisors.end());
    std::vector<std::int64_t> h{w};
    while (h.back() > 1) {
        h.push_back(*(std::upper_bound(divisors.begin(), divisors.end(), h.back() / 2) - 1));
    }
    return h;
}

inline std::int64_t num_warps(std::int64_t num_rows, std::int64_t w)
{
    return (num_rows + w - 1) / w;
}

/// The bisection rule: `len` holds the sorted (non-increasing) lengths of one warp's rows (fewer
/// than W for the last warp: the missing rows are empty). Returns width_g for g = 0..G-1:
/// the fewest iterations that let row b_g = h_{g+1} (the first row leaving after group g;
/// b_{G-1} = 0) finish, its W / h_g lanes sharing the entries left after the earlier groups.
inline std::vector<std::int64_t> widths_of_warp(std::span<const std::int64_t> len,
                                                std::span<const std::int64_t> heights)
{
    const auto w = heights.front();
    std::vector<std::int64_t> widths(heights.size());
    std::int64_t cap = 0;  // entries a row active in all groups so far can hold
    for (std::size_t g = 0; g < heights.size(); ++g) {
        const auto b = static_cast<std::size_t>(g + 1 < heights.size() ? heights[g + 1] : 0);
        const auto need = (b < len.size() ? len[b] : 0) - cap;
        const auto lanes = w / heights[g];
        const auto width = need > 0 ? (need + lanes - 1) / lanes : 0;
        widths[g] = width;
        cap += lanes * width;
    }
    return widths;
}

/// Calls fn(slot) for the slots of stored row k in entry order (groups in order, then
/// p + e*h_g inside group g) until fn returns false.
template <typename F, typename Fn>
void for_row_slots(const F& f, std::span<const std::int64_t> heights, std::int64_t k, Fn&& fn)
{
    const std::int64_t w = f.warp_size;
    const auto groups = static_cast<std::int64_t>(heights.size());
    const auto warp = k / w;
    const auto p = k % w;
    for (std::int64_t g = 0; g < groups && p < heights[static_cast<std::size_t>(g)]; ++g) {
        const auto h = heights[static_cast<std::size_t>(g)];
        const auto i = static_cast<std::size_t>(warp * groups + g);
        for (std::int64_t slot = f.group_ptrs[i] + p; slot < f.group_ptrs[i + 1]; slot += h) {
            if (!fn(static_cast<std::size_t>(slot))) {
                return;
            }
        }
    }
}

/// Builds the layout of `a` with rows in the order `perm` (sorted as the format requires).
template <typename F, typename ValueType, typename IndexType>
void fill(F& f, const Csr<ValueType, IndexType>& a, std::vector<IndexType> perm,
          std::int64_t w, const char* name)
{
    f.num_rows = a.num_rows;
    f.num_cols = a.num_cols;
    f.warp_size = static_cast<IndexType>(w);
    f.row_perm = std::move(perm);
    const auto heights = group_heights(w);
    const auto warps = num_warps(a.num_rows, w);
    std::vector<std::int64_t> ptrs{0};
    std::vector<std::int64_t> len;
    for (std::int64_t warp = 0; warp < warps; ++warp) {
        len.clear();
        for (auto k = warp * w; k < std::min<std::int64_t>((warp + 1) * w, a.num_rows); ++k) {
            const auto src = static_cast<std::size_t>(f.row_perm[static_cast<std::size_t>(k)]);
            len.push_back(a.row_ptrs[src + 1] - a.row_ptrs[src]);
        }
        for (auto width : widths_of_warp(len, heights)) {
            ptrs.push_back(ptrs.back() + w * width);
        }
    }
    checked_slots(ptrs.back(), sizeof(ValueType) + sizeof(IndexType), name);
    f.group_ptrs.clear();
    for (auto ptr : ptrs) {
        f.group_ptrs.push_back(static_cast<IndexType>(ptr));  // fits: checked_slots above
    }
    f.col_idxs.assign(static_cast<std::size_t>(ptrs.back()), padding_index<IndexType>);
    f.values.assign(static_cast<std::size_t>(ptrs.back()), ValueType{0});
    for (std::int64_t k = 0; k < a.num_rows; ++k) {
        const auto src = static_cast<std::size_t>(f.row_perm[static_cast<std::size_t>(k)]);
        auto e = static_cast<std::size_t>(a.row_ptrs[src]);
        const auto end = static_cast<std::size_t>(a.row_ptrs[src + 1]);
        for_row_slots(f, heights, k, [&](std::size_t slot) {
            if (e == end) {
                return false;
            }
            f.col_idxs[slot] = a.col_idxs[e];
            f.values[slot] = a.values[e];
            ++e;
            return true;
        });
    }
}

template <typename F>
Csr<typename F::value_type, typename F::index_type> to_csr(const F& f)
{
    using IndexType = typename F::index_type;
    std::vector<IndexType> stored_as(f.row_perm.size());
    for (std::size_t k = 0; k < f.row_perm.size(); ++k) {
        stored_as[static_cast<std::size_t>(f.row_perm[k])] = static_cast<IndexType>(k);
    }
    Csr<typename F::value_type, IndexType> a;
    a.num_rows = f.num_rows;
    a.num_cols = f.num_cols;
    a.row_ptrs.assign(1, 0);
    const auto heights = group_heights(f.warp_size);
    for (std::size_t i = 0; i < stored_as.size(); ++i) {
        for_row_slots(f, heights, stored_as[i], [&](std::size_t slot) {
            if (f.col_idxs[slot] == padding_index<IndexType>) {
                return false;
            }
            a.col_idxs.push_back(f.col_idxs[slot]);
            a.values.push_back(f.values[slot]);
            return true;
        });
        a.row_ptrs.push_back(static_cast<IndexType>(a.values.size()));
    }
    return a;
}

/// Checks every invariant of biell.hpp; `globally_sorted` adds BiJAD's: lengths non-increasing
/// over all rows (BiELL: inside each warp, with row_perm moving rows only inside their warp).
template <typename F>
void validate(const F& f, bool globally_sorted, const char* name)
{
    using IndexType = typename F::index_type;
    using ValueType = typename F::value_type;
    const std::string fmt(name);
    SPMV_ENSURE_LAYOUT(f.num_rows >= 0 && f.num_cols >= 0, fmt + ": negative dimension");
    SPMV_ENSURE_LAYOUT(f.warp_size >= 1, fmt + ": warp_size must be at least 1");
    validate_permutation(std::span<const IndexType>(f.row_perm), f.num_rows, name);
    const std::int64_t w = f.warp_size;
    const auto heights = group_heights(w);
    const auto groups = static_cast<std::int64_t>(heights.size());
    const auto warps = num_warps(f.num_rows, w);
    SPMV_ENSURE_LAYOUT(f.group_ptrs.size() == static_cast<std::size_t>(warps * groups + 1),
                       fmt + ": group_ptrs must have num_warps * G + 1 entries");
    SPMV_ENSURE_LAYOUT(f.group_ptrs.front() == 0, fmt + ": group_ptrs[0] must be 0");
    SPMV_ENSURE_LAYOUT(f.col_idxs.size() == f.values.size() &&
                           static_cast<std::size_t>(f.group_ptrs.back()) == f.values.size(),
                       fmt + ": arrays must hold group_ptrs.back() slots");
    for (std::size_t i = 0; i + 1 < f.group_ptrs.size(); ++i) {
        const std::int64_t size = f.group_ptrs[i + 1] - f.group_ptrs[i];
        SPMV_ENSURE_LAYOUT(size >= 0 && size % w == 0,
                           fmt + ": group " + std::to_string(i) + " is not W x width slots");
    }
    std::vector<std::int64_t> len(static_cast<std::size_t>(f.num_rows), 0);
    for (std::int64_t k = 0; k < warps * w; ++k) {
        bool in_padding = false;
        IndexType prev = -1;
        const auto where = " in stored row " + std::to_string(k);
        for_row_slots(f, heights, k, [&](std::size_t slot) {
            const auto c = f.col_idxs[slot];
            if (c == padding_index<IndexType>) {
                in_padding = true;
                SPMV_ENSURE_LAYOUT(f.values[slot] == ValueType{0},
                                   fmt + ": padding slot with a nonzero value" + where);
                return true;
            }
            SPMV_ENSURE_LAYOUT(k < f.num_rows, fmt + ": real entry in a virtual row" + where);
            SPMV_ENSURE_LAYOUT(!in_padding, fmt + ": real entry after padding" + where);
            SPMV_ENSURE_LAYOUT(c >= 0 && c < f.num_cols, fmt + ": column out of range" + where);
            SPMV_ENSURE_LAYOUT(c > prev, fmt + ": columns not increasing" + where);
            prev = c;
            ++len[static_cast<std::size_t>(k)];
            return true;
        });
    }
    for (std::int64_t k = 0; k + 1 < f.num_rows; ++k) {
        const bool same_warp = k / w == (k + 1) / w;
        SPMV_ENSURE_LAYOUT(!(globally_sorted || same_warp) ||
                               len[static_cast<std::size_t>(k)] >=
                                   len[static_cast<std::size_t>(k + 1)],
                           fmt + ": stored rows not sorted by length at row " + std::to_string(k));
    }
    for (std::int64_t k = 0; !globally_sorted && k < f.num_rows; ++k) {
        SPMV_ENSURE_LAYOUT(f.row_perm[static_cast<std::size_t>(k)] / w == k / w,
                           fmt + ": row_perm moves a row out of its warp");
    }
    for (std::int64_t warp = 0; warp < warps; ++warp) {
        const auto first = static_cast<std::size_t>(warp * w);
        const auto widths = widths_of_warp(
            std::span<const std::int64_t>(len).subspan(
                first, std::min(static_cast<std::size_t>(w), len.size() - first)),
            heights);
        for (std::int64_t g = 0; g < groups; ++g) {
            const auto i = static_cast<std::size_t>(warp * groups + g);
            SPMV_ENSURE_LAYOUT((f.group_ptrs[i + 1] - f.group_ptrs[i]) / w ==
                                   widths[static_cast<std::size_t>(g)],
                               fmt + ": width of group " + std::to_string(i) +
                                   " does not follow the bisection rule");
        }
    }
}

template <typename F>
std::int64_t nnz(const F& f)
{
    return std::count_if(f.col_idxs.begin(), f.col_idxs.end(),
                         [](auto c) { return c != padding_index<typename F::index_type>; });
}

template <typename F>
Footprint footprint(const F& f)
{
    using IndexType = typename F::index_type;
    Footprint fp;
    const auto real = nnz(f);
    fp.stored_entries = static_cast<std::int64_t>(f.values.size());
    fp.padding_entries = fp.stored_entries - real;
    fp.value_bytes = std::size_t(real) * sizeof(typename F::value_type);
    fp.index_bytes = std::size_t(real) * sizeof(IndexType);
    fp.aux_bytes = (f.row_perm.size() + f.group_ptrs.size()) * sizeof(IndexType);
    fp.padding_bytes = std::size_t(fp.padding_entries) *
                       (sizeof(typename F::value_type) + sizeof(IndexType));
    return fp;
}

template <typename F>
std::vector<typename F::index_type> group_widths(const F& f)
{
    std::vector<typename F::index_type> widths;
    for (std::size_t i = 0; i + 1 < f.group_ptrs.size(); ++i) {
        widths.push_back((f.group_ptrs[i + 1] - f.group_ptrs[i]) / f.warp_size);
    }
    return widths;
}

/// Calls fn(warp, g, lane, slot) for every slot in kernel order: warp by warp, group by group,
/// iteration by iteration, lane by lane (slot = group_ptrs[warp*G + g] + j*W + lane).
template <typename F, typename Fn>
void for_lane_slots(const F& f, Fn&& fn)
{
    const std::int64_t w = f.warp_size;
    const auto groups = static_cast<std::int64_t>(group_heights(w).size());
    for (std::int64_t warp = 0; warp < num_warps(f.num_rows, w); ++warp) {
        for (std::int64_t g = 0; g < groups; ++g) {
            const auto i = static_cast<std::size_t>(warp * groups + g);
            for (std::int64_t s = f.group_ptrs[i]; s < f.group_ptrs[i + 1]; ++s) {
                fn(warp, g, (s - f.group_ptrs[i]) % w, static_cast<std::size_t>(s));
            }
        }
    }
}

template <typename F>
ThreadWork thread_work(const F& f)
{
    using IndexType = typename F::index_type;
    const std::int64_t w = f.warp_size;
    const auto threads = static_cast<std::size_t>(num_warps(f.num_rows, w) * w);
    ThreadWork t;
    t.iterations.assign(threads, 0);
    t.useful.assign(threads, 0);
    for_lane_slots(f, [&](std::int64_t warp, std::int64_t, std::int64_t lane, std::size_t s) {
        const auto thread = static_cast<std::size_t>(warp * w + lane);
        ++t.iterations[thread];
        t.useful[thread] += f.col_idxs[s] != padding_index<IndexType> ? 1 : 0;
    });
    t.stored = t.iterations;
    return t;
}

template <typename F, typename ValueType>
void spmv_reference(const F& f, ValueType alpha, std::span<const ValueType> x, ValueType beta,
                    std::span<ValueType> y, RowOrder order)
{
    using IndexType = typename F::index_type;
    check_spmv_dims(f.num_rows, f.num_cols, x.size(), y.size());
    const std::int64_t w = f.warp_size;
    const auto heights = group_heights(w);
    const auto groups = static_cast<std::int64_t>(heights.size());
    std::vector<ValueType> acc(static_cast<std::size_t>(w));   // lane p: sorted row p
    std::vector<ValueType> part(static_cast<std::size_t>(w));  // lane t: this group's sum
    for (std::int64_t warp = 0; warp < num_warps(f.num_rows, w); ++warp) {
        std::fill(acc.begin(), acc.end(), ValueType{0});
        for (std::int64_t g = 0; g < groups; ++g) {
            const auto i = static_cast<std::size_t>(warp * groups + g);
            std::fill(part.begin(), part.end(), ValueType{0});
            for (auto s = f.group_ptrs[i]; s < f.group_ptrs[i + 1]; ++s) {  // iteration j, lane t
                const auto c = f.col_idxs[static_cast<std::size_t>(s)];
                // padding (-1, value 0) adds nothing; the host skips the invalid x load
                if (c != padding_index<IndexType>) {
                    part[static_cast<std::size_t>((s - f.group_ptrs[i]) % w)] +=
                        f.values[static_cast<std::size_t>(s)] * x[static_cast<std::size_t>(c)];
                }
            }
            const auto h = heights[static_cast<std::size_t>(g)];  // lanes t, t+h, ... share row t
            for (std::int64_t t = 0; t < h; ++t) {
                for (auto q = t + h; q < w; q += h) {
                    part[static_cast<std::size_t>(t)] += part[static_cast<std::size_t>(q)];
                }
                acc[static_cast<std::size_t>(t)] += part[static_cast<std::size_t>(t)];
            }
        }
        for (std::int64_t p = 0; p < w && warp * w + p < f.num_rows; ++p) {
            const auto k = static_cast<std::size_t>(warp * w + p);
            const auto row =
                order == RowOrder::permuted ? k : static_cast<std::size_t>(f.row_perm[k]);
            const auto sum = acc[static_cast<std::size_t>(p)];
            y[row] = beta == ValueType{0} ? alpha * sum : alpha * sum + beta * y[row];
        }
    }
}

}  // namespace spmv::detail::bisection

// The public functions of bisection.hpp, defined once for BiEll and BiJad; biell.cpp and
// bijad.cpp instantiate them with SPMV_INSTANTIATE_BISECTION for their RowSort.
namespace spmv {

template <typename ValueType, typename IndexType, typename RowSort>
Csr<ValueType, IndexType> to_csr(const BisectionMatrix<ValueType, IndexType, RowSort>& f)
{
    return detail::bisection::to_csr(f);
}

template <typename ValueType, typename IndexType, typename RowSort>
void validate(const BisectionMatrix<ValueType, IndexType, RowSort>& f)
{
    detail::bisection::validate(f, RowSort::globally_sorted, RowSort::name);
}

template <typename ValueType, typename IndexType, typename RowSort>
std::int64_t nnz(const BisectionMatrix<ValueType, IndexType, RowSort>& f)
{
    return detail::bisection::nnz(f);
}

template <typename ValueType, typename IndexType, typename RowSort>
Footprint footprint(const BisectionMatrix<ValueType, IndexType, RowSort>& f)
{
    return detail::bisection::footprint(f);
}

template <typename ValueType, typename IndexType, typename RowSort>
std::vector<IndexType> group_widths(const BisectionMatrix<ValueType, IndexType, RowSort>& f)
{
    return detail::bisection::group_widths(f);
}

template <typename ValueType, typename IndexType, typename RowSort>
ThreadWork thread_work(const BisectionMatrix<ValueType, IndexType, RowSort>& f)
{
    return detail::bisection::thread_work(f);
}

template <typename ValueType, typename IndexType, typename RowSort>
void spmv_reference(const BisectionMatrix<ValueType, IndexType, RowSort>& f, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    detail::bisection::spmv_reference(f, alpha, x, beta, y, order);
}

}  // namespace spmv

/// Explicit instantiation of the functions above for BisectionMatrix<V, I, S>.
#define SPMV_INSTANTIATE_BISECTION(V, I, S)                                                  \
    template Csr<V, I> to_csr<V, I, S>(const BisectionMatrix<V, I, S>&);                   \
    template void validate<V, I, S>(const BisectionMatrix<V, I, S>&);                      \
    template std::int64_t nnz<V, I, S>(const BisectionMatrix<V, I, S>&);                   \
    template Footprint footprint<V, I, S>(const BisectionMatrix<V, I, S>&);                \
    template std::vector<I> group_widths<V, I, S>(const BisectionMatrix<V, I, S>&);        \
    template ThreadWork thread_work<V, I, S>(const BisectionMatrix<V, I, S>&);             \
    template void spmv_reference<V, I, S>(const BisectionMatrix<V, I, S>&, V,              \
                                          std::span<const V>, V, std::span<V>, RowOrder);
