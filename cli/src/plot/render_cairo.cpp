// PNG output through cairo (render.hpp): every Scene primitive with cairo's path and toy text
// API, DejaVu Sans as in the SVG.
#include <cairo.h>
#if defined(SPMVLAB_HAVE_FONTCONFIG)
#include <fontconfig/fontconfig.h>
#endif

#include <cmath>
#include <memory>

#include <spmv/error.hpp>

#include "plot/render.hpp"

namespace spmvlab::plot {
namespace {

using namespace spmv::viz;

void set(cairo_t* cr, Rgb c, double alpha = 1.0)
{
    cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, alpha);
}

/// The dash patterns of svg() (scene.hpp): dashed 6 on 4 off, dotted 1 on 3 off.
void set_dash(cairo_t* cr, Dash d)
{
    static const double dashed[] = {6, 4};
    static const double dotted[] = {1, 3};
    switch (d) {
    case Dash::solid: cairo_set_dash(cr, nullptr, 0, 0); break;
    case Dash::dashed: cairo_set_dash(cr, dashed, 2, 0); break;
    case Dash::dotted: cairo_set_dash(cr, dotted, 2, 0); break;
    }
}

struct Painter {
    cairo_t* cr;

    void operator()(const Text& t) const
    {
        cairo_select_font_face(cr, "DejaVu Sans",
                               t.italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                               t.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, t.size);
        cairo_text_extents_t e;
        cairo_text_extents(cr, t.text.c_str(), &e);
        const double shift = t.anchor == Anchor::start    ? 0.0
                             : t.anchor == Anchor::middle ? -e.x_advance / 2
                                                          : -e.x_advance;
        cairo_save(cr);
        cairo_translate(cr, t.x, t.y);
        if (t.vertical) cairo_rotate(cr, -M_PI / 2);
        cairo_move_to(cr, shift, 0);
        set(cr, t.colour);
        cairo_show_text(cr, t.text.c_str());
        cairo_restore(cr);
    }
    void operator()(const Rect& r) const
    {
        cairo_rectangle(cr, r.x, r.y, r.w, r.h);
        if (r.opacity > 0) {
            set(cr, r.fill, r.opacity);
            cairo_fill_preserve(cr);
        }
        if (r.stroke) {
            set(cr, r.stroke_colour);
            cairo_set_line_width(cr, 1);
            cairo_stroke(cr);
        }
        cairo_new_path(cr);
    }
    void operator()(const Line& l) const
    {
        set_dash(cr, l.dash);
        cairo_set_line_width(cr, l.width);
        set(cr, l.colour);
        cairo_move_to(cr, l.x1, l.y1);
        cairo_line_to(cr, l.x2, l.y2);
        cairo_stroke(cr);
        set_dash(cr, Dash::solid);
    }
    void operator()(const Path& p) const
    {
        if (p.points.empty()) return;
        cairo_move_to(cr, p.points.front().first, p.points.front().second);
        for (std::size_t k = 1; k < p.points.size(); ++k) {
            cairo_line_to(cr, p.points[k].first, p.points[k].second);
        }
        if (p.closed) cairo_close_path(cr);
        if (p.fill_opacity > 0) {
            set(cr, p.fill, p.fill_opacity);
            cairo_fill_preserve(cr);
        }
        set_dash(cr, p.dash);
        cairo_set_line_width(cr, p.width);
        set(cr, p.colour, p.stroke_opacity);
        cairo_stroke(cr);
        set_dash(cr, Dash::solid);
    }
    void operator()(const GroupBegin&) const {}
    void operator()(const GroupEnd&) const {}
    void operator()(const Symbol& m) const
    {
        const double r = m.radius, d = r * 1.3;
        switch (m.shape) {
        case Shape::circle: cairo_arc(cr, m.x, m.y, r, 0, 2 * M_PI); break;
        case Shape::square: cairo_rectangle(cr, m.x - r, m.y - r, 2 * r, 2 * r); break;
        case Shape::diamond:
            cairo_move_to(cr, m.x, m.y - d);
            cairo_line_to(cr, m.x + d, m.y);
            cairo_line_to(cr, m.x, m.y + d);
            cairo_line_to(cr, m.x - d, m.y);
            cairo_close_path(cr);
            break;
        case Shape::triangle:
            cairo_move_to(cr, m.x, m.y - d);
            cairo_line_to(cr, m.x + d, m.y + 0.75 * d);
            cairo_line_to(cr, m.x - d, m.y + 0.75 * d);
            cairo_close_path(cr);
            break;
        }
        set(cr, m.colour, m.opacity);
        if (m.hollow) {
            cairo_set_line_width(cr, 1.5);
            cairo_stroke(cr);
        } else {
            cairo_fill(cr);
        }
    }
};

}  // namespace

bool have_png() noexcept { return true; }

std::string render_png(const Scene& scene, double scale)
{
    SPMV_EXPECTS(scale > 0 && scale <= 8, "--scale must be in (0, 8]");
    const int w = static_cast<int>(std::ceil(scene.width * scale));
    const int h = static_cast<int>(std::ceil(scene.height * scale));
    std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h), &cairo_surface_destroy);
    if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
        SPMV_THROW(spmv::InvalidArgument,
                   "cannot draw a PNG of " + std::to_string(w) + " x " + std::to_string(h) +
                       " pixels: " + std::string(cairo_status_to_string(cairo_surface_status(surface.get()))));
    }
    std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()),
                                                          &cairo_destroy);
    cairo_scale(cr.get(), scale, scale);
    cairo_set_source_rgb(cr.get(), 1, 1, 1);
    cairo_paint(cr.get());
    const Painter p{cr.get()};
    for (const auto& i : scene.items) std::visit(p, i);
    cairo_surface_flush(surface.get());
    std::string bytes;
    const auto append = [](void* out, const unsigned char* data, unsigned int n) {
        static_cast<std::string*>(out)->append(reinterpret_cast<const char*>(data), n);
        return CAIRO_STATUS_SUCCESS;
    };
    const auto st = cairo_surface_write_to_png_stream(surface.get(), append, &bytes);
    if (st != CAIRO_STATUS_SUCCESS) {
        SPMV_THROW(spmv::InvalidArgument,
                   std::string("cannot encode the PNG: ") + cairo_status_to_string(st));
    }
    return bytes;
}

void release_png_caches() noexcept
{
    cairo_debug_reset_static_data();  // no cairo object is alive any more
#if defined(SPMVLAB_HAVE_FONTCONFIG)
    FcFini();
#endif
}

}  // namespace spmvlab::plot
