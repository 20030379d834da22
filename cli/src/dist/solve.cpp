// spmvlab dist solve: distributed CG, Jacobi-CG and MPIR-CG (Cevahir et al. 2009 §3.3) on
// b = ones from x0 = 0, in one mode (exit 4 when it does not converge). Runs under mpiexec, or
// as one rank without it. The input is loaded per rank (dist_cli.hpp root_reason says which
// inputs go through the root).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/dist_solve.hpp>

#include "common.hpp"
#include "dist_cli.hpp"
#include "meta.hpp"

namespace spmvlab::dist_cli {

using namespace spmv::dist;

int run_solve(const Comm& comm, const DistCli& options)
{
    // MPIR-CG's SpMVs are mostly the inner float ones; setup amortised over --maxit SpMVs
    const bool mpir = options.method == "mpir" || options.method == "mpir-cg";
    DistCli o = options;
    // one mode per solve (all: task mode), so that only that mode's blocks are built (vector
    // mode's merged block is not, for the others)
    if (is_all_modes(o.modes)) {
        o.modes = {Mode::task};
    }
    DistMatrix<double> m;
    SetupClock clock(comm);
    if (root_reason(options).empty()) {
        // per rank: every rank loads its rows; b = ones needs nothing global
        auto in = load_per_rank(comm, options);
        clock.input_done();
        m = build_from_rows<double>(comm, o, std::move(in.rows), in.partition);
    } else {
        print_root_reason(comm, options);
        const auto a = load_on_root(comm, options.input);
        clock.input_done();
        o = resolve_auto(comm, o, a, mpir ? "sp" : "dp", std::max(0, options.maxit));
        clock.build_begin();
        m = distribute_input<double>(comm, o, a);
    }
    clock.build_done();
    const auto setup = clock.report(comm);
    const std::vector<double> b(static_cast<std::size_t>(m.own_rows()), 1.0);
    std::vector<double> x(b.size(), 0.0);
    spmv::solvers::SolveOptions so;
    so.tol = o.tol;
    so.max_iterations = o.maxit;
    so.jacobi = o.jacobi || o.method == "jacobi-cg";
    // GPU ranks with CSR, SELL or PELLR add the inner float SpMV's products in double (as the
    // single-process solver); host ranks and other kernels add in float
    so.inner.double_sums = o.inner_sums == "double";
    if (o.method != "cg" && o.method != "jacobi-cg" && o.method != "mpir-cg" && o.method != "mpir") {
        SPMV_THROW(spmv::InvalidArgument,
                   "--method " + o.method + ": not cg, jacobi-cg or mpir-cg");
    }
    const auto method = o.method == "mpir" || o.method == "mpir-cg" ? spmv::solvers::Method::mpir_cg
                                                                     : spmv::solvers::Method::cg;
    const bool outer_pcg = o.outer == "pcg";
    if (outer_pcg && method != spmv::solvers::Method::mpir_cg) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--outer pcg is an outer loop of --method mpir-cg, not of " + o.method);
    }
    // pcg: Cevahir 2.2 as written, float throughout (float SpMV sums; float reductions on host
    // ranks, see spmv/dist/dist_solve.hpp); richardson: the project's refinement
    so.mpir_outer =
        outer_pcg ? spmv::solvers::MpirOuter::pcg : spmv::solvers::MpirOuter::richardson;
    so.inner.max_iterations = o.inner_maxit > 0 ? o.inner_maxit : (outer_pcg ? 100 : 1000);
    DistSolveOptions dso;
    dso.mode = o.modes.front();  // all: task mode (above)
    Timeline t;
    if (!o.timeline.empty()) {
        t.mode = dso.mode;
        t.num_ranks = comm.size();
        t.matrix = input_name(o.input);
        t.format = o.format;
        t.partition = o.partition;
        t.precision = "double";
        t.date = utc_now();
        t.commit = git_commit();
        dso.timeline = &t;
        m.start_clock();
    }
    comm.barrier();
    const auto res = solve(m, b, x, method, so, dso);
    const auto devices = rank_devices(comm, m.info().device);
    // the most row chunks of a rank's blocks (DistOptions::max_chunk_nnz)
    const int row_chunks =
        static_cast<int>(comm.allreduce_max(static_cast<double>(m.info().chunks)));
    collective(comm, [&] {
        if (comm.rank() == 0) {
            std::printf("%s: %s on %d rank(s) (%s), %s mode, %s partition, format %s, "
                        "exchange %s\n",
                        input_name(o.input).c_str(),
                        std::string(spmv::solvers::to_string(method)).c_str(), comm.size(),
                        devices.c_str(), std::string(to_string(dso.mode)).c_str(),
                        o.partition.c_str(), o.format.c_str(), m.exchange_path().c_str());
            std::printf("status %s after %d iterations (inner %d, outer %d); true relative "
                        "residual %.3e; %.2f ms (setup %.2f ms)%s\n",
                        std::string(spmv::solvers::to_string(res.status)).c_str(), res.iterations,
                        res.inner_iterations, res.outer_iterations, res.final_relative_residual,
                        res.total_ms, res.setup_ms,
                        method == spmv::solvers::Method::mpir_cg
                            ? (res.inner_double_sums ? "; inner sums in double"
                               : res.inner_float_reductions
                                   ? "; inner CG in float throughout (sums, dot products)"
                                   : "; inner sums in float, inner dot products in double")
                            : "");
            if (!o.json_out.empty()) {
                auto j = record_head(o, comm, "dist solve");
                j["devices"] = devices;
                j["row_chunks"] = row_chunks;
                j["setup"] = setup;
                j["method"] = spmv::solvers::to_string(method);
                j["exchange_path"] = m.exchange_path();
                j["mode"] = to_string(dso.mode);
                j["status"] = spmv::solvers::to_string(res.status);
                j["iterations"] = res.iterations;
                j["inner_iterations"] = res.inner_iterations;
                j["outer_iterations"] = res.outer_iterations;
                j["final_relative_residual"] = res.final_relative_residual;
                j["total_ms"] = res.total_ms;
                j["inner_double_sums"] = res.inner_double_sums;
                j["inner_float_reductions"] = res.inner_float_reductions;
                if (method == spmv::solvers::Method::mpir_cg) {
                    j["mpir_outer"] = spmv::solvers::to_string(so.mpir_outer);
                    j["inner_max_iterations"] = so.inner.max_iterations;
                }
                j["setup_ms"] = res.setup_ms;
                j["times_ms"] = {{"spmv", res.times.spmv_ms},
                                 {"vector", res.times.vector_ms},
                                 {"reduction", res.times.reduction_ms}};
                write_json(o.json_out, j);
            }
        }
    });
    if (!o.timeline.empty()) {
        const std::vector<Timeline> tls{merged_timeline(comm, t)};
        // the picture shows one iteration from the middle of the solve (the JSON has them all)
        write_timelines(comm, tls, o.timeline, std::max(0, res.iterations / 2));
    }
    if (res.status != spmv::solvers::Status::converged) {
        throw ExitCode{exit_status::no_convergence};
    }
    return 0;
}
}  // namespace spmvlab::dist_cli
