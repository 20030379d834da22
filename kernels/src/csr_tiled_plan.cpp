// csr_tiled's row structure (spmv/gpu/csr_tiled.hpp): plain C++, built with and without CUDA,
// tested on the host (tests/kernels/test_csr_tiled_plan.cpp).
#include <climits>
#include <cstdint>
#include <string>

#include <spmv/error.hpp>
#include <spmv/gpu/csr_tiled.hpp>

namespace spmv::gpu {

CsrTiledPlan plan_csr_tiled(std::span<const std::int32_t> row_ptrs, const CsrTiledConfig& config)
{
    const int steps = config.steps > 0 ? config.steps : csr_tiled_default_steps;
    SPMV_EXPECTS(steps == 2 || steps == 4 || steps == 8,
                 "csr_tiled: steps must be 0 (the default, 4), 2, 4 or 8, not " +
                     std::to_string(config.steps));
    SPMV_EXPECTS(!row_ptrs.empty() && row_ptrs.front() == 0,
                 "csr_tiled: row_ptrs must start at 0");
    CsrTiledPlan p;
    p.steps = steps;
    p.chunk_nnz = 32 * steps;
    const std::int32_t K = p.chunk_nnz;
    const auto num_rows = static_cast<std::int32_t>(row_ptrs.size() - 1);
    const std::int64_t nnz = row_ptrs.back();
    // The kernel computes a chunk's offsets 32 S c in int32, up to one chunk past the end.
    SPMV_EXPECTS(nnz <= std::int64_t{INT32_MAX} - K,
                 "csr_tiled: too many nonzeros for 32-bit chunk offsets (" + std::to_string(nnz) +
                     ")");
    p.num_chunks = static_cast<std::int32_t>((nnz + K - 1) / K);
    const auto words = static_cast<std::size_t>(steps + 1);
    p.chunk_row.assign(static_cast<std::size_t>(p.num_chunks), 0);
    p.starts.assign(static_cast<std::size_t>(p.num_chunks) * words, 0u);
    const auto set_bit = [&](std::int32_t chunk, std::int32_t q) {  // q in [0, K]
        p.starts[static_cast<std::size_t>(chunk) * words + static_cast<std::size_t>(q / 32)] |=
            1u << (q % 32);
    };
    std::int32_t j = 0;  // the non-empty rows so far
    for (std::int32_t r = 0; r < num_rows; ++r) {
        const std::int32_t b = row_ptrs[static_cast<std::size_t>(r)];
        const std::int32_t e = row_ptrs[static_cast<std::size_t>(r) + 1];
        SPMV_EXPECTS(e >= b, "csr_tiled: row_ptrs decrease at row " + std::to_string(r));
        if (e == b) {
            p.empty_rows.push_back(r);
            continue;
        }
        const std::int32_t c = b / K;
        set_bit(c, b - c * K);
        if (b == c * K && c > 0) {  // also the end of chunk c - 1 (its bit K)
            set_bit(c - 1, K);
        }
        for (std::int32_t k = (b + K - 1) / K; k * std::int64_t{K} < e; ++k) {
            p.chunk_row[static_cast<std::size_t>(k)] = j;
        }
        const std::int32_t last = (e - 1) / K;
        if (last != c) {
            const CsrTiledCut cut{r, c, last, 0};
            (last - c + 1 <= csr_tiled_thread_pieces ? p.cut : p.long_cut).push_back(cut);
        }
        ++j;
    }
    if (p.num_chunks > 0) {  // the end of the last row
        const std::int32_t last = p.num_chunks - 1;
        set_bit(last, static_cast<std::int32_t>(nnz - std::int64_t{last} * K));
    }
    if (!p.empty_rows.empty() && j > 0) {
        p.rows.reserve(static_cast<std::size_t>(j));
        for (std::int32_t r = 0; r < num_rows; ++r) {
            if (row_ptrs[static_cast<std::size_t>(r) + 1] > row_ptrs[static_cast<std::size_t>(r)]) {
                p.rows.push_back(r);
            }
        }
    }
    return p;
}

}  // namespace spmv::gpu
