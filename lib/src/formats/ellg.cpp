#include <spmv/formats/ellg.hpp>

#include <limits>
#include <numeric>
#include <string>

#include "ellr_layout.hpp"

namespace spmv {

std::int64_t ellg_alignment(int pitch_bytes, std::size_t value_size, std::size_t index_size)
{
    SPMV_EXPECTS(pitch_bytes > 0, "ELLG pitch_bytes must be positive, got " +
                                      std::to_string(pitch_bytes));
    const auto pitch = static_cast<std::int64_t>(pitch_bytes);
    // rows after which a column of each array ends on the pitch; both arrays: their lcm
    const auto values = pitch / std::gcd(pitch, static_cast<std::int64_t>(value_size));
    const auto indices = pitch / std::gcd(pitch, static_cast<std::int64_t>(index_size));
    return std::lcm(values, indices);
}

std::int64_t ellg_stride(std::int64_t num_rows, int pitch_bytes, std::size_t value_size,
                         std::size_t index_size)
{
    const auto align = ellg_alignment(pitch_bytes, value_size, index_size);
    return (num_rows + align - 1) / align * align;
}

template <typename ValueType, typename IndexType>
EllG<ValueType, IndexType> to_ellg(const Csr<ValueType, IndexType>& a, const EllGOptions& opts)
{
    const auto stride = ellg_stride(a.num_rows, opts.pitch_bytes, sizeof(ValueType), sizeof(IndexType));
    SPMV_EXPECTS(stride <= std::numeric_limits<IndexType>::max(),
                 "ELLG stride " + std::to_string(stride) + " exceeds the index type");
    EllG<ValueType, IndexType> e;
    e.pitch_bytes = opts.pitch_bytes;
    detail::fill_ellr(e, a, stride, "ELLG");
    return e;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const EllG<ValueType, IndexType>& e)
{
    return detail::ellr_to_csr(e);
}

template <typename ValueType, typename IndexType>
void validate(const EllG<ValueType, IndexType>& e)
{
    SPMV_ENSURE_LAYOUT(e.pitch_bytes > 0, "ellg: pitch_bytes must be positive");
    SPMV_ENSURE_LAYOUT(e.num_rows >= 0, "ellg: negative dimension");
    detail::validate_ellr(e, ellg_stride(e.num_rows, e.pitch_bytes, sizeof(ValueType), sizeof(IndexType)),
                          "ellg");
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const EllG<ValueType, IndexType>& e)
{
    return detail::sum_of_row_lengths(e);
}

template <typename ValueType, typename IndexType>
Footprint footprint(const EllG<ValueType, IndexType>& e)
{
    return detail::ellr_footprint(e);
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const EllG<ValueType, IndexType>& e)
{
    return detail::ellr_thread_work(e);
}

template <typename ValueType, typename IndexType>
void spmv_reference(const EllG<ValueType, IndexType>& e, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder)
{
    check_spmv_dims(e.num_rows, e.num_cols, x.size(), y.size());
    const auto pitch = std::size_t(e.stride);  // the kernel's `pitch` argument, in elements
    for (IndexType i = 0; i < e.num_rows; ++i) {  // one GPU thread per row
        ValueType y_prod{0};
        const auto row_size = e.row_lengths[static_cast<std::size_t>(i)];
        std::size_t p = std::size_t(i);  // rP += i; cM += i;
        for (IndexType j = 0; j < row_size / 2; ++j) {
            const IndexType pointers[2] = {e.col_idxs[p], e.col_idxs[p + pitch]};
            const ValueType fetches[2] = {x[pointers[0]], x[pointers[1]]};
            const ValueType values[2] = {e.values[p], e.values[p + pitch]};
            p += 2 * pitch;
            y_prod += values[0] * fetches[0];
            y_prod += values[1] * fetches[1];
        }
        if (row_size % 2 != 0) {  // odd row size
            y_prod += e.values[p] * x[e.col_idxs[p]];
        }
        y[i] = beta == ValueType{0} ? alpha * y_prod : beta * y[i] + alpha * y_prod;
    }
}

#define SPMV_INSTANTIATE_ELLG(V, I)                                                         \
    template EllG<V, I> to_ellg<V, I>(const Csr<V, I>&, const EllGOptions&);               \
    template Csr<V, I> to_csr<V, I>(const EllG<V, I>&);                                    \
    template void validate<V, I>(const EllG<V, I>&);                                       \
    template std::int64_t nnz<V, I>(const EllG<V, I>&);                                    \
    template Footprint footprint<V, I>(const EllG<V, I>&);                                 \
    template ThreadWork thread_work<V, I>(const EllG<V, I>&);                              \
    template void spmv_reference<V, I>(const EllG<V, I>&, V, std::span<const V>, V,        \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_ELLG(float, std::int32_t)
SPMV_INSTANTIATE_ELLG(double, std::int32_t)

}  // namespace spmv
