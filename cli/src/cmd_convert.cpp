// spmvlab convert IN OUT: read any supported Matrix Market file, write it back normalised.
#include <cstdio>
#include <iostream>

#include <spmv/error.hpp>
#include <spmv/io/matrix_market.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

struct ConvertOptions {
    std::string in;
    std::string out;
    bool symmetric = false;
    bool pattern = false;
    bool json = false;
};

void run(const ConvertOptions& o)
{
    spmv::io::MatrixMarketInfo info;
    const auto a = load_matrix(o.in, &info);
    spmv::io::WriteOptions w;
    w.symmetric = o.symmetric;
    w.pattern = o.pattern;
    w.comments = info.comments;  // the source's header (the collection's attribution) stays
    w.comment = "converted by " + version_string() + " from " + o.in;
    if (o.out == "-") {  // the standard output, as "-" means for the input
        if (o.json) {
            SPMV_THROW(spmv::InvalidArgument, "--json and the output - would both write to the "
                                              "standard output: name an output file");
        }
        write_matrix_file(o.out, a, w);  // the kept standard output (common.hpp output_option)
        std::fprintf(stderr, "%s -> standard output: %d x %d, %lld entries\n", o.in.c_str(),
                     a.num_rows, a.num_cols, static_cast<long long>(spmv::nnz(a)));
        return;
    }
    spmv::io::write_matrix_market(o.out, a, w);
    if (o.json) {  // schema spmvlab/1 (schemas/convert.schema.json)
        const nlohmann::json j = {
            {"meta", make_meta("convert", {o.in})},
            {"matrix", input_name(o.in)},
            {"rows", a.num_rows},
            {"cols", a.num_cols},
            {"nnz", spmv::nnz(a)},
            {"field_in", std::string(to_string(info.field))},
            {"symmetry_in", std::string(to_string(info.symmetry))},
            {"field_out", o.pattern ? "pattern" : "real"},
            {"symmetry_out", o.symmetric ? "symmetric" : "general"},
            {"output", input_meta(o.out)}};
        std::printf("%s\n", j.dump(2).c_str());
        return;
    }
    std::printf("%s -> %s: %d x %d, %lld entries (%s %s in, %s %s out)\n", o.in.c_str(),
                o.out.c_str(), a.num_rows, a.num_cols, static_cast<long long>(spmv::nnz(a)),
                std::string(to_string(info.field)).c_str(),
                std::string(to_string(info.symmetry)).c_str(), o.pattern ? "pattern" : "real",
                o.symmetric ? "symmetric" : "general");
}

}  // namespace

void add_convert_command(CLI::App& app)
{
    auto o = std::make_shared<ConvertOptions>();
    auto* cmd = app.add_subcommand(
        "convert", "read a Matrix Market file (symmetric/skew/pattern/integer, duplicates summed) "
                   "and write it as coordinate real general (or --symmetric / --pattern)");
    cmd->add_option("in", o->in,
                    "input: .mtx, .mtx.gz/.bz2/.xz, a SuiteSparse .tar.gz (or ARCHIVE:MEMBER), "
                    "- for the standard input, or a generator spec gen:...; its header comments "
                    "(the collection's attribution) are kept in the output")
        ->required();
    output_option(cmd->add_option("out", o->out, "output .mtx, or - for the standard output")->required());
    cmd->add_flag("--symmetric", o->symmetric, "write one triangle (matrix must be symmetric)");
    cmd->add_flag("--pattern", o->pattern, "write the structure only");
    cmd->add_flag("--json", o->json, "machine-readable summary (the output's size and SHA-256)");
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
