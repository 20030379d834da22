#pragma once
/// Matrix Market I/O (coordinate format), the way every real test matrix enters SpMV Lab.
///
/// A file is a banner, optional comment lines, a size line and one line per stored entry:
///
///     %%MatrixMarket matrix coordinate real general
///     % the canonical 4x4 of STYLE.md: A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9]
///     4 4 9                      <- rows cols entries
///     1 1 1                      <- row col value, 1-based, in any order
///     1 3 2
///     ...
///
/// What the reader does with what it finds:
/// - `symmetric` files store one triangle; both triangles end up in the CSR (a_ji = a_ij).
///   `skew-symmetric` files likewise with a_ji = -a_ij; a diagonal entry there is an error.
///   Entries may sit in either triangle, but not in both (that is a general file mislabelled).
/// - Duplicate entries are summed (after expansion). An entry whose value is 0 after summing is
///   kept in the structure (an "explicit zero") and counted in MatrixMarketInfo.
/// - `pattern` files get values: 1.0, or with PatternValues::random a value in (0, 1] that is a
///   fixed hash of (row, col) -- independent of entry order, and equal for (i, j) and (j, i).
/// - `integer` values are read exactly as 64-bit integers and stored as double.
/// - Blank lines and lines starting with '%' may appear anywhere after the banner; CRLF line
///   ends are accepted. Everything else that is not exactly one entry per line is an error.
/// - Not supported (error with a message saying so): array format, complex and hermitian
///   matrices, dimensions above 2^31-1, more than 2^31-1 (expanded) entries, NaN or infinity.
///
/// Every failure throws MatrixMarketError whose what() reads "<file>:<line>: <problem>", where
/// <line> is the 1-based line of the input (omitted when the problem is not on one line, as in
/// "file ends at line 7 after 2 of 4 entries"). The reader never trusts the declared entry
/// count for allocation, and checks the declared dimensions against ReadOptions::memory before
/// it sizes anything by them, so a lying header cannot exhaust memory.
///
/// Inputs as they are distributed (detected by their first bytes, not by their names):
/// - a gzip, bzip2, xz or zstd stream of a Matrix Market file (`.mtx.gz`, `.mtx.bz2`, ...),
/// - a tar archive, compressed or not, such as the SuiteSparse Matrix Collection's
///   `Name.tar.gz` (members `Name/Name.mtx`, often with `Name/Name_b.mtx`, ...). The member read
///   is the one named by `archive.tar.gz:MEMBER` (its path in the archive, or its file name) or
///   by ReadOptions::archive_member; else the `.mtx` member whose file name is its directory's
///   name plus ".mtx" (`Name/Name.mtx`, `Group/Name/Name.mtx`); else the only `.mtx` member.
///   Several candidates, or none, is an error that lists the archive's `.mtx` members.
/// - "-": the standard input, plain or compressed.
/// They are decompressed as a stream with libarchive (no temporary file) into memory and then
/// parsed as a plain file; the decompressed text counts against ReadOptions::memory (without a
/// limit, against the memory available), so a decompression bomb is refused, not allocated.
/// Errors name the input and the line of the decompressed text: "A.mtx.gz:4: ...", for an
/// archive "A.tar.gz:A/A.mtx:4: ...". A build without libarchive throws NotCompiled for
/// compressed input (have_compressed_input() says which build this is).
///
/// Speed: a file is mapped into memory (POSIX mmap; read in one piece elsewhere), its entry
/// lines are cut into chunks at line ends and parsed on several threads (std::from_chars),
/// and the CSR is built by a counting sort over the rows. A chunk that holds an error is
/// parsed again in file order with the state of everything before it, so the error reported
/// is the first one in the file, with its exact line, as a one-line-at-a-time reader gives.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/memory.hpp>

namespace spmv::io {

/// The `field` word of the banner (complex is rejected).
enum class Field { real, integer, pattern };

/// The `symmetry` word of the banner (hermitian is rejected).
enum class Symmetry { general, symmetric, skew_symmetric };

std::string_view to_string(Field f) noexcept;
std::string_view to_string(Symmetry s) noexcept;

/// What a file contained, besides the matrix itself.
struct MatrixMarketInfo {
    Field field = Field::real;
    Symmetry symmetry = Symmetry::general;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t entries = 0;            ///< entry lines in the file (= the size line's count)
    std::int64_t diagonal_entries = 0;   ///< entry lines with row == col
    std::int64_t expanded_entries = 0;   ///< after symmetric expansion: 2*entries - diagonal
    std::int64_t duplicates_summed = 0;  ///< expanded entries merged into an earlier one
    std::int64_t explicit_zeros = 0;     ///< stored values equal to 0 (after summing duplicates)
    std::int64_t nnz = 0;                ///< entries of the resulting CSR
    std::vector<std::string> comments;   ///< comment lines before the size line, '%' removed
    /// The SuiteSparse Matrix Collection's "Group/Name" ("HB/bcsstk16"): from a comment line
    /// "% name: HB/bcsstk16" (the collection writes one into every file), else "Name" from an
    /// archive member "Name/Name.mtx" (or "Group/Name" from "Group/Name/Name.mtx"); empty when
    /// neither is there.
    std::string collection_name;
    std::int64_t collection_id = 0;  ///< from a comment line "% id: 35"; 0 when none
    std::string compression;         ///< "gzip", "bzip2", "xz", ... or empty for plain text
    std::string archive_member;      ///< the member read from a tar archive, else empty
};

/// How a `pattern` file's entries get values.
enum class PatternValues {
    ones,    ///< every entry is 1.0
    random,  ///< hash of (min(i,j), max(i,j), seed) mapped to (0, 1]
};

struct ReadOptions {
    PatternValues pattern_values = PatternValues::ones;
    std::uint64_t pattern_seed = 0x5eed5eed5eedULL;  ///< only for PatternValues::random
    /// Threads that parse the entry lines and assemble the CSR: 0 = hardware_concurrency()
    /// (at least 1). The matrix, the info and every error message are the same for any value.
    unsigned threads = 0;
    /// Bytes of entry lines per parallel work item (cut at line ends); 0 = automatic. Tests set
    /// it small so that files of a few lines cross many chunk boundaries.
    std::size_t chunk_bytes = 0;
    /// Limits checked before anything sized by the file is allocated (spmv/memory.hpp): the
    /// reader's peak memory for the entries and the CSR against `memory.bytes` (estimated from
    /// the declared entry count once the file is large enough to hold them, and again from the
    /// entries read), and the declared rows and columns against `memory.unconfirmed_dimension`
    /// (at most max(limit, 16 x entries)). A refusal is a MatrixMarketError on the size line
    /// that names the sizes and the limit. Default: no limits.
    MemoryBudget memory;
    /// The member of a tar archive to read: its path in the archive or its file name
    /// ("Name_b.mtx"); empty = the rule above. `archive.tar.gz:MEMBER` as the path sets it too.
    std::string archive_member;
};

/// Whether this build reads compressed files and archives (it was built with libarchive).
bool have_compressed_input() noexcept;

/// A path as read_matrix_market understands it: "-" (the standard input), a file, or
/// "archive:MEMBER" when no file has that whole name but one is named by what precedes its
/// last ':' (`bcsstk16.tar.gz:bcsstk16_b.mtx`). `member` is empty unless that last case.
struct InputPath {
    std::filesystem::path file;
    std::string member;
};
InputPath parse_input_path(const std::filesystem::path& path);

/// Reads a coordinate Matrix Market file. Throws MatrixMarketError (see above).
/// @param path  the file
/// @param info  if not null, receives what the file contained
/// @param options  how pattern entries get values
Csr<double, std::int32_t> read_matrix_market(const std::filesystem::path& path,
                                             MatrixMarketInfo* info = nullptr,
                                             const ReadOptions& options = {});

/// Reads only the banner, the comments and the size line of an input (decompressing as far as
/// that): the returned info has field, symmetry, rows, cols, entries, comments, collection_*,
/// compression and archive_member; the counts of what the entries hold stay 0. Throws as
/// read_matrix_market for anything wrong up to the size line.
MatrixMarketInfo read_matrix_market_header(const std::filesystem::path& path,
                                           const ReadOptions& options = {});

/// @copydoc read_matrix_market; `source_name` stands for the file name in error messages.
/// The stream may hold compressed data too (read whole first, within the memory budget).
Csr<double, std::int32_t> read_matrix_market(std::istream& in, std::string source_name,
                                             MatrixMarketInfo* info = nullptr,
                                             const ReadOptions& options = {});

/// What the entry lines of a range add up to, carried from range to range in file order
/// (EntryRangeReader::parse).
struct EntryCounts {
    std::int64_t count = 0;        ///< entry lines
    std::int64_t expanded = 0;     ///< entries after symmetric expansion
    std::int64_t diagonal = 0;     ///< entry lines with row == col
    std::int64_t first_lower = 0;  ///< line of the first entry below the diagonal, 0: none yet
    std::int64_t first_upper = 0;  ///< ... above the diagonal
};

/// One byte range of a plain Matrix Market file's entry lines at a time, parsed exactly as
/// read_matrix_market parses them (the same per-entry checks and messages, "<file>:<line>:
/// ...", symmetric and skew-symmetric entries expanded, each mirror right after its entry):
/// the building block of spmv::dist's per-rank reader (spmv/dist/parallel_mm.hpp), which gives
/// every process one range of the file and carries the counts across the ranges. The file is
/// mapped (POSIX mmap), so a process touches only the pages of the ranges it parses. No MPI.
class EntryRangeReader {
public:
    /// Opens `path`. A plain file (not compressed, not an archive, not "-") has its banner,
    /// comments and size line read and checked as read_matrix_market does (MatrixMarketError);
    /// anything else is only detected: plain() is false and nothing else may be called.
    explicit EntryRangeReader(const std::filesystem::path& path, const ReadOptions& options = {});
    ~EntryRangeReader();
    EntryRangeReader(const EntryRangeReader&) = delete;
    EntryRangeReader& operator=(const EntryRangeReader&) = delete;

    bool plain() const noexcept;
    /// "gzip", "tar", "standard input", ... when not plain().
    std::string packing() const;
    /// The input's name in error messages.
    const std::string& source() const noexcept;
    /// The header's fields (field, symmetry, rows, cols, entries, comments, collection name).
    const MatrixMarketInfo& info() const noexcept;
    /// The whole file's bytes (mapped).
    std::string_view text() const noexcept;
    /// Byte offset of the first entry line (right after the size line's end of line).
    std::size_t data_begin() const noexcept;
    /// Number of the size line: the first entry line is data_line() + 1.
    std::int64_t data_line() const noexcept;

    /// Parses the lines in bytes [begin, end) of text() (begin at a line start, end at a line
    /// start or the end of the file), the first of which is line `line` + 1, continuing from
    /// `counts` (everything before `begin`: a range parsed on its own starts from zero counts)
    /// and appending the entries (0-based) to rows, cols and vals. Returns the number of the
    /// last line parsed. Throws MatrixMarketError at the first bad line, with its number.
    std::int64_t parse(std::size_t begin, std::size_t end, std::int64_t line, EntryCounts& counts,
                       std::vector<std::int32_t>& rows, std::vector<std::int32_t>& cols,
                       std::vector<double>& vals) const;
    /// Throws read_matrix_market's error for a file whose `last_line` lines hold only `count`
    /// of the declared entries.
    [[noreturn]] void fail_short(std::int64_t last_line, std::int64_t count) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// The value PatternValues::random gives entry (row, col) (0-based), for tests and tools.
double pattern_value(std::int64_t row, std::int64_t col, std::uint64_t seed) noexcept;

struct WriteOptions {
    /// Write `symmetric` with the lower triangle only. The matrix must be square and exactly
    /// symmetric (A(i,j) == A(j,i) bit for bit), else InvalidArgument.
    bool symmetric = false;
    /// Write `pattern` (structure only, no values).
    bool pattern = false;
    /// Significant digits per value (printf "%.{precision}g"). 17 makes read(write(A)) == A
    /// exactly; 0 writes the shortest text that reads back exactly (std::to_chars).
    int precision = 17;
    /// Written right after the banner, each as '%' + line: MatrixMarketInfo::comments of the
    /// file read, so that a converted file keeps its header (the collection's attribution).
    /// A line break inside an element is written as a line of its own, '%' first.
    std::vector<std::string> comments;
    /// Written after `comments`, one "% " line per '\n'-separated line.
    std::string comment;
};

/// Writes A as `matrix coordinate real|pattern general|symmetric`, entries in CSR order.
/// Throws InvalidArgument for a NaN/infinite value or an invalid option, and spmv::Error when
/// the file cannot be written. The file is written atomically (io/atomic_file.hpp): an
/// interrupted or failed write leaves the previous file, never a partial one.
void write_matrix_market(const std::filesystem::path& path, const Csr<double, std::int32_t>& a,
                         const WriteOptions& options = {});

/// @copydoc write_matrix_market
void write_matrix_market(std::ostream& out, const Csr<double, std::int32_t>& a,
                         const WriteOptions& options = {});

}  // namespace spmv::io
