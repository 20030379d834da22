// spmvlab replicate RECORD.json... [--matrices DIR...] [--solver-records F...]
// [--dist-records F...] [--out FILE]: the replication report docs/replication.md. Every
// quantitative claim of the five papers in shared/seeds/ about formats, kernels, MPIR-CG and
// distributed SpMV becomes one row: the claim, where the paper makes it, the paper's number, the
// number measured in the records, and a verdict from the one rule of replicate/verdict.hpp.
// The engine (records, size classes, report) is replicate/engine.*, the claims one file per
// paper (replicate/kreutzer.cpp, kreutzer_dist.cpp, wang.cpp, barbieri.cpp, cevahir.cpp).
#include <cstdio>
#include <memory>

#include <spmv/error.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "replicate/claims.hpp"

namespace spmvlab {
namespace {

using namespace replicate;

void run(const Options& o)
{
    Context ctx;
    for (const auto& f : o.files) read_bench(ctx, f);
    for (const auto& f : o.solver_files) read_solver(ctx, f);
    for (const auto& f : o.dist_files) read_dist(ctx, f);
    ctx.solver_given = !o.solver_files.empty();
    ctx.dist_given = !o.dist_files.empty();
    if (ctx.cases.empty()) SPMV_THROW(spmv::InvalidArgument, "no results in " + join(o.files));
    classify(ctx, o);
    load_matrices(ctx, o);
    std::vector<Claim> claims;
    for (auto part : {kreutzer_claims(ctx), kreutzer_dist_claims(ctx), wang_claims(ctx),
                      barbieri_claims(ctx), cevahir_claims(ctx)}) {
        for (auto& c : part) claims.push_back(std::move(c));
    }
    const auto md = report(ctx, o, claims);
    if (o.out.empty()) {
        std::fputs(md.c_str(), stdout);
        return;
    }
    write_file(o.out, md);
    int n[4] = {};
    for (const auto& c : claims) ++n[static_cast<int>(c.j.verdict)];
    std::printf("%s: %zu claims: %d hold, %d hold partly, %d do not hold, %d not measured\n",
                o.out.c_str(), claims.size(), n[0], n[1], n[2], n[3]);
}

}  // namespace

void add_replicate_command(CLI::App& app)
{
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand(
        "replicate",
        "The papers' quantitative claims against `spmvlab bench --gpu --json-out` records "
        "(and solver and dist bench records): Markdown, one row per claim with the paper's "
        "number, the measured one and a verdict by one stated rule (holds / holds partly / does "
        "not hold / not measured), split by matrix size");
    cmd->add_option("records", o->files, "JSON files written by spmvlab bench --gpu --json-out")
        ->required();
    cmd->add_option("--matrices", o->matrix_dirs,
                    "directories holding the records' .mtx files (row-length σ for PELLR's "
                    "claims, pJDS slot counts for Kreutzer's)");
    cmd->add_option(
        "--solver-records", o->solver_files,
        "JSON records of spmvlab solve --json (CG vs MPIR-CG) and dist solve (GPUs); a directory: "
        "its *.json files that are solver records");
    cmd->add_option("--dist-records", o->dist_files,
                    "JSON records of spmvlab dist bench --json-out (Kreutzer §III's modes); a "
                    "directory: its *.json files that are dist bench records");
    output_option(
        cmd->add_option("--out", o->out, "write the Markdown to FILE (default: standard output)"));
    cmd->add_option("--l2-mb", o->l2_mb,
                    "L2 size in MB (default: from the device name, 50 for H100/H200)")
        ->check(positive_number());
    cmd->add_option(
           "--latency-mb", o->latency_mb,
           "latency-bound below this many MB of min_bytes (default: derived from the records)")
        ->check(positive_number());
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
