// spmvlab solve FILE [--method cg|jacobi-cg|mpir-cg] [--outer richardson|pcg] [--format NAME]
// [--gpu] ...: conjugate gradients and mixed-precision CG (the project's iterative refinement,
// or Cevahir's flexible outer PCG with a fixed-count, float-throughout inner CG) on the host
// reference or the GPU.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/solver.hpp>
#include <spmv/host_device.hpp>
#include <spmv/registry.hpp>
#include <spmv/solvers/solve.hpp>

#include "auto_format.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

using spmv::solvers::Method;
using spmv::solvers::MpirOuter;
using spmv::solvers::SolveOptions;
using spmv::solvers::SolveResult;
using spmv::solvers::Status;

struct SolveCliOptions {
    std::string input;
    std::string method = "cg";
    bool jacobi = false;
    std::string format = "csr";
    bool format_given = false;  ///< --format on the command line (not its default)
    std::string variant;
    bool gpu = false;
    double tol = 1e-10;
    int maxit = 10000;
    int max_outer = 100;
    std::string outer = "richardson";
    double inner_reduction = 1e-2;  // spmv::InnerOptions' default, measured best
    int inner_maxit = 1000;
    bool inner_maxit_given = false;      ///< --inner-maxit on the command line
    bool inner_reduction_given = false;  ///< --inner-reduction on the command line
    bool inner_restart = false;
    std::string inner_sums = "double";
    bool inner_sums_given = false;  ///< --inner-sums on the command line
    std::string rhs = "ones";
    std::uint32_t seed = 1;
    int every = 0;
    int repeat = 1;
    std::string phase_times = "separate";
    bool json = false;
    bool history = false;
    ParamOptions params;
};

/// --inner-maxit when --outer pcg runs without one: the fixed inner iteration count of Cevahir's
/// MPIR-CG, which the paper does not give. The fewest inner iterations in all come with the
/// smallest count that leaves 2-3 outer iterations, and that grows with cond(A); measured on
/// the host (b = ones, tol 1e-10, total inner iterations at 100 / at the best count tried),
/// before issue 31 (inner sums and dot products in double): pde30 200 / 128 (k = 64), pde50
/// 200 / 200 (k = 100), pde100 700 / 450 (k = 150); with the float-throughout inner CG:
/// pde50 300 (k = 64: 320, k = 128: 384), pde100 600 (k = 150: 750).
constexpr int pcg_default_inner_maxit = 100;

/// A file or a "gen:" spec (load_matrix), and its display name (input_name).
spmv::Csr<double, std::int32_t> load_input(const std::string& input, std::string& name)
{
    name = input_name(input);
    return load_matrix(input);
}

/// ones | random | FILE (Matrix Market array "n 1" + n values, or plain numbers; '%'/'#'
/// lines are comments).
std::vector<double> make_rhs(const std::string& rhs, std::size_t n, std::uint32_t seed)
{
    if (rhs == "ones") {
        return std::vector<double>(n, 1.0);
    }
    if (rhs == "random") {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> d(-1.0, 1.0);
        std::vector<double> b(n);
        for (auto& e : b) {
            e = d(rng);
        }
        return b;
    }
    std::ifstream in(rhs);
    if (!in) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--rhs " + rhs + ": not 'ones', 'random' or a readable file");
    }
    std::vector<double> values;
    std::string line;
    bool mm_array = false;
    bool size_line_seen = false;
    while (std::getline(in, line)) {
        if (line.rfind("%%MatrixMarket", 0) == 0) {
            mm_array = line.find("array") != std::string::npos;
            if (!mm_array) {
                SPMV_THROW(spmv::InvalidArgument,
                           "--rhs " + rhs + ": a Matrix Market right-hand side must be 'array'");
            }
            continue;
        }
        if (line.empty() || line[0] == '%' || line[0] == '#') {
            continue;
        }
        std::stringstream ss(line);
        if (mm_array && !size_line_seen) {  // "rows cols"
            long long rows = 0;
            long long cols = 0;
            ss >> rows >> cols;
            if (rows != static_cast<long long>(n) || cols != 1) {
                SPMV_THROW(spmv::DimensionMismatch,
                           "--rhs " + rhs + ": array is " + std::to_string(rows) + " x " +
                               std::to_string(cols) + ", need " + std::to_string(n) + " x 1");
            }
            size_line_seen = true;
            continue;
        }
        double v = 0.0;
        while (ss >> v) {
            values.push_back(v);
        }
    }
    if (values.size() != n) {
        SPMV_THROW(spmv::DimensionMismatch, "--rhs " + rhs + ": " + std::to_string(values.size()) +
                                                " values, the matrix has " + std::to_string(n) +
                                                " rows");
    }
    return values;
}

nlohmann::json to_json(const SolveResult& r)
{
    auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
    nlohmann::json history = nlohmann::json::array();
    for (double v : r.residual_history) {
        history.push_back(num(v));
    }
    nlohmann::json outer = nlohmann::json::array();
    for (double v : r.outer_residual_history) {
        outer.push_back(num(v));
    }
    return {{"status", std::string(to_string(r.status))},
            {"converged", r.status == Status::converged},
            {"message", r.message},
            {"iterations", r.iterations},
            {"inner_iterations", r.inner_iterations},
            {"outer_iterations", r.outer_iterations},
            {"inner_iteration_counts", r.inner_iteration_counts},
            {"restarts", r.restarts},
            {"inner_breakdowns", r.inner_breakdowns},
            {"inner_double_sums", r.inner_double_sums},
            {"inner_float_reductions", r.inner_float_reductions},
            {"final_relative_residual", num(r.final_relative_residual)},
            {"residual_history", history},
            {"outer_residual_history", outer},
            {"times_ms",
             {{"total", r.total_ms},
              {"setup", r.setup_ms},
              {"spmv", r.times.spmv_ms},
              {"vector", r.times.vector_ms},
              {"reduction", r.times.reduction_ms},
              {"transfer", r.times.transfer_ms}}},
            {"bytes_to_device", r.bytes_to_device},
            {"bytes_to_host", r.bytes_to_host},
            {"pinned_transfers", r.pinned_transfers},
            {"format", r.format},
            {"permuted_basis", r.permuted_basis},
            {"where", r.where}};
}

void print_history(const SolveResult& r, int every, bool outer_pcg)
{
    const auto& h = r.residual_history;
    if (h.empty()) {
        return;
    }
    const auto last = h.size() - 1;
    const std::size_t step =
        every > 0 ? static_cast<std::size_t>(every) : std::max<std::size_t>(1, (last + 39) / 40);
    std::printf("%10s  %s\n", "iteration", "relative residual");
    for (std::size_t k = 0; k <= last; k += step) {
        std::printf("%10zu  %s\n", k, sci(h[k]).c_str());
    }
    if (last % step != 0) {
        std::printf("%10zu  %s\n", last, sci(h[last]).c_str());
    }
    if (!r.outer_residual_history.empty()) {
        if (outer_pcg) {
            std::printf("\n%10s  %16s  %s\n", "outer PCG", "inner iterations",
                        "relative residual (double; b - A x where it met --tol)");
        } else {
            std::printf("\n%10s  %16s  %s\n", "refinement", "inner iterations",
                        "true relative residual (double)");
        }
        std::printf("%10d  %16s  %s\n", 0, "-", sci(r.outer_residual_history[0]).c_str());
        for (std::size_t k = 1; k < r.outer_residual_history.size(); ++k) {
            const int inner =
                k - 1 < r.inner_iteration_counts.size() ? r.inner_iteration_counts[k - 1] : 0;
            std::printf("%10zu  %16d  %s\n", k, inner, sci(r.outer_residual_history[k]).c_str());
        }
    }
    std::printf("\n");
}

void run(SolveCliOptions& o)
{
    Method method = Method::cg;
    bool jacobi = o.jacobi;
    if (o.method == "jacobi-cg") {
        jacobi = true;
    } else if (o.method == "mpir-cg") {
        method = Method::mpir_cg;
    } else if (o.method != "cg") {
        SPMV_THROW(spmv::InvalidArgument,
                   "--method " + o.method + ": expected cg, jacobi-cg or mpir-cg");
    }
    if (o.outer == "pcg" && method != Method::mpir_cg) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--outer pcg is an outer loop of --method mpir-cg, not of " + o.method);
    }
    const bool outer_pcg = method == Method::mpir_cg && o.outer == "pcg";
    if (outer_pcg) {
        // Cevahir 2.2: the inner CG is a preconditioner of a predetermined iteration count
        if (o.inner_reduction_given || o.inner_restart) {
            SPMV_THROW(spmv::InvalidArgument,
                       std::string(o.inner_restart ? "--inner-restart" : "--inner-reduction") +
                           " belongs to --outer richardson: with --outer pcg every inner CG "
                           "runs exactly --inner-maxit iterations from zero");
        }
        if (!o.inner_maxit_given) {
            o.inner_maxit = pcg_default_inner_maxit;
        }
        // Cevahir 2.2 / 3: the inner CG runs in single precision throughout
        if (o.inner_sums_given && o.inner_sums == "double") {
            SPMV_THROW(spmv::InvalidArgument,
                       "--inner-sums double belongs to --outer richardson: with --outer pcg "
                       "(Cevahir as written) the inner CG is float throughout (float SpMV sums, "
                       "float dot products and reductions)");
        }
        o.inner_sums = "float";
    }
    // --format auto / --variant auto: the advisor picks (below, once the matrix is loaded)
    const bool auto_variant = o.variant == "auto";
    const bool auto_format = o.format == "auto" || auto_variant;
    if (auto_variant && !o.gpu) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--variant auto picks a GPU kernel variant: add --gpu (on the host, --format "
                   "auto picks the format)");
    }
    if (auto_variant && o.format_given && o.format != "auto") {
        SPMV_THROW(spmv::InvalidArgument,
                   "--variant auto picks the format as well: give --format auto or leave "
                   "--format out, not --format " + o.format);
    }
    if (o.format == "auto" && !o.variant.empty() && !auto_variant) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--format auto with --variant " + o.variant + ": the variant belongs to one "
                   "format; name that format, or give --variant auto to let the advisor pick both");
    }
    if (o.gpu) {  // fail before loading a large matrix
        if (!spmv::gpu::is_compiled()) {
            SPMV_THROW(spmv::NotCompiled,
                       "--gpu: this spmvlab was built without CUDA; run without --gpu for the "
                       "host reference");
        }
        if (spmv::gpu::device_count() == 0) {
            SPMV_THROW(spmv::Error, "--gpu: no CUDA device is available on this machine");
        }
    }
    auto params = apply_format_params(o.params);
    std::string name;
    const auto a = load_input(o.input, name);
    const auto n = static_cast<std::size_t>(a.num_rows);
    // the format and the solver's vectors (x, b, r, p, q and a float copy for MPIR) fit?
    const auto vectors = 8 * 6 * static_cast<std::uint64_t>(a.num_rows);
    std::string format = o.format;
    std::string variant = o.variant;
    nlohmann::json auto_choice;  // null unless the advisor picked
    std::string auto_note;       // what it picked and why
    if (auto_format) {
        // MPIR-CG's SpMVs are mostly the inner float ones; the layout serves up to --maxit of
        // them, so its setup is ranked amortised over that many (setup + N x SpMV)
        const std::string prec = method == Method::mpir_cg ? "sp" : "dp";
        const auto& budget = memory_budget();
        const double limit =
            budget.limited()
                ? std::max(1.0, static_cast<double>(budget.bytes) - static_cast<double>(vectors))
                : 0.0;
        // host formats only, unless --variant auto: the GPU solve then runs the chosen variant
        const auto c = choose_format(a, prec, advisor_params(o.params), "auto", std::max(0, o.maxit), limit,
                                     !auto_variant);
        format = c.format;
        params = c.params;
        if (auto_variant) {
            variant = c.variant;
        }
        auto_choice = auto_choice_json(c, prec);
        std::string note = c.note + "; ranked by setup + " + std::to_string(std::max(0, o.maxit)) +
                           " SpMVs (--maxit)";
        if (!o.gpu) {
            note += "; the choice is made for a GPU, the host reference solves with its format " +
                    c.format;
        }
        auto_choice["note"] = note;
        auto_choice["iterations"] = std::max(0, o.maxit);
        auto_note = note;
        if (o.json) {  // standard output is the JSON record
            std::fprintf(stderr, "%s\n", note.c_str());
        }
    }
    const auto b = make_rhs(o.rhs, n, o.seed);
    std::vector<double> x(n, 0.0);
    SolveOptions opt;
    opt.tol = o.tol;
    opt.max_iterations = o.maxit;
    opt.max_outer_iterations = o.max_outer;
    opt.jacobi = jacobi;
    opt.inner.reduction = o.inner_reduction;
    opt.inner.max_iterations = o.inner_maxit;
    opt.inner.keep_direction = !o.inner_restart;
    opt.inner.double_sums = o.inner_sums == "double";
    opt.mpir_outer = outer_pcg ? MpirOuter::pcg : MpirOuter::richardson;

    std::string method_label = jacobi ? "jacobi-cg" : "cg";
    if (outer_pcg) {
        method_label = "mpir-cg --outer pcg (Cevahir 2.2 as written: flexible PCG in double, "
                       "preconditioned by " +
                       std::to_string(o.inner_maxit) + " " + (jacobi ? "Jacobi-CG" : "CG") +
                       " iterations in float throughout)";
    } else if (method == Method::mpir_cg) {
        method_label = std::string(jacobi ? "mpir-cg (the project's refinement; Jacobi inner"
                                          : "mpir-cg (the project's refinement; ") +
                       (jacobi ? ", " : "") +
                       (o.inner_restart ? "inner CG restarted each step" : "inner CG continued") +
                       ", inner sums in " + o.inner_sums + ")";
    }
    if (!o.json) {
        std::printf("%s: %d x %d, %lld entries\n", name.c_str(), a.num_rows, a.num_cols,
                    static_cast<long long>(spmv::nnz(a)));
        std::printf("method %s, format %s%s, tol %s, maxit %d, rhs %s, x0 = 0, on %s\n",
                    method_label.c_str(), format.c_str(),
                    variant.empty() ? "" : (" (GPU variant " + variant + ")").c_str(),
                    sci(o.tol).c_str(), o.maxit, o.rhs.c_str(),
                    o.gpu ? "the GPU" : "the host reference");
        if (!auto_note.empty()) {
            std::printf("%s\n", auto_note.c_str());
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    // On the GPU the phase breakdown costs time of its own (a CUDA event at every phase
    // boundary, 4-5 us per CG iteration on an H100). --phase-times separate: the timed runs
    // record no events and one more run, after them and not among them, measures the phases.
    const std::string phase_mode = o.gpu ? o.phase_times : std::string("inline");
    opt.phase_times = phase_mode == "inline";
    if (auto why = over_budget(format, a, params, memory_budget(), vectors); !why.empty()) {
        SPMV_THROW(spmv::InvalidArgument, name + ": " + why);
    }
    auto solve_once = [&](const SolveOptions& options) {
        std::fill(x.begin(), x.end(), 0.0);
        return o.gpu ? spmv::gpu::solve_gpu(a, b, x, method, format, params, options, variant)
                     : spmv::solvers::solve_host(a, b, x, method, format, params, options);
    };
    SolveResult r;
    std::vector<double> totals;  // total_ms of every timed run (--repeat); the rest is the last's
    for (int run_index = 0; run_index < std::max(1, o.repeat); ++run_index) {
        r = solve_once(opt);
        totals.push_back(r.total_ms);
    }
    double phase_run_ms = 0.0;
    if (phase_mode == "separate") {
        SolveOptions instrumented = opt;
        instrumented.phase_times = true;
        const SolveResult p = solve_once(instrumented);
        if (p.iterations != r.iterations || p.status != r.status) {
            std::fprintf(stderr,
                         "spmvlab solve: warning: the instrumented run took %d iterations (%s), "
                         "the timed runs %d (%s); its phase times describe a different solve\n",
                         p.iterations, std::string(to_string(p.status)).c_str(), r.iterations,
                         std::string(to_string(r.status)).c_str());
        }
        r.times = p.times;
        r.phase_times = p.phase_times;
        phase_run_ms = p.total_ms;
    }
    auto sorted = totals;
    std::sort(sorted.begin(), sorted.end());
    const double median_ms = sorted[sorted.size() / 2];
    if (o.json) {
        nlohmann::json j = {{"meta", make_meta("solve", {o.input})}};
        if (o.gpu) add_gpu_meta(j["meta"]);
        auto body = to_json(r);  // (a range-for over a temporary's items() would dangle)
        for (auto& [k, v] : body.items()) j[k] = std::move(v);
        j["matrix"] = name;
        j["rows"] = a.num_rows;
        j["cols"] = a.num_cols;
        j["nnz"] = spmv::nnz(a);
        j["method"] = o.method;
        if (method == Method::mpir_cg) {
            j["mpir_outer"] = std::string(to_string(opt.mpir_outer));
        }
        j["jacobi"] = jacobi;
        j["variant"] = variant;
        if (!auto_choice.is_null()) {
            j["auto_choice"] = auto_choice;
        }
        j["gpu"] = o.gpu;
        j["device"] = o.gpu ? r.where : spmv::host_device_name();
        j["tol"] = o.tol;
        j["max_iterations"] = o.maxit;
        j["inner_reduction"] = o.inner_reduction;
        j["inner_max_iterations"] = o.inner_maxit;
        j["inner_keep_direction"] = !o.inner_restart;
        j["inner_sums"] = o.inner_sums;
        j["rhs"] = o.rhs;
        j["run_totals_ms"] = totals;
        j["median_total_ms"] = median_ms;
        j["min_total_ms"] = sorted.front();
        j["phase_times"] = phase_mode;  // separate | inline | off (see --phase-times)
        if (phase_mode == "separate") {
            j["times_ms"]["phase_run_total"] = phase_run_ms;
        }
        if (!r.phase_times) {  // not measured: no zeros that read like measurements
            for (const char* k : {"spmv", "vector", "reduction", "transfer"}) {
                j["times_ms"][k] = nullptr;
            }
        }
        if (!o.history) {
            j.erase("residual_history");
        }
        std::printf("%s\n", j.dump(2).c_str());
    } else {
        print_history(r, o.every, outer_pcg);
        auto line = [](const char* key, const std::string& value) {
            std::printf("%-26s %s\n", key, value.c_str());
        };
        line("status", std::string(to_string(r.status)));
        if (!r.message.empty()) {
            line("why", r.message);
        }
        line("where", r.where);
        line("format", r.format + (r.permuted_basis ? " (solved in its permuted basis)" : ""));
        line("iterations", std::to_string(r.iterations));
        if (method == Method::mpir_cg) {
            line("inner iterations (float)", std::to_string(r.inner_iterations));
            line("outer iterations (double)",
                 std::to_string(r.outer_iterations) +
                     (outer_pcg ? "  (flexible PCG, Cevahir as written)"
                                : "  (refinement steps, the project's method)"));
            line("inner SpMV sums", r.inner_double_sums
                                        ? "double (float storage)"
                                        : (o.inner_sums == "double"
                                               ? "float (this format's GPU kernel has no "
                                                 "double-sum path)"
                                               : "float"));
            line("inner dot products, norms",
                 r.inner_float_reductions ? "float" : "double");
        }
        if (r.restarts > 0) {
            line("residual replacements", std::to_string(r.restarts));
        }
        line("final relative residual",
             sci(r.final_relative_residual) + "  (||b - A x|| / ||b||, recomputed in double)");
        std::string total = fmt(r.total_ms, 3) + " ms";
        if (totals.size() > 1) {
            total = fmt(median_ms, 3) + " ms  (median of " + std::to_string(totals.size()) +
                    " runs; min " + fmt(sorted.front(), 3) + ", max " + fmt(sorted.back(), 3) +
                    ")";
        }
        if (o.gpu) {
            total += phase_mode == "inline" ? "  (with phase events)" : "  (without phase events)";
        }
        line("total time", total);
        if (!r.phase_times) {
            line("phase times", "not measured (--phase-times off)");
        } else {
            if (phase_mode == "separate") {
                line("phase times", "from one more run with CUDA events at the phase boundaries "
                                    "(" + fmt(phase_run_ms, 3) + " ms, not in the total)");
            }
            line("  spmv", fmt(r.times.spmv_ms, 3) + " ms");
            line("  vector ops", fmt(r.times.vector_ms, 3) + " ms");
            line("  reductions", fmt(r.times.reduction_ms, 3) + " ms");
            line("  transfers", fmt(r.times.transfer_ms, 3) + " ms");
        }
        if (o.gpu) {
            line("vector transfers",
                 fmt_bytes(static_cast<double>(r.bytes_to_device + r.bytes_to_host)) + " (b, x; " +
                     (r.pinned_transfers ? "page-locked" : "pageable") + ")");
        }
        line("setup (not in total)", fmt(r.setup_ms, 3) + " ms");
    }
    if (r.status != Status::converged) {
        std::fprintf(stderr, "spmvlab solve: %s: %s\n", std::string(to_string(r.status)).c_str(),
                     r.message.c_str());
        throw ExitCode{exit_status::no_convergence};
    }
}

}  // namespace

void add_solve_command(CLI::App& app)
{
    auto o = std::make_shared<SolveCliOptions>();
    auto* cmd = app.add_subcommand(
        "solve",
        "solve A x = b (A SPD) by CG, Jacobi CG or mixed-precision iterative refinement CG, on "
        "the host reference or the GPU; exit status 4 when it does not converge");
    cmd->add_option("input", o->input,
                    "Matrix Market file, or a generated matrix gen:KIND[:param=value,...] "
                    "(e.g. gen:pde:size=100, gen:laplace2d:nx=500,ny=500)")
        ->required();
    cmd->add_option("--method", o->method,
                    "cg | jacobi-cg | mpir-cg (double outer loop, float inner CG; see --outer)")
        ->default_val("cg");
    cmd->add_option("--outer", o->outer,
                    "mpir-cg's outer loop in double: richardson (default) = the project's own "
                    "iterative refinement, x += the inner solution, r = b - A x (inner CG "
                    "adaptive: --inner-reduction, --inner-restart, --inner-sums; dot products in "
                    "double); pcg = Cevahir 2.2 as written: flexible preconditioned CG (Golub-Ye "
                    "beta = z_new.(r_new - r_old) / rho) whose preconditioner is --inner-maxit CG "
                    "iterations from zero in float throughout (float SpMV sums, dot products and "
                    "reductions)")
        ->default_val("richardson")
        ->check(CLI::IsMember({"richardson", "pcg"}));
    cmd->add_flag("--jacobi", o->jacobi, "Jacobi preconditioner (for mpir-cg: in the inner CG)");
    auto* format_opt =
        cmd->add_option("--format", o->format,
                        "storage format (spmvlab formats lists them), or auto: the format "
                        "advisor's first choice for this matrix (ranked for a GPU, setup "
                        "amortised over --maxit SpMVs; mpir-cg in single precision), printed "
                        "with the reason and recorded in --json as auto_choice")
            ->default_val("csr");
    cmd->add_option("--variant", o->variant,
                    "GPU kernel variant of that format (e.g. csr_vector); default: the first; "
                    "auto (with --gpu): the advisor picks the variant and its format");
    cmd->add_flag("--gpu", o->gpu, "solve on the GPU (vectors stay on the device)");
    cmd->add_option("--tol", o->tol, "relative residual ||b - A x|| / ||b|| to reach")
        ->default_val(1e-10)
        ->check(non_negative_number());
    cmd->add_option("--maxit", o->maxit, "iteration limit (mpir-cg: total inner iterations)")
        ->default_val(10000)
        ->check(non_negative_number());
    cmd->add_option("--max-outer", o->max_outer,
                    "mpir-cg: outer step limit (refinement steps, or outer PCG iterations)")
        ->default_val(100)
        ->check(positive_number());
    auto* inner_reduction_opt =
        cmd->add_option("--inner-reduction", o->inner_reduction,
                        "mpir-cg --outer richardson: inner CG stops when its residual dropped by "
                        "this factor (the last step only as far as --tol needs); 0: always "
                        "--inner-maxit iterations (default measured best of 1e-4 and 1e-2)")
            ->default_val(1e-2)
            ->check(CLI::Range(0.0, 1.0));
    auto* inner_maxit_opt =
        cmd->add_option("--inner-maxit", o->inner_maxit,
                        "mpir-cg: inner iterations per step; richardson: at most this many "
                        "(default 1000); pcg: exactly this many per preconditioner application "
                        "(default " + std::to_string(pcg_default_inner_maxit) + ")")
            ->check(positive_number());
    cmd->add_flag("--inner-restart", o->inner_restart,
                  "mpir-cg --outer richardson: restart every inner CG from p = r (the classic "
                  "restarted refinement of Buttari et al.) instead of continuing the previous "
                  "inner search direction");
    auto* inner_sums_opt =
        cmd->add_option("--inner-sums", o->inner_sums,
                        "mpir-cg --outer richardson: precision of the inner float SpMV's sums of "
                        "products: double (float storage, products added in double; fewer inner "
                        "iterations) or float; --outer pcg: always float (Cevahir as written)")
            ->default_val("double")
            ->check(CLI::IsMember({"double", "float"}));
    cmd->add_option("--rhs", o->rhs,
                    "right-hand side: ones | random | FILE (Matrix Market array or numbers)")
        ->default_val("ones");
    cmd->add_option("--seed", o->seed, "seed of --rhs random")
        ->default_val(1)
        ->check(non_negative_integer());
    cmd->add_option("--every", o->every,
                    "print every k-th iteration (default: about 40 lines in all)")
        ->check(non_negative_number());
    cmd->add_option("--repeat", o->repeat,
                    "solve this many times (setup included each time) and report the median "
                    "total time; the first GPU run also loads the kernels")
        ->default_val(1)
        ->check(CLI::Range(1, 100000));  // PositiveNumber's message names a 309-digit bound
    cmd->add_option("--phase-times", o->phase_times,
                    "GPU: separate = the timed runs record no CUDA events and one more run "
                    "measures the time per phase (the events cost 4-5 us per iteration); "
                    "inline = every run records them (its total includes their cost); off = "
                    "no phase times. The host reference always times its phases")
        ->default_val("separate")
        ->check(CLI::IsMember({"separate", "inline", "off"}));
    cmd->add_flag("--json", o->json, "print one JSON record instead of text");
    cmd->add_flag("--history", o->history, "with --json: include the residual history");
    add_format_param_options(cmd, o->params);
    cmd->callback([o, format_opt, inner_maxit_opt, inner_reduction_opt, inner_sums_opt] {
        o->format_given = format_opt->count() > 0;
        o->inner_sums_given = inner_sums_opt->count() > 0;
        o->inner_maxit_given = inner_maxit_opt->count() > 0;
        o->inner_reduction_given = inner_reduction_opt->count() > 0;
        run(*o);
    });
}

}  // namespace spmvlab
