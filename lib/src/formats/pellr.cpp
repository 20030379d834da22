#include <spmv/formats/pellr.hpp>

#include <string>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>

#include "sorted_layout.hpp"

namespace spmv {
namespace {

/// Column j of the N x width rectangle starts at j * stride.
template <typename ValueType, typename IndexType>
auto column_offsets(const Pellr<ValueType, IndexType>& p)
{
    return [stride = static_cast<std::size_t>(p.stride)](std::size_t j) { return j * stride; };
}

}  // namespace

template <typename ValueType, typename IndexType>
Pellr<ValueType, IndexType> to_pellr(const Csr<ValueType, IndexType>& a, const PellrOptions&)
{
    Pellr<ValueType, IndexType> p;
    p.num_rows = a.num_rows;
    p.num_cols = a.num_cols;
    p.stride = a.num_rows;
    detail::sorted::sort_rows(p, a, static_cast<std::size_t>(a.num_rows));
    p.width = p.row_lengths.empty() ? 0 : p.row_lengths.front();
    const auto slots = detail::checked_slots(std::int64_t{p.stride} * p.width,
                                             sizeof(ValueType) + sizeof(IndexType), "PELLR");
    detail::sorted::scatter_rows(p, a, slots, column_offsets(p));
    return p;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Pellr<ValueType, IndexType>& p)
{
    return detail::sorted::to_csr(p, column_offsets(p));
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
    detail::sorted::validate_sorted_lengths(p, "pellr");
    SPMV_ENSURE_LAYOUT(p.width == (p.row_lengths.empty() ? 0 : p.row_lengths.front()),
                       "pellr: width must be the longest row");
    const auto slots = std::size_t(p.stride) * std::size_t(p.width);
    SPMV_ENSURE_LAYOUT(p.col_idxs.size() == slots && p.values.size() == slots,
                       "pellr: arrays must hold stride * width slots");
    // rows [num_rows, stride) have length 0: all their slots are padding
    detail::sorted::validate_rows(
        p, p.stride, [&](std::size_t) { return p.width; }, column_offsets(p), "pellr");
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Pellr<ValueType, IndexType>& p)
{
    return detail::sum_of_row_lengths(p);
}

template <typename ValueType, typename IndexType>
Footprint footprint(const Pellr<ValueType, IndexType>& p)
{
    return detail::sorted::footprint(p, p.row_perm.size() + p.row_lengths.size());
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Pellr<ValueType, IndexType>& p)
{
    return detail::sorted::thread_work(p, [&](std::size_t) { return p.width; });
}

template <typename ValueType, typename IndexType>
void spmv_reference(const Pellr<ValueType, IndexType>& p, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    // the ELLPACK-R loop over the sorted rows: thread k stops at rl[k]
    detail::sorted::spmv_reference(p, column_offsets(p), alpha, x, beta, y, order);
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
