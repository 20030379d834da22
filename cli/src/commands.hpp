#pragma once
/// Every subcommand registers itself through one function declared here; main.cpp calls them in
/// this order (which is also the order of `spmvlab --help`).
#include <CLI/CLI.hpp>

namespace spmvlab {

void add_info_command(CLI::App& app);
void add_formats_command(CLI::App& app);
void add_reorder_command(CLI::App& app);
void add_generate_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_fetch_command(CLI::App& app);
void add_model_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_recommend_command(CLI::App& app);
void add_calibrate_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_plot_command(CLI::App& app);
void add_replicate_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_tour_command(CLI::App& app);
void add_dist_command(CLI::App& app);

}  // namespace spmvlab
