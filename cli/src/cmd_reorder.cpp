// spmvlab reorder FILE: the original order, reverse Cuthill-McKee and METIS nested dissection
// side by side (bandwidth, profile, x locality, each format's padding), and optionally the
// reordered matrix P A P^T written as Matrix Market. The orderings and every number come from
// spmv::analysis (analysis/reorder.hpp); this file only prints them.
#include <cstdio>

#include <spmv/analysis/reorder.hpp>
#include <spmv/error.hpp>
#include <spmv/io/matrix_market.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

using spmv::analysis::Ordering;
using spmv::analysis::OrderingReport;

struct ReorderOptions {
    std::string file;
    std::string method = "rcm";
    std::string out;
    bool json = false;
    ParamOptions params;
};

nlohmann::json to_json(const OrderingReport& r)
{
    nlohmann::json padding = nlohmann::json::array();
    for (const auto& f : r.padding) {
        padding.push_back({{"format", f.name},
                           {"stored_entries", f.stored_entries},
                           {"padding_entries", f.padding_entries},
                           {"padding_share", f.padding_share},
                           {"error", user_message(f.error)}});
    }
    return {{"ordering", r.name},
            {"title", r.title},
            {"ok", r.ok()},
            {"error", user_message(r.error)},
            {"time_s", r.seconds},
            {"bandwidth", r.bandwidth},
            {"profile", r.profile},
            {"mean_distance", r.mean_distance},
            {"warp", r.warp_size},
            {"x_sectors_per_trip", r.x.sectors_per_trip},
            {"x_ideal_sectors_per_trip", r.x.ideal_sectors_per_trip},
            {"padding", padding}};
}

void print_tables(const std::vector<OrderingReport>& reports)
{
    Table t({"ordering", "bandwidth", "profile", "mean |i-j|", "x sectors/trip", "ideal",
             "time [s]"});
    for (const auto& r : reports) {
        if (!r.ok()) {
            t.add({r.title, "not computed: " + user_message(r.error)});
            continue;
        }
        t.add({r.title, std::to_string(r.bandwidth), std::to_string(r.profile),
               fmt(r.mean_distance, 1), fmt(r.x.sectors_per_trip, 2),
               fmt(r.x.ideal_sectors_per_trip, 2),
               r.ordering == Ordering::original ? "-" : fmt(r.seconds, 3)});
    }
    std::printf("%s\n", t.str().c_str());

    // formats down, orderings across: "stored slots (padding %)"
    std::vector<std::string> header{"format"};
    for (const auto& r : reports) header.push_back(r.title);
    Table p(header);
    const auto& names = reports.front().padding;
    for (std::size_t k = 0; k < names.size(); ++k) {
        std::vector<std::string> row{names[k].name};
        for (const auto& r : reports) {
            if (!r.ok() || k >= r.padding.size()) {
                row.push_back("-");
            } else if (!r.padding[k].ok()) {
                row.push_back("n/a");
            } else {
                row.push_back(std::to_string(r.padding[k].stored_entries) + " (" +
                              fmt(100.0 * r.padding[k].padding_share, 1) + " %)");
            }
        }
        p.add(std::move(row));
    }
    std::printf("stored slots (padding share) of each format under each ordering:\n%s",
                p.str().c_str());
}

void run(const ReorderOptions& o)
{
    const auto params = apply_format_params(o.params);
    const auto method = spmv::analysis::parse_ordering(o.method);
    const auto a = load_matrix(o.file);
    const auto name = input_name(o.file);
    if (a.num_rows != a.num_cols) {
        SPMV_THROW(spmv::InvalidArgument,
                   name + " is " + std::to_string(a.num_rows) + " x " +
                       std::to_string(a.num_cols) +
                       ": only a square matrix can be reordered symmetrically (P A P^T "
                       "permutes rows and columns alike)");
    }
    if (!o.out.empty() && !spmv::analysis::is_available(method)) {
        // say so before spending time on the other orderings
        (void)spmv::analysis::ordering_permutation(a, method);  // throws NotCompiled, which says why
    }
    const auto reports = spmv::analysis::compare_orderings(a, params);
    const OrderingReport* chosen = nullptr;
    for (const auto& r : reports) {
        if (r.ordering == method) chosen = &r;
    }
    if (!o.out.empty()) {
        if (chosen == nullptr || !chosen->ok()) {
            SPMV_THROW(spmv::Error, "--method " + o.method + ": " +
                                        (chosen ? chosen->error : "no such ordering"));
        }
        const auto b = spmv::permute_symmetric(a, std::span<const std::int32_t>(chosen->perm));
        spmv::io::WriteOptions w;
        w.comment = "reordered (" + std::string(spmv::analysis::title(method)) + ", P A P^T with " +
                    "perm[new] = old) by " + version_string() + " from " + o.file;
        write_matrix_file(o.out, b, w);  // "-": the standard output
    }
    if (o.json) {
        nlohmann::json orderings = nlohmann::json::array();
        for (const auto& r : reports) orderings.push_back(to_json(r));
        nlohmann::json j = {{"meta", make_meta("reorder", {o.file})},
                            {"matrix", name},
                            {"rows", a.num_rows},
                            {"cols", a.num_cols},
                            {"nnz", spmv::nnz(a)},
                            {"method", std::string(spmv::analysis::to_string(method))},
                            {"out", o.out.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.out)},
                            {"sector_bytes", 32},
                            {"value_bytes", 8},
                            {"orderings", orderings}};
        std::printf("%s\n", j.dump(2).c_str());
        return;
    }
    std::printf("%s: %d x %d, %lld entries; warp %d, b_r %d, C %d, sigma %d\n", name.c_str(),
                a.num_rows, a.num_cols, static_cast<long long>(spmv::nnz(a)), params.warp_size,
                params.block_rows, params.slice_height, params.sort_window);
    print_tables(reports);
    std::printf(
        "bandwidth: max |i-j|; profile: sum over rows of (i - first column), >= 0.\n"
        "x sectors/trip: distinct 32-byte sectors of x (4 doubles each) that one warp of %d "
        "consecutive rows reads per loop trip of the column-major (ELLPACK-R) kernel, averaged "
        "over trips with an active lane; ideal: active lanes / 4, rounded up.\n"
        "A symmetric reordering moves entries, it keeps the row lengths: ELLPACK, ELLPACK-R, "
        "HYB and the globally sorted formats store the same under every ordering.\n",
        params.warp_size);
    if (!o.out.empty()) {
        std::printf("wrote %s: the matrix in %s order\n", o.out.c_str(),
                    std::string(spmv::analysis::title(method)).c_str());
    }
}

}  // namespace

void add_reorder_command(CLI::App& app)
{
    auto o = std::make_shared<ReorderOptions>();
    auto* cmd = app.add_subcommand(
        "reorder", "the original order, reverse Cuthill-McKee (Boost.Graph) and nested "
                   "dissection (METIS) side by side: bandwidth, profile, x locality and each "
                   "format's padding; --out writes P A P^T");
    cmd->add_option("file", o->file, "a Matrix Market (.mtx) file or a gen: spec")->required();
    cmd->add_option("--method", o->method, "the ordering --out writes: rcm, nd or none")
        ->check(CLI::IsMember({"rcm", "nd", "none"}))
        ->capture_default_str();
    output_option(cmd->add_option(
        "--out", o->out, "write the reordered matrix P A P^T here (.mtx; - : the standard output)"));
    cmd->add_flag("--json", o->json, "machine-readable output");
    add_format_param_options(cmd, o->params);
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
