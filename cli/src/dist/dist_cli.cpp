// spmvlab dist: the helpers its subcommands share (dist_cli.hpp).
#include "dist_cli.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <type_traits>

#include <spmv/error.hpp>
#include <spmv/model/format_model.hpp>

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

// The model predicts every mode by what it really overlaps (spmv/dist/model.hpp): naive
// overlap hides nothing (Open MPI 4.1 has no asynchronous progress: ModelOptions::
// async_progress stays false), explicit overlap on GPU ranks hides the halo path behind the
// local kernel as task mode does.
std::pair<LinkProfile, bool> link_for_path(const std::string& link, const std::string& path)
{
    const bool direct = path == "cuda-ipc" || path == "cuda-aware";
    if (link != "auto") {
        return {find_link(link), !direct};
    }
    return {find_link(direct ? "nvlink4" : "host-shm"), !direct};
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

template <typename V>
DistMatrix<V> distribute_input(const Comm& comm, const DistCli& o,
                               const spmv::Csr<double, std::int32_t>& a)
{
    DistOptions opt;
    opt.partition = parse_partition_kind(o.partition);
    opt.format = o.format;
    opt.variant = o.variant;
    opt.params = apply_format_params(o.params);
    opt.gpu = o.gpu;
    opt.merged_block = !o.split_blocks;
    opt.task_poll_us = o.task_poll_us;
    opt.exchange = o.exchange;
    opt.budget = memory_budget();  // every rank's blocks, estimated before they are built
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
