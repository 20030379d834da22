#include <spmv/formats/biell.hpp>

#include <string>

#include <spmv/error.hpp>

#include "bisection_layout.hpp"

namespace spmv {

template <typename ValueType, typename IndexType>
BiEll<ValueType, IndexType> to_biell(const Csr<ValueType, IndexType>& a,
                                     const BiEllOptions& options)
{
    const std::int64_t w = options.warp_size;
    SPMV_EXPECTS(w >= 1, "BiELL warp_size must be at least 1, got " + std::to_string(w));
    // sort inside each warp of W consecutive rows, longest first (stable)
    const auto len = row_lengths(a);
    std::vector<IndexType> perm;
    perm.reserve(len.size());
    for (std::int64_t first = 0; first < a.num_rows; first += w) {
        const auto count = static_cast<std::size_t>(std::min<std::int64_t>(w, a.num_rows - first));
        const auto local = sort_by_length_desc(
            std::span<const IndexType>(len).subspan(static_cast<std::size_t>(first), count));
        for (auto r : local) {
            perm.push_back(static_cast<IndexType>(first + r));
        }
    }
    BiEll<ValueType, IndexType> f;
    detail::bisection::fill(f, a, std::move(perm), w, "BiELL");
    return f;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const BiEll<ValueType, IndexType>& f)
{
    return detail::bisection::to_csr(f);
}

template <typename ValueType, typename IndexType>
void validate(const BiEll<ValueType, IndexType>& f)
{
    detail::bisection::validate(f, false, "biell");
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const BiEll<ValueType, IndexType>& f)
{
    return detail::bisection::nnz(f);
}

template <typename ValueType, typename IndexType>
Footprint footprint(const BiEll<ValueType, IndexType>& f)
{
    return detail::bisection::footprint(f);
}

template <typename ValueType, typename IndexType>
std::vector<IndexType> group_widths(const BiEll<ValueType, IndexType>& f)
{
    return detail::bisection::group_widths(f);
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const BiEll<ValueType, IndexType>& f)
{
    return detail::bisection::thread_work(f);
}

template <typename ValueType, typename IndexType>
void spmv_reference(const BiEll<ValueType, IndexType>& f, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    detail::bisection::spmv_reference(f, alpha, x, beta, y, order);
}

#define SPMV_INSTANTIATE_BIELL(V, I)                                                        \
    template BiEll<V, I> to_biell<V, I>(const Csr<V, I>&, const BiEllOptions&);             \
    template Csr<V, I> to_csr<V, I>(const BiEll<V, I>&);                                   \
    template void validate<V, I>(const BiEll<V, I>&);                                      \
    template std::int64_t nnz<V, I>(const BiEll<V, I>&);                                   \
    template Footprint footprint<V, I>(const BiEll<V, I>&);                                \
    template std::vector<I> group_widths<V, I>(const BiEll<V, I>&);                        \
    template ThreadWork thread_work<V, I>(const BiEll<V, I>&);                             \
    template void spmv_reference<V, I>(const BiEll<V, I>&, V, std::span<const V>, V,       \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_BIELL(float, std::int32_t)
SPMV_INSTANTIATE_BIELL(double, std::int32_t)

}  // namespace spmv
