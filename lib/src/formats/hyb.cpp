#include <spmv/formats/hyb.hpp>

#include <algorithm>
#include <string>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>

namespace spmv {

template <typename IndexType>
IndexType hyb_auto_width(std::span<const IndexType> lengths)
{
    if (lengths.empty()) {
        return 0;
    }
    const auto max_len = *std::max_element(lengths.begin(), lengths.end());
    std::vector<std::int64_t> histogram(static_cast<std::size_t>(max_len) + 1, 0);
    for (auto len : lengths) {
        ++histogram[static_cast<std::size_t>(len)];
    }
    const auto rows = static_cast<std::int64_t>(lengths.size());
    std::int64_t rows_with_k_or_more = 0;
    for (IndexType k = max_len; k >= 1; --k) {  // largest K first
        rows_with_k_or_more += histogram[static_cast<std::size_t>(k)];
        if (3 * rows_with_k_or_more >= rows) {
            return k;
        }
    }
    return 0;
}

template <typename ValueType, typename IndexType>
Hyb<ValueType, IndexType> to_hyb(const Csr<ValueType, IndexType>& a, const HybOptions& opts)
{
    SPMV_EXPECTS(opts.width >= -1,
                 "HYB width must be -1 (automatic) or >= 0, got " + std::to_string(opts.width));
    const auto len = row_lengths(a);
    const IndexType max_len = len.empty() ? 0 : *std::max_element(len.begin(), len.end());
    Hyb<ValueType, IndexType> h;
    h.num_rows = a.num_rows;
    h.num_cols = a.num_cols;
    h.stride = a.num_rows;
    h.ell_width = opts.width < 0 ? hyb_auto_width(std::span<const IndexType>(len))
                                 : std::min(static_cast<IndexType>(opts.width), max_len);
    const auto slots = detail::checked_slots(std::int64_t{h.stride} * h.ell_width,
                                             sizeof(ValueType) + sizeof(IndexType), "HYB");
    h.ell_col_idxs.assign(static_cast<std::size_t>(slots), padding_index<IndexType>);
    h.ell_values.assign(static_cast<std::size_t>(slots), ValueType{0});
    for (IndexType i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            const auto j = k - a.row_ptrs[i];
            if (j < h.ell_width) {
                const auto slot = std::size_t(j) * std::size_t(h.stride) + i;
                h.ell_col_idxs[slot] = a.col_idxs[k];
                h.ell_values[slot] = a.values[k];
            } else {
                h.coo_row_idxs.push_back(i);
                h.coo_col_idxs.push_back(a.col_idxs[k]);
                h.coo_values.push_back(a.values[k]);
            }
        }
    }
    return h;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Hyb<ValueType, IndexType>& h)
{
    Csr<ValueType, IndexType> a;
    a.num_rows = h.num_rows;
    a.num_cols = h.num_cols;
    a.row_ptrs.assign(1, 0);
    std::size_t c = 0;  // COO cursor: the COO part is sorted by row
    for (IndexType i = 0; i < h.num_rows; ++i) {
        for (IndexType j = 0; j < h.ell_width; ++j) {
            const auto slot = std::size_t(j) * std::size_t(h.stride) + i;
            if (h.ell_col_idxs[slot] == padding_index<IndexType>) {
                break;
            }
            a.col_idxs.push_back(h.ell_col_idxs[slot]);
            a.values.push_back(h.ell_values[slot]);
        }
        for (; c < h.coo_values.size() && h.coo_row_idxs[c] == i; ++c) {
            a.col_idxs.push_back(h.coo_col_idxs[c]);
            a.values.push_back(h.coo_values[c]);
        }
        a.row_ptrs.push_back(static_cast<IndexType>(a.values.size()));
    }
    return a;
}

template <typename ValueType, typename IndexType>
void validate(const Hyb<ValueType, IndexType>& h)
{
    SPMV_ENSURE_LAYOUT(h.num_rows >= 0 && h.num_cols >= 0 && h.ell_width >= 0,
                       "hyb: negative dimension");
    SPMV_ENSURE_LAYOUT(h.stride == h.num_rows, "hyb: ELL stride must equal num_rows");
    const auto slots = std::size_t(h.stride) * std::size_t(h.ell_width);
    SPMV_ENSURE_LAYOUT(h.ell_col_idxs.size() == slots && h.ell_values.size() == slots,
                       "hyb: ELL arrays must hold stride * ell_width slots");
    std::vector<IndexType> ell_len(static_cast<std::size_t>(h.num_rows), 0);
    std::vector<IndexType> last_col(static_cast<std::size_t>(h.num_rows), -1);
    bool some_row_full = h.ell_width == 0;
    for (IndexType i = 0; i < h.num_rows; ++i) {
        const auto row = std::to_string(i);
        auto& n = ell_len[static_cast<std::size_t>(i)];
        auto& prev = last_col[static_cast<std::size_t>(i)];
        for (IndexType j = 0; j < h.ell_width; ++j) {
            const auto slot = std::size_t(j) * std::size_t(h.stride) + i;
            const auto c = h.ell_col_idxs[slot];
            if (c == padding_index<IndexType>) {
                SPMV_ENSURE_LAYOUT(h.ell_values[slot] == ValueType{0},
                                   "hyb: ELL padding slot with a nonzero value in row " + row);
                continue;
            }
            SPMV_ENSURE_LAYOUT(n == j, "hyb: real ELL entry after padding in row " + row);
            SPMV_ENSURE_LAYOUT(c >= 0 && c < h.num_cols,
                               "hyb: ELL column index out of range in row " + row);
            SPMV_ENSURE_LAYOUT(c > prev, "hyb: ELL columns not increasing in row " + row);
            prev = c;
            ++n;
        }
        some_row_full = some_row_full || n == h.ell_width;
    }
    SPMV_ENSURE_LAYOUT(some_row_full, "hyb: ell_width exceeds the longest row");
    SPMV_ENSURE_LAYOUT(h.coo_row_idxs.size() == h.coo_values.size() &&
                           h.coo_col_idxs.size() == h.coo_values.size(),
                       "hyb: COO arrays differ in length");
    for (std::size_t k = 0; k < h.coo_values.size(); ++k) {
        const auto r = h.coo_row_idxs[k];
        const auto c = h.coo_col_idxs[k];
        const auto entry = std::to_string(k);
        SPMV_ENSURE_LAYOUT(r >= 0 && r < h.num_rows,
                           "hyb: COO row index out of range at entry " + entry);
        SPMV_ENSURE_LAYOUT(c >= 0 && c < h.num_cols,
                           "hyb: COO column index out of range at entry " + entry);
        SPMV_ENSURE_LAYOUT(k == 0 || h.coo_row_idxs[k - 1] < r ||
                               (h.coo_row_idxs[k - 1] == r && h.coo_col_idxs[k - 1] < c),
                           "hyb: COO entries not strictly increasing by (row, column) at entry " +
                               entry);
        SPMV_ENSURE_LAYOUT(ell_len[static_cast<std::size_t>(r)] == h.ell_width,
                           "hyb: COO entry " + entry + " in a row whose ELL part is not full");
        SPMV_ENSURE_LAYOUT(c > last_col[static_cast<std::size_t>(r)],
                           "hyb: COO entry " + entry + " does not come after its row's ELL part");
    }
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Hyb<ValueType, IndexType>& h)
{
    const auto ell = std::count_if(h.ell_col_idxs.begin(), h.ell_col_idxs.end(),
                                   [](IndexType c) { return c != padding_index<IndexType>; });
    return static_cast<std::int64_t>(ell) + static_cast<std::int64_t>(h.coo_values.size());
}

template <typename ValueType, typename IndexType>
Footprint footprint(const Hyb<ValueType, IndexType>& h)
{
    Footprint f;
    const auto coo = h.coo_values.size();
    const auto ell_real = std::size_t(nnz(h)) - coo;
    const auto ell_padding = h.ell_values.size() - ell_real;
    f.stored_entries = static_cast<std::int64_t>(h.ell_values.size() + coo);
    f.padding_entries = static_cast<std::int64_t>(ell_padding);
    f.value_bytes = (ell_real + coo) * sizeof(ValueType);
    // ELL: one column index per real entry; COO: a row and a column index per entry.
    f.index_bytes = (ell_real + 2 * coo) * sizeof(IndexType);
    f.padding_bytes = ell_padding * (sizeof(ValueType) + sizeof(IndexType));
    return f;
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Hyb<ValueType, IndexType>& h)
{
    ThreadWork w;
    if (h.ell_width > 0) {  // ELL kernel: one thread per row, K trips each
        for (IndexType i = 0; i < h.num_rows; ++i) {
            std::int64_t useful = 0;
            for (IndexType j = 0; j < h.ell_width; ++j) {
                const auto slot = std::size_t(j) * std::size_t(h.stride) + i;
                useful += h.ell_col_idxs[slot] != padding_index<IndexType> ? 1 : 0;
            }
            w.iterations.push_back(h.ell_width);
            w.useful.push_back(useful);
            w.stored.push_back(h.ell_width);
        }
    }
    w.iterations.insert(w.iterations.end(), h.coo_values.size(), 1);  // COO kernel
    w.useful.insert(w.useful.end(), h.coo_values.size(), 1);
    w.stored.insert(w.stored.end(), h.coo_values.size(), 1);
    return w;
}

template <typename ValueType, typename IndexType>
void spmv_reference(const Hyb<ValueType, IndexType>& h, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder)
{
    check_spmv_dims(h.num_rows, h.num_cols, x.size(), y.size());
    for (IndexType i = 0; i < h.num_rows; ++i) {  // ELL kernel: one thread per row
        ValueType sum{0};
        for (IndexType j = 0; j < h.ell_width; ++j) {
            const auto slot = std::size_t(j) * std::size_t(h.stride) + i;
            const auto c = h.ell_col_idxs[slot];
            // padding holds value 0; skip the x load only because index -1 is invalid here
            sum += h.ell_values[slot] * (c == padding_index<IndexType> ? ValueType{0} : x[c]);
        }
        y[i] = beta == ValueType{0} ? alpha * sum : alpha * sum + beta * y[i];
    }
    for (std::size_t k = 0; k < h.coo_values.size(); ++k) {  // COO kernel: one thread per entry
        y[h.coo_row_idxs[k]] += alpha * (h.coo_values[k] * x[h.coo_col_idxs[k]]);
    }
}

#define SPMV_INSTANTIATE_HYB(V, I)                                                          \
    template Hyb<V, I> to_hyb<V, I>(const Csr<V, I>&, const HybOptions&);                  \
    template Csr<V, I> to_csr<V, I>(const Hyb<V, I>&);                                     \
    template void validate<V, I>(const Hyb<V, I>&);                                        \
    template std::int64_t nnz<V, I>(const Hyb<V, I>&);                                     \
    template Footprint footprint<V, I>(const Hyb<V, I>&);                                  \
    template ThreadWork thread_work<V, I>(const Hyb<V, I>&);                               \
    template void spmv_reference<V, I>(const Hyb<V, I>&, V, std::span<const V>, V,         \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_HYB(float, std::int32_t)
SPMV_INSTANTIATE_HYB(double, std::int32_t)
template std::int32_t hyb_auto_width<std::int32_t>(std::span<const std::int32_t>);

}  // namespace spmv
