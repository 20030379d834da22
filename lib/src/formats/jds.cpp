#include <spmv/formats/jds.hpp>

#include <string>

#include <spmv/error.hpp>

namespace spmv {

template <typename ValueType, typename IndexType>
Jds<ValueType, IndexType> to_jds(const Csr<ValueType, IndexType>& a, const JdsOptions&)
{
    Jds<ValueType, IndexType> j;
    j.num_rows = a.num_rows;
    j.num_cols = a.num_cols;
    const auto len = row_lengths(a);
    j.row_perm = sort_by_length_desc(std::span<const IndexType>(len));
    const IndexType num_diags = len.empty() ? 0 : len[static_cast<std::size_t>(j.row_perm[0])];
    j.col_idxs.reserve(a.col_idxs.size());
    j.values.reserve(a.values.size());
    for (IndexType d = 0; d < num_diags; ++d) {
        // sorted rows with more than d entries form a prefix of row_perm
        for (auto src : j.row_perm) {
            if (len[static_cast<std::size_t>(src)] <= d) {
                break;
            }
            const auto k = a.row_ptrs[static_cast<std::size_t>(src)] + d;
            j.col_idxs.push_back(a.col_idxs[static_cast<std::size_t>(k)]);
            j.values.push_back(a.values[static_cast<std::size_t>(k)]);
        }
        j.jd_ptrs.push_back(static_cast<IndexType>(j.values.size()));
    }
    return j;
}

namespace {

/// Entries of sorted row k: the number of diagonals longer than k.
template <typename IndexType>
std::vector<IndexType> sorted_lengths(const std::vector<IndexType>& jd_ptrs, IndexType num_rows)
{
    std::vector<IndexType> len(static_cast<std::size_t>(num_rows), 0);
    for (std::size_t d = 0; d + 1 < jd_ptrs.size(); ++d) {
        for (auto r = 0; r < jd_ptrs[d + 1] - jd_ptrs[d]; ++r) {
            ++len[static_cast<std::size_t>(r)];
        }
    }
    return len;
}

}  // namespace

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Jds<ValueType, IndexType>& j)
{
    const auto len = sorted_lengths(j.jd_ptrs, j.num_rows);
    Csr<ValueType, IndexType> a;
    a.num_rows = j.num_rows;
    a.num_cols = j.num_cols;
    a.row_ptrs.assign(static_cast<std::size_t>(j.num_rows) + 1, 0);
    for (std::size_t k = 0; k < len.size(); ++k) {
        a.row_ptrs[static_cast<std::size_t>(j.row_perm[k]) + 1] = len[k];
    }
    for (std::size_t i = 0; i < len.size(); ++i) {
        a.row_ptrs[i + 1] += a.row_ptrs[i];
    }
    a.col_idxs.resize(j.col_idxs.size());
    a.values.resize(j.values.size());
    for (std::size_t d = 0; d + 1 < j.jd_ptrs.size(); ++d) {
        for (auto s = j.jd_ptrs[d]; s < j.jd_ptrs[d + 1]; ++s) {
            const auto row = j.row_perm[static_cast<std::size_t>(s - j.jd_ptrs[d])];
            const auto dst =
                static_cast<std::size_t>(a.row_ptrs[static_cast<std::size_t>(row)]) + d;
            a.col_idxs[dst] = j.col_idxs[static_cast<std::size_t>(s)];
            a.values[dst] = j.values[static_cast<std::size_t>(s)];
        }
    }
    return a;
}

template <typename ValueType, typename IndexType>
void validate(const Jds<ValueType, IndexType>& j)
{
    SPMV_ENSURE_LAYOUT(j.num_rows >= 0 && j.num_cols >= 0, "jds: negative dimension");
    validate_permutation(std::span<const IndexType>(j.row_perm), j.num_rows, "jds: row_perm");
    SPMV_ENSURE_LAYOUT(!j.jd_ptrs.empty() && j.jd_ptrs.front() == 0,
                       "jds: jd_ptrs must start with 0");
    SPMV_ENSURE_LAYOUT(j.col_idxs.size() == j.values.size(),
                       "jds: col_idxs and values differ in length");
    SPMV_ENSURE_LAYOUT(static_cast<std::size_t>(j.jd_ptrs.back()) == j.values.size(),
                       "jds: jd_ptrs[num_diags] must equal the number of entries");
    for (std::size_t d = 0; d + 1 < j.jd_ptrs.size(); ++d) {
        const auto n = j.jd_ptrs[d + 1] - j.jd_ptrs[d];
        SPMV_ENSURE_LAYOUT(n >= 1 && n <= j.num_rows,
                           "jds: diagonal " + std::to_string(d) + " has " + std::to_string(n) +
                               " entries, outside [1, num_rows]");
        SPMV_ENSURE_LAYOUT(d == 0 || n <= j.jd_ptrs[d] - j.jd_ptrs[d - 1],
                           "jds: diagonal " + std::to_string(d) +
                               " is longer than the one before (rows not sorted by length)");
    }
    for (std::size_t d = 0; d + 1 < j.jd_ptrs.size(); ++d) {
        for (auto s = j.jd_ptrs[d]; s < j.jd_ptrs[d + 1]; ++s) {
            const auto c = j.col_idxs[static_cast<std::size_t>(s)];
            const auto r = s - j.jd_ptrs[d];
            SPMV_ENSURE_LAYOUT(c >= 0 && c < j.num_cols,
                               "jds: column index out of range in diagonal " + std::to_string(d));
            SPMV_ENSURE_LAYOUT(
                d == 0 || j.col_idxs[static_cast<std::size_t>(j.jd_ptrs[d - 1] + r)] < c,
                "jds: columns not strictly increasing in sorted row " + std::to_string(r));
        }
    }
}

template <typename ValueType, typename IndexType>
Footprint footprint(const Jds<ValueType, IndexType>& j)
{
    Footprint f;
    f.stored_entries = nnz(j);
    f.value_bytes = j.values.size() * sizeof(ValueType);
    f.index_bytes = j.col_idxs.size() * sizeof(IndexType);
    f.aux_bytes = (j.row_perm.size() + j.jd_ptrs.size()) * sizeof(IndexType);
    return f;
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Jds<ValueType, IndexType>& j)
{
    return ThreadWork::one_per_entry(j.values.size());
}

template <typename ValueType, typename IndexType>
void spmv_reference(const Jds<ValueType, IndexType>& j, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    check_spmv_dims(j.num_rows, j.num_cols, x.size(), y.size());
    std::vector<ValueType> y_temp(static_cast<std::size_t>(j.num_rows), ValueType{0});
    for (std::size_t d = 0; d + 1 < j.jd_ptrs.size(); ++d) {  // one launch per diagonal
        for (auto s = j.jd_ptrs[d]; s < j.jd_ptrs[d + 1]; ++s) {  // one thread per nonzero
            const auto r = static_cast<std::size_t>(s - j.jd_ptrs[d]);
            y_temp[r] += j.values[static_cast<std::size_t>(s)] *
                         x[static_cast<std::size_t>(j.col_idxs[static_cast<std::size_t>(s)])];
        }
    }
    for (std::size_t r = 0; r < y_temp.size(); ++r) {
        auto& out = y[order == RowOrder::permuted ? r : static_cast<std::size_t>(j.row_perm[r])];
        out = beta == ValueType{0} ? alpha * y_temp[r] : alpha * y_temp[r] + beta * out;
    }
}

#define SPMV_INSTANTIATE_JDS(V, I)                                                          \
    template Jds<V, I> to_jds<V, I>(const Csr<V, I>&, const JdsOptions&);                  \
    template Csr<V, I> to_csr<V, I>(const Jds<V, I>&);                                     \
    template void validate<V, I>(const Jds<V, I>&);                                        \
    template Footprint footprint<V, I>(const Jds<V, I>&);                                  \
    template ThreadWork thread_work<V, I>(const Jds<V, I>&);                               \
    template void spmv_reference<V, I>(const Jds<V, I>&, V, std::span<const V>, V,         \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_JDS(float, std::int32_t)
SPMV_INSTANTIATE_JDS(double, std::int32_t)

}  // namespace spmv
