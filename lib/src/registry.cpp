#include <spmv/registry.hpp>

#include <algorithm>
#include <string>
#include <utility>

#include <spmv/error.hpp>

#include "formats/story.hpp"  // the entries: spmv::detail::<name>_entry()

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

const std::vector<FormatInfo>& table()
{
#define SPMV_ENTRY(name, Type) detail::name##_entry(),
    static const std::vector<FormatInfo> t = {SPMV_FOR_EACH_FORMAT(SPMV_ENTRY)};
#undef SPMV_ENTRY
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

const FormatInfo* find_format_or_null(std::string_view name) noexcept
{
    for (const auto& f : table()) {
        if (f.name == name) return &f;
    }
    return nullptr;
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

FormatParams resolve_all_params(std::span<const std::int32_t> row_ptrs, FormatParams params)
{
    for (const auto& f : table()) {
        if (f.resolve != nullptr) params = f.resolve(row_ptrs, params);
    }
    return params;
}

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
AnyMatrix<ValueType> build(std::string_view name, Csr<ValueType, std::int32_t>&& a,
                           const FormatParams& params)
{
    const auto& f = find_format(name);
    if (f.name == "csr") {  // CSR's builder copies its input: take the arrays over instead
        return AnyMatrix<ValueType>(std::move(a));
    }
    Csr<ValueType, std::int32_t> given = std::move(a);  // released when this call returns
    return build<ValueType>(name, std::as_const(given), params);
}

template AnyMatrix<double> build<double>(std::string_view, Csr<double, std::int32_t>&&,
                                         const FormatParams&);
template AnyMatrix<float> build<float>(std::string_view, Csr<float, std::int32_t>&&,
                                       const FormatParams&);

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
