// Bench records -> Measurements (records.hpp). adapt_record is the only code of `spmvlab plot`
// that knows the record's field names.
#include "plot/records.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <tuple>

#include <spmv/error.hpp>
#include <spmv/host_device.hpp>

namespace spmvlab::plot {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

[[noreturn]] void bad(const std::string& where, const std::string& what)
{
    SPMV_THROW(spmv::InvalidArgument, where + ": " + what);
}

std::string str(const nlohmann::json& o, const char* key, const std::string& where,
                bool required, const std::string& fallback = {})
{
    const auto it = o.find(key);
    if (it == o.end() || it->is_null()) {
        if (required) bad(where, std::string("no \"") + key + "\" string");
        return fallback;
    }
    if (!it->is_string()) bad(where, std::string("\"") + key + "\" is not a string");
    return it->get<std::string>();
}

/// A number, NaN when absent or null (the recorder writes null for what it did not measure).
double number(const nlohmann::json& o, const char* key, const std::string& where)
{
    const auto it = o.find(key);
    if (it == o.end() || it->is_null()) return nan;
    if (!it->is_number()) bad(where, std::string("\"") + key + "\" is not a number");
    return it->get<double>();
}

}  // namespace

// ---- the adapter: every field name of the record schema is here ----
Record adapt_record(const nlohmann::json& j, const std::string& file)
{
    if (!j.is_object() || !j.contains("results") || !j["results"].is_array()) {
        bad(file, "not a bench record: no \"results\" array (write one with spmvlab bench "
                  "--json-out)");
    }
    Record r;
    r.run.file = file;
    // schema spmvlab/1 (meta.hpp: read_bench_json upgrades older records to it) keeps commit and
    // date in "meta"; records read without the upgrade have them at the top
    const auto& meta = j.contains("meta") && j["meta"].is_object() ? j["meta"] : j;
    r.run.device = str(j, "device", file, false, "unknown device");
    // the CPU under any name an earlier version wrote for it (spmv/host_device.hpp): one name,
    // so that an old and a new CPU record combine
    r.run.host = spmv::is_host_device_name(r.run.device);
    if (r.run.host) r.run.device = spmv::host_device_name();
    r.run.commit = str(meta, "commit", file, false, str(j, "commit", file, false, "?"));
    r.run.date = str(meta, "date", file, false, str(j, "date", file, false, "?"));
    r.run.cache_policy = str(j, "cache_policy", file, false);
    r.run.copy_bandwidth_gbs = number(j, "copy_bandwidth_gbs", file);
    const double c = number(j, "slice_height", file);
    const double br = number(j, "block_rows", file);
    r.run.params.slice_height = std::isfinite(c) ? static_cast<int>(std::lround(c)) : 32;
    r.run.params.block_rows = std::isfinite(br) ? static_cast<int>(std::lround(br)) : 32;
    if (j.contains("sigma")) {  // "auto" (0 here), "4", or a number
        const auto& s = j["sigma"];
        if (s.is_number_integer()) {
            r.run.params.sort_window = s.get<int>();
        } else if (s.is_string() && s.get<std::string>() == "auto") {
            r.run.params.sort_window = 0;
        } else if (s.is_string()) {
            try {
                r.run.params.sort_window = std::stoi(s.get<std::string>());
            } catch (const std::exception&) {
                bad(file, "\"sigma\" is neither auto nor a number");
            }
        }
    }
    if (j.contains("complete") && j["complete"].is_boolean() && !j["complete"].get<bool>()) {
        r.run.complete = false;
        const double done = number(j, "matrices_done", file);
        const double total = number(j, "matrices_total", file);
        if (std::isfinite(done) && std::isfinite(total)) {
            r.run.progress = std::to_string(std::lround(done)) + " of " +
                             std::to_string(std::lround(total)) + " matrices";
        }
    }
    const auto& results = j["results"];
    for (std::size_t k = 0; k < results.size(); ++k) {
        const std::string where = file + ": results[" + std::to_string(k) + "]";
        const auto& e = results[k];
        if (!e.is_object()) bad(where, "not an object");
        Measurement m;
        m.matrix = str(e, "matrix", where, true);
        m.variant = str(e, "format", where, true);
        const auto precision = str(e, "precision", where, true);
        if (precision == "dp" || precision == "double" || precision == "DP") {
            m.precision = "dp";  // the short form names the figures' files
        } else if (precision == "sp" || precision == "single" || precision == "SP") {
            m.precision = "sp";
        } else {
            bad(where, "precision '" + precision + "' (expected double or single)");
        }
        m.rows = static_cast<std::int64_t>(number(e, "rows", where));
        const double nnz = number(e, "nnz", where);
        if (!(nnz >= 0)) bad(where, "no \"nnz\" number");
        m.nnz = static_cast<std::int64_t>(nnz);
        const double ms = number(e, "median_ms", where);
        m.median_s = ms * 1e-3;
        m.min_bytes = number(e, "min_bytes", where);
        m.copy_bandwidth_gbs = r.run.copy_bandwidth_gbs;
        m.source = file;
        if (str(e, "basis", where, false) == "permuted") {
            ++r.permuted_basis;
            continue;
        }
        if (!str(e, "error", where, false).empty() || !(ms > 0)) {
            ++r.failed;
            continue;
        }
        r.ok.push_back(std::move(m));
    }
    return r;
}
// ---- end of the adapter ----

bool BenchData::host() const
{
    for (const auto& r : runs) {
        if (!r.host) return false;
    }
    return !runs.empty();
}

bool BenchData::gpu() const
{
    for (const auto& r : runs) {
        if (!(r.copy_bandwidth_gbs > 0)) return false;
    }
    return !runs.empty();
}

BenchData combine(std::vector<Record> records)
{
    BenchData d;
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    for (auto& r : records) {
        if (!d.runs.empty() && r.run.device != d.runs.front().device) {
            SPMV_THROW(spmv::InvalidArgument,
                       "records of different devices: '" + d.runs.front().device + "' (" +
                           d.runs.front().file + ") and '" + r.run.device + "' (" + r.run.file +
                           "); plot them separately");
        }
        d.runs.push_back(r.run);
        d.failed += r.failed;
        d.permuted_basis += r.permuted_basis;
        for (auto& m : r.ok) {
            if (!seen.insert({m.matrix, m.precision, m.variant}).second) {
                ++d.duplicates;
                continue;
            }
            d.rows.push_back(std::move(m));
        }
    }
    return d;
}

}  // namespace spmvlab::plot
