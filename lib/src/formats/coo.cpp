#include <spmv/formats/coo.hpp>

#include <string>

#include <spmv/error.hpp>

namespace spmv {

template <typename ValueType, typename IndexType>
Coo<ValueType, IndexType> to_coo(const Csr<ValueType, IndexType>& a, const CooOptions&)
{
    Coo<ValueType, IndexType> c;
    c.num_rows = a.num_rows;
    c.num_cols = a.num_cols;
    c.row_idxs.reserve(a.values.size());
    for (IndexType i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            c.row_idxs.push_back(i);
        }
    }
    c.col_idxs = a.col_idxs;
    c.values = a.values;
    return c;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Coo<ValueType, IndexType>& c)
{
    Csr<ValueType, IndexType> a;
    a.num_rows = c.num_rows;
    a.num_cols = c.num_cols;
    a.row_ptrs.assign(static_cast<std::size_t>(c.num_rows) + 1, 0);
    for (auto r : c.row_idxs) {
        ++a.row_ptrs[static_cast<std::size_t>(r) + 1];
    }
    for (std::size_t i = 1; i < a.row_ptrs.size(); ++i) {
        a.row_ptrs[i] += a.row_ptrs[i - 1];
    }
    a.col_idxs = c.col_idxs;  // sorted by (row, column): already in CSR order
    a.values = c.values;
    return a;
}

template <typename ValueType, typename IndexType>
void validate(const Coo<ValueType, IndexType>& c)
{
    SPMV_ENSURE_LAYOUT(c.num_rows >= 0 && c.num_cols >= 0, "coo: negative dimension");
    SPMV_ENSURE_LAYOUT(c.row_idxs.size() == c.values.size() && c.col_idxs.size() == c.values.size(),
                       "coo: row_idxs, col_idxs and values differ in length");
    for (std::size_t k = 0; k < c.values.size(); ++k) {
        const auto r = c.row_idxs[k];
        const auto col = c.col_idxs[k];
        SPMV_ENSURE_LAYOUT(r >= 0 && r < c.num_rows,
                           "coo: row index out of range at entry " + std::to_string(k));
        SPMV_ENSURE_LAYOUT(col >= 0 && col < c.num_cols,
                           "coo: column index out of range at entry " + std::to_string(k));
        SPMV_ENSURE_LAYOUT(k == 0 || c.row_idxs[k - 1] < r ||
                               (c.row_idxs[k - 1] == r && c.col_idxs[k - 1] < col),
                           "coo: entries not strictly increasing by (row, column) at entry " +
                               std::to_string(k));
    }
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Coo<ValueType, IndexType>& c)
{
    return static_cast<std::int64_t>(c.values.size());
}

template <typename ValueType, typename IndexType>
Footprint footprint(const Coo<ValueType, IndexType>& c)
{
    Footprint f;
    f.stored_entries = nnz(c);
    f.value_bytes = c.values.size() * sizeof(ValueType);
    f.index_bytes = (c.row_idxs.size() + c.col_idxs.size()) * sizeof(IndexType);
    return f;
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Coo<ValueType, IndexType>& c)
{
    return ThreadWork::one_per_entry(c.values.size());
}

template <typename ValueType, typename IndexType>
void spmv_reference(const Coo<ValueType, IndexType>& c, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder)
{
    check_spmv_dims(c.num_rows, c.num_cols, x.size(), y.size());
    for (auto& yi : y) {
        yi = beta == ValueType{0} ? ValueType{0} : beta * yi;
    }
    for (std::size_t k = 0; k < c.values.size(); ++k) {  // one GPU thread per nonzero
        // on the GPU: atomicAdd(&y[row], alpha * value * x[col]) (or a segmented reduction)
        y[c.row_idxs[k]] += alpha * (c.values[k] * x[c.col_idxs[k]]);
    }
}

#define SPMV_INSTANTIATE_COO(V, I)                                                          \
    template Coo<V, I> to_coo<V, I>(const Csr<V, I>&, const CooOptions&);                  \
    template Csr<V, I> to_csr<V, I>(const Coo<V, I>&);                                     \
    template void validate<V, I>(const Coo<V, I>&);                                        \
    template std::int64_t nnz<V, I>(const Coo<V, I>&);                                     \
    template Footprint footprint<V, I>(const Coo<V, I>&);                                  \
    template ThreadWork thread_work<V, I>(const Coo<V, I>&);                               \
    template void spmv_reference<V, I>(const Coo<V, I>&, V, std::span<const V>, V,         \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_COO(float, std::int32_t)
SPMV_INSTANTIATE_COO(double, std::int32_t)

}  // namespace spmv
