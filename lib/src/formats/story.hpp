#pragma once
// What a format's story file (lib/src/formats/<name>_story.cpp) is written with. The story is
// everything the rest of the project asks a format besides building and multiplying (which are
// in <name>.cpp): its registry entry, `FormatInfo spmv::detail::<name>_entry()`, with
//   - the builder pair (SPMV_BUILDERS) and the "auto" parameter rule (resolve),
//   - the footprint estimate from row lengths alone (estimate; kit: estimate_kit.hpp),
//   - the construction steps the explorer plays (construction_prepare / construction_steps;
//     kit: construction_kit.hpp, vocabulary: spmv/viz/construction_grid.hpp),
//   - the format model's rule for each of its GPU kernels (model_variants; kit: shape_kit.hpp),
//   - the parameter sweeps it offers (sweep_params, sweep_warps; kit: sweep_kit.hpp).
// docs/adding_a_format.md is the recipe.
#include <cstdint>
#include <span>
#include <string>

#include <spmv/any_matrix.hpp>
#include <spmv/model/kernel_shape.hpp>
#include <spmv/registry.hpp>

#include "../analysis/estimate_kit.hpp"
#include "../analysis/sweep_kit.hpp"
#include "../model/shape_kit.hpp"
#include "../viz/construction_kit.hpp"

// The builder pair (double, float) of a FormatInfo, as designated initialisers, from one
// expression over `a` (CSR) and `p` (FormatParams).
#define SPMV_BUILDERS(expr)                                                                   \
    .build_double = +[](const Csr<double, std::int32_t>& a,                                   \
                        const FormatParams& p) -> AnyMatrix<double> {                         \
        (void)p;                                                                              \
        return expr;                                                                          \
    },                                                                                        \
    .build_float = +[](const Csr<float, std::int32_t>& a, const FormatParams& p) -> AnyMatrix<float> { \
        (void)p;                                                                              \
        return expr;                                                                          \
    }

// The names story files use from the three kits.
namespace spmv::story {
using namespace spmv::viz::detail;
using namespace spmv::analysis::detail;
using analysis::SweepRows;
using analysis::SweepWarps;
using analysis::WarpAnalysis;
using analysis::detail::WarpStream;
using viz::ArrayKey;
using viz::ArrayRole;
using viz::Cell;
using viz::CellKind;
using viz::Construction;
using viz::ConstructionSource;
using viz::ConstructionStep;
using viz::ConstructionWindow;
using model::biell_trips;
using model::ceil_div;
using model::from_pass;
using model::group_widths;
using model::KernelShape;
using model::ModelledVariant;
using model::set_x;
using model::ShapeContext;
using model::sorted_groups_shape;
using model::sorted_groups_split_shape;
using model::split_t;
using model::VariantRule;
using model::warp;
using model::xs_block;
using model::ell_xs_row_rounds;
using model::sell_xs_row_rounds;
}  // namespace spmv::story

namespace spmv::detail {
// Declared here, defined in each story file, collected by registry.cpp.
#define SPMV_DECLARE_ENTRY(name, Type) FormatInfo name##_entry();
SPMV_FOR_EACH_FORMAT(SPMV_DECLARE_ENTRY)
#undef SPMV_DECLARE_ENTRY
}  // namespace spmv::detail
