// The footprint estimate's engine (spmv/analysis/estimate.hpp): resolves the parameters, takes
// the row lengths once and asks the format's registry entry (its story file) for the rest.
#include <spmv/analysis/estimate.hpp>

#include <string>
#include <vector>

#include <spmv/error.hpp>

namespace spmv::analysis {

bool has_footprint_estimate(std::string_view format)
{
    const auto* f = find_format_or_null(format);
    return f != nullptr && f->estimate != nullptr;
}

Footprint estimate_footprint(const Csr<double, std::int32_t>& a, std::string_view format,
                             const FormatParams& given)
{
    // InvalidArgument for an unknown name; sigma = auto resolved as the builder resolves it
    const FormatParams params = resolve_params(format, a, given);
    const auto& info = find_format(format);
    if (info.estimate == nullptr) {
        SPMV_THROW(InvalidArgument,
                   "no footprint estimate for format '" + std::string(format) + "'");
    }
    const auto len = row_lengths(a);
    RowLengthProfile rows;
    rows.num_rows = a.num_rows;
    rows.num_cols = a.num_cols;
    rows.nnz = nnz(a);
    rows.lengths = len;
    rows.row_ptrs = a.row_ptrs;
    return info.estimate(rows, params);
}

}  // namespace spmv::analysis
