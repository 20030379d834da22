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
#include "meta.hpp"

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
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);  // usage errors: message on stderr, exit 106/109/...
    } catch (const spmvlab::ExitCode& e) {
        return e.code;  // a command that finished with a verdict (e.g. verify found a mismatch)
    } catch (const spmv::Error& e) {
        std::fprintf(stderr, "spmvlab: error: %s\n", spmvlab::user_message(e.what()).c_str());
        return 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "spmvlab: error: out of host memory\n");
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spmvlab: error: %s\n", spmvlab::user_message(e.what()).c_str());
        return 1;
    }
    // output redirected to a full disk or a closed pipe: a truncated report is an error
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "spmvlab: error: cannot write the standard output: %s\n",
                     std::strerror(errno));
        return 1;
    }
    return 0;
}
