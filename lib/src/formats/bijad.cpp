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

// to_csr, validate, nnz, footprint, group_widths, thread_work, spmv_reference: shared with
// BiELL (bisection.hpp), defined in bisection_layout.hpp.
template BiJad<float, std::int32_t> to_bijad(const Csr<float, std::int32_t>&,
                                             const BiJadOptions&);
template BiJad<double, std::int32_t> to_bijad(const Csr<double, std::int32_t>&,
                                              const BiJadOptions&);
SPMV_INSTANTIATE_BISECTION(float, std::int32_t, detail::BiJadRowSort)
SPMV_INSTANTIATE_BISECTION(double, std::int32_t, detail::BiJadRowSort)

}  // namespace spmv
