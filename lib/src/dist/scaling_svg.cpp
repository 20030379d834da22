// Strong-scaling charts as SVG text (spmv/viz/scaling_svg.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <spmv/error.hpp>
#include <spmv/viz/scaling_svg.hpp>
#include <spmv/viz/timeline_svg.hpp>

namespace spmv::viz {

namespace {

std::string num(double v) { return compact_number(v); }

std::string text(double x, double y, const std::string& body, const std::string& extra = {})
{
    return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + (extra.empty() ? "" : " " + extra) +
           ">" + xml_escape(body) + "</text>\n";
}

std::string tick_label(double v)
{
    char buf[32];
    if (v >= 1e4) {
        std::snprintf(buf, sizeof buf, "%.0fk", v / 1e3);
    } else if (v >= 1) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
    } else {
        std::snprintf(buf, sizeof buf, "%g", v);
    }
    return buf;
}

constexpr double left = 58.0;    // room for the y tick labels and title
constexpr double right = 14.0;
constexpr double top = 58.0;     // title and two subtitle lines
constexpr double bottom = 40.0;  // x ticks and title
constexpr double legend_height = 22.0;

}  // namespace

std::vector<double> log_ticks_125(double lo, double hi)
{
    SPMV_EXPECTS(lo > 0.0 && hi >= lo && std::isfinite(hi), "log ticks need 0 < lo <= hi");
    std::vector<double> t;
    double decade = std::pow(10.0, std::floor(std::log10(lo)));
    const double steps[] = {1.0, 2.0, 5.0};
    // the largest tick <= lo
    double start = decade;
    for (double s : steps) {
        if (s * decade <= lo * (1 + 1e-12)) {
            start = s * decade;
        }
    }
    for (;; decade *= 10.0) {
        for (double s : steps) {
            const double v = s * decade;
            if (v < start * (1 - 1e-12)) {
                continue;
            }
            t.push_back(v);
            if (v >= hi * (1 - 1e-12)) {
                return t;
            }
        }
    }
}

std::string scaling_svg(const std::vector<ScalingPanel>& panels, const ScalingSvgOptions& o)
{
    SPMV_EXPECTS(o.columns >= 1 && o.panel_width_px > left + right + 50 &&
                     o.panel_height_px > top + bottom + legend_height + 50,
                 "scaling chart: panel too small");
    const int cols = std::max(1, std::min<int>(o.columns, static_cast<int>(panels.size())));
    const int rows = static_cast<int>((panels.size() + static_cast<std::size_t>(cols) - 1) /
                                      static_cast<std::size_t>(cols));
    const double W = cols * o.panel_width_px;
    const double H = std::max(1, rows) * o.panel_height_px + 40.0;
    std::string s;
    s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(W) +
         "\" height=\"" + num(H) + "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
    s += text(10, H - 24,
              "Time per SpMV (log) against ranks (log). Bands: the model's task mode between "
              "alpha = 1/N_nzr (x reused perfectly) and alpha = 1 (Kreutzer's default);",
              "fill=\"#444444\"");
    s += text(10, H - 10, "dashed: the model's vector mode at alpha = 1; dotted: ideal scaling T1/P "
                          "of the measured one-GPU time. Markers: measured medians.",
              "fill=\"#444444\"");
    const Rgb grid{225, 225, 225};
    for (std::size_t p = 0; p < panels.size(); ++p) {
        const auto& pn = panels[p];
        SPMV_EXPECTS(!pn.ranks.empty(), "scaling chart: panel '" + pn.title + "' has no ranks");
        const std::size_t n = pn.ranks.size();
        double lo = 1e300;
        double hi = 0.0;
        auto see = [&](double v) {
            SPMV_EXPECTS(v > 0.0 && std::isfinite(v),
                         "scaling chart: non-positive time in panel '" + pn.title + "'");
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        };
        for (const auto& m : pn.model) {
            SPMV_EXPECTS(m.task_best_us.size() == n && m.task_worst_us.size() == n &&
                             m.vector_worst_us.size() == n,
                         "scaling chart: a model series of '" + pn.title + "' does not match its ranks");
            for (std::size_t i = 0; i < n; ++i) {
                see(m.task_best_us[i]);
                see(m.task_worst_us[i]);
                see(m.vector_worst_us[i]);
            }
        }
        double t1 = 0.0;
        for (const auto& m : pn.measured) {
            see(m.us);
            if (m.mode == "single") {
                t1 = m.us;
            }
        }
        if (t1 > 0.0) {
            see(t1 / pn.ranks.back());
        }
        if (hi == 0.0) {
            lo = 1.0;
            hi = 10.0;
        }
        const auto yt = log_ticks_125(lo, hi);
        const double x0 = static_cast<double>(p % static_cast<std::size_t>(cols)) * o.panel_width_px;
        const double y0 = static_cast<double>(p / static_cast<std::size_t>(cols)) * o.panel_height_px;
        const double pl = x0 + left;
        const double pr = x0 + o.panel_width_px - right;
        const double pt = y0 + top;
        const double pb = y0 + o.panel_height_px - bottom - legend_height;
        const double rmin = std::log2(static_cast<double>(pn.ranks.front()));
        const double rmax = std::log2(static_cast<double>(pn.ranks.back()));
        auto X = [&](double r) {
            const double span = std::max(rmax - rmin, 1.0);
            return pl + 12.0 + (std::log2(r) - rmin) / span * (pr - pl - 24.0);
        };
        const double ylo = std::log10(yt.front());
        const double yhi = std::log10(yt.back());
        auto Y = [&](double us) {
            return pb - (std::log10(us) - ylo) / std::max(yhi - ylo, 1e-9) * (pb - pt);
        };
        s += text(x0 + 10, y0 + 16, pn.title, "font-size=\"12\" font-weight=\"bold\"");
        // the subtitle in two lines, split at its first "; "
        const auto cut = pn.subtitle.find("; ");
        s += text(x0 + 10, y0 + 31, pn.subtitle.substr(0, cut), "fill=\"#555555\" font-size=\"10\"");
        if (cut != std::string::npos) {
            s += text(x0 + 10, y0 + 44, pn.subtitle.substr(cut + 2), "fill=\"#555555\" font-size=\"10\"");
        }
        // grid and ticks
        for (double v : yt) {
            s += "<line x1=\"" + num(pl) + "\" y1=\"" + num(Y(v)) + "\" x2=\"" + num(pr) +
                 "\" y2=\"" + num(Y(v)) + "\" stroke=\"" + hex(grid) + "\"/>\n";
            s += text(pl - 4, Y(v) + 4, tick_label(v), "text-anchor=\"end\"");
        }
        for (int r : pn.ranks) {
            s += "<line x1=\"" + num(X(r)) + "\" y1=\"" + num(pt) + "\" x2=\"" + num(X(r)) +
                 "\" y2=\"" + num(pb) + "\" stroke=\"" + hex(grid) + "\"/>\n";
            s += text(X(r), pb + 14, std::to_string(r), "text-anchor=\"middle\"");
        }
        s += "<rect x=\"" + num(pl) + "\" y=\"" + num(pt) + "\" width=\"" + num(pr - pl) +
             "\" height=\"" + num(pb - pt) + "\" fill=\"none\" stroke=\"#888888\"/>\n";
        s += text((pl + pr) / 2, pb + 28, "GPUs (ranks)", "text-anchor=\"middle\"");
        s += text(x0 + 14, (pt + pb) / 2, "us per SpMV",
                  "text-anchor=\"middle\" transform=\"rotate(-90 " + num(x0 + 14) + " " +
                      num((pt + pb) / 2) + ")\"");
        // model bands and lines
        for (const auto& m : pn.model) {
            std::string poly;
            for (std::size_t i = 0; i < n; ++i) {
                poly += num(X(pn.ranks[i])) + "," + num(Y(m.task_best_us[i])) + " ";
            }
            for (std::size_t i = n; i-- > 0;) {
                poly += num(X(pn.ranks[i])) + "," + num(Y(m.task_worst_us[i])) + " ";
            }
            s += "<polygon points=\"" + poly + "\" fill=\"" + hex(m.colour) +
                 "\" fill-opacity=\"0.18\" stroke=\"" + hex(m.colour) +
                 "\" stroke-opacity=\"0.6\"><title>" + xml_escape(m.label) + ", task mode" +
                 "</title></polygon>\n";
            std::string line;
            for (std::size_t i = 0; i < n; ++i) {
                line += num(X(pn.ranks[i])) + "," + num(Y(m.vector_worst_us[i])) + " ";
            }
            s += "<polyline points=\"" + line + "\" fill=\"none\" stroke=\"" + hex(m.colour) +
                 "\" stroke-dasharray=\"5,3\"><title>" + xml_escape(m.label) +
                 ", vector mode, alpha = 1</title></polyline>\n";
        }
        if (t1 > 0.0) {
            s += "<line x1=\"" + num(X(pn.ranks.front())) + "\" y1=\"" +
                 num(Y(t1 / pn.ranks.front())) + "\" x2=\"" + num(X(pn.ranks.back())) +
                 "\" y2=\"" + num(Y(t1 / pn.ranks.back())) +
                 "\" stroke=\"#333333\" stroke-dasharray=\"1,3\"><title>ideal T1/P</title></line>\n";
        }
        // measured markers (small horizontal offsets keep the modes apart)
        for (const auto& m : pn.measured) {
            const double off = m.mode == "vector" ? -5.0 : m.mode == "overlap" ? 5.0 : 0.0;
            const double x = X(m.ranks) + off;
            const double y = Y(m.us);
            const std::string tip = "<title>" + xml_escape(m.mode + ", " + std::to_string(m.ranks) +
                                                           " rank(s): " + num(m.us) + " us") +
                                    "</title>";
            const std::string c = hex(m.colour);
            if (m.mode == "single") {
                s += "<polygon points=\"" + num(x) + "," + num(y - 6) + " " + num(x + 6) + "," +
                     num(y) + " " + num(x) + "," + num(y + 6) + " " + num(x - 6) + "," + num(y) +
                     "\" fill=\"" + c + "\">" + tip + "</polygon>\n";
            } else if (m.mode == "vector") {
                s += "<rect x=\"" + num(x - 4) + "\" y=\"" + num(y - 4) +
                     "\" width=\"8\" height=\"8\" fill=\"none\" stroke=\"" + c +
                     "\" stroke-width=\"1.6\">" + tip + "</rect>\n";
            } else if (m.mode == "overlap") {
                s += "<polygon points=\"" + num(x) + "," + num(y - 5) + " " + num(x + 5) + "," +
                     num(y + 4) + " " + num(x - 5) + "," + num(y + 4) + "\" fill=\"none\" stroke=\"" +
                     c + "\" stroke-width=\"1.6\">" + tip + "</polygon>\n";
            } else {
                s += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"4.5\" fill=\"" + c +
                     "\">" + tip + "</circle>\n";
            }
        }
        // legend: measured series, then the marker shapes
        double lx = x0 + 10;
        const double ly = y0 + o.panel_height_px - 12;
        for (const auto& [label, colour] : pn.legend) {
            s += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly - 9) + "\" width=\"10\" height=\"10\" fill=\"" +
                 hex(colour) + "\"/>\n";
            s += text(lx + 14, ly, label);
            lx += 24.0 + 6.2 * static_cast<double>(label.size());
        }
        s += text(lx, ly, "\u25cf task  \u25a1 vector  \u25b3 overlap  \u25c6 1 GPU",
                  "fill=\"#444444\"");
    }
    s += "</svg>\n";
    return s;
}

}  // namespace spmv::viz
