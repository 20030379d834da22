// spmvlab info INPUT...: statistics and a text histogram of the row lengths.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/io/matrix_market.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

/// The histogram's default bin count: width 1 up to 40 different row lengths (one screen).
constexpr int default_bins = 40;

struct InfoOptions {
    std::string file;                 ///< the input run() reports on
    std::vector<std::string> inputs;  ///< the command line's inputs (files, dirs, specs, -)
    bool json = false;
    int bins = 0;
};

void run(const InfoOptions& o, const spmv::Csr<double, std::int32_t>& a,
         const spmv::io::MatrixMarketInfo& mm)
{
    const auto s = spmv::analysis::row_stats(a);
    // At most B bins (--bins, default 40), each of width 1 (Kreutzer Fig. 3) where that fits:
    // lengths 0..max when max < B (empty and short rows show), else min..max when that range
    // holds at most B lengths, else the smallest integer width W that covers min..max in B bins.
    const int max_bins = o.bins > 0 ? o.bins : default_bins;
    const auto lengths = spmv::row_lengths(a);
    const auto h = s.max < max_bins ? spmv::analysis::row_length_histogram(a)
                                    : spmv::analysis::histogram(
                                          std::span<const std::int32_t>(lengths), max_bins);
    const std::string rule = "width 1 (one bin per row length, as Kreutzer Fig. 3) while the "
                             "row lengths span at most " + std::to_string(max_bins) +
                             " values, else the smallest width that fits them in " +
                             std::to_string(max_bins) + " bins";
    if (o.json) {
        nlohmann::json j = {
            {"meta", make_meta("info", {o.file})},
            {"matrix", input_name(o.file)},
            {"rows", s.rows},
            {"cols", s.cols},
            {"nnz", s.nnz},
            {"entries_in_file", mm.entries},
            {"field", std::string(spmv::io::to_string(mm.field))},
            {"symmetry", std::string(spmv::io::to_string(mm.symmetry))},
            {"explicit_zeros", mm.explicit_zeros},
            {"duplicates_summed", mm.duplicates_summed},
            {"empty_rows", s.empty_rows},
            // where it came from, as the text's "SuiteSparse NAME (id N), member M, gzip-..."
            {"collection", mm.collection_name.empty()
                               ? nlohmann::json()
                               : nlohmann::json{{"name", mm.collection_name},
                                                {"id", mm.collection_id > 0
                                                           ? nlohmann::json(mm.collection_id)
                                                           : nlohmann::json()}}},
            {"compression",
             mm.compression.empty() ? nlohmann::json() : nlohmann::json(mm.compression)},
            {"archive_member",
             mm.archive_member.empty() ? nlohmann::json() : nlohmann::json(mm.archive_member)},
            {"row_length",
             {{"ave", s.ave}, {"sigma", s.sigma}, {"min", s.min}, {"max", s.max},
              {"max_minus_min", s.spread}}},
            {"histogram",
             {{"bin_width", h.bin_width},
              {"max_bins", max_bins},
              {"rule", rule},
              {"edges", h.edges},
              {"counts", h.counts}}}};
        std::printf("%s\n", j.dump(2).c_str());
        return;
    }
    std::printf("%s\n", o.file.c_str());
    if (!mm.collection_name.empty() || !mm.compression.empty() || !mm.archive_member.empty()) {
        std::string from = mm.collection_name.empty() ? "" : "SuiteSparse " + mm.collection_name;
        from += mm.collection_id > 0 ? " (id " + std::to_string(mm.collection_id) + ")" : "";
        from += mm.archive_member.empty() ? "" : (from.empty() ? "" : ", ") + ("member " + mm.archive_member);
        from += mm.compression.empty() ? "" : (from.empty() ? "" : ", ") + mm.compression + "-compressed";
        std::printf("  %s\n", from.c_str());
    }
    std::printf("  %s %s, %lld entries in the file\n", std::string(to_string(mm.field)).c_str(),
                std::string(to_string(mm.symmetry)).c_str(), static_cast<long long>(mm.entries));
    std::printf("  N = %lld rows, %lld columns, nnz = %lld stored entries", 
                static_cast<long long>(s.rows), static_cast<long long>(s.cols),
                static_cast<long long>(s.nnz));
    std::printf(" (%lld explicit zeros, %lld duplicates summed)\n",
                static_cast<long long>(mm.explicit_zeros),
                static_cast<long long>(mm.duplicates_summed));
    std::printf("  row length: ave %.2f  sigma %.2f  min %lld  max %lld  max-min %lld  empty rows "
                "%lld\n",
                s.ave, s.sigma, static_cast<long long>(s.min), static_cast<long long>(s.max),
                static_cast<long long>(s.spread), static_cast<long long>(s.empty_rows));
    std::printf("\n  row-length histogram: bins of width %lld",
                static_cast<long long>(h.bin_width));
    if (!h.counts.empty()) {
        if (h.bin_width == 1) {  // the bins' range: 0..max or min..max
            std::printf(" (lengths %lld..%lld)", static_cast<long long>(h.edges.front()),
                        static_cast<long long>(h.edges.back() - 1));
        } else {
            std::printf(" (lengths %lld..%lld span %lld values, more than %d)",
                        static_cast<long long>(s.min), static_cast<long long>(s.max),
                        static_cast<long long>(s.spread + 1), max_bins);
        }
    }
    std::printf("\n  rule: width 1 (one bin per row length, as Kreutzer Fig. 3) while the row "
                "lengths\n  span at most %d values, else the smallest width that fits them in "
                "%d bins\n  (--bins B sets the %d)\n",
                max_bins, max_bins, max_bins);
    const auto peak = h.counts.empty() ? 1 : *std::max_element(h.counts.begin(), h.counts.end());
    for (std::size_t b = 0; b < h.counts.size(); ++b) {
        const int bar = peak > 0 ? static_cast<int>(50.0 * static_cast<double>(h.counts[b]) /
                                                    static_cast<double>(peak) + 0.5)
                                 : 0;
        const std::string label =
            h.bin_width == 1 ? std::to_string(h.edges[b])
                             : std::to_string(h.edges[b]) + "-" + std::to_string(h.edges[b + 1] - 1);
        std::printf("  %12s | %-50s %lld\n", label.c_str(), std::string(static_cast<std::size_t>(bar), '#').c_str(),
                    static_cast<long long>(h.counts[b]));
    }
}

}  // namespace

void add_info_command(CLI::App& app)
{
    auto o = std::make_shared<InfoOptions>();
    auto* cmd = app.add_subcommand("info", "statistics of a matrix (N, nnz, row lengths: ave, "
                                           "sigma, min, max) and its row-length histogram");
    cmd->add_option("inputs", o->inputs,
                    "Matrix Market files (.mtx, .mtx.gz/.bz2/.xz, SuiteSparse .tar.gz, "
                    "ARCHIVE:MEMBER), directories (searched recursively), generator specs "
                    "gen:NAME[:k=v,...], or - for the standard input. --json gives one object "
                    "for one file or spec; for several or a directory an object whose "
                    "\"results\" holds one per matrix and \"failed\" the inputs that could "
                    "not be read, with the reason")
        ->required();
    cmd->add_flag("--json", o->json, "machine-readable output");
    cmd->add_option("--bins", o->bins,
                    "at most this many histogram bins (default 40): width 1 while the row "
                    "lengths span at most that many values, else the smallest width that fits")
        ->check(CLI::Range(1, 1000000));
    cmd->callback([o] {
        namespace fs = std::filesystem;
        // one object for a single file or spec; an array when several inputs or a directory
        bool many = o->inputs.size() > 1;
        for (const auto& in : o->inputs) {
            std::error_code ec;
            many = many || (in != "-" && fs::is_directory(in, ec));
        }
        const auto files = collect_inputs(o->inputs);
        int failures = 0;
        nlohmann::json failed = nlohmann::json::array();  // --json: "failed", with the reasons
        std::size_t shown = 0;
        if (o->json && many) {  // schema spmvlab/1: an object, {"meta", "results": [...]}
            std::printf("{\"meta\": %s,\n\"results\": [\n",
                        make_meta("info", input_strings(files)).dump(2).c_str());
        }
        for (const auto& f : files) {
            spmv::io::MatrixMarketInfo mm;
            std::optional<spmv::Csr<double, std::int32_t>> a;
            if (!many) {
                a = load_matrix(f, &mm);  // a single input's error is the command's error
            } else {
                try {
                    a = load_matrix(f, &mm);
                } catch (const spmv::Error& e) {
                    std::fprintf(stderr, "spmvlab: skipped %s: %s\n", f.string().c_str(),
                                 user_message(e.what()).c_str());
                    failed.push_back(failed_input(f, user_message(e.what())));
                    ++failures;
                    continue;
                }
            }
            if (shown++ > 0) {
                std::printf(o->json ? ",\n" : "\n");
            }
            InfoOptions one = *o;
            one.file = f.string();
            run(one, *a, mm);
        }
        if (o->json && many) {
            std::printf("],\n\"failed\": %s}\n", failed.dump(2).c_str());
        }
        if (failures > 0) {
            throw ExitCode{exit_status::error};
        }
    });
}

}  // namespace spmvlab
