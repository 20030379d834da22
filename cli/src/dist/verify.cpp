// spmvlab dist verify: every mode of the distributed SpMV against a double-precision reference
// product (exit 3 on a mismatch). Runs under mpiexec, or as one rank without it. Input loaded
// per rank (a Matrix Market file read, a gen: spec generated): each rank takes the reference of
// its own rows from them as loaded (no exchange, no blocks). Through the root (--load root,
// --format auto, --partition metis): the root takes the whole matrix's reference and sends each
// rank its rows' share of it.
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/error.hpp>

#include "common.hpp"
#include "dist_cli.hpp"

namespace spmvlab::dist_cli {

using namespace spmv::dist;

namespace {

/// x of the check: x[i] = sin(0.37 i + 1) for global column i (the same formula on every rank
/// and in the root's reference).
double x_of(std::int64_t i) { return std::sin(0.37 * static_cast<double>(i) + 1.0); }

/// This rank's rows of A x in double, straight from its rows as read (global columns, before
/// any split or exchange): the reference, independent of the distributed path.
std::vector<double> reference_rows(const GlobalRows<double>& r)
{
    std::vector<double> ref(r.rows.size(), 0.0);
    for (std::size_t i = 0; i < ref.size(); ++i) {
        double sum = 0.0;
        for (auto k = r.row_ptrs[i]; k < r.row_ptrs[i + 1]; ++k) {
            const auto kk = static_cast<std::size_t>(k);
            sum += r.values[kk] * x_of(r.col_idxs[kk]);
        }
        ref[i] = sum;
    }
    return ref;
}

}  // namespace

template <typename V>
int run_verify(const Comm& comm, const DistCli& options)
{
    // ref: this rank's rows of the reference product, in its row partition's order
    std::vector<double> ref;
    DistMatrix<V> m;
    DistCli o = options;
    SetupClock clock(comm);
    if (root_reason(options).empty()) {
        // per rank: every rank loads its rows, takes their reference product, then builds its
        // blocks from them; no rank holds the whole matrix
        auto in = load_per_rank(comm, options);
        clock.input_done();
        ref = reference_rows(in.rows);
        clock.build_begin();
        m = build_from_rows<V>(comm, o, std::move(in.rows), in.partition);
        clock.build_done();
    } else {
        print_root_reason(comm, options);
        const auto a = load_on_root(comm, options.input);
        clock.input_done();
        o = resolve_auto(comm, options, a, advisor_precision(options), 0);
        clock.build_begin();
        m = distribute_input<V>(comm, o, a);
        clock.build_done();
        std::vector<double> ref_global;
        if (comm.rank() == 0) {
            std::vector<double> xg(static_cast<std::size_t>(a.num_cols));
            for (std::size_t i = 0; i < xg.size(); ++i) {
                xg[i] = x_of(static_cast<std::int64_t>(i));
            }
            ref_global.resize(static_cast<std::size_t>(a.num_rows));
            spmv::spmv_reference(a, 1.0, std::span<const double>(xg), 0.0,
                                 std::span<double>(ref_global));
        }
        ref = scatter_from_root<double>(comm, m.row_partition(), ref_global);
    }
    SPMV_EXPECTS(static_cast<std::int64_t>(ref.size()) == m.own_rows(),
                 "the reference does not cover this rank's rows");
    std::vector<V> xo;
    for (const auto g : m.col_partition().indices_of(comm.rank())) {
        xo.push_back(static_cast<V>(x_of(g)));
    }
    const double tol = std::is_same_v<V, double> ? 1e-12 : 2e-5;
    int bad = 0;
    const auto setup = clock.report(comm);
    nlohmann::json j = record_head(o, comm, "dist verify");
    j["setup"] = setup;
    j["devices"] = rank_devices(comm, m.info().device);
    j["row_chunks"] = static_cast<int>(comm.allreduce_max(static_cast<double>(m.info().chunks)));
    j["exchange_path"] = m.exchange_path();
    for (auto mode : o.modes) {
        std::vector<V> y(static_cast<std::size_t>(m.own_rows()));
        m.apply(mode, xo, y);
        // the squares summed per rank, then over the ranks
        double sums[2] = {0.0, 0.0};
        for (std::size_t i = 0; i < ref.size(); ++i) {
            const double d = static_cast<double>(y[i]) - ref[i];
            sums[0] += d * d;
            sums[1] += ref[i] * ref[i];
        }
        comm.allreduce_sum(std::span<double>(sums, 2));
        if (comm.rank() == 0) {
            const double num = sums[0];
            const double den = sums[1];
            const double err = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
            const bool ok = err <= tol;
            bad += ok ? 0 : 1;
            std::printf("%-8s %s: relative error %.2e (tolerance %.0e) %s\n",
                        std::string(to_string(mode)).c_str(), input_name(o.input).c_str(), err,
                        tol, ok ? "OK" : "MISMATCH");
            j["modes"].push_back({{"mode", to_string(mode)}, {"relative_error", err}, {"ok", ok}});
        }
    }
    collective(comm, [&] {
        if (comm.rank() == 0) {
            std::printf("%d rank(s) on %s, %s partition, format %s, exchange %s\n", comm.size(),
                        j["devices"].get<std::string>().c_str(), o.partition.c_str(),
                        o.format.c_str(), m.exchange_path().c_str());
            if (!o.json_out.empty()) {
                write_json(o.json_out, j);
            }
        }
    });
    bad = static_cast<int>(comm.allreduce_max(static_cast<double>(bad)));
    if (bad > 0) {
        throw ExitCode{exit_status::mismatch};
    }
    return 0;
}
template int run_verify<float>(const Comm& comm, const DistCli& options);
template int run_verify<double>(const Comm& comm, const DistCli& options);

}  // namespace spmvlab::dist_cli
