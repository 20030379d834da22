#include <spmv/formats/ell.hpp>

#include <algorithm>
#include <string>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>

namespace spmv {

template <typename ValueType, typename IndexType>
Ell<ValueType, IndexType> to_ell(const Csr<ValueType, IndexType>& a, const EllOptions&)
{
    Ell<ValueType, IndexType> e;
    e.num_rows = a.num_rows;
    e.num_cols = a.num_cols;
    e.stride = a.num_rows;
    const auto len = row_lengths(a);
    e.width = len.empty() ? 0 : *std::max_element(len.begin(), len.end());
    const auto slots = detail::checked_slots(std::int64_t{e.stride} * e.width,
                                             sizeof(ValueType) + sizeof(IndexType), "ELLPACK");
    e.col_idxs.assign(static_cast<std::size_t>(slots), padding_index<IndexType>);
    e.values.assign(static_cast<std::size_t>(slots), ValueType{0});
    for (IndexType i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            const auto slot = std::size_t(k - a.row_ptrs[i]) * e.stride + i;
            e.col_idxs[slot] = a.col_idxs[k];
            e.values[slot] = a.values[k];
        }
    }
    return e;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Ell<ValueType, IndexType>& e)
{
    Csr<ValueType, IndexType> a;
    a.num_rows = e.num_rows;
    a.num_cols = e.num_cols;
    a.row_ptrs.assign(1, 0);
    for (IndexType i = 0; i < e.num_rows; ++i) {
        for (IndexType j = 0; j < e.width; ++j) {
            const auto slot = std::size_t(j) * e.stride + i;
            if (e.col_idxs[slot] == padding_index<IndexType>) {
                break;
            }
            a.col_idxs.push_back(e.col_idxs[slot]);
            a.values.push_back(e.values[slot]);
        }
        a.row_ptrs.push_back(static_cast<IndexType>(a.values.size()));
    }
    return a;
}

template <typename ValueType, typename IndexType>
void validate(const Ell<ValueType, IndexType>& e)
{
    SPMV_ENSURE_LAYOUT(e.num_rows >= 0 && e.num_cols >= 0 && e.width >= 0,
                       "ell: negative dimension");
    SPMV_ENSURE_LAYOUT(e.stride >= e.num_rows, "ell: stride smaller than num_rows");
    const auto slots = std::size_t(e.stride) * e.width;
    SPMV_ENSURE_LAYOUT(e.col_idxs.size() == slots && e.values.size() == slots,
                       "ell: arrays must hold stride * width slots");
    for (IndexType i = 0; i < e.num_rows; ++i) {
        bool in_padding = false;
        IndexType prev = -1;
        for (IndexType j = 0; j < e.width; ++j) {
            const auto slot = std::size_t(j) * e.stride + i;
            const auto c = e.col_idxs[slot];
            if (c == padding_index<IndexType>) {
                in_padding = true;
                SPMV_ENSURE_LAYOUT(e.values[slot] == ValueType{0},
                                   "ell: padding slot with a nonzero value in row " +
                                       std::to_string(i));
                continue;
            }
            SPMV_ENSURE_LAYOUT(!in_padding, "ell: real entry after padding in row " +
                                                std::to_string(i));
            SPMV_ENSURE_LAYOUT(c >= 0 && c < e.num_cols,
                               "ell: column index out of range in row " + std::to_string(i));
            SPMV_ENSURE_LAYOUT(c > prev,
                               "ell: columns not increasing in row " + std::to_string(i));
            prev = c;
        }
    }
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Ell<ValueType, IndexType>& e)
{
    return std::count_if(e.col_idxs.begin(), e.col_idxs.end(),
                         [](IndexType c) { return c != padding_index<IndexType>; });
}

template <typename ValueType, typename IndexType>
Footprint footprint(const Ell<ValueType, IndexType>& e)
{
    Footprint f;
    const auto real = nnz(e);
    f.stored_entries = static_cast<std::int64_t>(e.values.size());
    f.padding_entries = f.stored_entries - real;
    f.value_bytes = std::size_t(real) * sizeof(ValueType);
    f.index_bytes = std::size_t(real) * sizeof(IndexType);
    f.padding_bytes = std::size_t(f.padding_entries) * (sizeof(ValueType) + sizeof(IndexType));
    return f;
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Ell<ValueType, IndexType>& e)
{
    ThreadWork w;
    const auto csr = to_csr(e);
    for (auto len : row_lengths(csr)) {
        w.iterations.push_back(e.width);
        w.useful.push_back(len);
        w.stored.push_back(e.width);
    }
    return w;
}

template <typename ValueType, typename IndexType>
void spmv_reference(const Ell<ValueType, IndexType>& e, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder)
{
    check_spmv_dims(e.num_rows, e.num_cols, x.size(), y.size());
    for (IndexType i = 0; i < e.num_rows; ++i) {  // one GPU thread per row
        ValueType sum{0};
        for (IndexType j = 0; j < e.width; ++j) {
            const auto slot = std::size_t(j) * e.stride + i;
            const auto c = e.col_idxs[slot];
            // Padding holds value 0: the GPU multiplies it with any valid x entry; here we
            // skip the load of x because index -1 is not a valid address on the host.
            sum += e.values[slot] * (c == padding_index<IndexType> ? ValueType{0} : x[c]);
        }
        y[i] = beta == ValueType{0} ? alpha * sum : alpha * sum + beta * y[i];
    }
}

#define SPMV_INSTANTIATE_ELL(V, I)                                                          \
    template Ell<V, I> to_ell<V, I>(const Csr<V, I>&, const EllOptions&);                  \
    template Csr<V, I> to_csr<V, I>(const Ell<V, I>&);                                     \
    template void validate<V, I>(const Ell<V, I>&);                                        \
    template std::int64_t nnz<V, I>(const Ell<V, I>&);                                     \
    template Footprint footprint<V, I>(const Ell<V, I>&);                                  \
    template ThreadWork thread_work<V, I>(const Ell<V, I>&);                               \
    template void spmv_reference<V, I>(const Ell<V, I>&, V, std::span<const V>, V,         \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_ELL(float, std::int32_t)
SPMV_INSTANTIATE_ELL(double, std::int32_t)

}  // namespace spmv
