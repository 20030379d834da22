#pragma once
/// The memory footprint a format WOULD have, computed from the row lengths alone (and the sorts
/// the format does on them), without allocating the format. It equals
/// footprint(build<double>(format, a, params)) exactly (tests/analysis/test_estimate.cpp checks
/// it for every registered format on the test zoo), so a caller can decide before building
/// whether a layout fits in memory: ELLPACK of a power-law matrix with one row of 10^5 entries
/// and 10^6 rows would need 10^11 slots, 1.1 TiB in double precision.
///
/// Canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2), double/int32:
///   ell   4 x 3 = 12 slots, 3 padding: 72 + 36 + 3*12 = 144 bytes
///   ellg  pitch 128 B: stride 32, 96 slots, 87 padding: 72 + 36 + 16 + 1044 = 1168 bytes
///   pjds  b_r = 2: blocks of lengths {3,3} {2,1}: 6 + 4 = 10 slots, 1 padding,
///         aux = row_perm 4 + row_lengths 4 + col_start 4 ints = 48: 72 + 36 + 48 + 12 = 168
///   hyb   K = 2: 8 ELL slots (1 padding) + 2 COO entries: 72 + (7 + 2*2)*4 + 12 = 128 bytes
/// Cost: O(N log N) for the sorted formats, O(N) for the others; memory O(N).
#include <cstdint>
#include <string_view>

#include <spmv/formats/csr.hpp>
#include <spmv/registry.hpp>
#include <spmv/types.hpp>

namespace spmv::analysis {

/// Footprint of registry format `format` built from `a` with `params` (double values, 32-bit
/// indices), without building it. Throws InvalidArgument for an unknown format, for a format
/// without a closed form here, or for parameters the builder would reject (e.g. diag_pad < 1).
Footprint estimate_footprint(const Csr<double, std::int32_t>& a, std::string_view format,
                             const FormatParams& params);

/// True when estimate_footprint knows `format`.
bool has_footprint_estimate(std::string_view format);

}  // namespace spmv::analysis
