// Measured warp timelines: reader/validator, writer, per-launch summary and the pairing with the
// model's warps (warp_timeline.hpp).
#include <spmv/analysis/warp_timeline.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include <spmv/error.hpp>

namespace spmv::analysis {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

struct Reader {
    std::string source;

    [[noreturn]] void fail(const std::string& where, const std::string& what) const
    {
        SPMV_THROW(InvalidArgument,
                   "warp timeline " + source + ": " + (where.empty() ? "" : where + ": ") + what);
    }

    const json& required(const json& o, const char* key, const std::string& where) const
    {
        if (!o.is_object()) fail(where, "expected an object");
        const auto it = o.find(key);
        if (it == o.end()) fail(where, "missing key '" + std::string(key) + "'");
        return *it;
    }

    std::string text(const json& o, const char* key, const std::string& where,
                     bool needed = false) const
    {
        const auto it = o.find(key);
        if (it == o.end() || it->is_null()) {
            if (needed) fail(where, "missing key '" + std::string(key) + "'");
            return {};
        }
        if (!it->is_string()) fail(where, "key '" + std::string(key) + "': not a string");
        return it->get<std::string>();
    }

    double number(const json& v, const char* key, const std::string& where) const
    {
        if (!v.is_number()) fail(where, "key '" + std::string(key) + "': not a number");
        const double d = v.get<double>();
        if (!std::isfinite(d)) fail(where, "key '" + std::string(key) + "': not finite");
        return d;
    }

    std::int64_t integer(const json& v, const char* key, const std::string& where,
                         std::int64_t lo) const
    {
        if (!v.is_number_integer()) {
            fail(where, "key '" + std::string(key) + "': not an integer");
        }
        const auto i = v.get<std::int64_t>();
        if (i < lo) {
            fail(where, "key '" + std::string(key) + "': " + std::to_string(i) + " is below " +
                            std::to_string(lo));
        }
        return i;
    }

    std::int64_t integer(const json& o, const char* key, const std::string& where,
                         std::int64_t lo, std::int64_t fallback) const
    {
        const auto it = o.find(key);
        if (it == o.end() || it->is_null()) return fallback;
        return integer(*it, key, where, lo);
    }

    const json& array(const json& o, const char* key, const std::string& where) const
    {
        const json& a = required(o, key, where);
        if (!a.is_array()) fail(where, "key '" + std::string(key) + "': not an array");
        return a;
    }
};

// "line L, column C" of byte offset `pos` (1-based) in `text`.
std::string line_column(std::string_view text, std::size_t pos)
{
    pos = std::min(pos, text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < pos; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

MeasuredWarp read_warp(const Reader& r, const json& w, const std::string& where,
                       const MeasuredLaunch& l, int multiprocessors)
{
    MeasuredWarp m;
    const std::int64_t warps_per_block = (l.threads_per_block + 31) / 32;
    const auto block = r.integer(r.required(w, "block", where), "block", where, 0);
    if (block >= l.blocks) {
        r.fail(where, "key 'block': " + std::to_string(block) + " is not below the launch's " +
                          std::to_string(l.blocks) + " blocks");
    }
    const auto warp = r.integer(r.required(w, "warp", where), "warp", where, 0);
    if (warp >= warps_per_block) {
        r.fail(where, "key 'warp': " + std::to_string(warp) + " is not below the " +
                          std::to_string(warps_per_block) + " warps of a block of " +
                          std::to_string(l.threads_per_block) + " threads");
    }
    const auto sm = r.integer(r.required(w, "sm", where), "sm", where, 0);
    if (multiprocessors > 0 && sm >= multiprocessors) {
        r.fail(where, "key 'sm': " + std::to_string(sm) + " is not below the device's " +
                          std::to_string(multiprocessors) + " multiprocessors");
    }
    m.block = static_cast<int>(block);
    m.warp = static_cast<int>(warp);
    m.sm = static_cast<int>(sm);
    m.start_ns = r.number(r.required(w, "start_ns", where), "start_ns", where);
    m.end_ns = r.number(r.required(w, "end_ns", where), "end_ns", where);
    if (m.start_ns < 0) r.fail(where, "key 'start_ns': negative");
    if (m.end_ns < m.start_ns) {
        std::ostringstream s;
        s << "key 'end_ns': " << m.end_ns << " is before start_ns " << m.start_ns;
        r.fail(where, s.str());
    }
    if (const auto it = w.find("cycles"); it != w.end() && !it->is_null()) {
        m.cycles = r.number(*it, "cycles", where);
        if (m.cycles < 0) r.fail(where, "key 'cycles': negative");
    }
    const bool has_begin = w.contains("row_begin") && !w["row_begin"].is_null();
    const bool has_end = w.contains("row_end") && !w["row_end"].is_null();
    if (has_begin != has_end) {
        r.fail(where, std::string("key '") + (has_begin ? "row_end" : "row_begin") +
                          "' missing: give both row_begin and row_end or neither");
    }
    if (has_begin) {
        m.row_begin = r.integer(w["row_begin"], "row_begin", where, 0);
        m.row_end = r.integer(w["row_end"], "row_end", where, m.row_begin);
    }
    return m;
}

}  // namespace

double MeasuredLaunch::span_ns() const noexcept
{
    double s = 0.0;
    for (const auto& w : warps) s = std::max(s, w.end_ns);
    return s;
}

WarpTimeline read_warp_timeline(std::string_view text, std::string_view source)
{
    const Reader r{std::string(source)};
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        r.fail(line_column(text, e.byte > 0 ? e.byte - 1 : 0),
               std::string("not valid JSON (") + e.what() + ")");
    }
    if (!doc.is_object()) r.fail("", "expected a JSON object");
    const std::string schema = r.text(doc, "schema", "", true);
    if (schema != warp_timeline_schema) {
        r.fail("", "key 'schema': '" + schema + "' is not " + std::string(warp_timeline_schema));
    }
    WarpTimeline t;
    t.device = r.text(doc, "device", "");
    t.precision = r.text(doc, "precision", "");
    t.matrix = r.text(doc, "matrix", "");
    t.date = r.text(doc, "date", "");
    t.commit = r.text(doc, "commit", "");
    t.rows = r.integer(doc, "rows", "", 0, 0);
    t.cols = r.integer(doc, "cols", "", 0, 0);
    t.nnz = r.integer(doc, "nnz", "", 0, 0);
    t.multiprocessors = static_cast<int>(r.integer(doc, "multiprocessors", "", 0, 0));
    if (const auto it = doc.find("sm_clock_khz"); it != doc.end() && !it->is_null()) {
        t.sm_clock_khz = r.number(*it, "sm_clock_khz", "");
    }
    if (const auto it = doc.find("synthetic"); it != doc.end()) {
        if (!it->is_boolean()) r.fail("", "key 'synthetic': not true or false");
        t.synthetic = it->get<bool>();
    }
    const json& variants = r.array(doc, "variants", "");
    if (variants.empty()) r.fail("", "key 'variants': empty (no variant was traced)");
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const std::string wv = "variants[" + std::to_string(i) + "]";
        const json& v = variants[i];
        TimelineVariant tv;
        tv.variant = r.text(v, "variant", wv, true);
        tv.format = r.text(v, "format", wv, true);
        const json& launches = r.array(v, "launches", wv);
        for (std::size_t j = 0; j < launches.size(); ++j) {
            const std::string wl = wv + ".launches[" + std::to_string(j) + "]";
            const json& l = launches[j];
            MeasuredLaunch ml;
            ml.index = static_cast<int>(j);
            ml.kernel = r.text(l, "kernel", wl, true);
            ml.blocks = r.integer(r.required(l, "blocks", wl), "blocks", wl, 0);
            ml.threads_per_block = static_cast<int>(
                r.integer(r.required(l, "threads_per_block", wl), "threads_per_block", wl, 1));
            ml.expected_warps =
                r.integer(r.required(l, "expected_warps", wl), "expected_warps", wl, 0);
            if (const auto it = l.find("offset_ns"); it != l.end() && !it->is_null()) {
                ml.offset_ns = r.number(*it, "offset_ns", wl);
            }
            const json& warps = r.array(l, "warps", wl);
            for (std::size_t k = 0; k < warps.size(); ++k) {
                ml.warps.push_back(read_warp(r, warps[k], wl + ".warps[" + std::to_string(k) + "]",
                                             ml, t.multiprocessors));
            }
            tv.launches.push_back(std::move(ml));
        }
        if (const auto it = v.find("model"); it != v.end() && !it->is_null()) {
            const std::string wm = wv + ".model";
            tv.model_warp_size =
                static_cast<int>(r.integer(r.required(*it, "warp_size", wm), "warp_size", wm, 1));
            const json& mw = r.array(*it, "warps", wm);
            std::int64_t next = 0;
            for (std::size_t k = 0; k < mw.size(); ++k) {
                const std::string ww = wm + ".warps[" + std::to_string(k) + "]";
                const json& w = mw[k];
                ModelWarp m;
                m.first_thread = r.integer(r.required(w, "first_thread", ww), "first_thread", ww, 0);
                m.threads = r.integer(r.required(w, "threads", ww), "threads", ww, 0);
                m.max_iterations =
                    r.integer(r.required(w, "max_iterations", ww), "max_iterations", ww, 0);
                m.useful = r.integer(r.required(w, "useful", ww), "useful", ww, 0);
                m.idle_slots = r.integer(r.required(w, "idle_slots", ww), "idle_slots", ww, 0);
                m.stored_padding =
                    r.integer(r.required(w, "stored_padding", ww), "stored_padding", ww, 0);
                if (m.first_thread < next) {
                    r.fail(ww, "key 'first_thread': " + std::to_string(m.first_thread) +
                                   " overlaps the warp before (threads from " +
                                   std::to_string(next) + " on expected)");
                }
                next = m.first_thread + m.threads;
                tv.model.push_back(m);
            }
        }
        t.variants.push_back(std::move(tv));
    }
    return t;
}

WarpTimeline load_warp_timeline(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        SPMV_THROW(InvalidArgument, "warp timeline " + path + ": cannot open the file");
    }
    std::ostringstream s;
    s << in.rdbuf();
    return read_warp_timeline(s.str(), path);
}

std::string to_json(const WarpTimeline& t)
{
    ordered_json j;
    j["schema"] = warp_timeline_schema;
    j["device"] = t.device;
    j["precision"] = t.precision;
    j["matrix"] = t.matrix;
    j["rows"] = t.rows;
    j["cols"] = t.cols;
    j["nnz"] = t.nnz;
    j["date"] = t.date;
    j["commit"] = t.commit;
    j["multiprocessors"] = t.multiprocessors;
    j["sm_clock_khz"] = t.sm_clock_khz;
    if (t.synthetic) j["synthetic"] = true;
    j["variants"] = ordered_json::array();
    for (const auto& v : t.variants) {
        ordered_json jv;
        jv["variant"] = v.variant;
        jv["format"] = v.format;
        jv["launches"] = ordered_json::array();
        for (const auto& l : v.launches) {
            ordered_json jl;
            jl["index"] = l.index;
            jl["kernel"] = l.kernel;
            jl["blocks"] = l.blocks;
            jl["threads_per_block"] = l.threads_per_block;
            jl["expected_warps"] = l.expected_warps;
            jl["recorded_warps"] = l.warps.size();
            jl["offset_ns"] = l.offset_ns;
            jl["span_ns"] = l.span_ns();
            jl["warps"] = ordered_json::array();
            for (const auto& w : l.warps) {
                ordered_json jw;
                jw["block"] = w.block;
                jw["warp"] = w.warp;
                jw["sm"] = w.sm;
                jw["start_ns"] = w.start_ns;
                jw["end_ns"] = w.end_ns;
                if (w.cycles >= 0) jw["cycles"] = w.cycles;
                if (w.row_begin >= 0) {
                    jw["row_begin"] = w.row_begin;
                    jw["row_end"] = w.row_end;
                }
                jl["warps"].push_back(std::move(jw));
            }
            jv["launches"].push_back(std::move(jl));
        }
        if (!v.model.empty()) {
            ordered_json jm;
            jm["warp_size"] = v.model_warp_size;
            jm["source"] = "spmv::analysis::analyze_warps of the variant's host format";
            jm["warps"] = ordered_json::array();
            for (const auto& m : v.model) {
                jm["warps"].push_back({{"first_thread", m.first_thread},
                                       {"threads", m.threads},
                                       {"max_iterations", m.max_iterations},
                                       {"useful", m.useful},
                                       {"idle_slots", m.idle_slots},
                                       {"stored_padding", m.stored_padding}});
            }
            jv["model"] = std::move(jm);
        }
        j["variants"].push_back(std::move(jv));
    }
    // one warp per line: a reader's "line N" then points at a warp, and diffs stay readable
    std::string out = "{\n";
    bool first_key = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        out += first_key ? "" : ",\n";
        first_key = false;
        out += "  " + ordered_json(it.key()).dump() + ": ";
        if (it.key() != "variants") {
            out += it.value().dump();
            continue;
        }
        out += "[\n";
        for (std::size_t i = 0; i < it.value().size(); ++i) {
            const auto& jv = it.value()[i];
            out += "    {";
            bool fk = true;
            for (auto kv = jv.begin(); kv != jv.end(); ++kv) {
                out += fk ? "\n" : ",\n";
                fk = false;
                out += "      " + ordered_json(kv.key()).dump() + ": ";
                if (kv.key() == "launches" || kv.key() == "model") {
                    // their "warps" arrays one element per line
                    const auto dump_with_warps = [&out](const ordered_json& o,
                                                        const std::string& indent) {
                        out += "{";
                        bool f = true;
                        for (auto e = o.begin(); e != o.end(); ++e) {
                            out += f ? "\n" : ",\n";
                            f = false;
                            out += indent + "  " + ordered_json(e.key()).dump() + ": ";
                            if (e.key() == "warps") {
                                out += "[";
                                for (std::size_t w = 0; w < e.value().size(); ++w) {
                                    out += (w == 0 ? "\n" : ",\n") + indent + "    " +
                                           e.value()[w].dump();
                                }
                                out += e.value().empty() ? "]" : "\n" + indent + "  ]";
                            } else {
                                out += e.value().dump();
                            }
                        }
                        out += "\n" + indent + "}";
                    };
                    if (kv.key() == "model") {
                        dump_with_warps(kv.value(), "      ");
                    } else {
                        out += "[";
                        for (std::size_t l = 0; l < kv.value().size(); ++l) {
                            out += (l == 0 ? "\n" : ",\n") + std::string("        ");
                            dump_with_warps(kv.value()[l], "        ");
                        }
                        out += kv.value().empty() ? "]" : "\n      ]";
                    }
                } else {
                    out += kv.value().dump();
                }
            }
            out += "\n    }";
            out += i + 1 < it.value().size() ? ",\n" : "\n";
        }
        out += "  ]";
    }
    return out + "\n}\n";
}

LaunchSummary summarize(const MeasuredLaunch& launch)
{
    SPMV_EXPECTS(!launch.warps.empty(),
                 "summarize: launch " + std::to_string(launch.index) + " (" + launch.kernel +
                     ") has no warps");
    LaunchSummary s;
    s.warps = launch.warps.size();
    std::vector<double> d;
    std::set<int> sms;
    for (std::size_t i = 0; i < launch.warps.size(); ++i) {
        const auto& w = launch.warps[i];
        d.push_back(w.duration_ns());
        sms.insert(w.sm);
        if (w.duration_ns() > launch.warps[s.longest].duration_ns()) s.longest = i;
        if (w.end_ns > launch.warps[s.last_end].end_ns) s.last_end = i;
        s.span_ns = std::max(s.span_ns, w.end_ns);
    }
    s.max_duration_ns = launch.warps[s.longest].duration_ns();
    std::sort(d.begin(), d.end());
    const std::size_t n = d.size();
    s.median_duration_ns = n % 2 == 1 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]);
    s.longest_over_median =
        s.median_duration_ns > 0 ? s.max_duration_ns / s.median_duration_ns : 0.0;
    s.sms_used = static_cast<int>(sms.size());
    return s;
}

TimelinePairing pair_warps(const TimelineVariant& v, std::size_t launch)
{
    SPMV_EXPECTS(launch < v.launches.size(),
                 "pair_warps: variant " + v.variant + " has " +
                     std::to_string(v.launches.size()) + " launch(es), not " +
                     std::to_string(launch + 1));
    TimelinePairing p;
    p.launch = launch;
    const auto& warps = v.launches[launch].warps;
    std::vector<double> dur, iters;
    for (std::size_t i = 0; i < warps.size(); ++i) {
        WarpPair pair;
        pair.measured = i;
        const auto& w = warps[i];
        if (w.has_rows() && !v.model.empty()) {
            // the model warp holding thread row_begin: the last one starting at or before it
            const auto it = std::upper_bound(
                v.model.begin(), v.model.end(), w.row_begin,
                [](std::int64_t row, const ModelWarp& m) { return row < m.first_thread; });
            if (it != v.model.begin()) {
                const auto k = static_cast<std::size_t>(it - v.model.begin()) - 1;
                const auto& m = v.model[k];
                if (w.row_begin < m.first_thread + m.threads) {
                    pair.model = static_cast<std::int64_t>(k);
                    pair.exact = m.first_thread == w.row_begin &&
                                 m.first_thread + m.threads == w.row_end;
                    ++p.paired;
                    p.exact += pair.exact ? 1 : 0;
                    dur.push_back(w.duration_ns());
                    iters.push_back(static_cast<double>(m.max_iterations));
                }
            }
        }
        p.pairs.push_back(pair);
    }
    p.correlation = std::numeric_limits<double>::quiet_NaN();
    if (dur.size() >= 2) {
        const double n = static_cast<double>(dur.size());
        double md = 0, mi = 0;
        for (std::size_t i = 0; i < dur.size(); ++i) {
            md += dur[i] / n;
            mi += iters[i] / n;
        }
        double sdd = 0, sii = 0, sdi = 0;
        for (std::size_t i = 0; i < dur.size(); ++i) {
            sdd += (dur[i] - md) * (dur[i] - md);
            sii += (iters[i] - mi) * (iters[i] - mi);
            sdi += (dur[i] - md) * (iters[i] - mi);
        }
        if (sdd > 0 && sii > 0) p.correlation = sdi / std::sqrt(sdd * sii);
    }
    return p;
}

std::optional<TimelinePairing> best_pairing(const TimelineVariant& v)
{
    std::optional<TimelinePairing> best;
    if (v.model.empty()) return best;
    for (std::size_t l = 0; l < v.launches.size(); ++l) {
        auto p = pair_warps(v, l);
        if (p.paired == 0) continue;
        const auto key = [&v](const TimelinePairing& q) {
            return std::make_tuple(q.exact, q.paired, v.launches[q.launch].span_ns());
        };
        if (!best || key(p) > key(*best)) best = std::move(p);
    }
    return best;
}

}  // namespace spmv::analysis
