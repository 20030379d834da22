// The per-format performance model (spmv/model/format_model.hpp): counts per kernel variant,
// restating each kernel's launch geometry from kernels/src/*.cu, and the time they predict.
#include <spmv/model/format_model.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>

#include <spmv/error.hpp>
#include <spmv/formats/ellg.hpp>
#include <spmv/formats/hyb.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/registry.hpp>

namespace spmv::model {
namespace {

constexpr int warp = 32;

// name, format, permuted, equivalent in the libraries users know
constexpr std::array<ModelledVariant, 22> variants_table{{
    {"csr", "csr", false, "CSR scalar (PELLR 2.2); MAGMA's csrmv scalar, Ginkgo Csr 'classical' with 1 thread per row"},
    {"csr_vector", "csr", false, "CSR vector; Ginkgo Csr 'classical', CUSP csr_vector"},
    {"coo", "coo", false, "COO; cuSPARSE COO_ALG1/ALG2, Ginkgo Coo, PETSc MATAIJCUSPARSE has none"},
    {"ell", "ell", false, "ELLPACK; Ginkgo Ell, MAGMA ELL, CUSP ell"},
    {"ellr", "ellr", false, "ELLPACK-R; MAGMA ELLRT (with T = 1)"},
    {"ellg", "ellg", false, "ELLG (Barbieri); nearest: Ginkgo Ell with a padded stride"},
    {"hyb", "hyb", false, "HYB; Ginkgo Hybrid, CUSP hyb (cuSPARSE removed its HYB in CUDA 11)"},
    {"jds", "jds", true, "JDS (Cevahir); no library equivalent on GPUs"},
    {"jds_csr", "jds_csr", true, "JDS CSR-like (Cevahir 3.1); no library equivalent"},
    {"pjds", "pjds", true, "pJDS (Kreutzer); GHOST's SELL-C-sigma with sigma = N is the same idea"},
    {"pellr", "pellr", true, "PELLR (Wang & Gu); nearest: cuSPARSE SELL on sorted rows"},
    {"biell", "biell", false, "BiELL (Zheng et al.); no library equivalent"},
    {"bijad", "bijad", true, "BiJAD (Zheng et al.); no library equivalent"},
    {"sell", "sell", false, "SELL-C-sigma; cuSPARSE SELL (CUSPARSE_SPMV_SELL_ALG1, sigma = 1), Ginkgo Sellp, MAGMA SELL-P, PETSc MATSELLCUDA"},
    {"sell_split", "sell", false, "SELL-C-sigma, wide slices split over warps; nearest: MAGMA SELL-P with T > 1"},
    {"pellr_split", "pellr", true, "PELLR, wide groups split over warps; no library equivalent"},
    {"pjds_split", "pjds", true, "pJDS, wide blocks split over warps; nearest: MAGMA SELL-P with T > 1 on sorted rows"},
    {"csr_merge", "csr", false, "CSR merge-path (Merrill & Garland); cuSPARSE CSR_ALG1's load balancing, Ginkgo Csr 'merge_path', CUB DeviceSpmv"},
    {"ell_xs", "ell", false, "ELLPACK with x in shared memory; no library equivalent"},
    {"sell_xs", "sell", false, "SELL-C-sigma with x in shared memory; no library equivalent"},
    {"sell_i16", "sell", false, "SELL-C-sigma with 16-bit column offsets; no library equivalent"},
    {"csr_adaptive", "csr", false, "CSR-adaptive (Greathouse & Daga); Ginkgo Csr 'load_balance', PETSc's cuSPARSE CSR"},
}};

// Distinct values among n small keys (n <= 32): sort a copy.
int distinct(std::array<std::int64_t, warp>& keys, int n)
{
    std::sort(keys.begin(), keys.begin() + n);
    return static_cast<int>(std::unique(keys.begin(), keys.begin() + n) - keys.begin());
}

// One pass over warps of 32 rows in `order` (empty: identity), each lane looping to its row
// length: x sectors per warp trip in DP and SP, warp trips, the longest trip count; with
// `slot_sectors` the distinct sectors of CSR scalar's values + col_idxs that the warp touches
// over its whole loop (a lane's next slot is usually in the sector L1 already holds).
struct RowPass {
    double x_dp = 0, x_sp = 0;
    std::int64_t warp_trips = 0, critical = 0;
    double matrix_sectors = 0;  // CSR scalar: values (8 B) + col_idxs (4 B) sectors
};

RowPass row_parallel(const Csr<double, std::int32_t>& a, const std::vector<std::int32_t>& order,
                     bool slot_sectors)
{
    RowPass r;
    const auto n = static_cast<std::int64_t>(a.num_rows);
    std::array<std::int64_t, warp> kd{}, ks{};
    std::array<std::int32_t, warp> rows{};
    std::vector<std::int64_t> kv, kc;
    for (std::int64_t first = 0; first < n; first += warp) {
        const int lanes = static_cast<int>(std::min<std::int64_t>(warp, n - first));
        std::int32_t width = 0;
        for (int l = 0; l < lanes; ++l) {
            const auto row = order.empty() ? static_cast<std::int32_t>(first + l)
                                           : order[static_cast<std::size_t>(first + l)];
            rows[static_cast<std::size_t>(l)] = row;
            width = std::max(width, a.row_ptrs[row + 1] - a.row_ptrs[row]);
        }
        r.warp_trips += width;
        r.critical = std::max<std::int64_t>(r.critical, width);
        kv.clear();
        kc.clear();
        for (std::int32_t t = 0; t < width; ++t) {
            int m = 0;
            for (int l = 0; l < lanes; ++l) {
                const auto row = rows[static_cast<std::size_t>(l)];
                const auto slot = a.row_ptrs[row] + t;
                if (slot < a.row_ptrs[row + 1]) {
                    const auto c = a.col_idxs[static_cast<std::size_t>(slot)];
                    kd[static_cast<std::size_t>(m)] = c >> 2;  // 4 doubles per 32-byte sector
                    ks[static_cast<std::size_t>(m)] = c >> 3;  // 8 floats
                    if (slot_sectors) {
                        kv.push_back(static_cast<std::int64_t>(slot) >> 2);
                        kc.push_back(static_cast<std::int64_t>(slot) >> 3);
                    }
                    ++m;
                }
            }
            r.x_dp += distinct(kd, m);
            r.x_sp += distinct(ks, m);
        }
        if (slot_sectors) {
            for (auto* k : {&kv, &kc}) {
                std::sort(k->begin(), k->end());
                r.matrix_sectors += static_cast<double>(std::unique(k->begin(), k->end()) - k->begin());
            }
        }
    }
    return r;
}

// x sectors of kernels whose lanes read consecutive nonzeros: chunks of 32 in CSR order.
std::pair<double, double> nonzero_parallel(const Csr<double, std::int32_t>& a)
{
    std::array<std::int64_t, warp> kd{}, ks{};
    double dp = 0, sp = 0;
    const auto nnz = a.col_idxs.size();
    for (std::size_t first = 0; first < nnz; first += warp) {
        const int m = static_cast<int>(std::min<std::size_t>(warp, nnz - first));
        for (int l = 0; l < m; ++l) {
            const auto c = a.col_idxs[first + static_cast<std::size_t>(l)];
            kd[static_cast<std::size_t>(l)] = c >> 2;
            ks[static_cast<std::size_t>(l)] = c >> 3;
        }
        dp += distinct(kd, m);
        sp += distinct(ks, m);
    }
    return {dp, sp};
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The split kernels' warps per group of 32 rows (kernels/src/split.cuh: the smallest T of
// 1, 2, 4, 8 with ceil(width / T) <= 16).
int split_t(std::int64_t width)
{
    int t = 1;
    while (t < 8 && ceil_div(width, t) > 16) {
        t *= 2;
    }
    return t;
}

// Groups of 32 consecutive rows of `order`: their widths (longest row).
std::vector<std::int64_t> group_widths(const std::vector<std::int32_t>& lens,
                                       const std::vector<std::int32_t>& order)
{
    std::vector<std::int64_t> w;
    const auto n = static_cast<std::int64_t>(lens.size());
    for (std::int64_t first = 0; first < n; first += warp) {
        std::int64_t m = 0;
        for (std::int64_t k = first; k < std::min(n, first + warp); ++k) {
            const auto row = order.empty() ? k : order[static_cast<std::size_t>(k)];
            m = std::max<std::int64_t>(m, lens[static_cast<std::size_t>(row)]);
        }
        w.push_back(m);
    }
    return w;
}

// Rows sorted by length, longest first, stably, inside windows of `sigma` rows (sigma >= N:
// one global sort), as the SELL / pJDS / JDS builders do.
std::vector<std::int32_t> window_sorted(const std::vector<std::int32_t>& lens, std::int64_t sigma)
{
    std::vector<std::int32_t> order(lens.size());
    std::iota(order.begin(), order.end(), 0);
    for (std::size_t first = 0; first < order.size(); first += static_cast<std::size_t>(sigma)) {
        const auto last = std::min(order.size(), first + static_cast<std::size_t>(sigma));
        std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(first),
                         order.begin() + static_cast<std::ptrdiff_t>(last),
                         [&](std::int32_t x, std::int32_t y) {
                             return lens[static_cast<std::size_t>(x)] >
                                    lens[static_cast<std::size_t>(y)];
                         });
    }
    return order;
}

// BiELL's iterations per warp of 32 sorted lengths (formats/biell.hpp's rule, W = 32):
// width_g = max(0, ceil((len(b_g) - cap_{g-1}) / (W / h_g))), h_g = W >> g, b_g = h_{g+1}.
std::int64_t biell_trips(std::span<const std::int32_t> sorted_desc)
{
    const int n = static_cast<int>(sorted_desc.size());
    auto len_at = [&](int k) -> std::int64_t { return k < n ? sorted_desc[static_cast<std::size_t>(k)] : 0; };
    std::int64_t cap = 0, trips = 0;
    for (int g = 0; g <= 5; ++g) {
        const int h = warp >> g;
        const int b = g < 5 ? (warp >> (g + 1)) : 0;
        const std::int64_t lanes = warp / h;
        const std::int64_t need = len_at(b) - cap;
        const std::int64_t w = need > 0 ? ceil_div(need, lanes) : 0;
        cap += lanes * w;
        trips += w;
    }
    return trips;
}

}  // namespace

std::span<const ModelledVariant> modelled_variants() { return variants_table; }

const ModelledVariant* find_modelled_variant(std::string_view name) noexcept
{
    for (const auto& v : variants_table) {
        if (v.name == name) {
            return &v;
        }
    }
    return nullptr;
}

const KernelConstants* FormatModelConstants::find(std::string_view variant) const noexcept
{
    for (const auto& k : kernels) {
        if (k.variant == variant) {
            return &k;
        }
    }
    return nullptr;
}

std::vector<KernelShape> kernel_shapes(const Csr<double, std::int32_t>& a,
                                       const FormatParams& params_in,
                                       std::span<const std::string_view> wanted)
{
    SPMV_EXPECTS(a.num_rows > 0 && !a.col_idxs.empty(),
                 "the format model needs a matrix with rows and nonzeros");
    for (const auto w : wanted) {
        if (find_modelled_variant(w) == nullptr) {
            std::string names;
            for (const auto& v : variants_table) {
                names += names.empty() ? "" : ", ";
                names += v.name;
            }
            SPMV_THROW(InvalidArgument, "no model for GPU variant '" + std::string(w) +
                                  "'; modelled: " + names);
        }
    }
    const auto n = static_cast<std::int64_t>(a.num_rows);
    const auto nnz = static_cast<std::int64_t>(a.col_idxs.size());
    const auto lens = row_lengths(a);
    const std::int64_t max_len = *std::max_element(lens.begin(), lens.end());
    const double mean = static_cast<double>(nnz) / static_cast<double>(n);
    // sigma = auto resolved by SELL's registry entry, as every builder and estimate does
    const FormatParams params = resolve_params("sell", a, params_in);
    const std::int64_t sigma = params.sort_window;

    auto want = [&](std::string_view v) {
        return wanted.empty() || std::find(wanted.begin(), wanted.end(), v) != wanted.end();
    };
    // Passes shared between variants, computed when first needed.
    std::optional<RowPass> ident, global, windowed;
    std::optional<std::pair<double, double>> nzp;
    std::vector<std::int32_t> global_order, window_order;
    auto identity_pass = [&]() -> const RowPass& {
        if (!ident) ident = row_parallel(a, {}, true);
        return *ident;
    };
    auto global_pass = [&]() -> const RowPass& {
        if (!global) {
            global_order = window_sorted(lens, n);
            global = row_parallel(a, global_order, false);
        }
        return *global;
    };
    auto window_pass = [&]() -> const RowPass& {
        if (!windowed) {
            if (sigma <= 1) {
                windowed = identity_pass();
            } else {
                window_order = window_sorted(lens, sigma);
                windowed = row_parallel(a, window_order, false);
            }
        }
        return *windowed;
    };
    auto nonzero_pass = [&]() -> const std::pair<double, double>& {
        if (!nzp) nzp = nonzero_parallel(a);
        return *nzp;
    };

    std::vector<KernelShape> out;
    for (const auto& v : variants_table) {
        if (!want(v.name)) {
            continue;
        }
        KernelShape s;
        s.variant = std::string(v.name);
        s.format = std::string(v.format);
        s.params = params;
        s.permuted = v.permuted;
        s.rows = n;
        s.cols = a.num_cols;
        s.nnz = nnz;
        s.loaded_slots = static_cast<double>(nnz);
        s.stored_slots = static_cast<double>(nnz);
        s.row_info_bytes = 4.0 * static_cast<double>(n + 1);
        auto set_x = [&](double dp, double sp) {
            s.x_sectors_dp = dp;
            s.x_sectors_sp = sp;
        };
        auto from_pass = [&](const RowPass& p) {
            set_x(p.x_dp, p.x_sp);
            s.warp_trips = p.warp_trips;
            s.critical_trips = p.critical;
        };
        const std::string_view name = v.name;
        if (name == "csr") {  // csr_spmv_scalar_kernel: one thread per row
            const auto& p = identity_pass();
            from_pass(p);
            s.matrix_sector_factor = p.matrix_sectors / (12.0 * static_cast<double>(nnz) / 32.0);
        } else if (name == "csr_vector") {  // csr_spmv_vector_kernel: tpr lanes per row
            const int tpr = csr_vector_threads_per_row(mean);
            const auto [dp, sp] = nonzero_pass();
            set_x(dp, sp);
            const std::int64_t per_warp = warp / tpr;
            std::int64_t trips = 0, crit = 0;
            for (std::int64_t first = 0; first < n; first += per_warp) {
                std::int64_t m = 0;
                for (std::int64_t r = first; r < std::min(n, first + per_warp); ++r) {
                    m = std::max(m, ceil_div(lens[static_cast<std::size_t>(r)], tpr));
                }
                trips += m + static_cast<std::int64_t>(std::log2(tpr));  // + the shuffle sum
                crit = std::max(crit, m);
            }
            s.warp_trips = trips;
            s.critical_trips = crit + static_cast<std::int64_t>(std::log2(tpr));
        } else if (name == "coo") {  // coo_spmv_kernel: a warp per 256 nonzeros + carry pass
            const auto [dp, sp] = nonzero_pass();
            set_x(dp, sp);
            s.extra_index_slots = static_cast<double>(nnz);
            s.row_info_bytes = 0;
            s.launches = 2;
            s.warp_trips = ceil_div(nnz, 256) * 8;
            // 8 steps of 32 and the segmented reduction; then the carry pass: the thread owning
            // a row's tail adds the heads of every following chunk of that row, one by one
            s.critical_trips = 8 + 5 + ceil_div(max_len, 256);
        } else if (name == "ell" || name == "ell_xs") {  // one thread per row, every slot
            const auto& p = identity_pass();
            set_x(p.x_dp, p.x_sp);
            s.loaded_slots = s.stored_slots = static_cast<double>(n * max_len);
            s.row_info_bytes = 0;
            s.critical_trips = max_len;
            s.warp_trips = ceil_div(n, warp) * max_len;
            if (name == "ell_xs") {
                s.x_staged = static_cast<double>(ceil_div(n, 128)) * static_cast<double>(a.num_cols);
            }
        } else if (name == "ellr" || name == "ellg") {  // one thread per row, to its length
            from_pass(identity_pass());
            s.row_info_bytes = 4.0 * static_cast<double>(n);
            if (name == "ellg") {  // pitched columns: stride = ellg_stride (32 rows at 128 B)
                s.stored_slots = static_cast<double>(
                    ellg_stride(n, 128, sizeof(double), sizeof(std::int32_t)) * max_len);
            } else {
                s.stored_slots = static_cast<double>(n * max_len);
            }
        } else if (name == "hyb") {  // ELL part of width K (all slots), COO for the rest
            // K as the builder takes it (to_hyb: -1 = the one-third rule), clamped to the
            // longest row as the sweep does (a wider ELL part stores nothing more)
            const std::int64_t k =
                params.hyb_width < 0 ? hyb_auto_width<std::int32_t>(lens)
                                     : std::min<std::int64_t>(params.hyb_width, max_len);
            const auto& p = identity_pass();
            set_x(p.x_dp, p.x_sp);
            std::int64_t beyond = 0, longest_beyond = 0;
            for (const auto l : lens) {
                beyond += std::max<std::int64_t>(0, l - k);
                longest_beyond = std::max<std::int64_t>(longest_beyond, l - k);
            }
            s.loaded_slots = s.stored_slots = static_cast<double>(n * k + beyond);
            s.extra_index_slots = static_cast<double>(beyond);
            s.row_info_bytes = 0;
            s.launches = beyond > 0 ? 3 : 1;
            s.critical_trips = k + (beyond > 0 ? 13 + ceil_div(longest_beyond, 256) : 0);  // COO's carry
            s.warp_trips = ceil_div(n, warp) * k + ceil_div(beyond, 256) * 8;
        } else if (name == "jds") {  // a launch per jagged diagonal into y_temp, then y[perm]
            const auto& p = global_pass();
            set_x(p.x_dp, p.x_sp);
            s.launches = static_cast<int>(std::min<std::int64_t>(max_len + 1, 1 << 30));
            s.critical_trips = max_len;
            std::int64_t trips = 0;  // each diagonal d: ceil(rows with len > d / 32) warps
            std::vector<std::int64_t> count(static_cast<std::size_t>(max_len) + 1, 0);
            for (const auto l : lens) ++count[static_cast<std::size_t>(l)];
            std::int64_t rows_longer = n;
            for (std::int64_t d = 0; d < max_len; ++d) {
                rows_longer -= count[static_cast<std::size_t>(d)];
                trips += ceil_div(rows_longer, warp);
            }
            s.warp_trips = trips;
            s.row_info_bytes = 4.0 * static_cast<double>(n + max_len + 1);
            s.temp_value_traffic = 2.0 * static_cast<double>(nnz) + static_cast<double>(n);
        } else if (name == "jds_csr" || name == "pjds" || name == "pellr" || name == "bijad" ||
                   name == "pjds_split" || name == "pellr_split") {
            const auto& p = global_pass();
            from_pass(p);
            s.row_info_bytes = 8.0 * static_cast<double>(n);  // permutation + lengths
            const auto widths = group_widths(lens, global_order);
            std::int64_t padded = 0;  // the last group holds only the rows left (to_pjds)
            for (std::size_t g = 0; g < widths.size(); ++g) {
                padded += widths[g] * std::min<std::int64_t>(warp, n - static_cast<std::int64_t>(g) * warp);
            }
            s.stored_slots = static_cast<double>(padded);
            if (name == "bijad") {
                std::int64_t trips = 0, crit = 0;
                std::vector<std::int32_t> g;
                for (std::int64_t first = 0; first < n; first += warp) {
                    g.clear();
                    for (std::int64_t k = first; k < std::min(n, first + warp); ++k)
                        g.push_back(lens[static_cast<std::size_t>(global_order[static_cast<std::size_t>(k)])]);
                    const auto t = biell_trips(g);
                    trips += t;
                    crit = std::max(crit, t);
                }
                s.warp_trips = trips;
                s.critical_trips = crit + 5;
                s.loaded_slots = s.stored_slots = static_cast<double>(trips * warp);
            } else if (name == "pjds_split" || name == "pellr_split") {
                std::int64_t trips = 0, crit = 0;
                for (const auto w : widths) {
                    const int t = split_t(w);
                    trips += t * ceil_div(w, t);
                    crit = std::max(crit, ceil_div(w, t) + (t > 1 ? 3 : 0));
                }
                s.warp_trips = trips;
                s.critical_trips = crit;
            }
        } else if (name == "biell") {  // bisection groups inside each warp of 32 rows
            set_x(identity_pass().x_dp, identity_pass().x_sp);
            std::int64_t trips = 0, crit = 0;
            std::vector<std::int32_t> g;
            for (std::int64_t first = 0; first < n; first += warp) {
                g.assign(lens.begin() + first, lens.begin() + std::min(n, first + warp));
                std::sort(g.begin(), g.end(), std::greater<>());
                const auto t = biell_trips(g);
                trips += t;
                crit = std::max(crit, t);
            }
            s.warp_trips = trips;
            s.critical_trips = crit + 5;
            s.loaded_slots = s.stored_slots = static_cast<double>(trips * warp);
            s.row_info_bytes = 4.0 * static_cast<double>(n) + 24.0 * static_cast<double>(ceil_div(n, warp));
        } else if (name == "sell" || name == "sell_split" || name == "sell_xs" ||
                   name == "sell_i16") {  // one thread per row, slices of C rows, all slots
            const auto& p = window_pass();
            set_x(p.x_dp, p.x_sp);
            const std::int64_t c = params.slice_height;
            const auto& order = sigma > 1 ? window_order : std::vector<std::int32_t>{};
            std::int64_t slots = 0, trips = 0, crit = 0, split_trips = 0, split_crit = 0;
            std::int64_t slices = 0;
            bool span_ok = true;
            std::int64_t worst_span = 0, worst_slice = 0;
            for (std::int64_t first = 0; first < n; first += c, ++slices) {
                std::int64_t w = 0, lo = a.num_cols, hi = -1;
                for (std::int64_t k = first; k < std::min(n, first + c); ++k) {
                    const auto row = order.empty() ? k : order[static_cast<std::size_t>(k)];
                    w = std::max<std::int64_t>(w, lens[static_cast<std::size_t>(row)]);
                    if (name == "sell_i16") {
                        for (auto j = a.row_ptrs[row]; j < a.row_ptrs[row + 1]; ++j) {
                            lo = std::min<std::int64_t>(lo, a.col_idxs[static_cast<std::size_t>(j)]);
                            hi = std::max<std::int64_t>(hi, a.col_idxs[static_cast<std::size_t>(j)]);
                        }
                    }
                }
                if (hi - lo > 65535 && hi - lo > worst_span) {
                    span_ok = false;
                    worst_span = hi - lo;
                    worst_slice = slices;
                }
                slots += c * w;
                trips += ceil_div(c, warp) * w;
                crit = std::max(crit, w);
                const int t = c == 32 ? split_t(w) : 1;
                split_trips += t * ceil_div(w, t);
                split_crit = std::max(split_crit, ceil_div(w, t) + (t > 1 ? 3 : 0));
            }
            s.loaded_slots = s.stored_slots = static_cast<double>(slots);
            s.row_info_bytes = 8.0 * static_cast<double>(slices + 1) +
                               (sigma > 1 ? 4.0 * static_cast<double>(n) : 0.0);
            s.warp_trips = trips;
            s.critical_trips = crit;
            if (name == "sell_split" && c == 32) {
                s.warp_trips = split_trips;
                s.critical_trips = split_crit;
            } else if (name == "sell_xs") {
                s.x_staged = static_cast<double>(ceil_div(n, 128)) * static_cast<double>(a.num_cols);
            } else if (name == "sell_i16") {
                s.index_bytes = 2;
                s.row_info_bytes += 4.0 * static_cast<double>(slices);
                if (!span_ok) {
                    s.feasible = false;
                    s.why_not = "slice " + std::to_string(worst_slice) + " spans " +
                                std::to_string(worst_span) +
                                " columns, more than 16-bit offsets reach (65,535)";
                }
            }
        } else if (name == "csr_merge") {  // merge path: 128 threads x items per thread
            const auto [dp, sp] = nonzero_pass();
            set_x(dp, sp);
            s.row_info_bytes = 8.0 * static_cast<double>(n + 1);  // the search and the row ends
            s.critical_trips = 6 + 7;  // items per thread (DP), then the block-wide scan
            s.warp_trips = ceil_div(nnz + n, warp);  // one trip per item step of 32 lanes
        } else if (name == "csr_adaptive") {  // blocks of 256 threads per planned row group
            const auto [dp, sp] = nonzero_pass();
            set_x(dp, sp);
            s.critical_trips = std::max<std::int64_t>(4, ceil_div(std::min<std::int64_t>(max_len, 2048), 256)) + 8;
            s.launches = max_len > 2048 ? 2 : 1;
            s.warp_trips = ceil_div(nnz, warp) + n;  // loads, then each row summed by a warp step
            s.row_info_bytes += 4.0 * static_cast<double>(ceil_div(nnz, 1024));
        }
        s.useful_fraction = s.warp_trips > 0
                                ? std::min(1.0, static_cast<double>(nnz) /
                                                    (static_cast<double>(warp) * static_cast<double>(s.warp_trips)))
                                : 1.0;
        out.push_back(std::move(s));
    }
    return out;
}

namespace {
bool x_in_shared(const KernelShape& s, Precision p)
{
    // detail::xs_max_cols: 48 KiB of x per block (6144 doubles, 12288 floats)
    return s.x_staged > 0 && s.cols * value_bytes(p) <= 48 * 1024;
}
}  // namespace

double dram_bytes(const KernelShape& s, Precision p)
{
    const double v = value_bytes(p);
    return s.loaded_slots * (v + s.index_bytes) + s.extra_index_slots * 4.0 + s.row_info_bytes +
           v * static_cast<double>(s.cols) + v * static_cast<double>(s.rows) * s.vector_passes +
           v * s.temp_value_traffic;
}

double l2_sectors(const KernelShape& s, Precision p)
{
    const double v = value_bytes(p);
    const double matrix = (s.loaded_slots * (v + s.index_bytes) + s.extra_index_slots * 4.0) / 32.0 *
                          s.matrix_sector_factor;
    const double x = x_in_shared(s, p) ? s.x_staged * v / 32.0
                                       : (p == Precision::double_precision ? s.x_sectors_dp : s.x_sectors_sp);
    return matrix + s.row_info_bytes / 32.0 + x +
           (v * static_cast<double>(s.rows) * s.vector_passes + v * s.temp_value_traffic) / 32.0;
}

FormatPrediction predict(const KernelShape& s, const FormatModelConstants& c, Precision p)
{
    FormatPrediction r;
    r.variant = s.variant;
    r.feasible = s.feasible;
    r.why_not = s.why_not;
    const auto* k = c.find(s.variant);
    if (k == nullptr) {
        SPMV_THROW(InvalidArgument, "the constants of '" + c.profile + "' have no entry for variant '" +
                              s.variant + "'");
    }
    SPMV_EXPECTS(c.bandwidth_gbs > 0 && c.l2_gbs > 0, "model constants need positive bandwidths");
    r.dram_bytes = dram_bytes(s, p);
    r.l2_sectors = l2_sectors(s, p);
    r.floor_s = k->floor_us * 1e-6;
    r.latency_s = k->trip_ns * 1e-9 * static_cast<double>(s.critical_trips);
    r.dram_s = r.dram_bytes / (c.bandwidth_gbs * 1e9);
    r.l2_s = r.l2_sectors * 32.0 / (c.l2_gbs * 1e9);
    r.issue_s = c.issue_ps * 1e-12 * static_cast<double>(s.warp_trips);
    const double memory = std::max({r.dram_s, r.l2_s, r.issue_s});
    r.time_s = r.floor_s + std::max(r.latency_s, memory);
    r.bound = r.latency_s >= memory ? "latency"
              : r.dram_s == memory  ? "DRAM bandwidth"
              : r.l2_s == memory    ? "L2 gather"
                                    : "warp issue";
    r.gflops = 2.0 * static_cast<double>(s.nnz) / r.time_s / 1e9;
    return r;
}

std::vector<VariantPrediction> predict_variants(const Csr<double, std::int32_t>& a,
                                                const FormatParams& params, const GpuProfile& gpu,
                                                Precision p,
                                                std::span<const std::string_view> variants,
                                                const FormatModelConstants* constants)
{
    const auto c = constants != nullptr ? *constants : builtin_constants(gpu);
    auto shapes = kernel_shapes(a, params, variants);
    std::vector<VariantPrediction> out;
    out.reserve(shapes.size());
    for (auto& s : shapes) {
        auto t = predict(s, c, p);
        out.push_back({std::move(s), std::move(t)});
    }
    return out;
}

VariantPrediction predict_variant(const Csr<double, std::int32_t>& a, std::string_view variant,
                                  const FormatParams& params, const GpuProfile& gpu, Precision p,
                                  const FormatModelConstants* constants)
{
    const std::string_view one[] = {variant};
    auto all = predict_variants(a, params, gpu, p, one, constants);
    SPMV_EXPECTS(all.size() == 1, "the format model gave no prediction for '" +
                                      std::string(variant) + "'");
    return std::move(all.front());
}

const ModelledVariant* format_variant(std::string_view format) noexcept
{
    const auto* v = find_modelled_variant(format);
    return v != nullptr && v->format == format ? v : nullptr;
}

std::vector<SweepPrediction> predict_sweep(const Csr<double, std::int32_t>& a,
                                           std::string_view format, Param param,
                                           const FormatParams& base, std::span<const int> values,
                                           const GpuProfile& gpu, Precision p,
                                           const FormatModelConstants* constants)
{
    const auto* v = format_variant(format);
    if (v == nullptr) {
        SPMV_THROW(InvalidArgument, "the per-format model has no GPU kernel for format '" +
                                        std::string(format) + "'");
    }
    const auto c = constants != nullptr ? *constants : builtin_constants(gpu);
    std::vector<SweepPrediction> out;
    out.reserve(values.size());
    for (const int value : values) {
        SweepPrediction sp;
        sp.value = value;
        sp.params = base;
        spmv::set(sp.params, param, value);
        sp.model = predict_variant(a, v->name, sp.params, gpu, p, &c);
        out.push_back(std::move(sp));
    }
    return out;
}

ModelBounds model_bounds(std::span<const FormatPrediction> predictions, std::int64_t rows,
                         std::int64_t nnz, const GpuProfile& gpu, Precision p, double alpha)
{
    SPMV_EXPECTS(rows > 0 && nnz > 0, "model bounds need a matrix with rows and nonzeros");
    ModelBounds b;
    b.alpha = alpha;
    const double n_nzr = static_cast<double>(nnz) / static_cast<double>(rows);
    b.kreutzer_eq1_s =
        t_mvm_seconds(static_cast<double>(rows), n_nzr, alpha, gpu.memory_bandwidth_gbs, p);
    for (const auto& t : predictions) {
        if (!t.feasible || !(t.time_s > 0) || !(t.dram_s > 0)) continue;
        if (b.traffic_bound_s == 0 || t.dram_s < b.traffic_bound_s) {
            b.traffic_bound_s = t.dram_s;
            b.traffic_bound_variant = t.variant;
        }
        if (b.fastest_prediction_s == 0 || t.time_s < b.fastest_prediction_s) {
            b.fastest_prediction_s = t.time_s;
        }
    }
    b.kreutzer_is_bound = b.fastest_prediction_s == 0 || b.kreutzer_eq1_s <= b.fastest_prediction_s;
    return b;
}

}  // namespace spmv::model
