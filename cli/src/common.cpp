#include "common.hpp"
#include "auto_format.hpp"
#include "meta.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <spmv/analysis/estimate.hpp>
#include <spmv/build_info.hpp>
#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/io/atomic_file.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/version.hpp>

namespace spmvlab {

std::string git_commit()
{
    return SPMV_GIT_COMMIT;
}

std::string version_string()
{
    return std::string("spmvlab ") + SPMV_VERSION_STRING + " (commit " + SPMV_GIT_COMMIT + ")";
}

std::string utc_now()
{
    const auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

namespace {

/// A number that `ok` accepts; the message says which ("'x' is not a number > 0").
CLI::Validator number_check(bool (*ok)(double), const char* what)
{
    return CLI::Validator(
        [ok, what](std::string& s) -> std::string {
            try {
                std::size_t used = 0;
                const double v = std::stod(s, &used);
                if (used == s.size() && std::isfinite(v) && ok(v)) {
                    return {};
                }
            } catch (const std::exception&) {
            }
            return "'" + s + "' is not a number " + what;
        },
        std::string("NUMBER ") + what);
}

}  // namespace

CLI::Validator positive_number()
{
    return number_check([](double v) { return v > 0.0; }, "> 0");
}

CLI::Validator non_negative_number()
{
    return number_check([](double v) { return v >= 0.0; }, ">= 0");
}

CLI::Validator non_negative_integer()
{
    return CLI::Validator(
        [](std::string& s) -> std::string {
            const bool digits = !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
                return std::isdigit(c) != 0;
            });
            return digits ? std::string() : "'" + s + "' is not a whole number >= 0";
        },
        "INTEGER >= 0");
}

CLI::Validator number_in(double lo, double hi, bool integer)
{
    return CLI::Validator(
        [lo, hi, integer](std::string& s) -> std::string {
            double v = 0;
            std::size_t used = 0;
            try {
                v = std::stod(s, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != s.size() || !std::isfinite(v)) {
                return "'" + s + "' is not a " + (integer ? "whole number" : "number");
            }
            const auto bound = [integer](double b) { return fmt(b, integer ? 0 : 2); };
            if (integer && (v != std::floor(v) || s.find_first_of(".eE") != std::string::npos)) {
                return "'" + s + "' is not a whole number";
            }
            if (v < lo || v > hi) {
                return "'" + s + "' is outside [" + bound(lo) + ", " + bound(hi) + "]";
            }
            return {};
        },
        "");
}

std::string user_message(const std::string& what)
{
    return spmv::user_message(what);
}

namespace {

std::vector<const CLI::Option*>& output_options()
{
    static std::vector<const CLI::Option*> options;
    return options;
}

/// The standard output as it was when the run began, once route_standard_output gave it to an
/// output "-" (file descriptor 1 then goes to the standard error); -1 otherwise.
int data_fd = -1;

/// The descriptor a "-" output is written to: the kept standard output, else (no output was
/// routed, e.g. an unmarked option) descriptor 1 after what was printed there so far.
int standard_output_fd()
{
    if (data_fd >= 0) {
        return data_fd;
    }
    std::fflush(stdout);
    return STDOUT_FILENO;
}

void write_all(int fd, const char* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            SPMV_THROW(spmv::Error,
                       std::string("cannot write the standard output: ") + std::strerror(errno));
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

/// A std::ostream's buffer over a file descriptor, every write checked (a Matrix Market text
/// may be gigabytes: it is streamed, not built in memory first).
class FdBuffer : public std::streambuf {
public:
    explicit FdBuffer(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }

protected:
    int_type overflow(int_type c) override
    {
        drain();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override
    {
        drain();
        return 0;
    }

private:
    void drain()
    {
        write_all(fd_, pbase(), static_cast<std::size_t>(pptr() - pbase()));
        setp(buf_, buf_ + sizeof buf_);
    }
    int fd_;
    char buf_[1 << 16];
};

}  // namespace

void write_file(const std::string& path, const std::string& text)
{
    if (path == "-") {
        write_all(standard_output_fd(), text.data(), text.size());
        return;
    }
    spmv::io::write_file_atomically(path, text);
}

CLI::Option* output_option(CLI::Option* o)
{
    output_options().push_back(o);
    return o;
}

CLI::Option* output_prefix_option(CLI::Option* o)
{
    return o->check(CLI::Validator(
        [](std::string& v) -> std::string {
            return v == "-" ? "names several files, so - (the standard output) cannot be one"
                            : std::string();
        },
        ""));
}

void route_standard_output(const CLI::App& app)
{
    // the options given in this run: those of the selected subcommands, outermost first
    std::vector<const CLI::App*> chain{&app};
    while (!chain.back()->get_subcommands().empty()) {
        chain.push_back(chain.back()->get_subcommands().back());
    }
    std::vector<std::string> to_stdout;
    const CLI::Option* json = nullptr;
    for (const CLI::App* a : chain) {
        for (const CLI::Option* o : a->get_options()) {
            if (o->count() == 0) {
                continue;
            }
            const bool output = std::find(output_options().begin(), output_options().end(), o) !=
                                output_options().end();
            if (output && o->as<std::string>() == "-") {
                to_stdout.push_back(o->get_name());
            }
            if (o->check_lname("json")) {
                json = o;
            }
        }
    }
    if (to_stdout.size() > 1) {
        throw CLI::ValidationError(to_stdout[1], "only one output can be the standard output "
                                                 "(-); " + to_stdout[0] + " is already");
    }
    if (to_stdout.empty()) {
        return;
    }
    if (json != nullptr) {
        throw CLI::ValidationError(to_stdout[0], "- and --json would both write to the standard "
                                                 "output: name a file for one of them");
    }
    std::fflush(stdout);
    data_fd = ::dup(STDOUT_FILENO);
    if (data_fd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        SPMV_THROW(spmv::Error, std::string("cannot route the standard output: ") +
                                    std::strerror(errno));
    }
}

void write_matrix_file(const std::string& path, const spmv::Csr<double, std::int32_t>& a,
                       const spmv::io::WriteOptions& w)
{
    if (path != "-") {
        spmv::io::write_matrix_market(path, a, w);
        return;
    }
    FdBuffer buffer(standard_output_fd());
    std::ostream out(&buffer);
    out.exceptions(std::ios::badbit);  // a failed write throws from write_all, out of the stream
    spmv::io::write_matrix_market(out, a, w);
    out.flush();
}

namespace {

bool is_generator_spec(const std::filesystem::path& p)
{
    return spmv::gen::is_spec(p.string());
}

std::optional<spmv::MemoryBudget>& budget_slot()
{
    static std::optional<spmv::MemoryBudget> budget;
    return budget;
}

}  // namespace

std::string input_name(const std::filesystem::path& input)
{
    if (input == "-") {
        return "<stdin>";
    }
    return is_generator_spec(input) ? input.string() : input.filename().string();
}

bool is_matrix_file_name(const std::string& name)
{
    static constexpr const char* endings[] = {".mtx",     ".mtx.gz",  ".mtx.bz2", ".mtx.xz",
                                              ".mtx.zst", ".tar.gz",  ".tgz",     ".tar.bz2",
                                              ".tar.xz",  ".tar.zst", ".tar"};
    for (const std::string_view e : endings) {
        if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0) {
            return true;
        }
    }
    return false;
}

std::vector<std::filesystem::path> collect_inputs(const std::vector<std::string>& inputs)
{
    std::vector<std::filesystem::path> all;
    for (const auto& in : inputs) {
        for (auto& p : collect_inputs(std::filesystem::path(in))) {
            all.push_back(std::move(p));
        }
    }
    return all;
}

std::vector<std::filesystem::path> collect_inputs(const std::filesystem::path& p)
{
    namespace fs = std::filesystem;
    if (is_generator_spec(p) || p == "-") {
        return {p};
    }
    if (!spmv::io::parse_input_path(p).member.empty()) {  // archive.tar.gz:MEMBER
        return {p};
    }
    std::error_code ec;
    const auto st = fs::status(p, ec);  // follows links: a loop is an error, not "missing"
    if (ec && ec != std::errc::no_such_file_or_directory) {
        SPMV_THROW(spmv::InvalidArgument, p.string() + ": cannot open: " + ec.message());
    }
    if (!fs::exists(st)) {
        SPMV_THROW(spmv::InvalidArgument, p.string() + ": no such file or directory");
    }
    if (!fs::is_directory(st)) {
        return {p};
    }
    // The whole tree (a SuiteSparse download unpacked as Group/Name/Name.mtx, a fetch cache),
    // sorted by path so that every run lists the same files in the same order.
    std::vector<fs::path> files;
    fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        SPMV_THROW(spmv::InvalidArgument, p.string() + ": cannot list: " + ec.message());
    }
    for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
        if (ec) {
            SPMV_THROW(spmv::InvalidArgument, p.string() + ": cannot list: " + ec.message());
        }
        std::error_code type_ec;
        if (it->is_regular_file(type_ec) && is_matrix_file_name(it->path().filename().string())) {
            files.push_back(it->path());
        }
    }
    std::sort(files.begin(), files.end(),
              [](const fs::path& a, const fs::path& b) { return a.generic_string() < b.generic_string(); });
    if (files.empty()) {
        SPMV_THROW(spmv::InvalidArgument,
                   p.string() + ": directory holds no matrix files (*.mtx, *.mtx.gz, *.mtx.bz2, "
                                "*.mtx.xz, *.tar.gz), also in its subdirectories");
    }
    return files;
}

const spmv::MemoryBudget& memory_budget()
{
    auto& b = budget_slot();
    if (!b) {
        b = spmv::default_memory_budget(0.5);
        b->unconfirmed_dimension = std::int64_t{1} << 24;
        b->hint = "give --max-memory SIZE to change it";
    }
    return *b;
}

std::string over_budget(std::string_view format, const spmv::Csr<double, std::int32_t>& a,
                        const spmv::FormatParams& params, const spmv::MemoryBudget& budget,
                        std::uint64_t extra)
{
    if (!budget.limited() || !spmv::analysis::has_footprint_estimate(format)) {
        return {};
    }
    std::uint64_t need = 0;
    try {
        need = spmv::analysis::estimate_footprint(a, format, params).total_bytes() + extra;
    } catch (const spmv::Error& e) {
        // no estimate means no build: building anyway is how SELL with sigma = auto once
        // took 12 GB past a 100 MB limit
        return "not built: no footprint estimate for " + std::string(format) + " (" +
               e.what() + "); the memory limit is " + budget.describe();
    }
    if (budget.allows(need)) {
        return {};
    }
    return "not built: " + std::string(format) + " would need " +
           spmv::format_bytes(static_cast<double>(need)) + " (estimated); the memory limit is " +
           budget.describe();
}

void add_memory_option(CLI::App& app)
{
    app.add_option_function<std::string>(
           "--max-memory",
           [](const std::string& v) {
               const auto bytes = spmv::parse_byte_size(v);
               if (!bytes) {
                   throw CLI::ValidationError(
                       "--max-memory", "'" + v + "' is not a size such as 8G, 512M or 65536");
               }
               spmv::MemoryBudget b;
               b.bytes = *bytes;
               b.origin = "--max-memory " + v;
               budget_slot() = b;
           },
           "the most memory one matrix, format or buffer set may take, e.g. 8G or 512M "
           "(default: half of the available memory)")
        ->type_name("SIZE");
    app.fallthrough();  // subcommands added after this accept --max-memory after their name
}

spmv::Csr<double, std::int32_t> load_matrix(const std::filesystem::path& file,
                                            spmv::io::MatrixMarketInfo* info)
{
    if (is_generator_spec(file)) {
        return spmv::gen::generate(spmv::gen::parse_spec(file.string()), memory_budget());
    }
    spmv::io::ReadOptions options;
    options.memory = memory_budget();
    return spmv::io::read_matrix_market(file, info, options);
}

std::optional<spmv::Csr<double, std::int32_t>> load_or_report(const std::filesystem::path& file)
{
    try {
        return load_matrix(file);
    } catch (const spmv::Error& e) {
        progress_done();
        std::fprintf(stderr, "spmvlab: skipped %s: %s\n", file.string().c_str(), user_message(e.what()).c_str());
        return std::nullopt;
    }
}

void add_format_param_options(CLI::App* cmd, ParamOptions& opts)
{
    const auto params = spmv::parameters();
    const spmv::FormatParams defaults;
    opts.values.resize(params.size());
    opts.given.assign(params.size(), false);
    for (std::size_t k = 0; k < params.size(); ++k) {
        opts.values[k] = spmv::get(defaults, params[k].id);
        auto* o = cmd->add_option("--" + std::string(params[k].name), opts.values[k],
                                  std::string(params[k].description));
        o->default_val(opts.values[k]);
        o->each([&opts, k](const std::string&) { opts.given[k] = true; });
        if (params[k].id == spmv::Param::sort_window) {  // --sigma auto = 0
            o->transform(CLI::Validator(
                [](std::string& v) {
                    if (v == "auto") {
                        v = "0";
                    }
                    return std::string();
                },
                "INT|auto"));
        }
        // the registry's range, checked while parsing (a usage error, exit 2), not at run time
        o->check(number_in(params[k].min_value, params[k].max_value, true));
    }
}

spmv::FormatParams apply_format_params(const ParamOptions& opts)
{
    spmv::FormatParams p;
    const auto params = spmv::parameters();
    for (std::size_t k = 0; k < params.size() && k < opts.values.size(); ++k) {
        spmv::set(p, params[k].id, opts.values[k]);
    }
    return p;
}

spmv::FormatParams advisor_params(const ParamOptions& opts)
{
    auto p = apply_format_params(opts);
    const auto params = spmv::parameters();
    for (std::size_t k = 0; k < params.size(); ++k) {
        if (params[k].id == spmv::Param::sort_window && (k >= opts.given.size() || !opts.given[k])) {
            p.sort_window = 0;
        }
    }
    return p;
}

ParamOptions param_options(const spmv::FormatParams& p)
{
    ParamOptions o;
    for (const auto& info : spmv::parameters()) {
        o.values.push_back(spmv::get(p, info.id));
        o.given.push_back(false);
    }
    return o;
}

nlohmann::json params_json(const spmv::FormatParams& p)
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& info : spmv::parameters()) {
        j[std::string(info.name)] = spmv::get(p, info.id);
    }
    return j;
}

spmv::FormatParams params_from_json(const nlohmann::json& j)
{
    spmv::FormatParams p;
    for (const auto& info : spmv::parameters()) {
        const std::string key(info.name);
        if (j.contains(key)) {
            spmv::set(p, info.id, j[key].get<int>());
        }
    }
    return p;
}

nlohmann::json auto_choice_json(const AutoChoice& c, const std::string& precision)
{
    return {{"variant", c.variant},     {"format", c.format},
            {"params", params_json(c.params)}, {"profile", c.profile},
            {"precision", precision_name(precision)},   {"note", c.note}};
}

std::vector<const spmv::FormatInfo*> select_formats(
    const std::string& list, const std::function<std::string(const std::string&)>& other_name)
{
    std::vector<const spmv::FormatInfo*> out;
    if (list.empty() || list == "all") {
        for (const auto& f : spmv::formats()) {
            out.push_back(&f);
        }
        return out;
    }
    std::stringstream ss(list);
    std::string name;
    while (std::getline(ss, name, ',')) {
        if (name.empty()) {
            continue;
        }
        if (!other_name) {
            out.push_back(&spmv::find_format(name));
            continue;
        }
        const bool host = std::any_of(spmv::formats().begin(), spmv::formats().end(),
                                      [&](const auto& f) { return f.name == name; });
        const auto* info = &spmv::find_format(host ? name : other_name(name));
        if (std::find(out.begin(), out.end(), info) == out.end()) {
            out.push_back(info);
        }
    }
    if (out.empty()) {  // e.g. ",,,": checking nothing must not report "all formats agree"
        SPMV_THROW(spmv::InvalidArgument, "--formats '" + list + "' names no format");
    }
    return out;
}

Table::Table(std::vector<std::string> header)
{
    rows_.push_back(std::move(header));
}

void Table::add(std::vector<std::string> row)
{
    rows_.push_back(std::move(row));
}

std::string Table::str() const
{
    // A row shorter than the header ends in a note ("error: ...") that spans the remaining
    // columns, left-aligned: it does not widen the column it starts in.
    const std::size_t columns = rows_.empty() ? 0 : rows_.front().size();
    auto spans = [&](const std::vector<std::string>& r, std::size_t c) {
        return r.size() < columns && c + 1 == r.size() && c > 0;
    };
    std::vector<std::size_t> width;
    for (const auto& r : rows_) {
        width.resize(std::max(width.size(), r.size()), 0);
        for (std::size_t c = 0; c < r.size(); ++c) {
            if (!spans(r, c)) {
                width[c] = std::max(width[c], r[c].size());
            }
        }
    }
    std::string out;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        const auto& r = rows_[i];
        for (std::size_t c = 0; c < r.size(); ++c) {
            if (spans(r, c)) {
                out += r[c];
                break;
            }
            const auto pad = std::string(width[c] - r[c].size(), ' ');
            // first column left-aligned (names), the rest right-aligned (numbers)
            out += c == 0 ? r[c] + pad : pad + r[c];
            out += c + 1 < r.size() ? "  " : "";
        }
        out += '\n';
        if (i == 0) {
            std::size_t total = 0;
            for (auto w : width) {
                total += w + 2;
            }
            out += std::string(total > 2 ? total - 2 : total, '-') + '\n';
        }
    }
    return out;
}

std::string fmt(double v, int precision)
{
    if (std::isnan(v)) {
        return "-";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", precision, v);
    return buf;
}

std::string sci(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2e", v);
    return buf;
}

std::string fmt_bytes(double b)
{
    const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024.0 && u < 4) {
        b /= 1024.0;
        ++u;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", b, unit[u]);
    return buf;
}

void progress(std::size_t done, std::size_t total, const std::string& what)
{
    if (isatty(STDERR_FILENO)) {
        std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done + 1, total, what.c_str());
    } else {
        std::fprintf(stderr, "[%zu/%zu] %s\n", done + 1, total, what.c_str());
    }
    std::fflush(stderr);
}

void progress_done()
{
    if (isatty(STDERR_FILENO)) {
        std::fprintf(stderr, "\r\033[K");
    }
}

nlohmann::json read_json_file(const std::string& path, const std::string& what)
{
    std::ifstream in(path);
    if (!in) SPMV_THROW(spmv::InvalidArgument, path + ": cannot open " + what);
    nlohmann::json j;
    try {
        in >> j;
    } catch (const std::exception& e) {
        SPMV_THROW(spmv::InvalidArgument, path + ": not a JSON file (" + what + "): " + e.what());
    }
    return j;
}

nlohmann::json read_bench_json(const std::string& path)
{
    auto j = read_json_file(path, "a bench record");
    if (!j.is_object() || !j.contains("results") || !j["results"].is_array()) {
        SPMV_THROW(spmv::InvalidArgument,
                   path + ": no \"results\" array (write it with spmvlab bench --gpu --json-out)");
    }
    try {  // records of every schema version, read as the current one (meta.hpp)
        return upgrade_record(std::move(j), "bench");
    } catch (const spmv::Error& e) {
        SPMV_THROW(spmv::InvalidArgument, path + ": " + user_message(e.what()));
    }
}

std::filesystem::path locate_matrix(const std::string& name, const std::vector<std::string>& dirs)
{
    if (name.rfind("gen:", 0) == 0) return name;
    for (const auto& d : dirs) {
        const auto p = std::filesystem::path(d) / name;
        if (std::filesystem::exists(p)) return p;
    }
    // the name as recorded (relative to the working directory): a record made here
    if (!name.empty() && std::filesystem::is_regular_file(name)) return name;
    return {};
}

spmv::model::FormatModelConstants read_constants(const std::string& file,
                                                 const spmv::model::GpuProfile& gpu)
{
    const auto j = read_json_file(file, "the constants file");
    spmv::model::FormatModelConstants c;
    try {
        c.profile = j.value("profile", gpu.name);
        c.bandwidth_gbs = j.value("bandwidth_gbs", gpu.memory_bandwidth_gbs);
        c.l2_gbs = j.at("l2_gbs").get<double>();
        c.issue_ps = j.value("issue_ps", 0.0);
        // warp_gbs (B_w) is absent from files written before 2026-11-29: 0, no heaviest-warp term
        c.warp_gbs = j.value("warp_gbs", 0.0);
        // stage_ns (lambda) is absent from files written before 2026-11-29's: 0, no staging term
        c.stage_ns = j.value("stage_ns", 0.0);
        // overlap_q (q) is absent from files written before the overlap term (2026-11-29): 0, max(L, M)
        c.overlap_q = j.value("overlap_q", 0.0);
        for (const auto& k : j.at("kernels")) {
            // l2_efficiency (e_v) is absent from files written before 2026-11-28: 1, the old model
            c.kernels.push_back({k.at("variant").get<std::string>(), k.at("floor_us").get<double>(),
                                 k.at("trip_ns").get<double>(), k.value("l2_efficiency", 1.0)});
            if (!(c.kernels.back().l2_efficiency > 0) || c.kernels.back().l2_efficiency > 1) {
                throw std::invalid_argument("l2_efficiency of '" + c.kernels.back().variant +
                                            "' must lie in (0, 1]");
            }
        }
    } catch (const std::exception& e) {
        SPMV_THROW(spmv::InvalidArgument,
                   file + ": not a constants file of spmvlab calibrate --constants-out: " + e.what());
    }
    if (!(c.bandwidth_gbs > 0) || !(c.l2_gbs > 0) || c.issue_ps < 0 || c.warp_gbs < 0) {
        SPMV_THROW(spmv::InvalidArgument, file + ": bandwidths must be positive");
    }
    if (!(c.stage_ns >= 0)) {
        SPMV_THROW(spmv::InvalidArgument, file + ": stage_ns must not be negative");
    }
    if (!(c.overlap_q == 0 || c.overlap_q >= 1)) {
        SPMV_THROW(spmv::InvalidArgument,
                   file + ": overlap_q must be 0 (the max of latency and memory) or at least 1");
    }
    c.source = "constants from " + file + " (" + j.value("source", std::string("no source given")) + ")";
    return c;
}

}  // namespace spmvlab
