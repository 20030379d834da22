// spmvlab formats FILE: one row per registered format (footprint, padding, per-warp work).
#include <cstdio>

#include <spmv/analysis/summary.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

struct FormatsOptions {
    std::string file;
    bool json = false;
    ParamOptions params;
};

void run(const FormatsOptions& o)
{
    const auto params = apply_format_params(o.params);
    const auto a = load_matrix(o.file);
    const auto& budget = memory_budget();
    const auto rows = spmv::analysis::summarize_all(
        a, params, budget.limited() ? budget.bytes : static_cast<std::size_t>(-1));
    bool any_estimated = false;
    for (const auto& s : rows) {
        any_estimated = any_estimated || s.estimated;
    }
    if (o.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& s : rows) {
            nlohmann::json e = {{"format", s.name},
                                {"title", s.title},
                                {"stored_entries", s.stored_entries},
                                {"padding_entries", s.padding_entries},
                                {"bytes", s.bytes},
                                {"value_bytes", s.footprint.value_bytes},
                                {"index_bytes", s.footprint.index_bytes},
                                {"aux_bytes", s.footprint.aux_bytes},
                                {"padding_bytes", s.footprint.padding_bytes},
                                {"data_reduction_vs_ell_percent", nullptr},
                                {"warp", s.warp_size},
                                {"n_iter", s.n_iter},
                                {"n_p", s.n_p},
                                {"idle_slots", s.idle_slots},
                                {"useful_fraction", s.useful_fraction},
                                {"built", s.ok()},
                                {"estimated", s.estimated},
                                {"error", s.error}};
            if (s.data_reduction_vs_ell_percent) {
                e["data_reduction_vs_ell_percent"] = *s.data_reduction_vs_ell_percent;
            }
            list.push_back(e);
        }
        const nlohmann::json j = {{"meta", make_meta("formats", {o.file})},
                                  {"matrix", input_name(o.file)},
                                  {"rows", a.num_rows},
                                  {"cols", a.num_cols},
                                  {"nnz", spmv::nnz(a)},
                                  {"params", params_json(params)},
                                  {"formats", list}};
        std::printf("%s\n", j.dump(2).c_str());
        return;
    }
    std::printf("%s: %d x %d, %lld entries; warp %d, b_r %d, C %d, sigma %d\n", o.file.c_str(),
                a.num_rows, a.num_cols, static_cast<long long>(spmv::nnz(a)), params.warp_size,
                params.block_rows, params.slice_height, params.sort_window);
    Table t({"format", "stored", "padding", "bytes", "vs ELL %", "N_iter", "N_p", "idle slots",
             "useful %"});
    for (const auto& s : rows) {
        if (s.estimated) {  // not built: the footprint columns are the exact estimate
            t.add({s.name, std::to_string(s.stored_entries), std::to_string(s.padding_entries),
                   fmt_bytes(static_cast<double>(s.bytes)),
                   s.data_reduction_vs_ell_percent ? fmt(*s.data_reduction_vs_ell_percent, 1) : "-",
                   "not built: over the memory limit"});
            continue;
        }
        if (!s.ok()) {
            t.add({s.name, "error: " + s.error});
            continue;
        }
        t.add({s.name, std::to_string(s.stored_entries), std::to_string(s.padding_entries),
               fmt_bytes(static_cast<double>(s.bytes)),
               s.data_reduction_vs_ell_percent ? fmt(*s.data_reduction_vs_ell_percent, 1) : "-",
               std::to_string(s.n_iter), std::to_string(s.n_p), std::to_string(s.idle_slots),
               fmt(100.0 * s.useful_fraction, 1)});
    }
    std::printf("%s", t.str().c_str());
    std::printf("vs ELL %%: data reduction in stored entries against ELLPACK (Kreutzer Table I).\n"
                "N_iter, N_p: PELLR eq. 1 and 2 per warp; idle slots: reserved thread-iterations "
                "not doing useful work.\n");
    if (any_estimated) {
        std::printf("Not built: formats whose estimated size exceeds the memory limit, %s; their "
                    "stored, padding and bytes are the estimate.\n",
                    budget.describe().c_str());
    }
}

}  // namespace

void add_formats_command(CLI::App& app)
{
    auto o = std::make_shared<FormatsOptions>();
    auto* cmd = app.add_subcommand(
        "formats", "every registered format on a matrix: stored and padding entries, bytes, "
                   "data reduction vs ELLPACK, per-warp work (N_iter, N_p, idle slots)");
    cmd->add_option("file", o->file, "a Matrix Market (.mtx) file")->required();
    cmd->add_flag("--json", o->json, "machine-readable output");
    add_format_param_options(cmd, o->params);
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
