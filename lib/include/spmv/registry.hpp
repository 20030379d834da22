#pragma once
/// The format registry: every storage format by name, with everything the rest of the project
/// asks a format: its description, parameters and builder, its "auto" parameter rule, its
/// footprint estimate, the construction steps the explorer plays and the model's traffic rule of
/// each of its GPU kernels. Each entry lives in the format's own story file,
/// lib/src/formats/<name>_story.cpp (<name>_entry()); registry.cpp only collects them in the
/// order of spmv/formats/list.hpp. The CLI, the tests, the kernels' benchmark and the GUI iterate
/// over formats() and never name a format themselves.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/any_matrix.hpp>

namespace spmv {

namespace viz {
class ConstructionSource;
struct ConstructionWindow;
struct Construction;
}  // namespace viz
namespace model {
struct VariantRule;
}  // namespace model
namespace analysis {
class SweepRows;
struct SweepWarps;
}  // namespace analysis

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
    /// The footprint the format would have, from the row lengths alone (parameters resolved):
    /// analysis::estimate_footprint calls it. nullptr: no closed form.
    Footprint (*estimate)(const RowLengthProfile& rows, const FormatParams& params) = nullptr;
    /// The explorer's construction (viz/construction.hpp): `prepare` builds what the steps show
    /// besides the format itself (e.g. the ELLPACK of a compress step) under the memory limit,
    /// `steps` appends the format's steps after the common first one ("1. The sparse matrix")
    /// and may extend the title. steps == nullptr: no construction.
    void (*construction_prepare)(viz::ConstructionSource& source, std::size_t max_bytes) = nullptr;
    void (*construction_steps)(const viz::ConstructionSource& source,
                               const viz::ConstructionWindow& window,
                               viz::Construction& out) = nullptr;
    /// The format model's rule for each GPU kernel of this format (model/kernel_shape.hpp), in
    /// the kernels' order. nullptr: no kernel modelled.
    std::span<const model::VariantRule> (*model_variants)() = nullptr;
    /// The parameter sweeps (analysis/sweep.hpp) this format offers: the parameters, its
    /// kernel's warps at one setting from the row lengths alone (kit: sweep_kit.hpp), and the
    /// value its layout really uses for a swept parameter (nullptr: the value as resolved).
    std::vector<Param> sweep_params = {};
    analysis::SweepWarps (*sweep_warps)(analysis::SweepRows& rows, const FormatParams& p) = nullptr;
    int (*sweep_effective)(Param param, std::span<const std::int32_t> lengths,
                           const FormatParams& p) = nullptr;
};

/// All formats, in a stable teaching order.
std::span<const FormatInfo> formats();

/// Looks a format up by registry name; throws InvalidArgument listing the valid names.
const FormatInfo& find_format(std::string_view name);
/// The same, nullptr for an unknown name.
const FormatInfo* find_format_or_null(std::string_view name) noexcept;

/// The parameters that building `name` on `a` really uses: every "auto" value resolved by the
/// format's own rule (FormatInfo::resolve), in this one place. Builders, the footprint
/// estimate, the memory guard and the models call it first, so each sees the same sigma.
template <typename ValueType>
FormatParams resolve_params(std::string_view name, const Csr<ValueType, std::int32_t>& a,
                            const FormatParams& params);

/// `params` with the "auto" values of every format resolved (each format's rule applied in
/// turn): for callers that share one parameter set between formats (the format model).
FormatParams resolve_all_params(std::span<const std::int32_t> row_ptrs, FormatParams params);

/// Builds the named format from CSR (parameters resolved by resolve_params).
template <typename ValueType>
AnyMatrix<ValueType> build(std::string_view name, const Csr<ValueType, std::int32_t>& a,
                           const FormatParams& params = {});

/// build() from a CSR the caller gives up: "csr" takes over its arrays (moved, no copy); every
/// other format is built from it as build() does, and `a` is released before the call returns,
/// so its memory is not held beside the built format. For set-up paths that make a CSR copy
/// only to build from it (the distributed blocks): 12 bytes per nonzero (DP) less at the peak.
/// Throws as build() does (an unknown name before `a` is touched).
template <typename ValueType>
AnyMatrix<ValueType> build(std::string_view name, Csr<ValueType, std::int32_t>&& a,
                           const FormatParams& params = {});

/// The row permutation of a permuted format (empty for formats that keep the row order).
template <typename ValueType>
std::span<const std::int32_t> row_permutation(const AnyMatrix<ValueType>& m);

}  // namespace spmv
