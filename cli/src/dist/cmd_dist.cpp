// spmvlab dist plan|verify|bench|solve|chart|link: distributed SpMV and CG over MPI ranks
// (Kreutzer §III, Cevahir §3.3). `plan` and `chart` run in one process without MPI; the others
// run under `mpiexec -n N spmvlab dist ...` (or as one rank without mpiexec). This file registers
// the subcommands and their options, and starts MPI for those that need it; each subcommand is a
// file of its own beside it (dist_cli.hpp lists them).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>
#ifdef __GLIBC__  // (defined by the standard headers above)
#include <malloc.h>
#endif

#include <spmv/dist/comm.hpp>
#include <spmv/dist/mode.hpp>
#include <spmv/parallel.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "dist_cli.hpp"

namespace spmvlab {
namespace {

using namespace spmv::dist;
using namespace dist_cli;

/// The four modes, for `spmvlab dist --help` and the subcommands that take --mode.
constexpr const char* modes_help =
    "Modes (--mode; all = vector, naive, overlap, task), Kreutzer et al. 2012 \u00a7III.A:\n"
    "  vector   the paper's vector mode without overlap: exchange the halo, then the whole "
    "SpMV.\n"
    "  naive    the paper's vector mode with naive overlap, run as the paper ran it: post the "
    "non-blocking\n"
    "           receives and sends (GPU ranks: after the gather and the copy of the send "
    "buffer to the\n"
    "           host have finished), compute the local part (GPU ranks: launch the kernel and "
    "wait for it),\n"
    "           then MPI_Waitall, then the non-local part. Without asynchronous progress in "
    "the MPI library\n"
    "           (Open MPI 4.1: none) the messages move only in the wait: nothing is hidden.\n"
    "  overlap  explicit overlap, the GPU-era schedule (the project's, not the paper's): GPU "
    "ranks queue\n"
    "           the gather and copy first, launch the local kernel asynchronously and sit in "
    "MPI_Waitall\n"
    "           while the GPU computes. Host ranks: the same schedule as naive (one thread "
    "cannot compute\n"
    "           and sit in MPI at once).\n"
    "  task     the paper's task mode: a dedicated communication thread exchanges while the "
    "local part is\n"
    "           computed; then the non-local part.\n"
    "The paper expects naive overlap to be no better than vector mode and measured (Fig. 5b, "
    "UHBR, 32 nodes)\n"
    "task mode at 84 % parallel efficiency against about 70 % for naive overlap. GPU ranks "
    "with --exchange\n"
    "host-staged (two PCIe copies and MPI per product) should show task >= overlap > naive ~ "
    "vector; with\n"
    "cuda-ipc (one device copy over NVLink, MPI carries tokens only) the exchange is short and "
    "the four\n"
    "modes lie close together (docs/distributed.md).\n"
    "\n"
    "Environment:\n"
    "  SPMV_BUILD_THREADS=N   threads each rank builds its blocks with (default: the host's "
    "hardware\n"
    "                         threads divided by its ranks; the record's setup.threads)\n"
    "  SPMV_DIST_HOSTS=apart  treat the ranks as on separate hosts: no CUDA IPC, NCCL on its "
    "network\n"
    "                         transport (a test of the paths between hosts on one host)\n"
    "  SPMV_DIST_REDUCTIONS=mpi  dist solve --exchange nccl: CG's dot products by MPI, not "
    "NCCL\n"
    "  SPMV_NO_MALLOPT=1      keep glibc's own mmap threshold (spmvlab dist sets 1 MiB)";

/// The options that decide the collective schedule (which collectives run, how often, on what
/// sizes): every rank must pass the same ones, or the ranks would wait in different
/// collectives for ever (a rank given --mode naive beside one given --mode vector hung).
std::vector<std::pair<std::string, std::string>> schedule_options(const DistCli& o)
{
    return {{"INPUT", o.input},
            {"--load", o.load},
            {"--mode", mode_option_text(o.modes)},
            {"--partition", o.partition},
            {"--format", o.format},
            {"--variant", o.variant},
            {"--precision", o.precision},
            {"--gpu", o.gpu ? "on" : "off"},
            {"--split-blocks", o.split_blocks ? "on" : "off"},
            {"--exchange", o.exchange},
            {"--repeat", std::to_string(o.repeat)},
            {"--method", o.method},
            {"--jacobi", o.jacobi ? "on" : "off"},
            {"--inner-sums", o.inner_sums},
            {"--outer", o.outer},
            {"--inner-maxit", std::to_string(o.inner_maxit)},
            {"--tol", std::to_string(o.tol)},
            {"--maxit", std::to_string(o.maxit)},
            {"dist link --sizes", o.link_sizes},
            {"dist link --repeat", std::to_string(o.link_repeat)},
            {"format parameters", params_json(apply_format_params(o.params)).dump()}};
}

/// Rank 0's schedule options against this rank's: "" when they agree, else the first that
/// differs, named with both values.
std::string schedule_mismatch(const Comm& comm, const DistCli& o)
{
    const auto mine = schedule_options(o);
    std::string all;
    for (const auto& [k, v] : mine) {
        all += k + '\x1f' + v + '\x1e';
    }
    std::string root = all;
    comm.broadcast(root);
    if (root == all) {
        return {};
    }
    std::size_t at = 0;
    for (const auto& [k, v] : mine) {
        const auto end = root.find('\x1e', at);
        const auto sep = root.find('\x1f', at);
        const std::string theirs =
            sep != std::string::npos && end != std::string::npos ? root.substr(sep + 1, end - sep - 1)
                                                                  : std::string("?");
        if (theirs != v) {
            return "the ranks were started with different options: " + k + " is '" + v +
                   "' here and '" + theirs + "' on rank 0 (every rank must run the same "
                   "command: mode, format, partition, exchange and precision decide the "
                   "collective schedule)";
        }
        at = end == std::string::npos ? root.size() : end + 1;
    }
    return "the ranks were started with different options";
}

/// MPI_Init for the commands that need it; the ranks first agree on every option that decides
/// the collective schedule (schedule_mismatch), then every rank runs the command; RemoteError
/// and any other error end every rank with a non-zero status. An error every rank agreed on is
/// printed whole by rank 0 and named in one line by every other rank.
int with_mpi(const DistCli& o, int (*run)(const Comm&, const DistCli&))
{
#ifdef __GLIBC__
    // Every allocation of 1 MiB or more straight from the system and back to it when freed:
    // glibc's default raises that threshold as large blocks are freed and then keeps their
    // pages in its heap, so a rank's resident memory stayed at the per-rank read's peak while
    // the blocks were built (pde100 on 4 ranks: 174 MB at the peak against 156 MB with this,
    // docs/benchmarks/per_rank_input_2026-11-28). The products allocate nothing of that size.
    if (!std::getenv("SPMV_NO_MALLOPT")) mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    int argc = 0;
    char** argv = nullptr;
    Environment env(&argc, &argv);
    const auto comm = Comm::world();
    // The set-up's builders (per-rank generation, the split, the blocks: spmv/parallel.hpp) on
    // this rank's share of its host's hardware threads, unless SPMV_BUILD_THREADS says
    if (!std::getenv("SPMV_BUILD_THREADS")) {
        const auto hw = std::max(1u, std::thread::hardware_concurrency());
        spmv::set_build_threads(std::max(1u, hw / static_cast<unsigned>(comm.node_size())));
    }
    try {
        agree(comm, schedule_mismatch(comm, o));
        check_auto(o);
        return run(comm, o);
    } catch (const RemoteError& e) {
        if (comm.rank() != 0) {
            // rank 0 prints the whole message all ranks agreed on; every other rank names it in
            // one line of its own, so that each rank's exit says why (the file and line of a bad
            // input), whichever rank's output a batch system keeps
            std::string what = e.what();
            what = what.substr(0, what.find('\n'));
            std::fprintf(stderr, "spmvlab: rank %d of %d stops: %s\n", comm.rank(), comm.size(),
                         what.c_str());
            std::fflush(stderr);
            throw ExitCode{exit_status::error};
        }
        throw;
    }
}

void add_common(CLI::App* c, DistCli& o, bool with_mode)
{
    c->add_option("INPUT", o.input,
                  with_mode ? "Matrix Market file or generator spec (gen:pde:size=150), loaded "
                              "per rank (--load)"
                            : "Matrix Market file or generator spec (gen:pde:size=150)")
        ->required();
    if (with_mode) {
        c->add_option("--load", o.load,
                      "how the matrix reaches the ranks: auto = per rank where it can (every "
                      "rank reads its share of a Matrix Market file, or generates its rows of a "
                      "gen: spec; no rank holds the whole matrix), else on rank 0 with a note "
                      "saying why (--format auto, --partition metis; a compressed or archived "
                      "file or - is read whole by rank 0); root = rank 0 reads or generates the "
                      "whole matrix and sends each rank its rows (dist bench's single-process "
                      "baseline, per-format kernel model and predicted scaling need it)")
            ->check(CLI::IsMember({"auto", "root"}))
            ->capture_default_str();
        // parsed here, once: the subcommands get the modes (an unknown name ends the command
        // with parse_mode's message before anything runs)
        c->add_option_function<std::string>(
             "--mode", [&o](const std::string& s) { o.modes = parse_mode_option(s); },
             "vector, naive (Kreutzer's naive overlap), overlap (explicit overlap, the "
             "GPU-era schedule), task or all (see Modes below)")
            ->default_str(mode_option_text(o.modes));
        c->footer(modes_help);
    }
    c->add_option("--partition", o.partition, "rows, nnz or metis")->capture_default_str();
    c->add_option("--format", o.format,
                  "storage format of both blocks (spmvlab formats), or auto: the format "
                  "advisor's first choice for the global matrix (made once, the same on every "
                  "rank; printed with the reason and recorded in --json-out as auto_choice; "
                  "rank 0 then loads the whole matrix, see --load)")
        ->capture_default_str()
        ->each([&o](const std::string&) { o.format_given = true; });
    c->add_option("--variant", o.variant,
                  "GPU kernel variant (default: the format's); auto (with --gpu): the advisor "
                  "picks the variant and its format");
    c->add_flag("--gpu", o.gpu, "blocks on the GPUs: one rank per GPU (node-local rank)");
    output_option(c->add_option("--json-out", o.json_out,
                                "write the result record as JSON (- : the standard output)"));
    output_prefix_option(
        c->add_option("--timeline", o.timeline, "write PREFIX.json and PREFIX.svg timelines"));
    c->add_flag("--split-blocks", o.split_blocks,
                "vector mode runs the local and non-local blocks one after the other "
                "(default: one merged block, a single pass over y, built only when "
                "vector mode runs)");
    c->add_option("--task-poll-us", o.task_poll_us,
                  "task mode: the communication thread tests its messages every N us and sleeps "
                  "in between; 0: MPI_Waitall, which keeps a core busy; -1: 20 when the ranks "
                  "of a host have fewer than 2 hardware threads each, else 0")
        ->capture_default_str()->check(CLI::Range(-1, 100000));
    c->add_option("--exchange", o.exchange,
                  "GPU ranks: how the halo moves: auto (cuda-aware MPI, else CUDA IPC on one "
                  "host, else host-staged; never nccl for now), host-staged, cuda-ipc, "
                  "cuda-aware or nccl (ncclSend/ncclRecv queued on the GPU's stream, no host "
                  "staging and no MPI on the data path; `dist solve` then also sums CG's dot "
                  "products with ncclAllReduce on the GPUs, alpha and beta decided there, "
                  "SPMV_DIST_REDUCTIONS=mpi to keep MPI for them; a build without NCCL says "
                  "so)")
        ->check(CLI::IsMember({"auto", "host-staged", "cuda-ipc", "cuda-aware", "nccl"}))
        ->capture_default_str();
    add_format_param_options(c, o.params);
}

}  // namespace

void add_dist_command(CLI::App& app)
{
    auto o = std::make_shared<DistCli>();
    auto* dist = app.add_subcommand("dist", "distributed SpMV and CG over MPI ranks "
                                            "(mpiexec -n N spmvlab dist ...)");
    dist->require_subcommand(1);
    dist->footer(modes_help);

    auto* plan = dist->add_subcommand(
        "plan", "partition statistics and the model's prediction (one process, no MPI). With "
                "--gpu each rank's kernels are priced by the per-format model (the advisor's) of "
                "--format / --variant on the rank's blocks, Kreutzer's format-agnostic eq. 2 "
                "printed beside; --exchange cuda-ipc or cuda-aware: no host staging");
    add_common(plan, *o, false);
    plan->add_option("--ranks", o->ranks, "number of ranks")->capture_default_str()
        ->check(CLI::Range(1, 1 << 20));
    plan->add_option("--link", o->link, "link profile: pcie4, pcie5, nvlink4, ib-hdr, ib-ndr, "
                                        "host-shm, or BW,LAT (GB/s, us per message; measured "
                                        "by spmvlab dist link)")->capture_default_str();
    plan->add_option("--device", o->device, "GPU profile with --gpu (H100, ...), else host "
                                            "profile (cpu-core)")->capture_default_str();
    plan->add_option("--precision", o->precision, "double or float")->capture_default_str();
    plan->add_option("--alpha", o->alpha,
                     "x reuse: (0, 1] (1: none, Kreutzer's default) or min (1/N_nzr of each "
                     "block: perfect reuse)")
        ->capture_default_str();
    plan->add_option("--weak", o->weak_k,
                     "also the predicted weak scaling of pde with about K^3 rows per rank "
                     "(K x K x K grids, over the --scaling rank counts)")
        ->check(CLI::Range(1, 512));
    plan->add_option("--scaling", o->scaling, "rank counts of the predicted scaling, or none")
        ->capture_default_str();
    const char* fixed_help =
        "the model's fixed costs of the distributed product on GPU ranks (host synchronisations, "
        "IPC tokens / NCCL group, launches after a host wait, task mode's hand-offs, the first "
        "pass's delay in overlap and task mode; "
        "spmv/dist/model.hpp): auto (the built-in MEASURED ones of the exchange path, H200 "
        "host), off (none: Kreutzer's terms only), a path's name (host-staged, cuda-ipc, nccl, "
        "cuda-aware) or EXCHANGE,NEIGHBOUR,SYNC,HANDOFF,FIRST_PASS in us; host ranks have none";
    plan->add_option("--fixed-costs", o->fixed_costs, fixed_help)->capture_default_str();
    plan->callback([o] { run_plan(*o); });

    auto* verify = dist->add_subcommand(
        "verify", "every mode against a double-precision reference product (exit 3 on a "
                  "mismatch): with the input loaded per rank (--load), each rank multiplies its "
                  "own rows as read, the errors summed over the ranks; through rank 0, the whole "
                  "matrix's product");
    add_common(verify, *o, true);
    verify->add_option("--precision", o->precision, "double or float")->capture_default_str();
    verify->callback([o] {
        with_mpi(*o, o->precision == "float" ? &run_verify<float> : &run_verify<double>);
    });

    auto* bench = dist->add_subcommand(
        "bench", "time the distributed SpMV in each mode, the model's prediction beside it. With "
                 "the input loaded per rank (--load auto) there is no single-process baseline "
                 "(--gpu), the GPU kernels are priced by Kreutzer's eq. 2 and --scaling gives no "
                 "curve (they need the whole matrix: --load root keeps them)");
    add_common(bench, *o, true);
    bench->add_option("--precision", o->precision, "double or float")->capture_default_str();
    bench->add_option("--link", o->bench_link,
                      "link profile of the model's prediction printed next to each mode (GPU "
                      "ranks' kernels by the per-format model of the variant run, Kreutzer's "
                      "eq. 2 in parentheses): auto (from the exchange path that ran: nvlink4 for "
                      "cuda-ipc / cuda-aware, host-shm for host-staged and host ranks), a profile "
                      "name, BW,LAT (GB/s, us per message; measured by spmvlab dist link), or "
                      "none")
        ->capture_default_str();
    bench->add_option("--alpha", o->alpha,
                      "the model's x reuse: (0, 1] (1: none, Kreutzer's default) or min "
                      "(1/N_nzr of each block: perfect reuse)")
        ->capture_default_str();
    bench->add_option("--device", o->bench_device,
                      "GPU profile of that prediction with --gpu: a name (H100, H200, ...) or "
                      "auto (the one the device's name denotes, else H100)")
        ->capture_default_str();
    bench->add_option("--repeat", o->repeat, "timed products per mode")->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    bench->add_option("--fixed-costs", o->fixed_costs, fixed_help)->capture_default_str();
    bench->add_option("--scaling", o->bench_scaling,
                      "rank counts of the model's strong scaling stored in --json-out "
                      "(predicted_scaling), or none")
        ->capture_default_str();
    bench->callback([o] {
        if (o->bench_link != "auto" && o->bench_link != "none") {
            (void)parse_link("--link", o->bench_link);  // refused on every rank before MPI
        }
        with_mpi(*o, o->precision == "float" ? &run_bench<float> : &run_bench<double>);
    });

    auto* chart = dist->add_subcommand(
        "chart", "strong-scaling chart (SVG) and table: the model (dist plan's, with the same "
                 "--fixed-costs) against the measured points of dist bench records (one "
                 "process, no MPI; the records' matrices are loaded)");
    chart->add_option("RECORDS", o->records, "JSON files written by dist bench --json-out")
        ->required();
    output_option(chart->add_option("--svg", o->svg_out, "write the chart here (- : the standard output)"));
    output_option(chart->add_option("--json-out", o->json_out,
                                    "write the table as JSON (- : the standard output)"));
    chart->add_option("--link", o->chart_link,
                      "the model's link: auto (from each record's exchange path), a profile, "
                      "or BW,LAT (GB/s, us per message; measured by spmvlab dist link)")
        ->capture_default_str();
    chart->add_option("--device", o->chart_device,
                      "GPU profile of the model: a name (H100, H200, ...) or auto (the one each "
                      "record's device name denotes, else H100)")
        ->capture_default_str();
    chart->add_option("--scaling", o->chart_scaling, "rank counts of the model's curves")
        ->capture_default_str();
    chart->add_option("--fixed-costs", o->fixed_costs,
                      std::string(fixed_help) + " (the exchange path: each record's); the "
                      "model is dist plan's for the same settings, GPU ranks' kernels by the "
                      "per-format model of the record's format / variant")
        ->capture_default_str();
    chart->add_option("--matrices", o->matrix_dirs,
                      "directories holding the records' .mtx files, for a record made elsewhere "
                      "(repeatable; as spmvlab plot --matrices; generator specs need none; "
                      "default: the working directory)")
        ->type_name("DIR");
    chart->callback([o] {
        if (o->chart_link != "auto") {
            (void)parse_link("--link", o->chart_link);  // refused before a record is read
        }
        run_chart(*o);
    });

    auto* link = dist->add_subcommand(
        "link", "measure the link of the model (mpiexec -n 2 or more): every rank exchanges at "
                "once with rank-1 and rank+1 as the halo exchange does (irecv, isend, wait all, "
                "host buffers), the slowest rank's time per size; fits latency and bandwidth "
                "(time = messages x latency + bytes / bandwidth) and prints the --link BW,LAT "
                "for dist plan / bench / chart. --gpu: also the pinned copies of each rank's "
                "device and the whole host-staged step (one rank: the copies only)");
    link->add_option("--sizes", o->link_sizes,
                     "message sizes in bytes, K = 1024 and M = 1024^2 allowed, multiples of 8")
        ->capture_default_str();
    link->add_option("--repeat", o->link_repeat, "timed exchanges per size (after 5 warm-ups)")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    link->add_flag("--gpu", o->gpu,
                   "also time the pinned device-to-host and host-to-device copies of each "
                   "rank's GPU (node-local rank) and the host-staged step D2H + MPI + H2D");
    output_option(link->add_option("--json-out", o->json_out,
                                   "write the result record as JSON (- : the standard output)"));
    link->callback([o] {
        (void)byte_sizes("--sizes", o->link_sizes);  // refused on every rank before MPI
        with_mpi(*o, &run_link);
    });

    auto* solve = dist->add_subcommand("solve", "distributed CG / Jacobi-CG / MPIR-CG "
                                                "(b = ones, x0 = 0)");
    add_common(solve, *o, true);
    solve->add_option("--method", o->method, "cg | jacobi-cg | mpir-cg (double outer, float inner)")->capture_default_str();
    solve->add_flag("--jacobi", o->jacobi, "Jacobi preconditioner");
    solve->add_option("--inner-sums", o->inner_sums,
                      "mpir-cg --outer richardson on GPU ranks: the inner float SpMV adds in "
                      "double or float (--outer pcg: always float)")
        ->check(CLI::IsMember({"double", "float"}))->capture_default_str();
    solve->add_option("--outer", o->outer,
                      "mpir-cg's outer loop: richardson = the project's refinement (default); "
                      "pcg = Cevahir 2.2 as written, flexible PCG around --inner-maxit float CG "
                      "iterations (float dot products on host ranks; GPU ranks keep double ones)")
        ->check(CLI::IsMember({"richardson", "pcg"}))->capture_default_str();
    solve->add_option("--inner-maxit", o->inner_maxit,
                      "mpir-cg: inner iterations per step (richardson: at most, default 1000; "
                      "pcg: exactly, default 100)")
        ->check(CLI::NonNegativeNumber);
    solve->add_option("--tol", o->tol, "relative residual to reach")->capture_default_str();
    solve->add_option("--maxit", o->maxit, "iteration limit")->capture_default_str();
    solve->callback([o] { with_mpi(*o, &run_solve); });
}

}  // namespace spmvlab

