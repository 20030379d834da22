// spmvlab dist: the helpers its subcommands share (dist_cli.hpp).
#include "dist_cli.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include <spmv/dist/parallel_gen.hpp>
#include <spmv/dist/parallel_mm.hpp>
#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/parallel.hpp>

#include "auto_format.hpp"
#include "meta.hpp"

namespace spmvlab::dist_cli {

using namespace spmv::dist;

std::vector<Mode> parse_mode_option(const std::string& s)
{
    if (s == "all") {
        return {all_modes.begin(), all_modes.end()};
    }
    return {parse_mode(s)};
}

bool is_all_modes(const std::vector<Mode>& modes)
{
    return std::equal(modes.begin(), modes.end(), all_modes.begin(), all_modes.end());
}

std::string mode_option_text(const std::vector<Mode>& modes)
{
    if (is_all_modes(modes)) {
        return "all";
    }
    SPMV_EXPECTS(modes.size() == 1, "--mode names one mode or all");
    return std::string(to_string(modes.front()));
}

std::vector<int> int_list(const std::string& s)
{
    std::vector<int> v;
    std::size_t pos = 0;
    while (pos <= s.size()) {
        const auto comma = s.find(',', pos);
        const auto item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        try {
            v.push_back(std::stoi(item));
        } catch (const std::exception&) {
            SPMV_THROW(spmv::InvalidArgument, "'" + item + "' is not a whole number");
        }
        if (comma == std::string::npos) {
            break;
        }
        pos = comma + 1;
    }
    return v;
}

double parse_alpha(const std::string& s)
{
    if (s == "min") {
        return 1e-12;
    }
    double a = 0.0;
    try {
        std::size_t used = 0;
        a = std::stod(s, &used);
        if (used != s.size()) {
            throw std::invalid_argument(s);
        }
    } catch (const std::exception&) {
        SPMV_THROW(spmv::InvalidArgument, "--alpha " + s + ": not a number in (0, 1] or 'min'");
    }
    if (!(a > 0.0 && a <= 1.0)) {
        SPMV_THROW(spmv::InvalidArgument, "--alpha " + s + ": outside (0, 1]");
    }
    return a;
}

namespace {
/// The whole of `item` as a finite number, or nullopt.
std::optional<double> number(const std::string& item)
{
    try {
        std::size_t used = 0;
        const double v = std::stod(item, &used);
        if (used == item.size() && std::isfinite(v)) {
            return v;
        }
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

/// The items of a comma-separated list, empty ones included ("a,,b" has three).
std::vector<std::string> comma_items(const std::string& text)
{
    std::vector<std::string> items;
    std::size_t at = 0;
    while (at <= text.size()) {
        const auto end = std::min(text.find(',', at), text.size());
        items.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return items;
}

std::string shortest(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}
}  // namespace

LinkProfile parse_link(const std::string& option, const std::string& text)
{
    const auto comma = text.find(',');
    const std::string usage = " (" + option +
                              " takes a link profile's name or BW,LAT: the bandwidth in GB/s "
                              "and the latency per message in us, both positive, e.g. 10,0.5, "
                              "as `spmvlab dist link` prints it)";
    if (comma == std::string::npos) {
        try {
            return find_link(text);
        } catch (const spmv::InvalidArgument& e) {
            SPMV_THROW(spmv::InvalidArgument,
                       option + " " + text + ": " + spmv::user_message(e.what()) + usage);
        }
    }
    const std::string bw_text = text.substr(0, comma);
    const std::string lat_text = text.substr(comma + 1);
    const auto bw = number(bw_text);
    const auto lat = number(lat_text);
    if (!bw || *bw <= 0.0) {
        SPMV_THROW(spmv::InvalidArgument, option + " " + text + ": the bandwidth '" + bw_text +
                                              "' is not a positive number of GB/s" + usage);
    }
    if (!lat || *lat <= 0.0) {
        SPMV_THROW(spmv::InvalidArgument, option + " " + text + ": the latency '" + lat_text +
                                              "' is not a positive number of us" + usage);
    }
    return custom_link("custom (" + shortest(*bw) + " GB/s, " + shortest(*lat) + " us)", *bw,
                       *lat);
}

std::vector<std::int64_t> byte_sizes(const std::string& option, const std::string& text)
{
    std::vector<std::int64_t> v;
    for (const auto& item : comma_items(text)) {
        std::int64_t unit = 1;
        std::string digits = item;
        if (!digits.empty() && (digits.back() == 'K' || digits.back() == 'k')) {
            unit = 1024;
            digits.pop_back();
        } else if (!digits.empty() && (digits.back() == 'M' || digits.back() == 'm')) {
            unit = 1024 * 1024;
            digits.pop_back();
        }
        const bool whole = !digits.empty() && digits.size() <= 12 &&
                           std::all_of(digits.begin(), digits.end(),
                                       [](unsigned char c) { return std::isdigit(c) != 0; });
        const std::int64_t n = whole ? std::stoll(digits) * unit : 0;
        if (n <= 0) {
            SPMV_THROW(spmv::InvalidArgument,
                       option + " " + text + ": '" + item +
                           "' is not a size in bytes (a positive whole number, optionally with "
                           "K = 1024 or M = 1024^2: 8,64,4K,1M)");
        }
        v.push_back(n);
    }
    return v;
}

// The model predicts every mode by what it really overlaps (spmv/dist/model.hpp): naive
// overlap hides nothing (Open MPI 4.1 has no asynchronous progress: ModelOptions::
// async_progress stays false), explicit overlap on GPU ranks hides the halo path behind the
// local kernel as task mode does.
std::pair<LinkProfile, bool> link_for_path(const std::string& link, const std::string& path)
{
    const bool direct = path == "cuda-ipc" || path == "cuda-aware" || path == "nccl";
    if (link != "auto") {
        return {parse_link("--link", link), !direct};
    }
    return {find_link(direct ? "nvlink4" : "host-shm"), !direct};
}

std::optional<FixedCosts> fixed_costs_for(const std::string& option, const std::string& path,
                                          bool gpu)
{
    if (option == "off") {
        return std::nullopt;
    }
    if (option == "auto") {
        if (!gpu) {
            return std::nullopt;  // host ranks: none
        }
        for (const auto& f : fixed_costs()) {
            if (f.name == path) {
                return f;
            }
        }
        return find_fixed_costs("host-staged");  // "auto" (plan): the model stages through the host
    }
    if (option.find(',') != std::string::npos) {
        std::vector<double> v;
        for (const auto& item : comma_items(option)) {
            const auto x = number(item);
            if (!x) {
                SPMV_THROW(spmv::InvalidArgument,
                           "--fixed-costs " + option + ": '" + item + "' is not a finite number");
            }
            v.push_back(*x);
        }
        SPMV_EXPECTS(v.size() == 5, "--fixed-costs " + option +
                                        ": five numbers EXCHANGE,NEIGHBOUR,SYNC,HANDOFF,"
                                        "FIRST_PASS (us)");
        return gpu ? std::optional{custom_fixed_costs("custom", v[0], v[1], v[2], v[3], v[4])}
                   : std::nullopt;
    }
    const auto& f = find_fixed_costs(option);  // throws, listing the paths
    return gpu ? std::optional{f} : std::nullopt;
}

std::string model_variant(const DistCli& o)
{
    if (!o.gpu || o.variant == "auto") {
        return {};
    }
    if (!o.variant.empty()) {
        return o.variant;
    }
    const auto* v = spmv::model::format_variant(o.format);
    return v != nullptr ? std::string(v->name) : std::string();
}

nlohmann::json record_head(const DistCli& o, const Comm& comm, const char* command)
{
    nlohmann::json j = {{"meta", make_meta(command, {o.input})},
                        {"matrix", input_name(o.input)}, {"ranks", comm.size()},
                        {"partition", o.partition},      {"format", o.format},
                        {"variant", o.variant},          {"precision", precision_name(o.precision)},
                        {"mpi", library_version()}};
    if (o.gpu) add_gpu_meta(j["meta"]);  // this rank's device (rank 0 writes the record)
    if (!o.auto_choice.is_null()) {
        j["auto_choice"] = o.auto_choice;
    }
    return j;
}

void write_json(const std::string& path, const nlohmann::json& j)
{
    write_file(path, j.dump(2) + "\n");
}

nlohmann::json scaling_json(const ScalingResult& sc)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : sc.points) {
        out.push_back({{"ranks", p.num_ranks},
                       {"total_halo", p.total_halo},
                       {"nnz_imbalance", p.nnz_imbalance},
                       {"vector_us", p.prediction.time_s.vector * 1e6},
                       {"naive_us", p.prediction.time_s.naive * 1e6},
                       {"overlap_us", p.prediction.time_s.overlap * 1e6},
                       {"task_us", p.prediction.time_s.task * 1e6},
                       {"efficiency_task", p.efficiency.task}});
    }
    return out;
}

std::string rank_devices(const Comm& comm, const std::string& mine)
{
    auto all = comm.allgather(mine);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    std::string s;
    for (const auto& d : all) {
        s += (s.empty() ? "" : ", ") + d;
    }
    return s;
}

Timeline merged_timeline(const Comm& comm, const Timeline& t)
{
    const auto all = comm.allgather(to_json({t}));
    Timeline merged = t;
    merged.events.clear();
    for (const auto& s : all) {
        // keep the parsed timelines alive: a range-for over a member of a temporary would
        // read freed memory (the temporary dies before the loop body runs, until C++23)
        const auto parsed = timelines_from_json(s);
        for (const auto& e : parsed.front().events) {
            merged.events.push_back(e);
        }
    }
    return merged;
}

void write_timelines(const Comm& comm, const std::vector<Timeline>& tls, const std::string& prefix,
                     int svg_iteration)
{
    // the root writes; a failure there (a directory that does not exist) ends every rank
    collective(comm, [&] {
        if (comm.rank() == 0) {
            write_file(prefix + ".json", to_json(tls));
            spmv::viz::TimelineSvgOptions svg;
            svg.iteration = svg_iteration;
            write_file(prefix + ".svg", spmv::viz::timeline_svg(tls, svg));
            std::printf("timelines: %s.json, %s.svg\n", prefix.c_str(), prefix.c_str());
        }
    });
}

namespace {
double seconds_now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
}  // namespace

SetupClock::SetupClock(const Comm& comm)
{
    comm.barrier();
    start_ = seconds_now();
    input_end_ = build_begin_ = build_end_ = start_;
}

void SetupClock::input_done()
{
    input_end_ = seconds_now();
    build_begin_ = input_end_;
}

void SetupClock::build_begin()
{
    build_begin_ = seconds_now();
}

void SetupClock::build_done()
{
    build_end_ = seconds_now();
}

nlohmann::json SetupClock::report(const Comm& comm) const
{
    const double input_s = comm.allreduce_max(input_end_ - start_);
    const double build_s = comm.allreduce_max(build_end_ - build_begin_);
    const double total_s = comm.allreduce_max((input_end_ - start_) + (build_end_ - build_begin_));
    if (comm.rank() == 0) {
        const unsigned threads = spmv::build_threads();
        std::printf("setup (slowest rank): input %.2f s, build %.2f s, total %.2f s (%u "
                    "thread%s per rank)\n",
                    input_s, build_s, total_s, threads, threads == 1 ? "" : "s");
        std::fflush(stdout);
    }
    return {{"input_s", input_s},
            {"build_s", build_s},
            {"total_s", total_s},
            {"threads", spmv::build_threads()}};
}

spmv::Csr<double, std::int32_t> load_on_root(const Comm& comm, const std::string& input)
{
    spmv::Csr<double, std::int32_t> a;
    collective(comm, [&] {
        if (comm.rank() == 0) {
            a = load_matrix(input);
        }
    });
    return a;
}

namespace {
DistOptions dist_options(const DistCli& o)
{
    DistOptions opt;
    opt.partition = parse_partition_kind(o.partition);
    opt.format = o.format;
    opt.variant = o.variant;
    opt.params = apply_format_params(o.params);
    opt.gpu = o.gpu;
    // vector mode's merged block (one more copy of the rank's rows) only where vector mode runs
    opt.merged_block =
        !o.split_blocks &&
        std::find(o.modes.begin(), o.modes.end(), spmv::dist::Mode::vector) != o.modes.end();
    opt.task_poll_us = o.task_poll_us;
    opt.exchange = o.exchange;
    opt.budget = memory_budget();  // every rank's blocks, estimated before they are built
    return opt;
}

}  // namespace

std::string root_reason(const DistCli& o)
{
    const std::string whole = "rank 0 " +
                              std::string(spmv::gen::is_spec(o.input) ? "generates " : "reads ") +
                              input_name(o.input) + " whole and sends each rank its rows (";
    if (o.load == "root") {
        return whole + "--load root)";
    }
    if (o.format == "auto" || o.variant == "auto") {
        return whole + "the advisor of --" + (o.format == "auto" ? "format" : "variant") +
               " auto chooses for the whole matrix; name a format to have every rank load its "
               "own rows)";
    }
    if (o.partition != "rows" && o.partition != "nnz") {
        return whole + "--partition " + o.partition + " needs the whole graph)";
    }
    return {};
}

void print_root_reason(const Comm& comm, const DistCli& o)
{
    if (comm.rank() == 0) {
        std::printf("input: %s\n", root_reason(o).c_str());
        std::fflush(stdout);
    }
}

RankRows load_per_rank(const Comm& comm, const DistCli& o)
{
    RankRows r;
    bool per_rank = true;
    std::string note;
    const auto kind = parse_partition_kind(o.partition);
    if (spmv::gen::is_spec(o.input)) {
        auto g = generate_parallel<double>(comm, o.input, kind, memory_budget());
        r.rows = std::move(g.rows);
        r.partition = std::move(g.partition);
        per_rank = g.per_rank;
        note = std::move(g.note);
    } else {
        ParallelReadOptions ro;
        ro.read.memory = memory_budget();  // a budget per rank (parallel_mm.hpp)
        ro.partition = kind;
        auto g = read_matrix_market_parallel<double>(comm, o.input, ro);
        r.rows = std::move(g.rows);
        r.partition = std::move(g.partition);
        per_rank = g.per_rank;
        note = std::move(g.note);
    }
    if (comm.rank() == 0) {
        if (per_rank) {
            std::printf("input: %s %s per rank (%d rank(s), each its rows of the %s "
                        "partition)\n",
                        input_name(o.input).c_str(),
                        spmv::gen::is_spec(o.input) ? "generated" : "read", comm.size(),
                        o.partition.c_str());
        } else {
            std::printf("input: %s\n", note.c_str());
        }
        std::fflush(stdout);
    }
    return r;
}

template <typename V>
DistMatrix<V> build_from_rows(const Comm& comm, const DistCli& o, GlobalRows<double>&& rows,
                              const Partition& partition)
{
    // the rows are freed once split (DistMatrix::from_rows taking them), before the blocks are
    // built: a rank never holds both
    if constexpr (std::is_same_v<V, double>) {
        return DistMatrix<double>::from_rows(comm, std::move(rows), partition, dist_options(o));
    } else {
        GlobalRows<V> r;  // the index arrays move, the values are converted
        r.num_rows = rows.num_rows;
        r.num_cols = rows.num_cols;
        r.rows = std::move(rows.rows);
        r.row_ptrs = std::move(rows.row_ptrs);
        r.col_idxs = std::move(rows.col_idxs);
        r.values.assign(rows.values.begin(), rows.values.end());
        rows = GlobalRows<double>{};
        return DistMatrix<V>::from_rows(comm, std::move(r), partition, dist_options(o));
    }
}

template DistMatrix<float> build_from_rows<float>(const Comm&, const DistCli&,
                                                  GlobalRows<double>&&, const Partition&);
template DistMatrix<double> build_from_rows<double>(const Comm&, const DistCli&,
                                                    GlobalRows<double>&&, const Partition&);

template <typename V>
DistMatrix<V> distribute_input(const Comm& comm, const DistCli& o,
                               const spmv::Csr<double, std::int32_t>& a)
{
    const auto opt = dist_options(o);
    if constexpr (std::is_same_v<V, double>) {
        return DistMatrix<double>::create(comm, a, opt);
    } else {
        return DistMatrix<V>::create(comm, spmv::convert_values<V>(a), opt);
    }
}

template DistMatrix<float> distribute_input<float>(const Comm&, const DistCli&,
                                                   const spmv::Csr<double, std::int32_t>&);
template DistMatrix<double> distribute_input<double>(const Comm&, const DistCli&,
                                                     const spmv::Csr<double, std::int32_t>&);

void check_auto(const DistCli& o)
{
    const bool auto_variant = o.variant == "auto";
    if (o.format != "auto" && !auto_variant) {
        return;
    }
    if (auto_variant && !o.gpu) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--variant auto picks a GPU kernel variant: add --gpu (for host ranks, "
                   "--format auto picks the format)");
    }
    if (auto_variant && o.format_given && o.format != "auto") {
        SPMV_THROW(spmv::InvalidArgument,
                   "--variant auto picks the format as well: give --format auto or leave "
                   "--format out, not --format " + o.format);
    }
    if (!auto_variant && !o.variant.empty()) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--format auto with --variant " + o.variant + ": the variant belongs to one "
                   "format; name that format, or give --variant auto to let the advisor pick both");
    }
}

DistCli resolve_auto(const Comm& comm, const DistCli& o, const spmv::Csr<double, std::int32_t>& a,
                     const std::string& precision, std::int64_t iterations)
{
    const bool auto_variant = o.variant == "auto";
    if (o.format != "auto" && !auto_variant) {
        return o;
    }
    check_auto(o);
    std::string choice;
    collective(comm, [&] {
        if (comm.rank() == 0) {
            // host formats only unless --variant auto (the variant runs on the GPU ranks)
            const auto c = choose_format(a, precision, advisor_params(o.params), "auto",
                                         iterations, 0, !auto_variant);
            auto j = auto_choice_json(c, precision);
            j["note"] = c.note + " -- for the global matrix, on every rank" +
                        (o.gpu ? std::string()
                               : "; the choice is made for a GPU, the host ranks run its format " +
                                     c.format);
            choice = j.dump();
        }
    });
    comm.broadcast(choice);
    const auto j = nlohmann::json::parse(choice);
    DistCli r = o;
    r.format = j["format"].get<std::string>();
    if (auto_variant) {
        r.variant = j["variant"].get<std::string>();
    }
    r.params = param_options(params_from_json(j["params"]));
    r.auto_choice = j;
    if (comm.rank() == 0) {
        std::printf("%s\n", j["note"].get<std::string>().c_str());
        std::fflush(stdout);
    }
    return r;
}

std::string advisor_precision(const DistCli& o)
{
    return o.precision == "float" ? "sp" : "dp";
}

double median(std::vector<double> v)
{
    if (v.empty()) {
        return 0.0;
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace spmvlab::dist_cli
