#include <spmv/formats/jds_csr.hpp>

#include <algorithm>
#include <string>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>

namespace spmv {
namespace {

std::int64_t round_up(std::int64_t n, std::int64_t multiple)
{
    return (n + multiple - 1) / multiple * multiple;
}

/// Real entries of diagonal d: the sorted rows longer than d (a prefix of the sorted rows).
template <typename IndexType>
IndexType diagonal_length(const std::vector<IndexType>& nz_count, IndexType d)
{
    const auto it = std::partition_point(nz_count.begin(), nz_count.end(),
                                         [d](IndexType len) { return len > d; });
    return static_cast<IndexType>(it - nz_count.begin());
}

}  // namespace

template <typename ValueType, typename IndexType>
JdsCsr<ValueType, IndexType> to_jds_csr(const Csr<ValueType, IndexType>& a,
                                        const JdsCsrOptions& opts)
{
    SPMV_EXPECTS(opts.diag_pad >= 1, "JDS CSR-like: diag_pad must be at least 1");
    JdsCsr<ValueType, IndexType> j;
    j.num_rows = a.num_rows;
    j.num_cols = a.num_cols;
    j.diag_pad = static_cast<IndexType>(opts.diag_pad);
    const auto len = row_lengths(a);
    j.row_perm = sort_by_length_desc(std::span<const IndexType>(len));
    j.nz_count.reserve(len.size());
    for (auto src : j.row_perm) {
        j.nz_count.push_back(len[static_cast<std::size_t>(src)]);
    }
    const IndexType num_diags = j.nz_count.empty() ? 0 : j.nz_count.front();
    std::int64_t slots = 0;
    for (IndexType d = 0; d < num_diags; ++d) {
        slots += round_up(diagonal_length(j.nz_count, d), j.diag_pad);
    }
    slots = detail::checked_slots(slots, sizeof(ValueType) + sizeof(IndexType), "JDS CSR-like");
    j.col_idxs.assign(static_cast<std::size_t>(slots), padding_index<IndexType>);
    j.values.assign(static_cast<std::size_t>(slots), ValueType{0});
    for (IndexType d = 0; d < num_diags; ++d) {
        const auto n = diagonal_length(j.nz_count, d);
        const auto start = j.jd_ptrs.back();
        for (IndexType t = 0; t < n; ++t) {
            const auto k = a.row_ptrs[static_cast<std::size_t>(j.row_perm[t])] + d;
            const auto slot = static_cast<std::size_t>(start + t);
            j.col_idxs[slot] = a.col_idxs[static_cast<std::size_t>(k)];
            j.values[slot] = a.values[static_cast<std::size_t>(k)];
        }
        j.jd_ptrs.push_back(static_cast<IndexType>(start + round_up(n, j.diag_pad)));
    }
    return j;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const JdsCsr<ValueType, IndexType>& j)
{
    Csr<ValueType, IndexType> a;
    a.num_rows = j.num_rows;
    a.num_cols = j.num_cols;
    a.row_ptrs.assign(static_cast<std::size_t>(j.num_rows) + 1, 0);
    for (std::size_t t = 0; t < j.nz_count.size(); ++t) {
        a.row_ptrs[static_cast<std::size_t>(j.row_perm[t]) + 1] = j.nz_count[t];
    }
    for (std::size_t i = 0; i + 1 < a.row_ptrs.size(); ++i) {
        a.row_ptrs[i + 1] += a.row_ptrs[i];
    }
    a.col_idxs.resize(static_cast<std::size_t>(a.row_ptrs.back()));
    a.values.resize(static_cast<std::size_t>(a.row_ptrs.back()));
    for (std::size_t t = 0; t < j.nz_count.size(); ++t) {  // Fig. 3, thread t
        auto dst = static_cast<std::size_t>(a.row_ptrs[static_cast<std::size_t>(j.row_perm[t])]);
        for (IndexType i = 0; i < j.nz_count[t]; ++i, ++dst) {
            const auto s = static_cast<std::size_t>(j.jd_ptrs[static_cast<std::size_t>(i)]) + t;
            a.col_idxs[dst] = j.col_idxs[s];
            a.values[dst] = j.values[s];
        }
    }
    return a;
}

template <typename ValueType, typename IndexType>
void validate(const JdsCsr<ValueType, IndexType>& j)
{
    SPMV_ENSURE_LAYOUT(j.num_rows >= 0 && j.num_cols >= 0, "jds_csr: negative dimension");
    SPMV_ENSURE_LAYOUT(j.diag_pad >= 1, "jds_csr: diag_pad must be at least 1");
    validate_permutation(std::span<const IndexType>(j.row_perm), j.num_rows,
                         "jds_csr: row_perm");
    SPMV_ENSURE_LAYOUT(j.nz_count.size() == static_cast<std::size_t>(j.num_rows),
                       "jds_csr: nz_count must have num_rows entries");
    for (std::size_t t = 0; t < j.nz_count.size(); ++t) {
        SPMV_ENSURE_LAYOUT(j.nz_count[t] >= 0 && (t == 0 || j.nz_count[t] <= j.nz_count[t - 1]),
                           "jds_csr: nz_count not sorted non-increasing at sorted row " +
                               std::to_string(t));
    }
    const IndexType num_diags = j.nz_count.empty() ? 0 : j.nz_count.front();
    SPMV_ENSURE_LAYOUT(j.jd_ptrs.size() == static_cast<std::size_t>(num_diags) + 1,
                       "jds_csr: jd_ptrs must have nz_count[0] + 1 entries");
    SPMV_ENSURE_LAYOUT(j.jd_ptrs.front() == 0, "jds_csr: jd_ptrs must start with 0");
    SPMV_ENSURE_LAYOUT(j.col_idxs.size() == j.values.size(),
                       "jds_csr: col_idxs and values differ in length");
    SPMV_ENSURE_LAYOUT(static_cast<std::size_t>(j.jd_ptrs.back()) == j.values.size(),
                       "jds_csr: jd_ptrs[num_diags] must equal the number of slots");
    for (IndexType d = 0; d < num_diags; ++d) {
        const auto n = diagonal_length(j.nz_count, d);
        SPMV_ENSURE_LAYOUT(j.jd_ptrs[static_cast<std::size_t>(d) + 1] -
                                   j.jd_ptrs[static_cast<std::size_t>(d)] ==
                               round_up(n, j.diag_pad),
                           "jds_csr: diagonal " + std::to_string(d) + " must take round_up(" +
                               std::to_string(n) + ", diag_pad) slots");
    }
    for (IndexType d = 0; d < num_diags; ++d) {
        const auto n = diagonal_length(j.nz_count, d);
        const auto start = j.jd_ptrs[static_cast<std::size_t>(d)];
        for (auto s = start; s < j.jd_ptrs[static_cast<std::size_t>(d) + 1]; ++s) {
            const auto c = j.col_idxs[static_cast<std::size_t>(s)];
            const auto t = s - start;
            if (t >= n) {
                SPMV_ENSURE_LAYOUT(c == padding_index<IndexType> &&
                                       j.values[static_cast<std::size_t>(s)] == ValueType{0},
                                   "jds_csr: padding slot of diagonal " + std::to_string(d) +
                                       " must hold padding_index and value 0");
                continue;
            }
            SPMV_ENSURE_LAYOUT(c >= 0 && c < j.num_cols,
                               "jds_csr: column index out of range in diagonal " +
                                   std::to_string(d));
            SPMV_ENSURE_LAYOUT(
                d == 0 || j.col_idxs[static_cast<std::size_t>(
                              j.jd_ptrs[static_cast<std::size_t>(d) - 1] + t)] < c,
                "jds_csr: columns not strictly increasing in sorted row " + std::to_string(t));
        }
    }
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const JdsCsr<ValueType, IndexType>& j)
{
    std::int64_t n = 0;
    for (auto len : j.nz_count) {
        n += len;
    }
    return n;
}

template <typename ValueType, typename IndexType>
Footprint footprint(const JdsCsr<ValueType, IndexType>& j)
{
    Footprint f;
    const auto real = nnz(j);
    f.stored_entries = static_cast<std::int64_t>(j.values.size());
    f.padding_entries = f.stored_entries - real;
    f.value_bytes = static_cast<std::size_t>(real) * sizeof(ValueType);
    f.index_bytes = static_cast<std::size_t>(real) * sizeof(IndexType);
    f.aux_bytes = (j.row_perm.size() + j.jd_ptrs.size() + j.nz_count.size()) * sizeof(IndexType);
    f.padding_bytes = static_cast<std::size_t>(f.padding_entries) *
                      (sizeof(ValueType) + sizeof(IndexType));
    return f;
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const JdsCsr<ValueType, IndexType>& j)
{
    const auto first = j.jd_ptrs.size() > 1 ? j.jd_ptrs[1] - j.jd_ptrs[0] : IndexType{0};
    const auto threads = static_cast<std::size_t>(std::max(j.num_rows, first));
    ThreadWork w;
    w.iterations.assign(threads, 0);
    w.useful.assign(threads, 0);
    w.stored.assign(threads, 0);
    for (std::size_t t = 0; t < j.nz_count.size(); ++t) {
        w.iterations[t] = w.useful[t] = j.nz_count[t];
    }
    for (std::size_t d = 0; d + 1 < j.jd_ptrs.size(); ++d) {
        // slot r of every diagonal belongs to thread r, real entry or padding
        const auto n = static_cast<std::size_t>(j.jd_ptrs[d + 1] - j.jd_ptrs[d]);
        for (std::size_t r = 0; r < n; ++r) {
            ++w.stored[r];
        }
    }
    return w;
}

template <typename ValueType, typename IndexType>
void spmv_reference(const JdsCsr<ValueType, IndexType>& j, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    check_spmv_dims(j.num_rows, j.num_cols, x.size(), y.size());
    for (IndexType t = 0; t < j.num_rows; ++t) {  // code for GPU thread t
        ValueType mult{0};
        for (IndexType i = 0; i < j.nz_count[static_cast<std::size_t>(t)]; ++i) {
            const auto s = static_cast<std::size_t>(j.jd_ptrs[static_cast<std::size_t>(i)] + t);
            mult += j.values[s] * x[static_cast<std::size_t>(j.col_idxs[s])];
        }
        auto& out = y[static_cast<std::size_t>(
            order == RowOrder::permuted ? t : j.row_perm[static_cast<std::size_t>(t)])];
        out = beta == ValueType{0} ? alpha * mult : alpha * mult + beta * out;
    }
}

#define SPMV_INSTANTIATE_JDS_CSR(V, I)                                                         \
    template JdsCsr<V, I> to_jds_csr<V, I>(const Csr<V, I>&, const JdsCsrOptions&);           \
    template Csr<V, I> to_csr<V, I>(const JdsCsr<V, I>&);                                     \
    template void validate<V, I>(const JdsCsr<V, I>&);                                        \
    template std::int64_t nnz<V, I>(const JdsCsr<V, I>&);                                     \
    template Footprint footprint<V, I>(const JdsCsr<V, I>&);                                  \
    template ThreadWork thread_work<V, I>(const JdsCsr<V, I>&);                               \
    template void spmv_reference<V, I>(const JdsCsr<V, I>&, V, std::span<const V>, V,         \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_JDS_CSR(float, std::int32_t)
SPMV_INSTANTIATE_JDS_CSR(double, std::int32_t)

}  // namespace spmv
