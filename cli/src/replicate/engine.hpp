#pragma once
/// The claim engine of `spmvlab replicate`: the records (bench, solver and distributed bench
/// records), the size classes, samples and their summaries, evaluation of a claim on every
/// precision x size class through the one verdict rule (verdict.hpp), and the Markdown report.
/// The claims themselves live in one file per paper (kreutzer.cpp, kreutzer_dist.cpp, wang.cpp,
/// barbieri.cpp, cevahir.cpp; claims.hpp).
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spmv/analysis/row_stats.hpp>

#include "replicate/verdict.hpp"

namespace spmvlab::replicate {

using spmv::analysis::RowLengthStats;

struct Options {
    std::vector<std::string> files;
    std::vector<std::string> solver_files;
    std::vector<std::string> dist_files;
    std::vector<std::string> matrix_dirs;
    std::string out;
    double l2_mb = 0.0;       // 0: from the device name
    double latency_mb = 0.0;  // 0: derived from the records
};

double num(const nlohmann::json& j, const char* key);
std::string str(const nlohmann::json& j, const char* key, const std::string& otherwise = "?");

enum SizeClass { latency_bound = 0, medium = 1, large = 2 };
constexpr int n_classes = 3;
const char* class_name(int c);

struct BenchFile {
    std::string path, device, commit, date;
    double copy_gbs = NAN;
    std::set<std::string> precisions, matrices;
};

struct Result {
    double median_ms = NAN, gflops = NAN, format_bytes = NAN, xgpu_ms = NAN, fraction = NAN;
    std::string error;
    bool ok() const { return error.empty() && std::isfinite(gflops) && gflops > 0.0; }
};

/// What --matrices gives for one matrix: its row-length statistics and its pJDS layout's slot
/// count (b_r = 32, spmv::to_pjds), for the claims that count slots as Kreutzer does.
struct MatrixFacts {
    RowLengthStats stats;
    double rows = 0, cols = 0, nnz = 0;
    double pjds_slots = NAN;  ///< stored entries, padding included (Footprint::stored_entries)
    double ell_slots = NAN;   ///< rows x longest row
    double pjds_bytes = NAN;  ///< footprint of the layout, double values
    double max_len = NAN, min_len = NAN;
};

/// One matrix in one precision of one record file: every format timed on it.
struct Case {
    std::string matrix, precision;  // "dp" or "sp"
    const BenchFile* file = nullptr;
    double rows = 0, cols = 0, nnz = 0, min_bytes = NAN;
    std::map<std::string, Result> r;  // format, "@permuted" appended for basis = permuted
    int size = medium;
    const RowLengthStats* stats = nullptr;  // with --matrices
    const MatrixFacts* facts = nullptr;     // with --matrices

    const Result* get(const std::string& f) const;
    double gf(const std::string& f) const { return get(f) ? get(f)->gflops : NAN; }
    double bytes(const std::string& f) const;
    int value_bytes() const { return precision == "sp" ? 4 : 8; }
    /// Kreutzer times pJDS in its permuted basis when the record has it (bench --basis).
    std::string pjds_key() const { return r.count("pjds@permuted") ? "pjds@permuted" : "pjds"; }
    double fastest_own_ms() const;
    /// ELLPACK slots per nonzero (longest row / mean row length), from ell's bytes.
    double ell_padding() const { return bytes("ell") / (nnz * (value_bytes() + 4)); }
};

struct DeviceClasses {
    double copy_gbs = NAN;
    double floor_ms = NAN;  // fastest own kernel, median over the smallest matrices
    int floor_matrices = 0;
    double latency_bytes = NAN;  // below: latency-bound
    double l2_bytes = NAN;
    bool l2_assumed = false;
    double pcie_gbs = NAN;  // measured from xgpu_ms - median_ms (see pcie_bandwidth)
};

/// A solve record (`spmvlab solve --json`) or a distributed one (`spmvlab dist solve`).
struct SolveRecord {
    std::string path, device, commit, date, method, matrix, variant, exchange;
    double total_ms = NAN;
    double iterations = NAN;
    double residual = NAN;  ///< final_relative_residual (||b - A x|| / ||b||)
    double rows = NAN, nnz = NAN;
    int ranks = 0;  // 0: single-GPU solve record
    bool converged = false;
    bool pcg = false;  ///< Cevahir's outer PCG (--outer pcg), not the refinement
    /// pcg records: the inner CG ran in float throughout (new code); false: the old code
    /// (inner_double_sums true, or no key saying the reductions were float)
    bool float_inner = false;
    bool double_inner_sums = false;  ///< inner_double_sums: true
};

/// A `spmvlab dist bench --json-out` record: one matrix on `ranks` GPUs, every mode timed.
struct DistBench {
    std::string path, device, commit, date, matrix, exchange, precision, partition, format;
    int ranks = 0;
    double single_us = NAN;            ///< the single-process SpMV of the same run
    double nnz = NAN;                  ///< from gflops x time
    std::map<std::string, double> us;  ///< mode -> median µs per product
};

struct Context {
    std::deque<BenchFile> files;
    std::vector<Case> cases;
    std::map<std::string, RowLengthStats> stats;
    std::map<std::string, MatrixFacts> facts;
    int stats_missing = 0;
    bool have_stats = false;
    std::map<std::string, DeviceClasses> devices;
    std::vector<SolveRecord> solves;
    bool solver_given = false;
    std::vector<DistBench> dist;
    bool dist_given = false;
    const DeviceClasses& dev(const Case& c) const { return devices.at(c.file->device); }
    /// The size class of one SpMV moving `bytes` on `device` (the first device's thresholds
    /// when the bench records have none of it; -1 without any).
    int class_of(double bytes, const std::string& device) const;
};

void read_bench(Context& ctx, const std::string& path);
void read_solver(Context& ctx, const std::string& path, bool in_dir = false);
void read_dist(Context& ctx, const std::string& path, bool in_dir = false);
void classify(Context& ctx, const Options& o);
void load_matrices(Context& ctx, const Options& o);

/// Minimum bytes of one CSR SpMV (values, column indices, row pointers, x once, y written).
double min_bytes(double rows, double nnz, int value_bytes);
/// The rows and nonzeros of gen:pde:size=K (7-point stencil), NAN elsewhere.
std::pair<double, double> pde_shape(const std::string& matrix);
/// The K of "gen:pde:size=K" (nothing else in the spec), else 0.
int pde_size(const std::string& m);

// ---------------------------------------------------------------- samples and summaries

struct Sample {
    double v = NAN;
    const Case* c = nullptr;
    double aux = NAN;  // a second number some claims need (a prediction, a size)
    std::string tag;   // e.g. the fastest format's name
};
using Samples = std::vector<Sample>;
Sample sample(double v);
using Split = std::map<std::string, Samples>;  // precision -> samples

Split collect(const Context& ctx, const std::function<std::optional<Sample>(const Case&)>& f);
Split ratio_of(const Context& ctx, const std::function<double(const Case&)>& f);
Samples in_class(const Samples& s, int k);
std::size_t count(const Samples& s, const std::function<bool(const Sample&)>& p);
double fraction(const Samples& s, const std::function<bool(const Sample&)>& p);
double median_of(std::vector<double> v);

struct Summary {
    std::size_t n = 0;
    double median = NAN, min = NAN, max = NAN;
    const Case* at_min = nullptr;
    const Case* at_max = nullptr;
};
Summary summarize(const Samples& s);

std::string upper(const std::string& p);
std::string x2(double v);
std::string pct(double v, int digits = 0);
std::string of(std::size_t a, std::size_t b);
std::string us(double ms);
std::string mb(double bytes);
std::string range_text(const Summary& m);
std::string join(const std::vector<std::string>& v, const std::string& sep = ", ");
std::string size_medians(const Split& split);
/// What the latency-bound matrices have in common, from the data.
std::string latency_note(const Context& ctx);

// ---------------------------------------------------------------- claims

struct Claim {
    std::string id, text, where, paper, measured, why, details;
    Judgement j;
    bool ours = false;  ///< the project's own claim, not a paper's
};

Claim make(const char* id, const std::string& text, const std::string& where,
           const std::string& paper);

/// The paper's kind of matrix: the size classes its matrices fall in on the records' GPUs.
struct PaperKind {
    bool cls[n_classes] = {true, true, true};
    std::string text;  ///< "large (Kreutzer's four matrices: 2.4e7 to 1.7e8 nonzeros)"
};
/// From the paper's matrices (rows, nonzeros): each one's minimum bytes in double and single
/// precision, classified with every device's thresholds.
PaperKind paper_kind(const Context& ctx, const std::vector<std::pair<double, double>>& shapes,
                     const std::string& which);
PaperKind every_class(const std::string& why);

/// How a set of samples is described, and (optionally) the one number a row aggregates per
/// cell as the paper does (a ratio of means); without it the rule's statistic runs on the
/// samples' values.
struct Check {
    std::function<std::string(const Samples&)> describe;
    std::function<double(const Samples&)> aggregate;
};

struct Outcome {
    Judgement j;
    std::string measured, table;
};

/// Every precision x size class of `split` as a cell of the rule (paper's kind from `kind`),
/// the details table and the measured text (all matrices of each precision).
Outcome evaluate(const Split& split, const Target& t, const PaperKind& kind, const Check& c,
                 const std::string& against = "", const std::string& absent = "");

/// Sets the claim's verdict, measured text, band and details from `o`.
void fill(Claim& c, const Outcome& o, const Target& t, const PaperKind& kind,
          const std::string& why);
/// For rows that build their cells themselves (solver and distributed records).
void fill_cells(Claim& c, const Target& t, const std::vector<Cell>& cells,
                const std::string& kind_text, const std::string& why,
                const std::string& against = "", const std::string& absent = "");

std::string report(const Context& ctx, const Options& o, const std::vector<Claim>& claims);

}  // namespace spmvlab::replicate
