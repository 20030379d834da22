// BiJAD's story (story.hpp, bisection_story.hpp): its registry entry, footprint, construction
// (rows sorted globally, cut into warps, every warp bisected into groups) and the model of its
// GPU kernel.
#include "bisection_story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams& p)
{
    return bisection::estimate(rows, p.warp_size, /*global_sort=*/true);
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    const auto& f = built_as<BiJad<double, I>>(src);
    c.title += " (W = " + num(f.warp_size) + ")";
    c.steps.push_back(jagged_step(*src.a, src.max_len, w, nullptr, ""));
    c.steps.push_back(sort_step(*src.a, src.max_len, f.row_perm, "globally", 0, w));
    c.steps.push_back(
        bisection::step(*src.a, f, "4. Cut into warps, bisect every warp (BiJAD)", w));
}

// BiELL's warp kernel on globally sorted rows: the sorted groups' x and row info, BiELL's
// iterations per warp of 32 sorted lengths.
void shape(ShapeContext& c, KernelShape& s)
{
    sorted_groups_shape(c, s);
    const auto& order = c.global_order();
    std::int64_t trips = 0, crit = 0;
    std::vector<std::int32_t> g;
    for (std::int64_t first = 0; first < c.n; first += warp) {
        g.clear();
        for (std::int64_t k = first; k < std::min(c.n, first + warp); ++k) {
            g.push_back(c.lens[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])]);
        }
        const auto t = biell_trips(g);
        trips += t;
        crit = std::max(crit, t);
    }
    s.warp_trips = trips;
    s.critical_trips = crit + 5;
    s.loaded_slots = s.stored_slots = static_cast<double>(trips * warp);
}

const VariantRule rules[] = {
    {{"bijad", "bijad", true, "BiJAD (Zheng et al.); no library equivalent"}, shape},
};

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo bijad_entry()
{
    return {.name = "bijad",
            .title = "BiJAD",
            .description = "BiELL's bisection groups on rows sorted globally by length (warps of sorted rows)",
            .source = "PELLR §2.3.5 (Zheng et al. 2014); docs/formats/biell_bijad.md",
            .params = {Param::warp_size},
            .permuted = true,
            SPMV_BUILDERS(to_bijad(a, BiJadOptions{p.warp_size})),
            .estimate = story::estimate,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); }};
}

}  // namespace spmv::detail
