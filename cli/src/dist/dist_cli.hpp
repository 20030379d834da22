#pragma once
/// spmvlab dist: what its subcommands share. One file per subcommand (plan.cpp, chart.cpp:
/// one process, no MPI; verify.cpp, bench.cpp, solve.cpp: under mpiexec), registered with
/// their options in cmd_dist.cpp; the helpers here live in dist_cli.cpp.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/mode.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/dist/timeline.hpp>
#include <spmv/viz/timeline_svg.hpp>

#include "common.hpp"

namespace spmvlab::dist_cli {

/// Every option of every dist subcommand (one object: CLI11 fills what the chosen one names).
struct DistCli {
    std::string input;
    /// --load: auto (per rank where the input allows it: root_reason) or root
    std::string load = "auto";
    /// --mode, converted when the option is read (parse_mode_option): the one mode named, or
    /// every mode (all_modes, their order) for "all", the default.
    std::vector<spmv::dist::Mode> modes{spmv::dist::all_modes.begin(),
                                        spmv::dist::all_modes.end()};
    std::string partition = "nnz";
    std::string format = "csr";
    bool format_given = false;  ///< --format on the command line (not its default)
    std::string variant;
    nlohmann::json auto_choice;  ///< --format / --variant auto: what the advisor picked (resolve_auto)
    std::string precision = "double";
    bool gpu = false;
    bool split_blocks = false;
    int task_poll_us = -1;
    std::string exchange = "auto";
    std::string json_out;
    std::string timeline;
    int repeat = 200;
    int ranks = 2;
    std::string link = "ib-hdr";
    std::string bench_link = "auto";  ///< dist bench: the model's link (link_for_path)
    std::string device = "H100";
    /// dist bench / dist chart: the model's GPU profile; auto: the one the (recorded) device
    /// name denotes (spmv::model::profile_for_device), H100 where none does
    std::string bench_device = "auto";
    std::string chart_device = "auto";
    std::string scaling = "1,2,4,8,16,32,64,128,256,512,1024";
    std::string bench_scaling = "1,2,4,8";  ///< dist bench: the model's curve in the record
    std::string alpha = "1";                ///< the model's x reuse: (0, 1] or "min"
    /// dist plan / bench: the model's fixed costs on GPU ranks (fixed_costs_for): auto, off, an
    /// exchange path's name, or EXCHANGE,NEIGHBOUR,SYNC,HANDOFF,FIRST_PASS in us
    std::string fixed_costs = "auto";
    // chart
    std::vector<std::string> records;
    std::string svg_out;
    std::string chart_link = "auto";
    std::string chart_scaling = "1,2,4,8";
    std::vector<std::string> matrix_dirs;  ///< dist chart --matrices: where the records' files are
    int weak_k = 0;  ///< dist plan --weak K: weak scaling of pde with K^3 rows per rank
    // link
    /// dist link --sizes: message sizes in bytes (byte_sizes), spmv::dist::default_link_sizes
    std::string link_sizes = "8,64,512,4K,32K,256K,1M,2M,4M,8M";
    int link_repeat = 50;  ///< dist link --repeat (after 5 warm-ups)
    // solve
    std::string method = "cg";
    bool jacobi = false;
    std::string inner_sums = "double";
    std::string outer = "richardson";  ///< mpir-cg's outer loop (MpirOuter)
    int inner_maxit = 0;               ///< 0: 1000 for richardson, 100 for pcg (as `solve`)
    double tol = 1e-10;
    int maxit = 10000;
    ParamOptions params;
};

// ---- the subcommands --------------------------------------------------------------------------

int run_plan(const DistCli& o);   ///< plan.cpp: partition statistics and the model (no MPI)
int run_chart(const DistCli& o);  ///< chart.cpp: dist bench records against the model (no MPI)
/// verify.cpp: every mode against a double-precision reference product, per rank for input
/// loaded per rank (ExitCode exit_status::mismatch, 3, on a mismatch)
template <typename V>
int run_verify(const spmv::dist::Comm& comm, const DistCli& options);
/// bench.cpp: the distributed SpMV timed in each mode
template <typename V>
int run_bench(const spmv::dist::Comm& comm, const DistCli& options);
/// link.cpp: the host-to-host MPI path (and with --gpu the pinned copies) measured under the
/// halo exchange's pattern, and the model's link fitted to it (`--link BW,LAT`)
int run_link(const spmv::dist::Comm& comm, const DistCli& options);
/// solve.cpp: distributed CG / Jacobi-CG / MPIR-CG (ExitCode exit_status::no_convergence, 4, when it does not converge)
int run_solve(const spmv::dist::Comm& comm, const DistCli& options);

// ---- options ----------------------------------------------------------------------------------

/// --mode's value: "all" -> every mode (all_modes), else the one spmv::dist::parse_mode names
/// (throws InvalidArgument "unknown mode ..." for any other).
std::vector<spmv::dist::Mode> parse_mode_option(const std::string& s);
/// True for the modes of --mode all.
bool is_all_modes(const std::vector<spmv::dist::Mode>& modes);
/// The --mode value that gives `modes` ("all" or the mode's name).
std::string mode_option_text(const std::vector<spmv::dist::Mode>& modes);

/// "1,2,4" -> {1, 2, 4}; throws InvalidArgument for an item that is not a whole number.
std::vector<int> int_list(const std::string& s);

/// --alpha: a number in (0, 1], or "min": the best case, 1/N_nzr of each block (the model
/// clamps alpha to [1/N_nzr, 1] per block, so a tiny value means perfect reuse of x).
double parse_alpha(const std::string& s);

/// A --link value other than auto / none: a built-in profile's name (spmv::dist::find_link,
/// ignoring case) or "BW,LAT", the bandwidth in GB/s and the latency per message in us, both
/// positive and finite (what `spmvlab dist link` prints), giving spmv::dist::custom_link named
/// "custom (BW GB/s, LAT us)". Throws InvalidArgument naming `option` and `text` otherwise.
spmv::dist::LinkProfile parse_link(const std::string& option, const std::string& text);

/// "8,64,4K,1M" -> {8, 64, 4096, 1048576}: sizes in bytes, each a whole number with an optional
/// K (1024) or M (1024^2) suffix. Throws InvalidArgument naming `option`, `text` and the bad item
/// for anything else (an empty item, a fraction, a sign, another suffix, 0, overflow).
std::vector<std::int64_t> byte_sizes(const std::string& option, const std::string& text);

/// The model's link for an exchange path ("auto"): GPU ranks that copy GPU to GPU (CUDA IPC,
/// CUDA-aware MPI) over NVLink 4 without host staging; host-staged ones through the host's
/// shared memory with the two PCIe copies; host ranks through shared memory; anything else is
/// parse_link's. Second: whether the model stages through the host
/// (ModelOptions::stage_through_host).
std::pair<spmv::dist::LinkProfile, bool> link_for_path(const std::string& link,
                                                       const std::string& path);

/// --fixed-costs for GPU ranks whose exchange path is `path` (spmv/dist/model.hpp, "THE
/// DISTRIBUTED PRODUCT'S FIXED COSTS"): "auto" the built-in MEASURED ones of `path`
/// (host-staged where the path is "auto" or unknown to the table), "off" none (Kreutzer's
/// terms only, the numbers before them), a path's name its built-in ones, or five numbers
/// "E,N,S,H,F" (exchange, per further neighbour, sync, hand-off, first pass, us). Empty for
/// host ranks.
/// Throws InvalidArgument for anything else.
std::optional<spmv::dist::FixedCosts> fixed_costs_for(const std::string& option,
                                                      const std::string& path, bool gpu);

/// The GPU kernel variant the ranks of `dist --gpu --format F [--variant V]` run, which the
/// distributed model's per-format pricing takes (ModelOptions::variant): V, else F's default
/// kernel (spmv::model::format_variant); empty, i.e. Kreutzer's eq. 2, for host ranks, a
/// format without a GPU kernel and an unresolved "auto".
std::string model_variant(const DistCli& o);

// ---- records ----------------------------------------------------------------------------------

/// Result records carry where, what and when (SPEC: every number states device, precision,
/// matrix, date and commit).
nlohmann::json record_head(const DistCli& o, const spmv::dist::Comm& comm, const char* command);
void write_json(const std::string& path, const nlohmann::json& j);
/// The model's strong scaling as JSON records (dist plan's "scaling", dist bench's
/// "predicted_scaling"): one object per rank count.
nlohmann::json scaling_json(const spmv::dist::ScalingResult& sc);
/// The distinct device names of all ranks, sorted, joined with ", ". Collective.
std::string rank_devices(const spmv::dist::Comm& comm, const std::string& mine);
/// Every rank's events of `t` in one timeline, on every rank (rank after rank). Collective.
spmv::dist::Timeline merged_timeline(const spmv::dist::Comm& comm, const spmv::dist::Timeline& t);
/// The root writes merged timelines (merged_timeline) as PREFIX.json and PREFIX.svg.
/// Collective.
void write_timelines(const spmv::dist::Comm& comm, const std::vector<spmv::dist::Timeline>& tls,
                     const std::string& prefix,
                     int svg_iteration = spmv::viz::timeline_last_iteration);

// ---- the MPI commands' set-up -----------------------------------------------------------------

/// Why INPUT goes through the root (load_on_root, distribute_input) instead of reaching the
/// ranks per rank (load_per_rank, build_from_rows); empty when it goes per rank. Per rank
/// (--load auto, the default): a Matrix Market file (plain; compressed and archived files and
/// "-" too, which the reader has rank 0 read whole, saying so) and a gen: spec, each rank
/// generating its rows. Through the root: --load root, --format auto / --variant auto (the
/// advisor looks at the whole matrix) and --partition metis (the whole graph). The same on
/// every rank (the options are).
std::string root_reason(const DistCli& o);
/// Prints on the root why the input goes through the root (root_reason).
void print_root_reason(const spmv::dist::Comm& comm, const DistCli& o);
/// This rank's rows (global numbering) and the partition, the same on every rank.
struct RankRows {
    spmv::dist::GlobalRows<double> rows;
    spmv::dist::Partition partition;
};
/// Every rank reads its rows of the Matrix Market file INPUT (spmv::dist::
/// read_matrix_market_parallel) or generates its rows of the gen: spec INPUT
/// (spmv::dist::generate_parallel), for --partition rows or nnz, within memory_budget() per
/// rank; the root says so, or prints the reader's note (input that rank 0 had to read whole).
/// Collective.
RankRows load_per_rank(const spmv::dist::Comm& comm, const DistCli& o);
/// DistMatrix<V>::from_rows on this rank's rows (values converted to V), which are freed
/// (moved from) once the blocks are built. Collective.
template <typename V>
spmv::dist::DistMatrix<V> build_from_rows(const spmv::dist::Comm& comm, const DistCli& o,
                                          spmv::dist::GlobalRows<double>&& rows,
                                          const spmv::dist::Partition& partition);

/// The set-up's wall time in two phases, each the slowest rank's: "input" (every rank reads or
/// generates its rows, or the root loads the whole matrix) and "build" (rows to their owners,
/// the local / non-local split, the exchange plan, the blocks in the format on the host or the
/// GPU, NCCL's connections). Issue 36's setup bar compares these between --load auto and root.
class SetupClock {
public:
    explicit SetupClock(const spmv::dist::Comm& comm);  ///< a barrier, then the clock starts
    void input_done();   ///< the input phase ends here (and the build phase begins)
    void build_begin();  ///< the build phase begins here (after work of the command's own)
    void build_done();   ///< the build phase ends here
    /// Collective: the maxima over the ranks; the root prints one line ("setup (slowest rank):
    /// input 12.3 s, build 4.5 s"); the record's "setup" object ({input_s, build_s, total_s}).
    nlohmann::json report(const spmv::dist::Comm& comm) const;

private:
    double start_ = 0.0;
    double input_end_ = 0.0;
    double build_begin_ = 0.0;
    double build_end_ = 0.0;
};

/// The root loads the input; a failure there ends every rank with its message. Collective.
spmv::Csr<double, std::int32_t> load_on_root(const spmv::dist::Comm& comm,
                                             const std::string& input);
/// The global matrix `a` (held by the root) split over the ranks as the options say.
/// Collective. Instantiated for float and double.
template <typename V>
spmv::dist::DistMatrix<V> distribute_input(const spmv::dist::Comm& comm, const DistCli& o,
                                           const spmv::Csr<double, std::int32_t>& a);
/// Refuses --variant auto without --gpu and auto mixed with a named format or variant (the same
/// options on every rank: every rank throws the same message, before the matrix is loaded).
void check_auto(const DistCli& o);
/// --format auto / --variant auto: the format advisor's first choice (auto_format.hpp) for the
/// global matrix `a`, which only the root holds (load_on_root): made once on the root for
/// `precision` ("sp"/"dp") and `iterations` SpMVs, broadcast, so every rank builds the same
/// layout with the same parameters; the root prints what was picked and why. Returns `o` with
/// format, variant and parameters resolved and auto_choice set; `o` itself without auto.
/// Collective.
DistCli resolve_auto(const spmv::dist::Comm& comm, const DistCli& o,
                     const spmv::Csr<double, std::int32_t>& a, const std::string& precision,
                     std::int64_t iterations);
/// "sp" / "dp" for the advisor from --precision float / double.
std::string advisor_precision(const DistCli& o);

/// The upper median (the middle element of the sorted values); 0 for none.
double median(std::vector<double> v);

}  // namespace spmvlab::dist_cli
