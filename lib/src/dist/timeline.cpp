// Event timelines of distributed SpMVs (Kreutzer et al. 2012, Fig. 4): names of the
// enumerations, the overlap measure (exact interval arithmetic) and the JSON round trip.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include <spmv/dist/timeline.hpp>
#include <spmv/error.hpp>

namespace spmv::dist {

namespace {

// ---------------------------------------------------------------------------------------------
// Names. One table per enumeration, used both ways, so that to_string and parse cannot drift.

template <typename Enum>
struct Named {
    Enum value;
    std::string_view name;
};

// The modes' names are mode.hpp's (to_string, parse_mode); this table only lets the JSON reader
// treat them like the other enumerations.
constexpr auto mode_names = [] {
    std::array<Named<Mode>, all_modes.size()> t{};
    for (std::size_t i = 0; i < all_modes.size(); ++i) {
        t[i] = {all_modes[i], to_string(all_modes[i])};
    }
    return t;
}();

constexpr std::array<Named<Phase>, 11> phase_names{{
    {Phase::local, "local"},
    {Phase::nonlocal, "nonlocal"},
    {Phase::pack, "pack"},
    {Phase::copy_d2h, "copy_d2h"},
    {Phase::copy_h2d, "copy_h2d"},
    {Phase::post, "post"},
    {Phase::wait, "wait"},
    {Phase::exchange, "exchange"},
    {Phase::reduce, "reduce"},
    {Phase::idle, "idle"},
    {Phase::copy_peer, "copy_peer"},
}};

constexpr std::array<Named<Lane>, 3> lane_names{{
    {Lane::compute, "compute"},
    {Lane::comm, "comm"},
    {Lane::gpu, "gpu"},
}};

template <typename Enum, std::size_t n>
std::string_view name_of(const std::array<Named<Enum>, n>& table, Enum value) noexcept
{
    for (const auto& entry : table) {
        if (entry.value == value) return entry.name;
    }
    return "unknown";
}

template <typename Enum, std::size_t n>
std::optional<Enum> find_by_name(const std::array<Named<Enum>, n>& table, std::string_view name)
{
    for (const auto& entry : table) {
        if (entry.name == name) return entry.value;
    }
    return std::nullopt;
}

/// "'vector', 'overlap', 'task'": the accepted names, for error messages.
template <typename Enum, std::size_t n>
std::string known_names(const std::array<Named<Enum>, n>& table)
{
    std::string s;
    for (const auto& entry : table) {
        if (!s.empty()) s += ", ";
        s += "'" + std::string(entry.name) + "'";
    }
    return s;
}

template <typename Enum, std::size_t n>
Enum parse_name(const std::array<Named<Enum>, n>& table, std::string_view name,
                const char* what)
{
    if (auto v = find_by_name(table, name)) return *v;
    SPMV_THROW(InvalidArgument, "unknown " + std::string(what) + " '" + std::string(name) +
                                    "'; known: " + known_names(table));
}

// ---------------------------------------------------------------------------------------------
// Interval arithmetic on unions of half-open intervals [begin, end).

using Interval = std::pair<double, double>;
using Intervals = std::vector<Interval>;

/// The union of `v` as sorted, disjoint, non-empty intervals ([0,2) and [2,3) merge).
Intervals merged(Intervals v)
{
    std::erase_if(v, [](const Interval& i) { return !(i.second > i.first); });
    std::sort(v.begin(), v.end());
    Intervals out;
    for (const auto& i : v) {
        if (!out.empty() && i.first <= out.back().second) {
            out.back().second = std::max(out.back().second, i.second);
        } else {
            out.push_back(i);
        }
    }
    return out;
}

/// Intersection of two merged unions (two-pointer sweep; the result is merged too).
Intervals intersected(const Intervals& a, const Intervals& b)
{
    Intervals out;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const double lo = std::max(a[i].first, b[j].first);
        const double hi = std::min(a[i].second, b[j].second);
        if (hi > lo) out.emplace_back(lo, hi);
        // Drop whichever interval ends first: it cannot meet anything further in the other list.
        if (a[i].second < b[j].second) {
            ++i;
        } else {
            ++j;
        }
    }
    return out;
}

double length(const Intervals& merged_union) noexcept
{
    double sum = 0.0;
    for (const auto& i : merged_union) sum += i.second - i.first;
    return sum;
}

constexpr std::size_t num_lanes = 3;

std::size_t lane_index(Lane l)
{
    const auto i = static_cast<std::size_t>(l);
    SPMV_EXPECTS(i < num_lanes, "timeline event on an unknown lane");
    return i;
}

/// Exchange-type and compute intervals of one (rank, iteration), per lane.
struct LaneIntervals {
    std::array<Intervals, num_lanes> exchange;
    std::array<Intervals, num_lanes> compute;
};

// ---------------------------------------------------------------------------------------------
// JSON reading helpers: every error names where it happened ("timeline 0, event 3: ...").

using nlohmann::json;
using nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& where, const std::string& what)
{
    SPMV_THROW(InvalidArgument, "timeline JSON: " + where + ": " + what);
}

const json& required(const json& object, const char* key, const std::string& where)
{
    const auto it = object.find(key);
    if (it == object.end()) fail(where, "missing key '" + std::string(key) + "'");
    return *it;
}

int read_int(const json& object, const char* key, const std::string& where)
{
    const json& v = required(object, key, where);
    if (!v.is_number_integer()) {
        fail(where, "key '" + std::string(key) + "' must be an integer, not " + v.dump());
    }
    const auto wide = v.get<std::int64_t>();
    if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
        fail(where, "key '" + std::string(key) + "' out of range: " + v.dump());
    }
    return static_cast<int>(wide);
}

double read_time(const json& object, const char* key, const std::string& where)
{
    const json& v = required(object, key, where);
    if (!v.is_number()) {
        fail(where, "key '" + std::string(key) + "' must be a number, not " + v.dump());
    }
    const auto d = v.get<double>();
    if (!std::isfinite(d)) fail(where, "key '" + std::string(key) + "' is not finite");
    return d;
}

std::string read_string(const json& object, const char* key, const std::string& where)
{
    const json& v = required(object, key, where);
    if (!v.is_string()) {
        fail(where, "key '" + std::string(key) + "' must be a string, not " + v.dump());
    }
    return v.get<std::string>();
}

/// A text field that may be left out (then "").
std::string read_optional_string(const json& object, const char* key, const std::string& where)
{
    return object.contains(key) ? read_string(object, key, where) : std::string();
}

template <typename Enum, std::size_t n>
Enum read_enum(const json& object, const char* key, const std::string& where,
               const std::array<Named<Enum>, n>& table)
{
    const std::string name = read_string(object, key, where);
    if (auto v = find_by_name(table, name)) return *v;
    fail(where, "key '" + std::string(key) + "': unknown " + key + " '" + name + "'; known: " +
                    known_names(table));
}

TimelineEvent read_event(const json& e, const std::string& where, int num_ranks)
{
    if (!e.is_object()) fail(where, "an event must be an object, not " + e.dump());
    TimelineEvent ev;
    ev.rank = read_int(e, "rank", where);
    if (ev.rank < 0 || ev.rank >= num_ranks) {
        fail(where, "key 'rank': " + std::to_string(ev.rank) + " is not in [0, num_ranks = " +
                        std::to_string(num_ranks) + ")");
    }
    ev.lane = read_enum(e, "lane", where, lane_names);
    ev.phase = read_enum(e, "phase", where, phase_names);
    ev.iteration = read_int(e, "iteration", where);
    if (ev.iteration < 0) {
        fail(where, "key 'iteration': " + std::to_string(ev.iteration) + " is negative");
    }
    ev.begin_us = read_time(e, "begin_us", where);
    ev.end_us = read_time(e, "end_us", where);
    if (ev.end_us < ev.begin_us) {
        fail(where, "key 'end_us': the event ends (" + json(ev.end_us).dump() +
                        ") before it begins (" + json(ev.begin_us).dump() + ")");
    }
    return ev;
}

Timeline read_timeline(const json& t, const std::string& where)
{
    if (!t.is_object()) {
        fail(where, "a timeline must be an object, not a " + std::string(t.type_name()));
    }
    if (t.contains("schema")) {
        const std::string schema = read_string(t, "schema", where);
        if (schema != timeline_schema) {
            fail(where, "key 'schema': '" + schema + "' is not '" + std::string(timeline_schema) +
                            "'");
        }
    }
    Timeline tl;
    tl.mode = read_enum(t, "mode", where, mode_names);
    tl.num_ranks = read_int(t, "num_ranks", where);
    if (tl.num_ranks < 1) fail(where, "key 'num_ranks' must be at least 1");
    tl.matrix = read_optional_string(t, "matrix", where);
    tl.format = read_optional_string(t, "format", where);
    tl.partition = read_optional_string(t, "partition", where);
    tl.device = read_optional_string(t, "device", where);
    tl.precision = read_optional_string(t, "precision", where);
    tl.date = read_optional_string(t, "date", where);
    tl.commit = read_optional_string(t, "commit", where);
    if (t.contains("predicted")) {
        const json& p = t["predicted"];
        if (!p.is_boolean()) fail(where, "key 'predicted' must be true or false, not " + p.dump());
        tl.predicted = p.get<bool>();
    }
    const json& events = required(t, "events", where);
    if (!events.is_array()) fail(where, "key 'events' must be an array");
    tl.events.reserve(events.size());
    for (std::size_t k = 0; k < events.size(); ++k) {
        tl.events.push_back(
            read_event(events[k], where + ", event " + std::to_string(k), tl.num_ranks));
    }
    return tl;
}

/// One event on one line: {"rank":0,"lane":"compute",...}.
std::string event_json(const TimelineEvent& e)
{
    ordered_json j;
    j["rank"] = e.rank;
    j["lane"] = to_string(e.lane);
    j["phase"] = to_string(e.phase);
    j["iteration"] = e.iteration;
    j["begin_us"] = e.begin_us;
    j["end_us"] = e.end_us;
    return j.dump();
}

}  // namespace

std::string_view to_string(Phase p)
{
    return name_of(phase_names, p);
}

Phase parse_phase(std::string_view name)
{
    return parse_name(phase_names, name, "phase");
}

std::string_view to_string(Lane l)
{
    return name_of(lane_names, l);
}

Lane parse_lane(std::string_view name)
{
    return parse_name(lane_names, name, "lane");
}

double Timeline::span_us() const noexcept
{
    if (events.empty()) return 0.0;
    double first = events.front().begin_us;
    double last = events.front().end_us;
    for (const auto& e : events) {
        first = std::min(first, e.begin_us);
        last = std::max(last, e.end_us);
    }
    return last - first;
}

bool is_exchange_phase(Phase p) noexcept
{
    switch (p) {
        case Phase::post:
        case Phase::wait:
        case Phase::exchange:
        case Phase::pack:
        case Phase::copy_d2h:
        case Phase::copy_h2d:
        case Phase::copy_peer:
            return true;
        default:
            return false;
    }
}

bool is_compute_phase(Phase p) noexcept
{
    return p == Phase::local || p == Phase::nonlocal;
}

std::vector<int> iterations(const Timeline& t)
{
    std::vector<int> its;
    its.reserve(t.events.size());
    for (const auto& e : t.events) its.push_back(e.iteration);
    std::sort(its.begin(), its.end());
    its.erase(std::unique(its.begin(), its.end()), its.end());
    return its;
}

OverlapTimes overlap_times(const Timeline& t, int rank, int iteration)
{
    // Group the intervals by (rank, iteration): events of different groups never hide each other.
    std::map<std::pair<int, int>, LaneIntervals> groups;
    for (std::size_t k = 0; k < t.events.size(); ++k) {
        const auto& e = t.events[k];
        if (!std::isfinite(e.begin_us) || !std::isfinite(e.end_us) || e.end_us < e.begin_us) {
            SPMV_THROW(InvalidArgument, "overlap_times: event " + std::to_string(k) +
                                            " has no valid time interval [" +
                                            std::to_string(e.begin_us) + ", " +
                                            std::to_string(e.end_us) + ")");
        }
        if ((rank >= 0 && e.rank != rank) || (iteration >= 0 && e.iteration != iteration)) {
            continue;
        }
        const bool exchange = is_exchange_phase(e.phase);
        if (!exchange && !is_compute_phase(e.phase)) continue;
        auto& g = groups[{e.rank, e.iteration}];
        auto& lanes = exchange ? g.exchange : g.compute;
        lanes[lane_index(e.lane)].emplace_back(e.begin_us, e.end_us);
    }

    OverlapTimes sum;
    for (auto& [key, g] : groups) {
        Intervals all_exchange;
        Intervals hidden;
        for (std::size_t l = 0; l < num_lanes; ++l) {
            const Intervals x = merged(g.exchange[l]);
            all_exchange.insert(all_exchange.end(), x.begin(), x.end());
            Intervals other_compute;
            for (std::size_t m = 0; m < num_lanes; ++m) {
                if (m != l) {
                    other_compute.insert(other_compute.end(), g.compute[m].begin(),
                                         g.compute[m].end());
                }
            }
            const Intervals h = intersected(x, merged(std::move(other_compute)));
            hidden.insert(hidden.end(), h.begin(), h.end());
        }
        sum.exchange_us += length(merged(std::move(all_exchange)));
        sum.hidden_us += length(merged(std::move(hidden)));
    }
    return sum;
}

double overlapped_fraction(const Timeline& t, int rank, int iteration)
{
    const OverlapTimes o = overlap_times(t, rank, iteration);
    return o.exchange_us > 0.0 ? o.hidden_us / o.exchange_us : 0.0;
}

std::string to_json(const std::vector<Timeline>& timelines)
{
    // Written by hand around nlohmann's value dumps so that the header keys come in a fixed,
    // readable order and every event stays on one line (files with thousands of events stay
    // greppable); each value itself is dumped by nlohmann (escaping, round-trip doubles).
    std::string out = "[";
    for (std::size_t i = 0; i < timelines.size(); ++i) {
        const auto& t = timelines[i];
        out += i == 0 ? "\n  {\n" : ",\n  {\n";
        const auto field = [&out](const char* key, const ordered_json& value) {
            // A name that is not valid UTF-8 (a Latin-1 file name) gets U+FFFD, not an error.
            out += "    \"" + std::string(key) + "\": " +
                   value.dump(-1, ' ', false, ordered_json::error_handler_t::replace) + ",\n";
        };
        field("schema", timeline_schema);
        field("mode", to_string(t.mode));
        field("num_ranks", t.num_ranks);
        field("matrix", t.matrix);
        field("format", t.format);
        field("partition", t.partition);
        field("device", t.device);
        field("precision", t.precision);
        field("date", t.date);
        field("commit", t.commit);
        field("predicted", t.predicted);
        out += "    \"events\": [";
        for (std::size_t k = 0; k < t.events.size(); ++k) {
            out += k == 0 ? "\n      " : ",\n      ";
            out += event_json(t.events[k]);
        }
        out += t.events.empty() ? "]\n  }" : "\n    ]\n  }";
    }
    out += timelines.empty() ? "]\n" : "\n]\n";
    return out;
}

std::vector<Timeline> timelines_from_json(std::string_view text)
{
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {
        SPMV_THROW(InvalidArgument, std::string("timeline JSON: not valid JSON: ") + e.what());
    }
    std::vector<Timeline> out;
    if (doc.is_object()) {
        out.push_back(read_timeline(doc, "timeline 0"));
    } else if (doc.is_array()) {
        out.reserve(doc.size());
        for (std::size_t i = 0; i < doc.size(); ++i) {
            out.push_back(read_timeline(doc[i], "timeline " + std::to_string(i)));
        }
    } else {
        SPMV_THROW(InvalidArgument, "timeline JSON: expected an object or an array, not a " +
                                        std::string(doc.type_name()));
    }
    return out;
}

}  // namespace spmv::dist
