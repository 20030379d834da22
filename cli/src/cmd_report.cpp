// spmvlab report BENCH.json: turns `spmvlab bench --gpu --json-out` results into the Markdown
// tables of docs/benchmarks/, with the comparisons the project promises (issue 3's bars):
// fastest own kernel vs fastest cuSPARSE baseline, speedup over cuSPARSE CSR_ALG1, fraction of
// the copy bandwidth on matrices larger than 2x L2, and pJDS against ELLPACK-R.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include <spmv/error.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace spmvlab {
namespace {

struct ReportOptions {
    std::vector<std::string> files;
    double large_bytes = 100e6;  // 2 x the H100's 50 MB L2
};

double median(std::vector<double> v)
{
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    const auto n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void report(const nlohmann::json& j, const ReportOptions& o)
{
    std::printf("## %s, %s\n\n", j.value("device", "?").c_str(),
                j.value("precision", "?").c_str());
    std::printf("- date %s, commit `%s`, %s\n", j.value("date", "?").c_str(),
                j.value("commit", "?").c_str(), j.value("tool", "?").c_str());
    std::printf("- measured device copy bandwidth %.0f GB/s; cache policy: %s\n",
                j.value("copy_bandwidth_gbs", 0.0), j.value("cache_policy", "?").c_str());
    std::printf("- GF/s = 2 nnz / median kernel time; %% BW = (values + column indices + (N+1) row "
                "pointers + x + y) / time / copy bandwidth\n\n");
    // matrix -> precision -> variant -> record
    std::map<std::string, std::map<std::string, std::map<std::string, nlohmann::json>>> by;
    std::vector<std::string> order;
    for (const auto& r : j["results"]) {
        const auto m = r["matrix"].get<std::string>();
        if (!by.count(m)) order.push_back(m);
        // bench --basis permuted|both: the sorted formats timed with y left sorted are kept
        // apart ("pjds@permuted"); "best own" compares original-basis times only
        const bool permuted = r.value("basis", std::string()) == "permuted";
        by[m][r["precision"].get<std::string>()][r["format"].get<std::string>() +
                                                 (permuted ? "@permuted" : "")] = r;
    }
    for (const char* prec : {"dp", "sp"}) {
        bool any = false;
        for (const auto& m : order) any = any || by[m].count(prec);
        if (!any) continue;
        std::printf("### %s precision\n\n", std::string(prec) == "dp" ? "Double" : "Single");
        std::printf("| matrix | N | nnz | best own | GF/s | %% BW | best cuSPARSE | GF/s | own / "
                    "cuSPARSE | own / CSR_ALG1 | pJDS / ELLR |\n");
        std::printf("|---|---:|---:|---|---:|---:|---|---:|---:|---:|---:|\n");
        std::vector<double> speedups_alg1;
        int wins = 0, compared = 0, large = 0, large_ok = 0, pj = 0, pj_ok = 0;
        std::vector<std::string> losses, large_misses, pj_misses;
        for (const auto& m : order) {
            if (!by[m].count(prec)) continue;
            const auto& vs = by[m][prec];
            const nlohmann::json* own = nullptr;
            const nlohmann::json* base = nullptr;
            for (const auto& [name, r] : vs) {
                if (!r["error"].get<std::string>().empty() || r["gflops"].is_null() ||
                    name.find("@permuted") != std::string::npos) {
                    continue;
                }
                const bool is_base = name.rfind("cusparse_", 0) == 0;
                auto& best = is_base ? base : own;
                if (!best || r["gflops"].get<double>() > (*best)["gflops"].get<double>()) best = &r;
            }
            auto g = [](const nlohmann::json* r) { return r ? (*r)["gflops"].get<double>() : NAN; };
            const auto alg1 = vs.count("cusparse_csr_alg1") && !vs.at("cusparse_csr_alg1")["gflops"].is_null()
                                  ? vs.at("cusparse_csr_alg1")["gflops"].get<double>() : NAN;
            double pj_ratio = NAN;
            // Kreutzer compares pJDS in its permuted basis (no scatter) when that was timed
            const std::string pj_key = vs.count("pjds@permuted") ? "pjds@permuted" : "pjds";
            if (vs.count(pj_key) && vs.count("ellr") && !vs.at(pj_key)["gflops"].is_null() &&
                !vs.at("ellr")["gflops"].is_null()) {
                pj_ratio = vs.at(pj_key)["gflops"].get<double>() / vs.at("ellr")["gflops"].get<double>();
                ++pj;
                if (pj_ratio >= 0.95) ++pj_ok; else pj_misses.push_back(m);
            }
            const double bw = own && !(*own)["fraction_of_copy_bandwidth"].is_null()
                                  ? (*own)["fraction_of_copy_bandwidth"].get<double>() : NAN;
            if (own && base) {
                ++compared;
                if (g(own) >= g(base)) ++wins; else losses.push_back(m);
            }
            if (own && std::isfinite(alg1)) speedups_alg1.push_back(g(own) / alg1);
            if (own && (*own)["min_bytes"].get<double>() >= o.large_bytes) {
                ++large;
                if (bw >= 0.9) ++large_ok; else large_misses.push_back(m);
            }
            const auto first = vs.begin()->second;
            std::printf("| %s | %lld | %lld | %s | %.1f | %.0f | %s | %.1f | %.2f | %.2f | %s |\n",
                        m.c_str(), first["rows"].get<long long>(), first["nnz"].get<long long>(),
                        own ? (*own)["format"].get<std::string>().c_str() : "-", g(own), 100 * bw,
                        base ? (*base)["format"].get<std::string>().c_str() : "-", g(base),
                        g(own) / g(base), g(own) / alg1,
                        std::isfinite(pj_ratio) ? fmt(pj_ratio, 2).c_str() : "-");
        }
        auto list = [](const std::vector<std::string>& v) {
            std::string s;
            for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
            return s.empty() ? std::string("none") : s;
        };
        std::printf("\n- fastest own kernel >= fastest cuSPARSE baseline on %d of %d matrices "
                    "(not on: %s)\n", wins, compared, list(losses).c_str());
        std::printf("- median speedup of the fastest own kernel over cuSPARSE CSR_ALG1: %.2fx over "
                    "%zu matrices\n", median(speedups_alg1), speedups_alg1.size());
        std::printf("- matrices with minimum bytes >= %.0f MB: fastest own kernel at >= 90 %% of "
                    "the copy bandwidth on %d of %d (not on: %s)\n", o.large_bytes / 1e6, large_ok,
                    large, list(large_misses).c_str());
        bool any_permuted = false;
        for (const auto& m : order) {
            any_permuted = any_permuted || (by[m].count(prec) && by[m][prec].count("pjds@permuted"));
        }
        std::printf("- pJDS >= 95 %% of ELLPACK-R on %d of %d matrices (not on: %s); pJDS timed %s\n\n",
                    pj_ok, pj, list(pj_misses).c_str(),
                    any_permuted ? "in its permuted basis (bench --basis), y left sorted as in Kreutzer"
                                 : "with y scattered back to the original row order");
    }
}

}  // namespace

void add_report_command(CLI::App& app)
{
    auto o = std::make_shared<ReportOptions>();
    auto* cmd = app.add_subcommand(
        "report", "Markdown tables from `spmvlab bench --gpu --json-out` files: best own kernel vs "
                  "cuSPARSE, speedup over CSR_ALG1, %% of copy bandwidth, pJDS vs ELLPACK-R");
    cmd->add_option("files", o->files, "JSON files written by spmvlab bench --json-out")->required();
    cmd->add_option("--large-bytes", o->large_bytes,
                    "minimum bytes from which a matrix counts as large (default 2 x 50 MB L2)");
    cmd->callback([o] {
        for (const auto& f : o->files) {
            std::ifstream in(f);
            if (!in) SPMV_THROW(spmv::InvalidArgument, f + ": cannot open");
            nlohmann::json j;
            try {
                in >> j;
            } catch (const std::exception& e) {
                SPMV_THROW(spmv::InvalidArgument, f + ": not a bench JSON file: " + e.what());
            }
            if (!j.contains("results")) {
                SPMV_THROW(spmv::InvalidArgument, f + ": no \"results\" (write it with spmvlab bench --json-out)");
            }
            report(j, *o);
        }
    });
}

}  // namespace spmvlab
