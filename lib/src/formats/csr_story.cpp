// CSR's story (story.hpp): its registry entry, footprint, construction and the model of its five
// GPU kernels (scalar, vector, merge path, adaptive, nonzero-tiled).
#include <cmath>

#include "story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams&)
{
    return padded(rows.nnz, rows.nnz, rows.num_rows + 1);  // row_ptrs
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    const auto& csr = built_as<Csr<double, I>>(src);
    c.steps.push_back(jagged_step(*src.a, src.max_len, w, &csr, ""));
}

void scalar(ShapeContext& c, KernelShape& s)  // csr_spmv_scalar_kernel: one thread per row
{
    const auto& p = c.identity_pass();
    from_pass(s, p);
    s.matrix_sector_factor = p.matrix_sectors / (12.0 * static_cast<double>(c.nnz) / 32.0);
}

void vector(ShapeContext& c, KernelShape& s)  // csr_spmv_vector_kernel: tpr lanes per row
{
    const int tpr = csr_vector_threads_per_row(c.mean);
    const std::int64_t per_warp = warp / tpr;
    const auto [dp, sp] = c.row_group_pass(per_warp);  // x: the warp's rows
    set_x(s, dp, sp);
    std::int64_t trips = 0, crit = 0;
    for (std::int64_t first = 0; first < c.n; first += per_warp) {
        std::int64_t m = 0;
        for (std::int64_t r = first; r < std::min(c.n, first + per_warp); ++r) {
            m = std::max(m, ceil_div(c.lens[static_cast<std::size_t>(r)], tpr));
        }
        trips += m;
        crit = std::max(crit, m);
    }
    // warp_trips counts the trips that load; the shuffle sum (log2 tpr steps) loads nothing and
    // is on the latency path only, as the split kernels' combine (kernel_shape.hpp). Counted as
    // trips, it made CSR vector on short rows look issue-bound: metis_copter2 in single
    // precision, 8.43 us predicted against 7.10 measured on an H200
    // (docs/benchmarks/model_shuffle_2026-11-30).
    s.warp_trips = trips;
    s.critical_trips = crit + static_cast<std::int64_t>(std::log2(tpr));
}

// csr_merge's defaults (kernels/include/spmv/gpu/csr_merge.hpp): blocks of 128 threads, 6 items
// per thread in DP, 12 in SP; a block's warps load its tile strided (item tid + s x 128), so the
// x sectors are counted per tile
constexpr std::int64_t merge_block = 128, merge_ipt_dp = 6, merge_ipt_sp = 12;

void merge(ShapeContext& c, KernelShape& s)  // merge path: 128 threads x items per thread
{
    const auto [dp, sp] = c.merge_pass(merge_block * merge_ipt_dp, merge_block * merge_ipt_sp);
    set_x(s, dp, sp);
    s.row_info_bytes = 8.0 * static_cast<double>(c.n + 1);  // the search and the row ends
    s.critical_trips = 6 + 7;  // items per thread (DP), then the block-wide scan
    s.warp_trips = ceil_div(c.nnz + c.n, warp);  // one trip per item step of 32 lanes
}

void adaptive(ShapeContext& c, KernelShape& s)  // blocks of 256 threads per planned row group
{
    // x per block step: the 256 threads read 256 consecutive nonzeros of their group at once
    // (the plan's groups hold 256 to 2048; a chunk of 256 is the step every group makes)
    const auto [dp, sp] = c.chunk_pass(256);
    set_x(s, dp, sp);
    s.critical_trips =
        std::max<std::int64_t>(4, ceil_div(std::min<std::int64_t>(c.max_len, 2048), 256)) + 8;
    s.launches = c.max_len > 2048 ? 2 : 1;
    s.warp_trips = ceil_div(c.nnz, warp) + c.n;  // loads, then each row summed by a warp step
    s.row_info_bytes += 4.0 * static_cast<double>(ceil_div(c.nnz, 1024));
}

// csr_tiled's default (kernels/include/spmv/gpu/csr_tiled.hpp): S = 4 steps of 32 nonzeros per
// warp, chunks of 128
constexpr std::int64_t tiled_steps = 4, tiled_chunk = 32 * tiled_steps;

void tiled(ShapeContext& c, KernelShape& s)  // a warp per chunk of 128 nonzeros, then the fix-up
{
    const auto [dp, sp] = c.chunk_pass(tiled_chunk);  // x: the warp's chunk
    set_x(s, dp, sp);
    const std::int64_t chunks = ceil_div(c.nnz, tiled_chunk);
    // the plan: S + 1 start words and the first row per chunk; the cut rows' list (16 bytes)
    // and their pieces (written, then read: about one cut row per chunk)
    s.row_info_bytes = static_cast<double>(chunks) * (4.0 * (tiled_steps + 1) + 4.0 + 16.0);
    s.temp_value_traffic = 2.0 * static_cast<double>(chunks);
    s.launches = 2;
    s.warp_trips = chunks * tiled_steps;
    // S steps, the segmented scan, then the fix-up: a cut row's pieces in chunk order, four
    // loads in flight (up to 32 pieces), a block of 256 striding over a longer row's
    const std::int64_t pieces = ceil_div(c.max_len, tiled_chunk) + 1;
    s.critical_trips = tiled_steps + 5 +
                       (pieces <= 32 ? ceil_div(pieces, 4)
                                     : ceil_div(pieces, 256) + 8);
}

const VariantRule rules[] = {
    {{"csr", "csr", false,
      "CSR scalar (PELLR 2.2); MAGMA's csrmv scalar, Ginkgo Csr 'classical' with 1 thread per row"},
     scalar},
    {{"csr_vector", "csr", false, "CSR vector; Ginkgo Csr 'classical', CUSP csr_vector"}, vector},
    {{"csr_merge", "csr", false,
      "CSR merge-path (Merrill & Garland); cuSPARSE CSR_ALG1's load balancing, Ginkgo Csr "
      "'merge_path', CUB DeviceSpmv"},
     merge},
    {{"csr_adaptive", "csr", false,
      "CSR-adaptive (Greathouse & Daga); Ginkgo Csr 'load_balance', PETSc's cuSPARSE CSR"},
     adaptive},
    {{"csr_tiled", "csr", false,
      "CSR nonzero-tiled (ours): a warp per 128 nonzeros, row starts from a host plan; "
      "cuSPARSE COO ALG1's and CSR-stream's kind of balance, deterministic"},
     tiled},
};

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo csr_entry()
{
    return {.name = "csr",
            .title = "CSR",
            .description = "compressed sparse rows: row_ptrs, col_idxs, values",
            .source = "PELLR §2.2",
            .params = {},
            .permuted = false,
            SPMV_BUILDERS(a),
            .estimate = story::estimate,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); }};
}

}  // namespace spmv::detail
