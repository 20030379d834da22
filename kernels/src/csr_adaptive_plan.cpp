// csr_adaptive's row partition (spmv/gpu/csr_adaptive.hpp): plain C++, built with and without
// CUDA, tested on the host (tests/kernels/test_csr_adaptive_plan.cpp).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include <spmv/error.hpp>
#include <spmv/gpu/csr_adaptive.hpp>

namespace spmv::gpu {

CsrAdaptivePlan plan_csr_adaptive(std::span<const std::int32_t> row_ptrs,
                                  const CsrAdaptiveConfig& config, int multiprocessors)
{
    const int s = config.stream_nnz;
    SPMV_EXPECTS(s == 0 || s == 256 || s == 512 || s == 1024,
                 "csr_adaptive: stream_nnz must be 0 (automatic), 256, 512 or 1024, not " +
                     std::to_string(s));
    SPMV_EXPECTS(config.serial >= 1,
                 "csr_adaptive: serial must be at least 1, not " + std::to_string(config.serial));
    SPMV_EXPECTS(config.piece_nnz >= csr_adaptive_block &&
                     config.piece_nnz <= 8 * csr_adaptive_block &&
                     config.piece_nnz % csr_adaptive_block == 0,
                 "csr_adaptive: piece_nnz must be a multiple of 256 in [256, 2048], not " +
                     std::to_string(config.piece_nnz));
    SPMV_EXPECTS(!row_ptrs.empty() && row_ptrs.front() == 0,
                 "csr_adaptive: row_ptrs must start at 0");
    const auto num_rows = static_cast<std::int32_t>(row_ptrs.size() - 1);
    const std::int64_t nnz = row_ptrs.back();
    // The kernel indexes nonzeros in int32 up to one round (8 x 256) past a group's end.
    SPMV_EXPECTS(nnz <= std::int64_t{INT32_MAX} - 8 * csr_adaptive_block,
                 "csr_adaptive: too many nonzeros for 32-bit indices (" + std::to_string(nnz) + ")");

    CsrAdaptivePlan p;
    p.serial = config.serial;
    p.piece_nnz = config.piece_nnz;
    if (s > 0) {
        p.stream_nnz = s;
    } else {  // about two groups per multiprocessor, with whole-warp loads at least
        const std::int64_t per_group = nnz / (2 * std::max<std::int64_t>(multiprocessors, 1));
        p.stream_nnz = per_group <= 256 ? 256 : per_group <= 512 ? 512 : 1024;
    }
    // A row longer than this never fits a stream group: it gets a row group or pieces.
    const std::int64_t stream_row_limit =
        std::min<std::int64_t>(p.stream_nnz, std::int64_t{p.serial} * 32);
    const auto len = [&](std::int32_t r) {
        const auto i = static_cast<std::size_t>(r);
        SPMV_EXPECTS(row_ptrs[i + 1] >= row_ptrs[i],
                     "csr_adaptive: row_ptrs decrease at row " + std::to_string(r));
        return std::int64_t{row_ptrs[i + 1]} - row_ptrs[i];
    };
    const auto push = [&](std::int32_t row_entry, std::int64_t first_nnz) {
        p.group_row.push_back(row_entry);
        p.group_nnz.push_back(static_cast<std::int32_t>(first_nnz));
    };

    std::int32_t r = 0;
    while (r < num_rows) {
        const std::int64_t first = row_ptrs[static_cast<std::size_t>(r)];
        const std::int64_t l = len(r);
        if (l > stream_row_limit) {
            if (l <= p.piece_nnz) {
                push(r, first);  // a row group
            } else {
                for (std::int64_t q = 0; q < l; q += p.piece_nnz) {
                    push(~r, first + q);
                }
            }
            ++r;
            continue;
        }
        // A stream group: as many rows as keep it within stream_nnz nonzeros, 255 rows and
        // `serial` products per thread in the row sums (tpr threads per row).
        std::int64_t m = 0;
        std::int64_t longest = 0;
        int k = 0;
        const std::int32_t start = r;
        while (r < num_rows && k < csr_adaptive_max_rows) {
            const std::int64_t lr = len(r);
            if (lr > stream_row_limit) {
                break;
            }
            const std::int64_t longest2 = std::max(longest, lr);
            if (m + lr > p.stream_nnz ||
                longest2 > std::int64_t{p.serial} * csr_adaptive_threads_per_row(k + 1)) {
                break;
            }
            m += lr;
            longest = longest2;
            ++k;
            ++r;
        }
        push(start, first);  // k >= 1: a row within stream_row_limit always fits alone
    }
    push(num_rows, nnz);
    return p;
}

}  // namespace spmv::gpu
