#include <spmv/formats/pellr.hpp>

#include <string>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>

namespace spmv {

template <typename ValueType, typename IndexType>
Pellr<ValueType, IndexType> to_pellr(const Csr<ValueType, IndexType>& a, const PellrOptions&)
{
    Pellr<ValueType, IndexType> p;
    p.num_rows = a.num_rows;
    p.num_cols = a.num_cols;
    p.stride = a.num_rows;
    const auto len = row_lengths(a);
    p.row_perm = sort_by_length_desc(std::span<const IndexType>(len));
    for (auto src : p.row_perm) {
        p.row_lengths.push_back(len[static_cast<std::size_t>(src)]);
    }
    p.width = p.row_lengths.empty() ? 0 : p.row_lengths.front();
    const auto slots = detail::checked_slots(std::int64_t{p.stride} * p.width,
                                             sizeof(ValueType) + sizeof(IndexType), "PELLR");
    p.col_idxs.assign(static_cast<std::size_t>(slots), padding_index<IndexType>);
    p.values.assign(static_cast<std::size_t>(slots), ValueType{0});
    for (IndexType k = 0; k < p.num_rows; ++k) {
        const auto src = static_cast<std::size_t>(p.row_perm[static_cast<std::size_t>(k)]);
        for (auto e = a.row_ptrs[src]; e < a.row_ptrs[src + 1]; ++e) {
            const auto slot =
                std::size_t(e - a.row_ptrs[src]) * std::size_t(p.stride) + std::size_t(k);
            p.col_idxs[slot] = a.col_idxs[static_cast<std::size_t>(e)];
            p.values[slot] = a.values[static_cast<std::size_t>(e)];
        }
    }
    return p;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Pellr<ValueType, IndexType>& p)
{
    Csr<ValueType, IndexType> a;
    a.num_rows = p.num_rows;
    a.num_cols = p.num_cols;
    a.row_ptrs.assign(static_cast<std::size_t>(p.num_rows) + 1, 0);
    for (std::size_t k = 0; k < p.row_perm.size(); ++k) {
        a.row_ptrs[static_cast<std::size_t>(p.row_perm[k]) + 1] = p.row_lengths[k];
    }
    for (std::size_t i = 0; i + 1 < a.row_ptrs.size(); ++i) {
        a.row_ptrs[i + 1] += a.row_ptrs[i];
    }
    a.col_idxs.resize(static_cast<std::size_t>(a.row_ptrs.back()));
    a.values.resize(static_cast<std::size_t>(a.row_ptrs.back()));
    for (std::size_t k = 0; k < p.row_perm.size(); ++k) {
        auto dst = static_cast<std::size_t>(a.row_ptrs[static_cast<std::size_t>(p.row_perm[k])]);
        for (IndexType j = 0; j < p.row_lengths[k]; ++j, ++dst) {
            const auto slot = std::size_t(j) * std::size_t(p.stride) + k;
            a.col_idxs[dst] = p.col_idxs[slot];
            a.values[dst] = p.values[slot];
        }
    }
    return a;
}

template <typename ValueType, typename IndexType>
void validate(const Pellr<ValueType, IndexType>& p)
{
    SPMV_ENSURE_LAYOUT(p.num_rows >= 0 && p.num_cols >= 0 && p.width >= 0,
                       "pellr: negative dimension");
    SPMV_ENSURE_LAYOUT(p.stride >= p.num_rows, "pellr: stride smaller than num_rows");
    validate_permutation(std::span<const IndexType>(p.row_perm), p.num_rows, "pellr: row_perm");
    SPMV_ENSURE_LAYOUT(p.row_lengths.size() == static_cast<std::size_t>(p.num_rows),
                       "pellr: row_lengths (rl) must have num_rows entries");
    for (std::size_t k = 0; k < p.row_lengths.size(); ++k) {
        SPMV_ENSURE_LAYOUT(
            p.row_lengths[k] >= 0 && (k == 0 || p.row_lengths[k] <= p.row_lengths[k - 1]),
            "pellr: row_lengths not sorted non-increasing at sorted row " + std::to_string(k));
    }
    SPMV_ENSURE_LAYOUT(p.width == (p.row_lengths.empty() ? 0 : p.row_lengths.front()),
                       "pellr: width must be the longest row");
    const auto slots = std::size_t(p.stride) * std::size_t(p.width);
    SPMV_ENSURE_LAYOUT(p.col_idxs.size() == slots && p.values.size() == slots,
                       "pellr: arrays must hold stride * width slots");
    for (IndexType k = 0; k < p.stride; ++k) {
        const auto len = k < p.num_rows ? p.row_lengths[static_cast<std::size_t>(k)] : IndexType{0};
        IndexType prev = -1;
        for (IndexType j = 0; j < p.width; ++j) {
            const auto slot = std::size_t(j) * std::size_t(p.stride) + std::size_t(k);
            const auto c = p.col_idxs[slot];
            if (j >= len) {
                SPMV_ENSURE_LAYOUT(c == padding_index<IndexType> && p.values[slot] == ValueType{0},
                                   "pellr: slot past the length of sorted row " +
                                       std::to_string(k) + " must hold padding_index and value 0");
                continue;
            }
            SPMV_ENSURE_LAYOUT(c >= 0 && c < p.num_cols,
                               "pellr: column index out of range in sorted row " +
                                   std::to_string(k));
            SPMV_ENSURE_LAYOUT(c > prev,
                               "pellr: columns not increasing in sorted row " + std::to_string(k));
            prev = c;
        }
    }
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Pellr<ValueType, IndexType>& p)
{
    std::int64_t n = 0;
    for (auto len : p.row_lengths) {
        n += len;
    }
    return n;
}

template <typename ValueType, typename IndexType>
Footprint footprint(const Pellr<ValueType, IndexType>& p)
{
    Footprint f;
    const auto real = nnz(p);
    f.stored_entries = static_cast<std::int64_t>(p.values.size());
    f.padding_entries = f.stored_entries - real;
    f.value_bytes = static_cast<std::size_t>(real) * sizeof(ValueType);
    f.index_bytes = static_cast<std::size_t>(real) * sizeof(IndexType);
    f.aux_bytes = (p.row_perm.size() + p.row_lengths.size()) * sizeof(IndexType);
    f.padding_bytes = static_cast<std::size_t>(f.padding_entries) *
                      (sizeof(ValueType) + sizeof(IndexType));
    return f;
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Pellr<ValueType, IndexType>& p)
{
    ThreadWork w;
    for (auto len : p.row_lengths) {
        w.iterations.push_back(len);
        w.useful.push_back(len);
        w.stored.push_back(p.width);
    }
    return w;
}

template <typename ValueType, typename IndexType>
void spmv_reference(const Pellr<ValueType, IndexType>& p, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    check_spmv_dims(p.num_rows, p.num_cols, x.size(), y.size());
    for (IndexType k = 0; k < p.num_rows; ++k) {  // one GPU thread per sorted row
        ValueType sum{0};
        for (IndexType j = 0; j < p.row_lengths[static_cast<std::size_t>(k)]; ++j) {  // rl[k]
            const auto slot = std::size_t(j) * std::size_t(p.stride) + std::size_t(k);
            sum += p.values[slot] * x[static_cast<std::size_t>(p.col_idxs[slot])];
        }
        auto& out = y[static_cast<std::size_t>(
            order == RowOrder::permuted ? k : p.row_perm[static_cast<std::size_t>(k)])];
        out = beta == ValueType{0} ? alpha * sum : alpha * sum + beta * out;
    }
}

#define SPMV_INSTANTIATE_PELLR(V, I)                                                        \
    template Pellr<V, I> to_pellr<V, I>(const Csr<V, I>&, const PellrOptions&);            \
    template Csr<V, I> to_csr<V, I>(const Pellr<V, I>&);                                   \
    template void validate<V, I>(const Pellr<V, I>&);                                      \
    template std::int64_t nnz<V, I>(const Pellr<V, I>&);                                   \
    template Footprint footprint<V, I>(const Pellr<V, I>&);                                \
    template ThreadWork thread_work<V, I>(const Pellr<V, I>&);                             \
    template void spmv_reference<V, I>(const Pellr<V, I>&, V, std::span<const V>, V,       \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_PELLR(float, std::int32_t)
SPMV_INSTANTIATE_PELLR(double, std::int32_t)

}  // namespace spmv
