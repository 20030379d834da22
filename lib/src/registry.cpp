#include <spmv/registry.hpp>

#include <algorithm>
#include <string>

#include <spmv/error.hpp>

namespace spmv {
namespace {

// Every alternative of AnyMatrix must be a complete format unit.
template <typename V>
struct CheckAll;
template <typename... F>
struct CheckAll<std::variant<F...>> {
    static constexpr bool value = (SparseFormat<F> && ...);
};
static_assert(CheckAll<AnyMatrix<double>>::value && CheckAll<AnyMatrix<float>>::value,
              "every AnyMatrix alternative must satisfy spmv::SparseFormat");

const ParamInfo param_table[] = {
    {Param::warp_size, "warp", "threads per warp (BiELL/BiJAD groups, per-warp analysis)", 1, 1024},
    {Param::block_rows, "br", "pJDS b_r: rows sorted then padded together per block", 1, 1024},
    {Param::slice_height, "slice", "SELL-C-sigma: C, rows per slice", 1, 1024},
    {Param::sort_window, "sigma",
     "SELL-C-sigma: sigma, rows sorted inside windows of sigma rows (0 or auto: the smallest "
     "sigma within 2 % of nnz of the least padding)",
     0, 1 << 30},
    {Param::pitch_bytes, "pitch", "ELLG: leading dimension padded to this many bytes", 4, 4096},
    {Param::hyb_width, "hyb-width", "HYB: ELL width K (-1: one-third rule)", -1, 1 << 30},
    {Param::diag_pad, "diag-pad", "JDS CSR-like: diagonals padded to a multiple of this", 1, 1024},
    {Param::pjds_pad, "pjds-pad",
     "pJDS: 1 pads the rows to a multiple of b_r with empty rows (Kreutzer footnote 2: N padded "
     "to the warp size), 0 keeps N rows",
     0, 1},
};

// One builder pair (double, float) from one expression over `a` (CSR) and `p` (FormatParams).
#define SPMV_BUILDERS(expr)                                                                     \
    +[](const Csr<double, std::int32_t>& a, const FormatParams& p) -> AnyMatrix<double> {      \
        (void)p;                                                                                \
        return expr;                                                                            \
    },                                                                                          \
        +[](const Csr<float, std::int32_t>& a, const FormatParams& p) -> AnyMatrix<float> {    \
            (void)p;                                                                            \
            return expr;                                                                        \
        }

const std::vector<FormatInfo>& table()
{
    static const std::vector<FormatInfo> t = {
        {"coo", "COO", "coordinate triplets row_idxs, col_idxs, values, sorted by (row, column)",
         "Barbieri §2, PELLR §2.1", {}, false, SPMV_BUILDERS(to_coo(a, CooOptions{}))},
        {"csr", "CSR", "compressed sparse rows: row_ptrs, col_idxs, values", "PELLR §2.2", {}, false,
         SPMV_BUILDERS(a)},
        {"csc", "CSC", "compressed sparse columns: col_ptrs, row_idxs, values (scatter SpMV)",
         "Barbieri §2", {}, false, SPMV_BUILDERS(to_csc(a, CscOptions{}))},
        {"ell", "ELLPACK", "rows shifted left, padded to the longest row, column-major",
         "Kreutzer §II.A, Listing 1", {}, false, SPMV_BUILDERS(to_ell(a, EllOptions{}))},
        {"ellr", "ELLPACK-R", "ELLPACK plus row_lengths: each thread stops at its row length",
         "Kreutzer Listing 1, PELLR §2.3.2", {}, false, SPMV_BUILDERS(to_ellr(a, EllROptions{}))},
        {"ellg", "ELLG", "ELLPACK-R with the leading dimension padded to a pitch, unrolled by 2",
         "Barbieri §2", {Param::pitch_bytes}, false,
         SPMV_BUILDERS(to_ellg(a, EllGOptions{p.pitch_bytes}))},
        {"jds", "JDS", "rows sorted by length, jagged diagonals stored one after another",
         "Cevahir §2.1, Fig. 2; PELLR §2.3.5 (JAD)", {}, true,
         SPMV_BUILDERS(to_jds(a, JdsOptions{}))},
        {"jds_csr", "JDS CSR-like",
         "JDS with diagonals padded to a multiple of diag_pad, one thread per sorted row",
         "Cevahir §3.1, Fig. 3", {Param::diag_pad}, true,
         SPMV_BUILDERS(to_jds_csr(a, JdsCsrOptions{p.diag_pad}))},
        {"pjds", "pJDS", "rows sorted by length, each block of b_r rows padded to its longest",
         "Kreutzer §II.A, Fig. 1, Listing 2", {Param::block_rows, Param::pjds_pad}, true,
         SPMV_BUILDERS(to_pjds(a, PjdsOptions{p.block_rows, p.pjds_pad != 0}))},
        {"pellr", "PELLR", "ELLPACK-R (rl[]) on rows sorted globally by length",
         "Wang & Gu §3, Fig. 5", {}, true, SPMV_BUILDERS(to_pellr(a, PellrOptions{}))},
        {"biell", "BiELL",
         "rows sorted inside each warp, bisected into log2(W)+1 groups with 1, 2, 4, ... lanes "
         "per row, each group padded to its own width",
         "PELLR §2.3.3 (Zheng et al. 2014); docs/formats/biell_bijad.md", {Param::warp_size},
         true, SPMV_BUILDERS(to_biell(a, BiEllOptions{p.warp_size}))},
        {"bijad", "BiJAD",
         "BiELL's bisection groups on rows sorted globally by length (warps of sorted rows)",
         "PELLR §2.3.5 (Zheng et al. 2014); docs/formats/biell_bijad.md", {Param::warp_size},
         true, SPMV_BUILDERS(to_bijad(a, BiJadOptions{p.warp_size}))},
        {"hyb", "HYB", "ELL part of width K plus COO for the rest (K: one-third rule)",
         "PELLR §2.3.4", {Param::hyb_width}, false,
         SPMV_BUILDERS(to_hyb(a, HybOptions{p.hyb_width}))},
        {"sell", "SELL-C-σ",
         "slices of C rows padded to their longest row, rows sorted inside windows of sigma rows",
         "Kreutzer et al. 2014 (beyond the seeds)", {Param::slice_height, Param::sort_window},
         true,
         SPMV_BUILDERS(to_sell_c_sigma(a, SellCSigmaOptions{p.slice_height, p.sort_window})),
         +[](std::span<const std::int32_t> row_ptrs, FormatParams p) {
             if (p.sort_window == 0) {  // auto: the smallest sigma within 2 % of sigma = N
                 p.sort_window = choose_sort_window(row_ptrs, p.slice_height);
             }
             return p;
         }},
        // [registry entries: keep this marker; add new entries above it]
    };
    return t;
}

}  // namespace

std::span<const ParamInfo> parameters()
{
    return param_table;
}

int get(const FormatParams& p, Param id)
{
    switch (id) {
    case Param::warp_size: return p.warp_size;
    case Param::block_rows: return p.block_rows;
    case Param::slice_height: return p.slice_height;
    case Param::sort_window: return p.sort_window;
    case Param::pitch_bytes: return p.pitch_bytes;
    case Param::hyb_width: return p.hyb_width;
    case Param::diag_pad: return p.diag_pad;
    case Param::pjds_pad: return p.pjds_pad;
    }
    return 0;
}

void set(FormatParams& p, Param id, int value)
{
    for (const auto& info : param_table) {
        if (info.id == id && (value < info.min_value || value > info.max_value)) {
            SPMV_THROW(InvalidArgument, "parameter " + std::string(info.name) + " = " +
                                            std::to_string(value) + " is outside [" +
                                            std::to_string(info.min_value) + ", " +
                                            std::to_string(info.max_value) + "]");
        }
    }
    switch (id) {
    case Param::warp_size: p.warp_size = value; break;
    case Param::block_rows: p.block_rows = value; break;
    case Param::slice_height: p.slice_height = value; break;
    case Param::sort_window: p.sort_window = value; break;
    case Param::pitch_bytes: p.pitch_bytes = value; break;
    case Param::hyb_width: p.hyb_width = value; break;
    case Param::diag_pad: p.diag_pad = value; break;
    case Param::pjds_pad: p.pjds_pad = value; break;
    }
}

std::span<const FormatInfo> formats()
{
    return table();
}

const FormatInfo& find_format(std::string_view name)
{
    std::string names;
    for (const auto& f : table()) {
        if (f.name == name) {
            return f;
        }
        names += (names.empty() ? "" : " ") + std::string(f.name);
    }
    SPMV_THROW(InvalidArgument, "unknown format '" + std::string(name) + "'; known: " + names);
}

template <typename ValueType>
FormatParams resolve_params(std::string_view name, const Csr<ValueType, std::int32_t>& a,
                            const FormatParams& params)
{
    const auto& f = find_format(name);
    return f.resolve != nullptr ? f.resolve(a.row_ptrs, params) : params;
}

template FormatParams resolve_params<double>(std::string_view, const Csr<double, std::int32_t>&,
                                             const FormatParams&);
template FormatParams resolve_params<float>(std::string_view, const Csr<float, std::int32_t>&,
                                            const FormatParams&);

template <>
AnyMatrix<double> build<double>(std::string_view name, const Csr<double, std::int32_t>& a,
                                const FormatParams& params)
{
    return find_format(name).build_double(a, resolve_params(name, a, params));
}

template <>
AnyMatrix<float> build<float>(std::string_view name, const Csr<float, std::int32_t>& a,
                              const FormatParams& params)
{
    return find_format(name).build_float(a, resolve_params(name, a, params));
}

template <typename ValueType>
std::span<const std::int32_t> row_permutation(const AnyMatrix<ValueType>& m)
{
    return std::visit(
        [](const auto& f) -> std::span<const std::int32_t> {
            if constexpr (requires { f.row_perm; }) {
                return f.row_perm;
            } else {
                return {};
            }
        },
        m);
}

template std::span<const std::int32_t> row_permutation<double>(const AnyMatrix<double>&);
template std::span<const std::int32_t> row_permutation<float>(const AnyMatrix<float>&);

}  // namespace spmv
