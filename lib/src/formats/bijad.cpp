#include <spmv/formats/bijad.hpp>

#include <string>

#include <spmv/error.hpp>

#include "bisection_layout.hpp"

namespace spmv {

template <typename ValueType, typename IndexType>
BiJad<ValueType, IndexType> to_bijad(const Csr<ValueType, IndexType>& a,
                                     const BiJadOptions& options)
{
    const std::int64_t w = options.warp_size;
    SPMV_EXPECTS(w >= 1, "BiJAD warp_size must be at least 1, got " + std::to_string(w));
    // sort all rows, longest first (stable), as JDS does; warps are consecutive sorted rows
    const auto len = row_lengths(a);
    BiJad<ValueType, IndexType> f;
    detail::bisection::fill(f, a, sort_by_length_desc(std::span<const IndexType>(len)), w,
                            "BiJAD");
    return f;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const BiJad<ValueType, IndexType>& f)
{
    return detail::bisection::to_csr(f);
}

template <typename ValueType, typename IndexType>
void validate(const BiJad<ValueType, IndexType>& f)
{
    detail::bisection::validate(f, true, "bijad");
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const BiJad<ValueType, IndexType>& f)
{
    return detail::bisection::nnz(f);
}

template <typename ValueType, typename IndexType>
Footprint footprint(const BiJad<ValueType, IndexType>& f)
{
    return detail::bisection::footprint(f);
}

template <typename ValueType, typename IndexType>
std::vector<IndexType> group_widths(const BiJad<ValueType, IndexType>& f)
{
    return detail::bisection::group_widths(f);
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const BiJad<ValueType, IndexType>& f)
{
    return detail::bisection::thread_work(f);
}

template <typename ValueType, typename IndexType>
void spmv_reference(const BiJad<ValueType, IndexType>& f, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    detail::bisection::spmv_reference(f, alpha, x, beta, y, order);
}

#define SPMV_INSTANTIATE_BIJAD(V, I)                                                        \
    template BiJad<V, I> to_bijad<V, I>(const Csr<V, I>&, const BiJadOptions&);             \
    template Csr<V, I> to_csr<V, I>(const BiJad<V, I>&);                                   \
    template void validate<V, I>(const BiJad<V, I>&);                                      \
    template std::int64_t nnz<V, I>(const BiJad<V, I>&);                                   \
    template Footprint footprint<V, I>(const BiJad<V, I>&);                                \
    template std::vector<I> group_widths<V, I>(const BiJad<V, I>&);                        \
    template ThreadWork thread_work<V, I>(const BiJad<V, I>&);                             \
    template void spmv_reference<V, I>(const BiJad<V, I>&, V, std::span<const V>, V,       \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_BIJAD(float, std::int32_t)
SPMV_INSTANTIATE_BIJAD(double, std::int32_t)

}  // namespace spmv
