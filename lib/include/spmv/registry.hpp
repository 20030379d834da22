#pragma once
/// The format registry: every storage format by name, with its description, parameters and a
/// builder. The CLI, the tests, the kernels' benchmark and the GUI iterate over formats() and
/// never name a format themselves.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/any_matrix.hpp>

namespace spmv {

/// Tunable parameters of the formats. Each format reads only the ones its FormatInfo lists.
struct FormatParams {
    int warp_size = 32;     ///< threads per warp (BiELL/BiJAD grouping; analyses)
    int block_rows = 32;    ///< b_r of pJDS: rows padded together after sorting
    int slice_height = 32;  ///< C of SELL-C-sigma
    int sort_window = 1;    ///< sigma of SELL-C-sigma (1: no sorting; 0: choose_sort_window)
    int pitch_bytes = 128;  ///< ELLG: leading dimension padded to this many bytes
    int hyb_width = -1;     ///< HYB: ELL width K; -1 picks K by the one-third rule
    int diag_pad = 16;      ///< JDS CSR-like: diagonals padded to a multiple of this
    int pjds_pad = 0;       ///< pJDS: 1 rounds the rows up to a multiple of b_r (Kreutzer fn. 2)
};

/// Names of the FormatParams fields, for schemas shown by the CLI and GUI.
enum class Param {
    warp_size,
    block_rows,
    slice_height,
    sort_window,
    pitch_bytes,
    hyb_width,
    diag_pad,
    pjds_pad,
};

struct ParamInfo {
    Param id;
    std::string_view name;         ///< CLI spelling, e.g. "br"
    std::string_view description;  ///< one line
    int min_value;
    int max_value;
};

/// Schema of every parameter (name, description, valid range).
std::span<const ParamInfo> parameters();
int get(const FormatParams& p, Param id);
void set(FormatParams& p, Param id, int value);  ///< throws InvalidArgument when out of range

struct FormatInfo {
    std::string_view name;         ///< registry name, e.g. "pjds"
    std::string_view title;        ///< display name, e.g. "pJDS"
    std::string_view description;  ///< one line
    std::string_view source;       ///< paper and section
    std::vector<Param> params;     ///< parameters this format reads
    bool permuted;                 ///< rows are reordered (perm[] present)
    AnyMatrix<double> (*build_double)(const Csr<double, std::int32_t>&, const FormatParams&);
    AnyMatrix<float> (*build_float)(const Csr<float, std::int32_t>&, const FormatParams&);
    /// Resolves the format's "auto" parameter values (sigma = 0 for SELL-C-sigma) from the
    /// matrix's row pointers; nullptr: nothing to resolve. Called through resolve_params().
    FormatParams (*resolve)(std::span<const std::int32_t> row_ptrs, FormatParams) = nullptr;
};

/// All formats, in a stable teaching order.
std::span<const FormatInfo> formats();

/// Looks a format up by registry name; throws InvalidArgument listing the valid names.
const FormatInfo& find_format(std::string_view name);

/// The parameters that building `name` on `a` really uses: every "auto" value resolved by the
/// format's own rule (FormatInfo::resolve), in this one place. Builders, the footprint
/// estimate, the memory guard and the models call it first, so each sees the same sigma.
template <typename ValueType>
FormatParams resolve_params(std::string_view name, const Csr<ValueType, std::int32_t>& a,
                            const FormatParams& params);

/// Builds the named format from CSR (parameters resolved by resolve_params).
template <typename ValueType>
AnyMatrix<ValueType> build(std::string_view name, const Csr<ValueType, std::int32_t>& a,
                           const FormatParams& params = {});

/// The row permutation of a permuted format (empty for formats that keep the row order).
template <typename ValueType>
std::span<const std::int32_t> row_permutation(const AnyMatrix<ValueType>& m);

}  // namespace spmv
