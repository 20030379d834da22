// BiELL's story (story.hpp, bisection_story.hpp): its registry entry, footprint, construction
// (rows sorted inside each warp, every warp bisected into groups) and the model of its GPU kernel.
#include "bisection_story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams& p)
{
    return bisection::estimate(rows, p.warp_size, /*global_sort=*/false);
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    const auto& f = built_as<BiEll<double, I>>(src);
    c.title += " (W = " + num(f.warp_size) + ")";
    c.steps.push_back(jagged_step(*src.a, src.max_len, w, nullptr, ""));
    c.steps.push_back(sort_step(*src.a, src.max_len, f.row_perm,
                                "inside each warp of W = " + num(f.warp_size) + " rows",
                                f.warp_size, w));
    c.steps.push_back(
        bisection::step(*src.a, f, "4. Bisect every warp into groups (BiELL)", w));
}

void shape(ShapeContext& c, KernelShape& s)  // bisection groups inside each warp of 32 rows
{
    set_x(s, c.identity_pass());  // and the heaviest warp
    std::int64_t trips = 0, crit = 0;
    std::vector<std::int32_t> g;
    for (std::int64_t first = 0; first < c.n; first += warp) {
        g.assign(c.lens.begin() + first, c.lens.begin() + std::min(c.n, first + warp));
        std::sort(g.begin(), g.end(), std::greater<>());
        const auto t = biell_trips(g);
        trips += t;
        crit = std::max(crit, t);
    }
    s.warp_trips = trips;
    s.critical_trips = crit + 5;
    s.loaded_slots = s.stored_slots = static_cast<double>(trips * warp);
    s.row_info_bytes =
        4.0 * static_cast<double>(c.n) + 24.0 * static_cast<double>(ceil_div(c.n, warp));
}

const VariantRule rules[] = {
    {{"biell", "biell", false, "BiELL (Zheng et al.); no library equivalent"}, shape},
};

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo biell_entry()
{
    return {.name = "biell",
            .title = "BiELL",
            .description = "rows sorted inside each warp, bisected into log2(W)+1 groups with 1, 2, 4, ... lanes "
                           "per row, each group padded to its own width",
            .source = "PELLR §2.3.3 (Zheng et al. 2014); docs/formats/biell_bijad.md",
            .params = {Param::warp_size},
            .permuted = true,
            SPMV_BUILDERS(to_biell(a, BiEllOptions{p.warp_size})),
            .estimate = story::estimate,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); }};
}

}  // namespace spmv::detail
