#include <spmv/formats/csc.hpp>

#include <string>

#include <spmv/error.hpp>

namespace spmv {
namespace {

// Counting-sort transpose of compressed storage: `ptrs`/`idxs` over `n_major` major lines
// become pointers over `n_minor` lines. Walking the major lines in order makes the new
// index lists increasing, so CSR -> CSC -> CSR reproduces the input exactly.
template <typename ValueType, typename IndexType>
void transpose_compressed(IndexType n_major, IndexType n_minor, const std::vector<IndexType>& ptrs,
                          const std::vector<IndexType>& idxs, const std::vector<ValueType>& vals,
                          std::vector<IndexType>& out_ptrs, std::vector<IndexType>& out_idxs,
                          std::vector<ValueType>& out_vals)
{
    out_ptrs.assign(static_cast<std::size_t>(n_minor) + 1, 0);
    for (auto m : idxs) {
        ++out_ptrs[static_cast<std::size_t>(m) + 1];
    }
    for (std::size_t j = 1; j < out_ptrs.size(); ++j) {
        out_ptrs[j] += out_ptrs[j - 1];
    }
    out_idxs.assign(idxs.size(), 0);
    out_vals.assign(vals.size(), ValueType{0});
    std::vector<IndexType> next(out_ptrs.begin(), out_ptrs.end() - 1);
    for (IndexType i = 0; i < n_major; ++i) {
        for (auto k = ptrs[i]; k < ptrs[i + 1]; ++k) {
            const auto dst = static_cast<std::size_t>(next[static_cast<std::size_t>(idxs[k])]++);
            out_idxs[dst] = i;
            out_vals[dst] = vals[k];
        }
    }
}

}  // namespace

template <typename ValueType, typename IndexType>
Csc<ValueType, IndexType> to_csc(const Csr<ValueType, IndexType>& a, const CscOptions&)
{
    Csc<ValueType, IndexType> c;
    c.num_rows = a.num_rows;
    c.num_cols = a.num_cols;
    transpose_compressed(a.num_rows, a.num_cols, a.row_ptrs, a.col_idxs, a.values, c.col_ptrs,
                         c.row_idxs, c.values);
    return c;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Csc<ValueType, IndexType>& c)
{
    Csr<ValueType, IndexType> a;
    a.num_rows = c.num_rows;
    a.num_cols = c.num_cols;
    transpose_compressed(c.num_cols, c.num_rows, c.col_ptrs, c.row_idxs, c.values, a.row_ptrs,
                         a.col_idxs, a.values);
    return a;
}

template <typename ValueType, typename IndexType>
void validate(const Csc<ValueType, IndexType>& c)
{
    SPMV_ENSURE_LAYOUT(c.num_rows >= 0 && c.num_cols >= 0, "csc: negative dimension");
    SPMV_ENSURE_LAYOUT(c.col_ptrs.size() == static_cast<std::size_t>(c.num_cols) + 1,
                       "csc: col_ptrs must have num_cols + 1 entries");
    SPMV_ENSURE_LAYOUT(c.col_ptrs.front() == 0, "csc: col_ptrs[0] must be 0");
    SPMV_ENSURE_LAYOUT(c.row_idxs.size() == c.values.size(),
                       "csc: row_idxs and values differ in length");
    SPMV_ENSURE_LAYOUT(static_cast<std::size_t>(c.col_ptrs.back()) == c.values.size(),
                       "csc: col_ptrs[num_cols] must equal the number of entries");
    for (IndexType j = 0; j < c.num_cols; ++j) {
        const auto b = c.col_ptrs[static_cast<std::size_t>(j)];
        const auto e = c.col_ptrs[static_cast<std::size_t>(j) + 1];
        SPMV_ENSURE_LAYOUT(b <= e, "csc: col_ptrs decreases at column " + std::to_string(j));
        SPMV_ENSURE_LAYOUT(e <= c.col_ptrs.back(),
                           "csc: col_ptrs exceeds nnz at column " + std::to_string(j));
        for (auto k = b; k < e; ++k) {
            const auto r = c.row_idxs[static_cast<std::size_t>(k)];
            SPMV_ENSURE_LAYOUT(r >= 0 && r < c.num_rows,
                               "csc: row index out of range in column " + std::to_string(j));
            SPMV_ENSURE_LAYOUT(k == b || c.row_idxs[static_cast<std::size_t>(k) - 1] < r,
                               "csc: rows not strictly increasing in column " + std::to_string(j));
        }
    }
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Csc<ValueType, IndexType>& c)
{
    return static_cast<std::int64_t>(c.values.size());
}

template <typename ValueType, typename IndexType>
Footprint footprint(const Csc<ValueType, IndexType>& c)
{
    Footprint f;
    f.stored_entries = nnz(c);
    f.value_bytes = c.values.size() * sizeof(ValueType);
    f.index_bytes = c.row_idxs.size() * sizeof(IndexType);
    f.aux_bytes = c.col_ptrs.size() * sizeof(IndexType);
    return f;
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Csc<ValueType, IndexType>& c)
{
    ThreadWork w;
    for (std::size_t j = 0; j + 1 < c.col_ptrs.size(); ++j) {
        const std::int64_t len = c.col_ptrs[j + 1] - c.col_ptrs[j];
        w.iterations.push_back(len);
        w.useful.push_back(len);
        w.stored.push_back(len);
    }
    return w;
}

template <typename ValueType, typename IndexType>
void spmv_reference(const Csc<ValueType, IndexType>& c, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder)
{
    check_spmv_dims(c.num_rows, c.num_cols, x.size(), y.size());
    for (auto& yi : y) {
        yi = beta == ValueType{0} ? ValueType{0} : beta * yi;
    }
    for (IndexType j = 0; j < c.num_cols; ++j) {  // one GPU thread per column
        const ValueType ax = alpha * x[j];
        for (auto k = c.col_ptrs[j]; k < c.col_ptrs[j + 1]; ++k) {
            y[c.row_idxs[k]] += c.values[k] * ax;  // atomicAdd on the GPU
        }
    }
}

#define SPMV_INSTANTIATE_CSC(V, I)                                                          \
    template Csc<V, I> to_csc<V, I>(const Csr<V, I>&, const CscOptions&);                  \
    template Csr<V, I> to_csr<V, I>(const Csc<V, I>&);                                     \
    template void validate<V, I>(const Csc<V, I>&);                                        \
    template std::int64_t nnz<V, I>(const Csc<V, I>&);                                     \
    template Footprint footprint<V, I>(const Csc<V, I>&);                                  \
    template ThreadWork thread_work<V, I>(const Csc<V, I>&);                               \
    template void spmv_reference<V, I>(const Csc<V, I>&, V, std::span<const V>, V,         \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_CSC(float, std::int32_t)
SPMV_INSTANTIATE_CSC(double, std::int32_t)

}  // namespace spmv
