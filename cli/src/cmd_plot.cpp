// spmvlab plot BENCH.json... -o DIR: figures (PNG and SVG) of `spmvlab bench --json-out`
// records, without a display (docs/plot.md). The figures are built in cli/src/plot/: records.cpp
// reads the records (its adapt_record is the only code that knows their field names),
// figures.cpp turns them into charts, charts.cpp lays the charts out on spmv::core's scene
// (spmv/viz/scene.hpp: svg() writes SVG) and render_cairo.cpp writes PNG.
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include <spmv/error.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "plot/figures.hpp"
#include "plot/render.hpp"

namespace spmvlab {
namespace {

struct PlotOptions {
    std::vector<std::string> files;
    std::string out_dir;
    std::string precision = "both";
    std::string variants;
    std::string figures;
    std::string formats = "png,svg";
    std::vector<std::string> matrix_dirs;
    double scale = 1.0;
    bool allow_incomplete = false;
};

const std::vector<std::string> figure_names = {"gflops_variants", "gflops_matrices", "bandwidth",
                                               "speedup_cusparse", "model"};

std::vector<std::string> split(const std::string& list)
{
    std::vector<std::string> out;
    std::stringstream in(list);
    for (std::string x; std::getline(in, x, ',');) {
        if (!x.empty()) out.push_back(x);
    }
    return out;
}

std::string join(const std::set<std::string>& s)
{
    std::string out;
    for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
    return out;
}

plot::BenchData read_records(const PlotOptions& o)
{
    std::vector<plot::Record> records;
    for (const auto& f : o.files) {
        auto r = plot::adapt_record(read_bench_json(f), f);
        if (r.ok.empty() && r.failed == 0 && r.permuted_basis == 0) {
            SPMV_THROW(spmv::InvalidArgument, f + ": the record holds no results (an empty "
                                                  "\"results\" array)");
        }
        if (!r.run.complete) {
            const std::string what = f + ": an incomplete record (\"complete\": false" +
                                     (r.run.progress.empty() ? "" : ", " + r.run.progress) +
                                     "): its bench run was interrupted";
            if (!o.allow_incomplete) {
                SPMV_THROW(spmv::InvalidArgument,
                           what + "; pass --allow-incomplete to plot what it holds");
            }
            std::fprintf(stderr, "note: %s; plotting what it holds\n", what.c_str());
        }
        records.push_back(std::move(r));
    }
    auto d = plot::combine(std::move(records));
    if (d.rows.empty()) {
        SPMV_THROW(spmv::InvalidArgument,
                   "no result of the records was measured without an error (" +
                       std::to_string(d.failed) + " with an error)");
    }
    if (d.failed > 0) {
        std::fprintf(stderr, "note: %d results with an error or without a time are left out\n",
                     d.failed);
    }
    if (d.permuted_basis > 0) {
        std::fprintf(stderr, "note: %d results timed with y left in the permuted basis (bench "
                             "--basis) are left out: the figures compare original-basis times\n",
                     d.permuted_basis);
    }
    if (d.duplicates > 0) {
        std::fprintf(stderr, "note: %d results measured again in a later file are left out (the "
                             "first file's are plotted)\n", d.duplicates);
    }
    return d;
}

void run(const PlotOptions& o)
{
    const auto formats = split(o.formats);
    for (const auto& f : formats) {
        if (f != "png" && f != "svg") {
            SPMV_THROW(spmv::InvalidArgument, "--format " + f + ": png or svg");
        }
    }
    SPMV_EXPECTS(!formats.empty(), "--format: name png, svg or both");
    const bool png = std::find(formats.begin(), formats.end(), "png") != formats.end();
    if (png && !plot::have_png()) {
        plot::render_png({});  // throws NotCompiled: this build has no cairo
    }
    auto figures = split(o.figures);
    if (figures.empty()) figures = figure_names;
    for (const auto& f : figures) {
        if (std::find(figure_names.begin(), figure_names.end(), f) == figure_names.end()) {
            SPMV_THROW(spmv::InvalidArgument,
                       "--figures " + f + ": one of gflops_variants, gflops_matrices, "
                       "bandwidth, speedup_cusparse, model");
        }
    }
    const auto d = read_records(o);
    const auto variants = split(o.variants);
    std::set<std::string> present, precisions;
    for (const auto& m : d.rows) {
        present.insert(m.variant);
        precisions.insert(m.precision);
    }
    for (const auto& v : variants) {
        if (!present.count(v)) {
            SPMV_THROW(spmv::InvalidArgument, "--variants " + v + ": not in the records (they hold " +
                                                  join(present) + ")");
        }
    }
    if (o.precision != "both") {
        if (!precisions.count(o.precision)) {
            SPMV_THROW(spmv::InvalidArgument, "--precision " + o.precision +
                                                  ": the records hold " + join(precisions));
        }
        precisions = {o.precision};
    }
    std::filesystem::create_directories(o.out_dir);

    int written = 0;
    struct ReleaseCaches {  // after the last PNG, also when a write throws
        ~ReleaseCaches() { plot::release_png_caches(); }
    } release_caches;
    auto emit = [&](const std::string& name, const plot::Scene& scene) {
        for (const auto& f : formats) {
            const auto path = (std::filesystem::path(o.out_dir) / (name + "." + f)).string();
            write_file(path, f == "svg" ? plot::svg(scene) : plot::render_png(scene, o.scale));
            std::printf("wrote %s (%.0f x %.0f)\n", path.c_str(), scene.width * (f == "png" ? o.scale : 1),
                        scene.height * (f == "png" ? o.scale : 1));
            ++written;
        }
    };
    auto skip = [](const std::string& name, const std::string& why) {
        std::printf("note: %s skipped: %s\n", name.c_str(), why.c_str());
    };
    auto wanted = [&](const std::string& f) {
        return std::find(figures.begin(), figures.end(), f) != figures.end();
    };

    std::optional<plot::ModelPoints> model;
    std::string model_why;
    if (wanted("model")) {
        const plot::MatrixLoader load =
            [&](const std::string& name) -> std::optional<spmv::Csr<double, std::int32_t>> {
            const auto path = locate_matrix(name, o.matrix_dirs);
            if (path.empty()) return std::nullopt;
            return load_or_report(path);
        };
        model = plot::model_points(d, variants, load, &model_why);
        if (model && !model->missing.empty()) {
            std::printf("note: model: %zu of the records' matrices not found%s: left out of it\n",
                        model->missing.size(),
                        o.matrix_dirs.empty() ? " (give --matrices DIR)" : " in --matrices");
        }
    }
    for (const auto& p : precisions) {
        if (wanted("gflops_variants")) {
            emit("gflops_variants_" + p, plot::draw(plot::gflops_variants_chart(d, p, variants)));
        }
        if (wanted("gflops_matrices")) {
            emit("gflops_matrices_" + p, plot::draw(plot::gflops_matrices_chart(d, p, variants)));
        }
        std::string why;
        if (wanted("bandwidth")) {
            if (auto c = plot::bandwidth_chart(d, p, variants, &why)) {
                emit("bandwidth_" + p, plot::draw(*c));
            } else {
                skip("bandwidth_" + p, why);
            }
        }
        if (wanted("speedup_cusparse")) {
            if (auto c = plot::speedup_chart(d, p, variants, &why)) {
                emit("speedup_cusparse_" + p, plot::draw(*c));
            } else {
                skip("speedup_cusparse_" + p, why);
            }
        }
        if (wanted("model")) {
            if (!model) {
                skip("model_" + p, model_why);
            } else if (auto c = plot::model_chart(d, p, *model, &why)) {
                emit("model_" + p, plot::draw(*c));
            } else {
                skip("model_" + p, why);
            }
        }
    }
    if (written == 0) {
        std::fprintf(stderr, "spmvlab plot: no figure could be drawn from these records (see the "
                             "notes above)\n");
        throw ExitCode{exit_status::error};
    }
}

}  // namespace

void add_plot_command(CLI::App& app)
{
    auto o = std::make_shared<PlotOptions>();
    auto* cmd = app.add_subcommand(
        "plot", "figures (PNG, SVG) of `spmvlab bench --json-out` records: GF/s per variant and "
                "per matrix, % of the copy bandwidth, speedup over cuSPARSE, model against "
                "measured (docs/plot.md)");
    cmd->add_option("records", o->files, "bench --json-out files (several combine, e.g. two "
                                         "halves of a collection)")
        ->required()
        ->check(CLI::ExistingFile);
    output_prefix_option(
        cmd->add_option("-o,--output", o->out_dir, "directory for the figures (created)")->required());
    cmd->add_option("--precision", o->precision, "dp, sp or both (default: every one recorded)")
        ->check(CLI::IsMember({"sp", "dp", "both"}));
    cmd->add_option("--variants,--formats", o->variants,
                    "comma list of the own variants (GPU) or formats (CPU) to show; cuSPARSE "
                    "baselines are always kept (default: all)");
    cmd->add_option("--figures", o->figures,
                    "comma list of gflops_variants, gflops_matrices, bandwidth, speedup_cusparse, "
                    "model (default: all)");
    cmd->add_option("--format", o->formats, "png, svg or png,svg (default)");
    cmd->add_option("--matrices", o->matrix_dirs,
                    "directories holding the records' .mtx files, for the model figure "
                    "(repeatable; then the working directory; generator specs need none)")
        ->type_name("DIR");
    cmd->add_option("--scale", o->scale, "PNG pixels per figure pixel (default 1; 2 for slides)")
        ->check(CLI::Range(0.25, 4.0));
    cmd->add_flag("--allow-incomplete", o->allow_incomplete,
                  "plot records of an interrupted bench run (\"complete\": false) too");
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
