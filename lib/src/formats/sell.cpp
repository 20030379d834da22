#include <spmv/formats/sell.hpp>

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <string>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>
#include <spmv/parallel.hpp>

namespace spmv {
namespace {

template <typename IndexType>
std::int64_t num_slices(std::int64_t num_rows, IndexType slice_height)
{
    return (num_rows + slice_height - 1) / slice_height;
}

/// Slot of (stored row k, column j): slice k / C, row k % C inside it.
template <typename ValueType, typename IndexType>
std::size_t slot_of(const SellCSigma<ValueType, IndexType>& s, std::int64_t k, std::int64_t j)
{
    const std::int64_t c = s.slice_height;
    return static_cast<std::size_t>(s.slice_ptrs[static_cast<std::size_t>(k / c)] + j * c +
                                    k % c);
}

}  // namespace

std::int64_t sell_stored_slots(std::span<const std::int32_t> row_lengths, int slice_height,
                               int sort_window)
{
    SPMV_EXPECTS(slice_height >= 1 && sort_window >= 1, "SELL-C-sigma needs C >= 1, sigma >= 1");
    const auto n = static_cast<std::int64_t>(row_lengths.size());
    const std::int64_t c = slice_height;
    const std::int64_t sigma = sort_window;
    std::vector<std::int32_t> window;
    std::vector<std::int64_t> histogram;  // counting sort of long windows
    const std::int32_t longest =
        n == 0 ? 0 : *std::max_element(row_lengths.begin(), row_lengths.end());
    std::int64_t slots = 0;
    std::int64_t k = 0;  // rows already placed in slices
    std::int32_t width = 0;
    for (std::int64_t first = 0; first < n; first += sigma) {
        const auto count = std::min(sigma, n - first);
        window.assign(row_lengths.begin() + first, row_lengths.begin() + first + count);
        if (sigma > 1 && count >= 1024 && count >= 2 * std::int64_t{longest}) {
            // the same sorted lengths by counting, O(count + longest): choose_sort_window sorts
            // up to log2(N/C) + 2 times (0.8 s -> ~0.1 s for a 2.4M-row power law)
            histogram.assign(static_cast<std::size_t>(longest) + 1, 0);
            for (const auto l : window) ++histogram[static_cast<std::size_t>(l)];
            auto out = window.begin();
            for (std::int64_t l = longest; l >= 0; --l) {
                out = std::fill_n(out, histogram[static_cast<std::size_t>(l)],
                                  static_cast<std::int32_t>(l));
            }
        } else if (sigma > 1) {
            std::sort(window.begin(), window.end(), std::greater<>());
        }
        for (const auto l : window) {
            width = std::max(width, l);
            if (++k % c == 0) {
                slots += c * width;
                width = 0;
            }
        }
    }
    if (k % c != 0) {
        slots += c * width;
    }
    return slots;
}

namespace {

/// The smallest sigma whose SELL-C-sigma stores within 2 % of nnz of what sigma = N stores.
int sort_window_for(const std::vector<std::int32_t>& len, std::int64_t nnz, int slice_height)
{
    SPMV_EXPECTS(slice_height >= 1, "SELL-C-sigma needs C >= 1");
    const auto n = static_cast<std::int64_t>(len.size());
    if (n <= 1) {
        return 1;
    }
    const std::int64_t best = sell_stored_slots(len, slice_height, static_cast<int>(n));
    const std::int64_t allowed = best + nnz / 50;
    if (sell_stored_slots(len, slice_height, 1) <= allowed) {
        return 1;
    }
    for (std::int64_t sigma = slice_height; sigma < n; sigma *= 2) {
        if (sell_stored_slots(len, slice_height, static_cast<int>(sigma)) <= allowed) {
            return static_cast<int>(sigma);
        }
    }
    return static_cast<int>(n);
}

}  // namespace

int choose_sort_window(std::span<const std::int32_t> row_ptrs, int slice_height)
{
    std::vector<std::int32_t> len(row_ptrs.empty() ? 0 : row_ptrs.size() - 1);
    for (std::size_t i = 0; i < len.size(); ++i) {
        len[i] = row_ptrs[i + 1] - row_ptrs[i];
    }
    return sort_window_for(len, row_ptrs.empty() ? 0 : row_ptrs.back(), slice_height);
}

template <typename ValueType, typename IndexType>
int choose_sort_window(const Csr<ValueType, IndexType>& a, int slice_height)
{
    const auto lengths = row_lengths(a);
    return sort_window_for(std::vector<std::int32_t>(lengths.begin(), lengths.end()),
                           a.row_ptrs.empty() ? 0 : a.row_ptrs.back(), slice_height);
}

template int choose_sort_window(const Csr<float, std::int32_t>&, int);
template int choose_sort_window(const Csr<double, std::int32_t>&, int);

namespace {

/// Rows per block of work: enough that handing a block out costs nothing beside it.
constexpr std::int64_t rows_per_block = 1 << 14;

}  // namespace

template <typename ValueType, typename IndexType>
SellCSigma<ValueType, IndexType> to_sell_c_sigma(const Csr<ValueType, IndexType>& a,
                                                 const SellCSigmaOptions& options)
{
    SPMV_EXPECTS(options.slice_height >= 1, "SELL-C-sigma needs C >= 1");
    SPMV_EXPECTS(options.sort_window >= 1, "SELL-C-sigma needs sigma >= 1");
    SellCSigma<ValueType, IndexType> s;
    s.num_rows = a.num_rows;
    s.num_cols = a.num_cols;
    s.slice_height = static_cast<IndexType>(options.slice_height);
    s.sort_window = static_cast<IndexType>(options.sort_window);
    const std::int64_t n = a.num_rows;
    const std::int64_t c = s.slice_height;
    const std::int64_t sigma = s.sort_window;
    const std::int64_t slices = num_slices(n, s.slice_height);
    // Threads: every step below runs over blocks of rows, windows or slices, and each block
    // writes only its own entries (its rows' row_perm, its slices' widths, offsets and slots),
    // so the layout is the same bit for bit on any number of threads (build_threads()).
    const auto length = [&a](IndexType row) {
        const auto r = static_cast<std::size_t>(row);
        return a.row_ptrs[r + 1] - a.row_ptrs[r];
    };
    // 1. sort inside each window of sigma consecutive rows, longest first (stable);
    //    sigma = 1 sorts nothing: row_perm is the identity
    s.row_perm.resize(static_cast<std::size_t>(n));
    const auto perm = s.row_perm.begin();
    if (sigma == 1) {
        parallel_blocks(0, n, rows_per_block, [&](std::size_t, std::int64_t r0, std::int64_t r1) {
            std::iota(perm + r0, perm + r1, static_cast<IndexType>(r0));
        });
    } else {
        const std::int64_t windows = (n + sigma - 1) / sigma;
        parallel_blocks(0, windows, std::max<std::int64_t>(1, rows_per_block / sigma),
                        [&](std::size_t, std::int64_t w0, std::int64_t w1) {
            std::vector<IndexType> window;  // the window's row lengths
            for (auto first = w0 * sigma; first < std::min(n, w1 * sigma); first += sigma) {
                window.resize(static_cast<std::size_t>(std::min(sigma, n - first)));
                for (std::size_t r = 0; r < window.size(); ++r) {
                    window[r] = length(static_cast<IndexType>(first) + static_cast<IndexType>(r));
                }
                const auto local = sort_by_length_desc(std::span<const IndexType>(window));
                std::transform(local.begin(), local.end(), perm + first,
                               [first](IndexType r) { return static_cast<IndexType>(first + r); });
            }
        });
    }
    // 2. each slice padded to its own longest row; the slots of each block of slices
    const auto slices_per_block = std::max<std::int64_t>(1, rows_per_block / c);
    std::vector<std::int64_t> block_slots(block_count(0, slices, slices_per_block) + 1, 0);
    s.slice_widths.resize(static_cast<std::size_t>(slices));
    const auto each_block = [&](auto&& fn) { parallel_blocks(0, slices, slices_per_block, fn); };
    each_block([&](std::size_t b, std::int64_t s0, std::int64_t s1) {
        std::int64_t sum = 0;
        for (auto slice = s0; slice < s1; ++slice) {
            IndexType width = 0;
            for (auto k = slice * c; k < std::min(n, (slice + 1) * c); ++k) {
                width = std::max(width, length(s.row_perm[static_cast<std::size_t>(k)]));
            }
            s.slice_widths[static_cast<std::size_t>(slice)] = width;
            sum += c * width;
        }
        block_slots[b + 1] = sum;
    });
    // 3. slice_ptrs: the prefix sum of C * width, the blocks' sums first (block_slots[b]: the
    //    slots before block b), then inside every block from there
    for (std::size_t b = 0; b + 1 < block_slots.size(); ++b) {
        block_slots[b + 1] += block_slots[b];
    }
    const std::int64_t slots = block_slots.back();
    if (slots > std::numeric_limits<std::int32_t>::max()) {  // the slice where 32 bits end
        std::int64_t upto = 0;
        for (const auto width : s.slice_widths) {
            upto += c * width;
            detail::checked_slots(upto, sizeof(ValueType) + sizeof(IndexType), "SELL-C-sigma");
        }
    }
    s.slice_ptrs.resize(static_cast<std::size_t>(slices) + 1);
    each_block([&](std::size_t b, std::int64_t s0, std::int64_t s1) {
        auto upto = block_slots[b];
        for (auto slice = s0; slice < s1; ++slice) {
            upto += c * s.slice_widths[static_cast<std::size_t>(slice)];
            s.slice_ptrs[static_cast<std::size_t>(slice) + 1] = static_cast<IndexType>(upto);
        }
    });
    // 4. every row's entries into its slots; the rest stays padding
    s.col_idxs.assign(static_cast<std::size_t>(slots), padding_index<IndexType>);
    s.values.assign(static_cast<std::size_t>(slots), ValueType{0});
    each_block([&](std::size_t, std::int64_t s0, std::int64_t s1) {
        for (auto k = s0 * c; k < std::min(n, s1 * c); ++k) {
            const auto src = s.row_perm[static_cast<std::size_t>(k)];
            for (auto e = a.row_ptrs[src]; e < a.row_ptrs[src + 1]; ++e) {
                const auto slot = slot_of(s, k, e - a.row_ptrs[src]);
                s.col_idxs[slot] = a.col_idxs[static_cast<std::size_t>(e)];
                s.values[slot] = a.values[static_cast<std::size_t>(e)];
            }
        }
    });
    return s;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const SellCSigma<ValueType, IndexType>& s)
{
    std::vector<std::int64_t> stored_as(s.row_perm.size());
    for (std::size_t k = 0; k < s.row_perm.size(); ++k) {
        stored_as[static_cast<std::size_t>(s.row_perm[k])] = static_cast<std::int64_t>(k);
    }
    Csr<ValueType, IndexType> a;
    a.num_rows = s.num_rows;
    a.num_cols = s.num_cols;
    a.row_ptrs.assign(1, 0);
    for (auto k : stored_as) {
        const auto width = s.slice_widths[static_cast<std::size_t>(k / s.slice_height)];
        for (IndexType j = 0; j < width; ++j) {
            const auto slot = slot_of(s, k, j);
            if (s.col_idxs[slot] == padding_index<IndexType>) {
                break;
            }
            a.col_idxs.push_back(s.col_idxs[slot]);
            a.values.push_back(s.values[slot]);
        }
        a.row_ptrs.push_back(static_cast<IndexType>(a.values.size()));
    }
    return a;
}

template <typename ValueType, typename IndexType>
void validate(const SellCSigma<ValueType, IndexType>& s)
{
    SPMV_ENSURE_LAYOUT(s.num_rows >= 0 && s.num_cols >= 0, "sell: negative dimension");
    SPMV_ENSURE_LAYOUT(s.slice_height >= 1 && s.sort_window >= 1,
                       "sell: slice_height and sort_window must be >= 1");
    validate_permutation(std::span<const IndexType>(s.row_perm), s.num_rows, "sell");
    const std::int64_t c = s.slice_height;
    const std::int64_t sigma = s.sort_window;
    const auto slices = num_slices(s.num_rows, s.slice_height);
    SPMV_ENSURE_LAYOUT(s.slice_ptrs.size() == static_cast<std::size_t>(slices + 1) &&
                           s.slice_widths.size() == static_cast<std::size_t>(slices),
                       "sell: slice_ptrs needs num_slices + 1 entries, slice_widths num_slices");
    SPMV_ENSURE_LAYOUT(s.slice_ptrs.front() == 0, "sell: slice_ptrs[0] must be 0");
    for (std::size_t k = 0; k < s.slice_widths.size(); ++k) {
        SPMV_ENSURE_LAYOUT(s.slice_widths[k] >= 0 &&
                               std::int64_t{s.slice_ptrs[k + 1]} - s.slice_ptrs[k] ==
                                   c * s.slice_widths[k],
                           "sell: slice " + std::to_string(k) +
                               " does not hold slice_height * slice_widths slots");
    }
    SPMV_ENSURE_LAYOUT(s.col_idxs.size() == s.values.size() &&
                           static_cast<std::size_t>(s.slice_ptrs.back()) == s.values.size(),
                       "sell: arrays must hold slice_ptrs.back() slots");
    std::vector<std::int64_t> len(static_cast<std::size_t>(slices * c), 0);
    for (std::int64_t k = 0; k < slices * c; ++k) {
        bool in_padding = false;
        IndexType prev = -1;
        const auto where = " in stored row " + std::to_string(k);
        for (IndexType j = 0; j < s.slice_widths[static_cast<std::size_t>(k / c)]; ++j) {
            const auto slot = slot_of(s, k, j);
            const auto col = s.col_idxs[slot];
            if (col == padding_index<IndexType>) {
                in_padding = true;
                SPMV_ENSURE_LAYOUT(s.values[slot] == ValueType{0},
                                   "sell: padding slot with a nonzero value" + where);
                continue;
            }
            SPMV_ENSURE_LAYOUT(k < s.num_rows, "sell: real entry in a padding row" + where);
            SPMV_ENSURE_LAYOUT(!in_padding, "sell: real entry after padding" + where);
            SPMV_ENSURE_LAYOUT(col >= 0 && col < s.num_cols, "sell: column out of range" + where);
            SPMV_ENSURE_LAYOUT(col > prev, "sell: columns not increasing" + where);
            prev = col;
            ++len[static_cast<std::size_t>(k)];
        }
    }
    for (std::int64_t slice = 0; slice < slices; ++slice) {
        const auto first = len.begin() + slice * c;
        const auto longest = *std::max_element(first, first + c);
        SPMV_ENSURE_LAYOUT(longest == s.slice_widths[static_cast<std::size_t>(slice)],
                           "sell: slice " + std::to_string(slice) +
                               " is wider than its longest row");
    }
    for (std::int64_t k = 0; k < s.num_rows; ++k) {
        SPMV_ENSURE_LAYOUT(s.row_perm[static_cast<std::size_t>(k)] / sigma == k / sigma,
                           "sell: row_perm moves row " + std::to_string(k) +
                               " out of its sorting window");
        SPMV_ENSURE_LAYOUT(k + 1 == s.num_rows || (k + 1) % sigma == 0 ||
                               len[static_cast<std::size_t>(k)] >=
                                   len[static_cast<std::size_t>(k + 1)],
                           "sell: rows not sorted by length inside their window at row " +
                               std::to_string(k));
    }
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const SellCSigma<ValueType, IndexType>& s)
{
    return std::count_if(s.col_idxs.begin(), s.col_idxs.end(),
                         [](IndexType c) { return c != padding_index<IndexType>; });
}

template <typename ValueType, typename IndexType>
Footprint footprint(const SellCSigma<ValueType, IndexType>& s)
{
    Footprint f;
    const auto real = nnz(s);
    f.stored_entries = static_cast<std::int64_t>(s.values.size());
    f.padding_entries = f.stored_entries - real;
    f.value_bytes = std::size_t(real) * sizeof(ValueType);
    f.index_bytes = std::size_t(real) * sizeof(IndexType);
    f.aux_bytes =
        (s.slice_ptrs.size() + s.slice_widths.size() + s.row_perm.size()) * sizeof(IndexType);
    f.padding_bytes = std::size_t(f.padding_entries) * (sizeof(ValueType) + sizeof(IndexType));
    return f;
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const SellCSigma<ValueType, IndexType>& s)
{
    ThreadWork w;
    const std::int64_t c = s.slice_height;
    for (std::int64_t k = 0; k < num_slices(s.num_rows, s.slice_height) * c; ++k) {
        const std::int64_t width = s.slice_widths[static_cast<std::size_t>(k / c)];
        std::int64_t len = 0;
        while (len < width && s.col_idxs[slot_of(s, k, len)] != padding_index<IndexType>) {
            ++len;
        }
        w.iterations.push_back(width);
        w.useful.push_back(len);
        w.stored.push_back(width);
    }
    return w;
}

template <typename ValueType, typename IndexType>
void spmv_reference(const SellCSigma<ValueType, IndexType>& s, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    check_spmv_dims(s.num_rows, s.num_cols, x.size(), y.size());
    for (std::int64_t k = 0; k < s.num_rows; ++k) {  // one GPU thread per stored row
        ValueType sum{0};
        for (IndexType j = 0; j < s.slice_widths[static_cast<std::size_t>(k / s.slice_height)];
             ++j) {
            const auto slot = slot_of(s, k, j);
            const auto c = s.col_idxs[slot];
            // padding holds value 0; the host skips the load of x at the invalid index -1
            sum += s.values[slot] *
                   (c == padding_index<IndexType> ? ValueType{0} : x[static_cast<std::size_t>(c)]);
        }
        const auto row = order == RowOrder::permuted
                             ? static_cast<std::size_t>(k)
                             : static_cast<std::size_t>(s.row_perm[static_cast<std::size_t>(k)]);
        y[row] = beta == ValueType{0} ? alpha * sum : alpha * sum + beta * y[row];
    }
}

#define SPMV_INSTANTIATE_SELL(V, I)                                                          \
    template SellCSigma<V, I> to_sell_c_sigma<V, I>(const Csr<V, I>&,                        \
                                                    const SellCSigmaOptions&);               \
    template Csr<V, I> to_csr<V, I>(const SellCSigma<V, I>&);                               \
    template void validate<V, I>(const SellCSigma<V, I>&);                                  \
    template std::int64_t nnz<V, I>(const SellCSigma<V, I>&);                               \
    template Footprint footprint<V, I>(const SellCSigma<V, I>&);                            \
    template ThreadWork thread_work<V, I>(const SellCSigma<V, I>&);                         \
    template void spmv_reference<V, I>(const SellCSigma<V, I>&, V, std::span<const V>, V,   \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_SELL(float, std::int32_t)
SPMV_INSTANTIATE_SELL(double, std::int32_t)

}  // namespace spmv
