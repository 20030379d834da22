// spmvlab verify FILE|DIR [--gpu]: every format against a double-precision CSR reference.
#include <cstdio>
#include <random>
#include <string>

#include <spmv/registry.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "gpu_bridge.hpp"
#include "meta.hpp"
#include "verify_check.hpp"

namespace spmvlab {
namespace {

struct VerifyOptions {
    std::vector<std::string> inputs;
    bool gpu = false;
    bool json = false;
    std::string formats;
    std::uint32_t seed = 2012;
    ParamOptions params;
};

std::vector<double> random_vector(std::size_t n, std::mt19937& rng)
{
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<double> v(n);
    for (auto& e : v) {
        e = d(rng);
    }
    return v;
}

template <typename V>
Accuracy verify_host(const spmv::FormatInfo& info, const spmv::Csr<double, std::int32_t>& a,
                     const spmv::FormatParams& params, double alpha, const std::vector<double>& x,
                     double beta, const std::vector<double>& y0, const std::vector<double>& ref)
{
    const auto av = spmv::convert_values<V>(a);
    const auto m = spmv::build(info.name, av, params);
    spmv::validate(m);
    std::vector<V> xv(x.begin(), x.end());
    std::vector<V> yv(y0.begin(), y0.end());
    spmv::spmv_reference(m, static_cast<V>(alpha), std::span<const V>(xv), static_cast<V>(beta),
                         std::span<V>(yv));
    return check_accuracy<V>(a, alpha, x, beta, y0, ref, std::span<const V>(yv));
}

int run(VerifyOptions& o)
{
    const auto params = apply_format_params(o.params);
    // With --gpu the list may name GPU variants (csr_vector, sell_xs, cusparse_*): the host
    // check then runs the host formats those variants are built from.
    const auto selected =
        o.gpu ? select_formats(o.formats, gpu_variant_format) : select_formats(o.formats);
    const auto files = collect_inputs(o.inputs);
    nlohmann::json out = nlohmann::json::array();
    int failures = 0;
    int unreadable = 0;
    int not_applicable_count = 0;
    nlohmann::json failed = nlohmann::json::array();  // --json: the unreadable inputs, why
    for (std::size_t f = 0; f < files.size(); ++f) {
        if (files.size() > 1) {
            progress(f, files.size(), input_name(files[f]));
        }
        const auto loaded =
            files.size() > 1 ? load_or_record(files[f], failed) : load_matrix(files[f]);
        if (!loaded) {
            ++unreadable;  // an input error (exit 1), not a mismatch (exit 3)
            continue;
        }
        const auto& a = *loaded;
        std::mt19937 rng(o.seed);
        const double alpha = 1.5;
        const double beta = -0.75;
        const auto x = random_vector(static_cast<std::size_t>(a.num_cols), rng);
        const auto y0 = random_vector(static_cast<std::size_t>(a.num_rows), rng);
        auto ref = y0;
        spmv::spmv_reference(a, alpha, std::span<const double>(x), beta, std::span<double>(ref));

        Table table({"format", "precision", "where", "relative error", "scaled error", "bound",
                     "verdict"});
        // A refusal (the format cannot hold this matrix, or it is over the memory limit) is
        // "n/a" with its reason: not a mismatch.
        auto record = [&](const std::string& name, const char* prec, const char* where,
                          const Accuracy& acc, const std::string& error, bool not_applicable) {
            const bool ok = error.empty() && acc.pass();
            failures += ok || not_applicable ? 0 : 1;
            not_applicable_count += not_applicable ? 1 : 0;
            const std::string verdict = not_applicable     ? "n/a: " + error
                                        : !error.empty()   ? "ERROR: " + error
                                        : acc.unwritten    ? "FAIL (unwritten y)"
                                        : ok               ? "ok"
                                                           : "FAIL";
            if (!error.empty()) {
                table.add({name, prec, where, verdict});
            } else {
                table.add({name, prec, where, sci(acc.relative_error), sci(acc.scaled_error),
                           sci(acc.bound), verdict});
            }
            out.push_back({{"matrix", input_name(files[f])},
                           {"format", name},
                           {"precision", precision_name(prec)},
                           {"where", where},
                           {"verdict", not_applicable ? "n/a" : !error.empty() ? "error"
                                                                 : ok           ? "ok"
                                                                                : "fail"},
                           {"relative_error", acc.relative_error},
                           {"scaled_error", acc.scaled_error},
                           {"bound", acc.bound},
                           {"pass", not_applicable ? nlohmann::json() : nlohmann::json(ok)},
                           {"error", error}});
        };
        const auto& budget = memory_budget();
        for (const auto* info : selected) {
            const std::string over = over_budget(info->name, a, params, budget);  // once a format
            for (const char* prec : {"dp", "sp"}) {
                Accuracy acc;
                std::string error = over;
                bool refused = !error.empty();
                if (!refused) {
                    try {
                        acc = std::string(prec) == "dp"
                                  ? verify_host<double>(*info, a, params, alpha, x, beta, y0, ref)
                                  : verify_host<float>(*info, a, params, alpha, x, beta, y0, ref);
                    } catch (const std::exception& e) {
                        error = user_message(e.what());
                        refused = is_refusal(e);
                    }
                }
                record(std::string(info->name), prec, "host", acc, error, refused);
            }
        }
        if (o.gpu) {
            for (const auto& r : verify_on_gpu(a, params, o.formats, alpha, x, beta, y0, ref)) {
                record(r.name, r.precision.c_str(), "gpu", r.accuracy, r.error, r.not_applicable);
            }
        }
        progress_done();
        if (!o.json) {
            std::printf("%s: %d x %d, %lld entries\n%s\n", files[f].string().c_str(), a.num_rows,
                        a.num_cols, static_cast<long long>(spmv::nnz(a)), table.str().c_str());
        }
    }
    if (o.json) {
        nlohmann::json j = {{"meta", make_meta("verify", input_strings(files))},
                            {"seed", o.seed},
                            {"params", params_json(params)},
                            {"results", out},
                            {"failed", failed}};
        if (o.gpu) add_gpu_meta(j["meta"]);
        std::printf("%s\n", j.dump(2).c_str());
    }
    if (failures > 0) {
        std::fprintf(stderr, "spmvlab verify: %d mismatch(es)%s\n", failures,
                     unreadable > 0 ? (", and " + std::to_string(unreadable) +
                                       " unreadable file(s)").c_str()
                                    : "");
        throw ExitCode{exit_status::mismatch};
    }
    if (unreadable > 0) {
        std::fprintf(stderr, "spmvlab verify: %d unreadable file(s); every other result agrees\n",
                     unreadable);
        throw ExitCode{exit_status::error};
    }
    if (!o.json) {
        if (not_applicable_count > 0) {
            std::printf("every format that could hold the matrix agrees with the double-precision "
                        "CSR reference; %d check(s) not applicable (n/a above)\n",
                        not_applicable_count);
        } else {
            std::printf("all formats agree with the double-precision CSR reference\n");
        }
    }
    return 0;
}

}  // namespace

void add_verify_command(CLI::App& app)
{
    auto o = std::make_shared<VerifyOptions>();
    auto* cmd = app.add_subcommand(
        "verify", "check every format (host reference, and GPU kernels with --gpu) against a "
                  "double-precision CSR SpMV on random x, y with alpha, beta != 0; exit 3 on any "
                  "mismatch");
    cmd->add_option("inputs", o->inputs,
                    ".mtx files (also .mtx.gz/.bz2/.xz, SuiteSparse .tar.gz, - for the standard "
                    "input), directories (searched recursively), or generator specs such as "
                    "gen:pde:size=100 (see spmvlab generate --help)")
        ->required();
    cmd->add_flag("--gpu", o->gpu, "also run every GPU kernel and cuSPARSE baseline");
    cmd->add_flag("--json", o->json, "machine-readable output");
    cmd->add_option("--formats", o->formats, "comma-separated registry names (default: all)");
    cmd->add_option("--seed", o->seed, "seed of the random x and y")->default_val(o->seed);
    add_format_param_options(cmd, o->params);
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
