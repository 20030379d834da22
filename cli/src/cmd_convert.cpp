// spmvlab convert IN OUT: read any supported Matrix Market file, write it back normalised.
#include <cstdio>

#include <spmv/io/matrix_market.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace spmvlab {
namespace {

struct ConvertOptions {
    std::string in;
    std::string out;
    bool symmetric = false;
    bool pattern = false;
};

void run(const ConvertOptions& o)
{
    spmv::io::MatrixMarketInfo info;
    const auto a = load_matrix(o.in, &info);
    spmv::io::WriteOptions w;
    w.symmetric = o.symmetric;
    w.pattern = o.pattern;
    w.comment = "converted by " + version_string() + " from " + o.in;
    spmv::io::write_matrix_market(o.out, a, w);
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
    cmd->add_option("in", o->in, "input .mtx")->required();
    cmd->add_option("out", o->out, "output .mtx")->required();
    cmd->add_flag("--symmetric", o->symmetric, "write one triangle (matrix must be symmetric)");
    cmd->add_flag("--pattern", o->pattern, "write the structure only");
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
