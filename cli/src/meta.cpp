#include "meta.hpp"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/device.hpp>

#include "common.hpp"
#include "hash.hpp"

// Build facts (cli/CMakeLists.txt sets them on this file); a build without them says so.
#ifndef SPMVLAB_CXX_COMPILER
#define SPMVLAB_CXX_COMPILER "unknown"
#endif
#ifndef SPMVLAB_CXX_FLAGS
#define SPMVLAB_CXX_FLAGS ""
#endif
#ifndef SPMVLAB_BUILD_TYPE
#define SPMVLAB_BUILD_TYPE ""
#endif

namespace spmvlab {
namespace {

std::vector<std::string>& command_line()
{
    static std::vector<std::string> argv;
    return argv;
}

std::string trim(std::string s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    std::size_t k = 0;
    while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
    return s.substr(k);
}

nlohmann::json host_name()
{
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return nullptr;
    return std::string(buf);
}

/// /proc/cpuinfo's "model name" (x86), else its "Hardware" or "Processor" line (ARM); null
/// where there is none (not Linux).
nlohmann::json cpu_model()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line, fallback;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        const auto key = trim(line.substr(0, colon));
        const auto value = trim(line.substr(colon + 1));
        if (key == "model name" && !value.empty()) return value;
        if ((key == "Hardware" || key == "Processor") && fallback.empty()) fallback = value;
    }
    return fallback.empty() ? nlohmann::json(nullptr) : nlohmann::json(fallback);
}

/// CUDA's version encoding 12040 -> "12.4" (runtime, driver); null for 0 (unknown).
nlohmann::json cuda_version(int v)
{
    if (v <= 0) return nullptr;
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

/// The tool version of version_string() ("spmvlab 0.1.0 (commit ...)" -> "0.1.0").
std::string tool_version()
{
    const auto s = version_string();
    const auto a = s.find(' ');
    const auto b = s.find(' ', a + 1);
    return a == std::string::npos ? s : s.substr(a + 1, b == std::string::npos ? b : b - a - 1);
}

}  // namespace

void set_command_line(int argc, const char* const* argv)
{
    auto& v = command_line();
    v.assign(argv, argv + argc);
}

std::vector<std::string> input_strings(const std::vector<std::filesystem::path>& inputs)
{
    std::vector<std::string> out;
    for (const auto& p : inputs) out.push_back(p.string());
    return out;
}

nlohmann::json input_meta(const std::string& input)
{
    if (spmv::gen::is_spec(input)) {
        return {{"spec", input}, {"path", nullptr}, {"bytes", nullptr}, {"sha256", nullptr}};
    }
    nlohmann::json j = {{"path", input}, {"bytes", nullptr}, {"sha256", nullptr}};
    std::error_code ec;
    const auto size = std::filesystem::file_size(input, ec);
    if (!ec) j["bytes"] = size;
    try {
        j["sha256"] = sha256_file(input);
    } catch (const spmv::NotCompiled&) {
        j["sha256_note"] = "not computed: this build has no OpenSSL (libssl-dev)";
    } catch (const std::exception& e) {
        j["sha256_note"] = "not computed: " + user_message(e.what());
    }
    return j;
}

nlohmann::json make_meta(std::string_view command, const std::vector<std::string>& inputs)
{
    nlohmann::json in = nlohmann::json::array();
    for (const auto& i : inputs) in.push_back(input_meta(i));
    return {{"schema", schema_name},
            {"schema_version", schema_version},
            {"command", std::string(command)},
            {"tool", "spmvlab"},
            {"tool_version", tool_version()},
            {"commit", git_commit()},
            {"date", utc_now()},
            {"host", {{"name", host_name()}, {"cpu", cpu_model()}}},
            {"build",
             {{"compiler", SPMVLAB_CXX_COMPILER},
              {"flags", trim(SPMVLAB_CXX_FLAGS)},
              {"build_type", SPMVLAB_BUILD_TYPE},
              {"cuda", spmv::gpu::is_compiled()}}},
            {"gpu", nullptr},
            {"command_line", command_line()},
            {"inputs", in}};
}

void add_gpu_meta(nlohmann::json& meta)
{
    if (!spmv::gpu::is_available()) {
        meta["gpu"] = nullptr;
        meta["gpu_note"] = spmv::gpu::is_compiled() ? "no CUDA device" : "built without CUDA";
        return;
    }
    try {
        const auto d = spmv::gpu::device_info();
        const int sp = d.cusparse_version;
        meta["gpu"] = {{"device", d.name},
                       {"compute_capability", std::to_string(d.compute_capability_major) + "." +
                                                  std::to_string(d.compute_capability_minor)},
                       {"memory_bytes", d.global_memory_bytes},
                       {"ecc", d.ecc_enabled},
                       {"cuda_runtime", cuda_version(d.cuda_runtime_version)},
                       {"cuda_driver", cuda_version(d.cuda_driver_version)},
                       {"cusparse", sp > 0 ? nlohmann::json(std::to_string(sp / 1000) + "." +
                                                            std::to_string((sp % 1000) / 100) +
                                                            "." + std::to_string(sp % 100))
                                           : nlohmann::json(nullptr)}};
    } catch (const std::exception& e) {
        meta["gpu"] = nullptr;
        meta["gpu_note"] = user_message(e.what());
    }
}

nlohmann::json with_meta(std::string_view command, nlohmann::json body,
                         const std::vector<std::string>& inputs)
{
    nlohmann::json j = {{"meta", make_meta(command, inputs)}};
    for (auto& [k, v] : body.items()) j[k] = std::move(v);
    return j;
}

std::string precision_name(std::string_view p)
{
    if (p == "dp" || p == "DP" || p == "double") return "double";
    if (p == "sp" || p == "SP" || p == "single" || p == "float") return "single";
    return std::string(p);
}

namespace {

void normalise_precisions(nlohmann::json& j)
{
    if (j.is_object()) {
        for (auto& [k, v] : j.items()) {
            if (k == "precision" && v.is_string()) {
                v = precision_name(v.get<std::string>());
            } else {
                normalise_precisions(v);
            }
        }
    } else if (j.is_array()) {
        for (auto& e : j) normalise_precisions(e);
    }
}

}  // namespace

nlohmann::json failed_input(const std::filesystem::path& input, const std::string& reason)
{
    return {{"input", input.string()}, {"matrix", input_name(input)}, {"reason", reason}};
}

std::optional<spmv::Csr<double, std::int32_t>> load_or_record(const std::filesystem::path& input,
                                                              nlohmann::json& failed)
{
    try {
        return load_matrix(input);
    } catch (const spmv::Error& e) {
        progress_done();
        const auto reason = user_message(e.what());
        std::fprintf(stderr, "spmvlab: skipped %s: %s\n", input.string().c_str(), reason.c_str());
        failed.push_back(failed_input(input, reason));
        return std::nullopt;
    }
}

nlohmann::json upgrade_record(nlohmann::json record, std::string_view command)
{
    if (record.is_object() && record.contains("meta") && record["meta"].is_object() &&
        record["meta"].contains("schema_version")) {
        const auto& v = record["meta"]["schema_version"];
        if (v.is_number_integer() && v.get<int>() > schema_version) {
            SPMV_THROW(spmv::InvalidArgument,
                       "record of schema version " + std::to_string(v.get<int>()) +
                           ", newer than this spmvlab reads (" + std::to_string(schema_version) +
                           "): update spmvlab");
        }
        return record;  // version 1 is the current one
    }
    if (record.is_array()) {
        const std::string key = command == "formats" ? "formats"
                                : command == "model" ? "predictions"
                                                     : "results";
        record = nlohmann::json{{key, std::move(record)}};
    }
    if (!record.is_object()) {
        SPMV_THROW(spmv::InvalidArgument, "not a spmvlab record (neither object nor array)");
    }
    auto take = [&](std::initializer_list<const char*> keys) -> nlohmann::json {
        nlohmann::json found = nullptr;
        for (const char* k : keys) {
            if (record.contains(k)) {
                if (found.is_null()) found = record[k];
                record.erase(k);
            }
        }
        return found;
    };
    std::string cmd(command);
    nlohmann::json meta = {{"schema", schema_name},
                           {"schema_version", schema_version},
                           {"command", cmd},
                           {"upgraded_from", "unversioned"},
                           {"tool", "spmvlab"},
                           {"tool_version", nullptr},
                           {"commit", nullptr},
                           {"date", nullptr},
                           {"host", {{"name", nullptr}, {"cpu", nullptr}}},
                           {"build", nullptr},
                           {"gpu", nullptr},
                           {"command_line", nullptr},
                           {"inputs", nlohmann::json::array()}};
    const auto tool = take({"tool", "version"});
    if (tool.is_string()) {  // "spmvlab 0.1.0 (commit abc)" -> "0.1.0"
        const auto t = tool.get<std::string>();
        const auto a = t.find(' ');
        const auto b = t.find(' ', a == std::string::npos ? a : a + 1);
        meta["tool_version"] =
            a == std::string::npos ? t : t.substr(a + 1, b == std::string::npos ? b : b - a - 1);
    }
    const auto commit = take({"commit"});
    if (commit.is_string()) meta["commit"] = commit;
    const auto date = take({"date", "timestamp"});
    if (date.is_string()) meta["date"] = date;
    // solve's statistics of the total time: the unit last, as everywhere (docs/output-schema.md)
    for (const auto& [from, to] :
         {std::pair{"total_ms_median", "median_total_ms"},
          std::pair{"total_ms_min", "min_total_ms"}, std::pair{"total_ms_runs", "run_totals_ms"}}) {
        if (record.contains(from) && !record.contains(to)) {
            record[to] = record[from];
            record.erase(from);
        }
    }
    if (record.contains("file") && !record.contains("matrix")) {
        record["matrix"] = record["file"];
        record.erase("file");
    }
    normalise_precisions(record);
    nlohmann::json out = {{"meta", std::move(meta)}};
    for (auto& [k, v] : record.items()) out[k] = std::move(v);
    return out;
}

}  // namespace spmvlab
