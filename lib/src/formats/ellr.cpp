#include <spmv/formats/ellr.hpp>

#include "ellr_layout.hpp"

namespace spmv {

template <typename ValueType, typename IndexType>
EllR<ValueType, IndexType> to_ellr(const Csr<ValueType, IndexType>& a, const EllROptions&)
{
    EllR<ValueType, IndexType> e;
    detail::fill_ellr(e, a, std::int64_t{a.num_rows}, "ELLPACK-R");
    return e;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const EllR<ValueType, IndexType>& e)
{
    return detail::ellr_to_csr(e);
}

template <typename ValueType, typename IndexType>
void validate(const EllR<ValueType, IndexType>& e)
{
    detail::validate_ellr(e, std::int64_t{e.num_rows}, "ellr");
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const EllR<ValueType, IndexType>& e)
{
    return detail::sum_of_row_lengths(e);
}

template <typename ValueType, typename IndexType>
Footprint footprint(const EllR<ValueType, IndexType>& e)
{
    return detail::ellr_footprint(e);
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const EllR<ValueType, IndexType>& e)
{
    return detail::ellr_thread_work(e);
}

template <typename ValueType, typename IndexType>
void spmv_reference(const EllR<ValueType, IndexType>& e, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder)
{
    check_spmv_dims(e.num_rows, e.num_cols, x.size(), y.size());
    for (IndexType i = 0; i < e.num_rows; ++i) {  // one GPU thread per row
        ValueType sum{0};
        const auto rowmax = e.row_lengths[static_cast<std::size_t>(i)];
        for (IndexType j = 0; j < rowmax; ++j) {  // stops at the row length: no padding read
            const auto slot = std::size_t(j) * std::size_t(e.stride) + i;
            sum += e.values[slot] * x[e.col_idxs[slot]];
        }
        y[i] = beta == ValueType{0} ? alpha * sum : alpha * sum + beta * y[i];
    }
}

#define SPMV_INSTANTIATE_ELLR(V, I)                                                         \
    template EllR<V, I> to_ellr<V, I>(const Csr<V, I>&, const EllROptions&);               \
    template Csr<V, I> to_csr<V, I>(const EllR<V, I>&);                                    \
    template void validate<V, I>(const EllR<V, I>&);                                       \
    template std::int64_t nnz<V, I>(const EllR<V, I>&);                                    \
    template Footprint footprint<V, I>(const EllR<V, I>&);                                 \
    template ThreadWork thread_work<V, I>(const EllR<V, I>&);                              \
    template void spmv_reference<V, I>(const EllR<V, I>&, V, std::span<const V>, V,        \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_ELLR(float, std::int32_t)
SPMV_INSTANTIATE_ELLR(double, std::int32_t)

}  // namespace spmv
