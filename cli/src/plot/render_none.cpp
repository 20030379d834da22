// PNG output in a build without cairo (render.hpp): says so.
#include <spmv/error.hpp>

#include "plot/render.hpp"

namespace spmvlab::plot {

bool have_png() noexcept { return false; }

std::string render_png(const Scene&, double)
{
    SPMV_THROW(spmv::NotCompiled,
               "spmvlab was built without cairo, so it writes no PNG (install libcairo2-dev and "
               "rebuild; --format svg works without it)");
}

void release_png_caches() noexcept {}

}  // namespace spmvlab::plot
