#pragma once
/// Helpers shared by the spmvlab subcommands.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <spmv/formats/csr.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/memory.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/registry.hpp>

#include "exit_codes.hpp"

namespace spmvlab {

/// Thrown by a command to end with a given exit status after it printed its verdict.
struct ExitCode {
    int code;
};

/// "spmvlab 0.1.0 (commit abc123)"
std::string version_string();
std::string git_commit();
/// Option checks with plain messages (CLI11's PositiveNumber and NonNegativeNumber print the
/// largest double, 309 digits, as their bound): a number > 0, and a whole number >= 0.
CLI::Validator positive_number();
CLI::Validator non_negative_number();
CLI::Validator non_negative_integer();
/// A number in [lo, hi] (a whole one when `integer`), checked while the command line is parsed
/// (a usage error, exit status 2): "'1000000' is outside [1, 674]", "'2.5' is not a whole
/// number". The description is empty: the option's type (INT / FLOAT) and help text say it.
CLI::Validator number_in(double lo, double hi, bool integer);

/// An error message as a user reads it: without the C++ source locations ("lib/src/io/
/// matrix_market.cpp:424: ") that spmv::Error puts in front of its text, so what remains names
/// the input, its line and what is wrong ("bad.mtx:4: row index 5 out of range ..."). With
/// SPMVLAB_DEBUG=1 in the environment the message is kept whole.
std::string user_message(const std::string& what);

/// ISO-8601 UTC timestamp, for benchmark records.
std::string utc_now();

/// Writes `text` to `path` so that a reader never sees a partial file: into a temporary file
/// beside it, flushed and closed with every error checked, then renamed over `path` (an
/// interrupted run leaves the previous complete file, or none). A path that is not a regular
/// file (/dev/stdout, a pipe) is written in place, errors still checked. Throws
/// InvalidArgument naming the path and the system's reason ("No space left on device").
/// "-" is the standard output (see output_option): the text is written there whole, errors
/// checked.
void write_file(const std::string& path, const std::string& text);

/// Marks `o` as an output path (the file a command writes), so that "-" means the standard
/// output: before the command runs (route_standard_output), at most one output of a run may be
/// "-", not beside `--json` (which prints to the standard output too); the command's own report
/// then goes to the standard error, so that the standard output holds the data alone
/// (`spmvlab convert A.mtx - | head`, `spmvlab bench A.mtx --json-out - > run.json`).
/// Returns `o`.
CLI::Option* output_option(CLI::Option* o);
/// An option naming a prefix or a directory several files are written under (PREFIX.json and
/// PREFIX.svg, plot's -o DIR): "-" is refused while parsing (a usage error), as it cannot be
/// the standard output. Returns `o`.
CLI::Option* output_prefix_option(CLI::Option* o);
/// Installed by main as the parse-complete callback: checks the rule above (a CLI::ValidationError,
/// exit status 2, when broken) and, where an output is "-", keeps the standard output for it and
/// sends everything else printed there (printf, std::cout) to the standard error.
void route_standard_output(const CLI::App& app);
/// A Matrix Market file written as spmv::io::write_matrix_market writes it, "-" on the
/// standard output.
void write_matrix_file(const std::string& path, const spmv::Csr<double, std::int32_t>& a,
                       const spmv::io::WriteOptions& w);

/// Inputs of the matrix commands: FILE -> {FILE} (plain, compressed or a tar archive: see
/// spmv/io/matrix_market.hpp); "ARCHIVE:MEMBER" and "-" (the standard input) as they are;
/// DIR -> the matrix files of its whole tree (is_matrix_file_name), sorted by path (throws if
/// there are none); a generator spec "gen:NAME[:key=value,...]" (e.g.
/// "gen:pde:size=150", "gen:powerlaw:rows=1000000,min-len=4") is kept as it is and generated
/// in memory by load_matrix (seed: the key "seed", default 1), so benchmarks need no huge files.
std::vector<std::filesystem::path> collect_inputs(const std::filesystem::path& file_or_dir);
std::vector<std::filesystem::path> collect_inputs(const std::vector<std::string>& inputs);

/// The memory budget of this run (spmv/memory.hpp): `--max-memory SIZE` when given, else half
/// of the memory available when it was first asked for. Without --max-memory, a size line may
/// also declare at most 2^24 rows or columns beyond 16 per entry (a 94-byte file cannot ask for
/// gigabytes of row pointers). Reading, generating, building a format and the CPU benchmark's
/// vectors are checked against it before they allocate.
const spmv::MemoryBudget& memory_budget();

/// Empty when registry format `format` built from `a` with `params` (its estimate_footprint, in
/// double, plus `extra` bytes such as the vectors) fits `budget`; otherwise the reason it is
/// not built: "not built: ell would need 24.0 GiB (estimated); the memory limit is ...".
/// Formats without an estimate, or parameters the estimate rejects, give empty (the build
/// reports its own errors).
std::string over_budget(std::string_view format, const spmv::Csr<double, std::int32_t>& a,
                        const spmv::FormatParams& params, const spmv::MemoryBudget& budget,
                        std::uint64_t extra = 0);

/// Adds `--max-memory SIZE` to the application; subcommands added afterwards accept it too
/// (after their name: `spmvlab formats A.mtx --max-memory 2G`).
void add_memory_option(CLI::App& app);

/// Reads a Matrix Market file (symmetric files expanded, pattern values 1.0) or generates a
/// "gen:" spec, both within memory_budget().
/// `info`, when given, receives what a Matrix Market file contained (untouched for a spec).
spmv::Csr<double, std::int32_t> load_matrix(const std::filesystem::path& file,
                                            spmv::io::MatrixMarketInfo* info = nullptr);

/// Reads a JSON file; throws InvalidArgument "PATH: cannot open WHAT" or "PATH: not a JSON file
/// (WHAT): why". Shared by the commands that read records (calibrate, recommend, replicate).
nlohmann::json read_json_file(const std::string& path, const std::string& what);

/// The model constants of a `spmvlab calibrate --constants-out` file (recommend --constants,
/// calibrate --constants); a field a file of an older model lacks takes the value that
/// switches its term off. Throws InvalidArgument "FILE: not a constants file ...: why".
spmv::model::FormatModelConstants read_constants(const std::string& file,
                                                 const spmv::model::GpuProfile& gpu);

/// read_json_file of a `spmvlab bench --json-out` record, which must hold a "results" array,
/// returned UPGRADED to the current output schema (meta.hpp upgrade_record: "meta" block,
/// precision "double"/"single"), whatever version wrote it.
nlohmann::json read_bench_json(const std::string& path);

/// Where a record's matrix name is: a generator spec as it is, else the first DIR/name that
/// exists, else the name itself when it is a file (relative to the working directory), else an
/// empty path. The one lookup of `--matrices DIR` (plot, dist chart, calibrate, replicate).
std::filesystem::path locate_matrix(const std::string& name, const std::vector<std::string>& dirs);

/// Whether a directory walk takes this file: *.mtx, *.mtx.gz, *.mtx.bz2, *.mtx.xz, *.mtx.zst,
/// *.tar.gz, *.tgz, *.tar.bz2, *.tar.xz, *.tar.zst, *.tar.
bool is_matrix_file_name(const std::string& name);

/// A short display name: the file name, "<stdin>" for "-", or the generator spec itself.
std::string input_name(const std::filesystem::path& input);

/// For commands that walk a directory: reads the file, or prints "skipped FILE: why" on stderr
/// and returns nothing, so one bad file does not hide the results of the others (the caller
/// still exits non-zero at the end).
std::optional<spmv::Csr<double, std::int32_t>> load_or_report(const std::filesystem::path& file);

/// Adds --warp, --br, --slice, --sigma, ... from spmv::parameters() to a subcommand;
/// values are range-checked when the command runs (apply_format_params).
struct ParamOptions {
    std::vector<int> values;
    std::vector<bool> given;
};
void add_format_param_options(CLI::App* cmd, ParamOptions& opts);
spmv::FormatParams apply_format_params(const ParamOptions& opts);
/// The parameters `--format auto` evaluates: the user's, with sigma auto (0) unless --sigma was
/// given (the advisor's model was validated at sigma auto; bench's own default is sigma 1).
spmv::FormatParams advisor_params(const ParamOptions& opts);
/// The options that give `p` back (apply_format_params(param_options(p)) == p), for a command
/// that resolved its parameters (--format auto) and passes them on as options.
ParamOptions param_options(const spmv::FormatParams& p);
/// FormatParams by their CLI names ({"warp": 32, "br": 32, "slice": 32, "sigma": 4, ...}), and
/// back (names missing from `j` keep their defaults; out-of-range values throw).
nlohmann::json params_json(const spmv::FormatParams& p);
spmv::FormatParams params_from_json(const nlohmann::json& j);

struct AutoChoice;
/// `--format auto` / `--formats auto` / `--variant auto` in a record: {"variant", "format",
/// "params", "profile", "precision", "note"} of the advisor's choice (auto_format.hpp), made
/// for `precision` ("sp" or "dp").
nlohmann::json auto_choice_json(const AutoChoice& c, const std::string& precision);

/// "--formats a,b,c" -> registry entries (throws on an unknown name); empty -> all.
/// With `other_name`, a name that is no host format is first mapped by it (e.g. a GPU variant
/// to the host format it runs; it throws for names it does not know either), and each format
/// is listed once.
std::vector<const spmv::FormatInfo*> select_formats(
    const std::string& list,
    const std::function<std::string(const std::string&)>& other_name = nullptr);

/// Plain-text table with right-aligned numeric columns. A row shorter than the header ends in
/// a note ("error: ...") printed as it is across the remaining columns.
class Table {
public:
    explicit Table(std::vector<std::string> header);
    void add(std::vector<std::string> row);
    std::string str() const;

private:
    std::vector<std::vector<std::string>> rows_;
};

std::string fmt(double v, int precision = 2);
std::string fmt_bytes(double bytes);
std::string sci(double v);  ///< "1.23e-15"

/// A progress line on stderr ("[3/17] bcsstk13.mtx ...") that overwrites itself on a terminal
/// and prints one line per step otherwise.
void progress(std::size_t done, std::size_t total, const std::string& what);
void progress_done();

}  // namespace spmvlab
