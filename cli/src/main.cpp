// spmvlab: see `spmvlab --help` and README.md (CLI reference).
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>

#include <spmv/error.hpp>
#include <spmv/io/atomic_file.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "man_page.hpp"
#include "meta.hpp"
#include "suggest.hpp"

namespace {

/// Ctrl-C or a kill during a run: remove the half-written temporary output files (targets are
/// only ever replaced whole), then end as the signal would have.
extern "C" void on_terminate_signal(int sig)
{
    spmv::io::remove_unfinished_files();
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

}  // namespace

int main(int argc, char** argv)
{
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        std::signal(sig, on_terminate_signal);
    }
    spmvlab::set_command_line(argc, argv);  // meta.command_line of every record
    CLI::App app{"SpMV Lab: sparse matrix storage formats on GPUs (see README.md)", "spmvlab"};
    app.require_subcommand(1);
    app.set_version_flag("--version", spmvlab::version_string());
    spmvlab::add_memory_option(app);  // before the subcommands, which inherit it
    spmvlab::add_info_command(app);
    spmvlab::add_formats_command(app);
    spmvlab::add_reorder_command(app);
    spmvlab::add_generate_command(app);
    spmvlab::add_convert_command(app);
    spmvlab::add_fetch_command(app);
    spmvlab::add_model_command(app);
    spmvlab::add_verify_command(app);
    spmvlab::add_bench_command(app);
    spmvlab::add_recommend_command(app);
    spmvlab::add_calibrate_command(app);
    spmvlab::add_report_command(app);
    spmvlab::add_plot_command(app);
    spmvlab::add_replicate_command(app);
    spmvlab::add_solve_command(app);
    spmvlab::add_dist_command(app);
    spmvlab::add_tour_command(app);
    // an output path "-" takes the standard output; the report then goes to stderr (common.hpp)
    app.parse_complete_callback([&app] { spmvlab::route_standard_output(app); });
    namespace status = spmvlab::exit_status;
    try {
        // documents generated from this App tree (man_page.hpp), for the build and the curious:
        // `spmvlab --man`, `spmvlab --completion bash|zsh` (not in --help: not for daily use)
        const std::string first = argc > 1 ? argv[1] : "";
        if (first == "--man" && argc == 2) {
            std::fputs(spmvlab::man_page(app).c_str(), stdout);
        } else if (first == "--completion" && argc == 3) {
            std::fputs(spmvlab::completion_script(app, argv[2]).c_str(), stdout);
        } else {
            app.parse(argc, argv);
        }
    } catch (const CLI::ParseError& e) {
        return spmvlab::report_parse_error(app, e);  // 2 with CLI11's message and a suggestion
    } catch (const spmvlab::ExitCode& e) {
        return e.code;  // a command that finished with a verdict (e.g. verify found a mismatch)
    } catch (const spmv::Error& e) {
        std::fprintf(stderr, "spmvlab: error: %s\n", spmvlab::user_message(e.what()).c_str());
        return status::error;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "spmvlab: error: out of host memory\n");
        return status::error;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spmvlab: error: %s\n", spmvlab::user_message(e.what()).c_str());
        return status::error;
    }
    // output redirected to a full disk or a closed pipe: a truncated report is an error
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "spmvlab: error: cannot write the standard output: %s\n",
                     std::strerror(errno));
        return status::error;
    }
    return status::ok;
}
