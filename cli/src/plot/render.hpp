#pragma once
/// PNG output of a Scene (spmv/viz/scene.hpp) through cairo's image surface. cairo is optional
/// in the build (cli/CMakeLists.txt): without it render_png throws spmv::NotCompiled and
/// have_png() is false. SVG needs no library: spmv::viz::svg() writes it.
#include <string>

#include <spmv/viz/scene.hpp>

namespace spmvlab::plot {

using spmv::viz::Scene;

/// True when this build can write PNG (cairo was found).
bool have_png() noexcept;

/// The bytes of a PNG file of `scene` drawn at `scale` device pixels per scene pixel (the
/// caller writes them with write_file: atomically). Throws InvalidArgument when cairo fails
/// (an image too large), NotCompiled without cairo.
std::string render_png(const Scene& scene, double scale = 1.0);

/// Releases the font caches that cairo and fontconfig keep for the life of the process (call
/// once, after the last render_png): without it a leak checker reports them at exit. No-op
/// without cairo.
void release_png_caches() noexcept;

}  // namespace spmvlab::plot
