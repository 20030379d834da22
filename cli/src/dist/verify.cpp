// spmvlab dist verify: every mode of the distributed SpMV against the single-process product
// on the root (exit 3 on a mismatch). Runs under mpiexec, or as one rank without it.
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>

#include "common.hpp"
#include "dist_cli.hpp"

namespace spmvlab::dist_cli {

using namespace spmv::dist;

template <typename V>
int run_verify(const Comm& comm, const DistCli& options)
{
    const auto a = load_on_root(comm, options.input);
    const auto o = resolve_auto(comm, options, a, advisor_precision(options), 0);
    auto m = distribute_input<V>(comm, o, a);
    std::vector<double> xg;
    std::vector<double> ref;
    if (comm.rank() == 0) {
        xg.resize(static_cast<std::size_t>(a.num_cols));
        for (std::size_t i = 0; i < xg.size(); ++i) {
            xg[i] = std::sin(0.37 * static_cast<double>(i) + 1.0);
        }
        ref.resize(static_cast<std::size_t>(a.num_rows));
        spmv::spmv_reference(a, 1.0, std::span<const double>(xg), 0.0, std::span<double>(ref));
    }
    std::vector<V> xv(xg.begin(), xg.end());
    const auto xo = scatter_from_root<V>(comm, m.col_partition(), xv);
    const double tol = std::is_same_v<V, double> ? 1e-12 : 2e-5;
    int bad = 0;
    nlohmann::json j = record_head(o, comm, "dist verify");
    j["devices"] = rank_devices(comm, m.info().device);
    j["exchange_path"] = m.exchange_path();
    for (auto mode : o.modes) {
        std::vector<V> y(static_cast<std::size_t>(m.own_rows()));
        m.apply(mode, xo, y);
        const auto yg = gather_to_root<V>(comm, m.row_partition(), y);
        if (comm.rank() == 0) {
            double num = 0.0;
            double den = 0.0;
            for (std::size_t i = 0; i < ref.size(); ++i) {
                num += (static_cast<double>(yg[i]) - ref[i]) * (static_cast<double>(yg[i]) - ref[i]);
                den += ref[i] * ref[i];
            }
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
