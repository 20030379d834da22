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

// to_csr, validate, nnz, footprint, group_widths, thread_work, spmv_reference: shared with
// BiJAD (bisection.hpp), defined in bisection_layout.hpp.
template BiEll<float, std::int32_t> to_biell(const Csr<float, std::int32_t>&,
                                             const BiEllOptions&);
template BiEll<double, std::int32_t> to_biell(const Csr<double, std::int32_t>&,
                                              const BiEllOptions&);
SPMV_INSTANTIATE_BISECTION(float, std::int32_t, detail::BiEllRowSort)
SPMV_INSTANTIATE_BISECTION(double, std::int32_t, detail::BiEllRowSort)

}  // namespace spmv
