#pragma once
/// The SuiteSparse Matrix Collection's index (BASE/files/ssstats.csv) as `spmvlab fetch` reads
/// it, and `fetch --search`'s filter over it (cmd_fetch_index.cpp).
///
/// ssstats.csv: line 1 the number of matrices, line 2 the date of the last revision, line k+2
/// the matrix of id k: Group, Name, nrows, ncols, nnz, isReal, isBinary, isND, posdef,
/// pattern_symmetry, numerical_symmetry, kind[, pattern_entries]. The collection's tools read
/// the same file: ssget (ginkgo-project/ssget: `-s '[ @rows -ge 400 ] && ...'`) and ssgetpy
/// (drdarshan/ssgetpy: `search(rowbounds=, nzbounds=, isspd=, kind=, group=, ...)`).
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace spmvlab::fetch {

/// A matrix of the collection: what its index line says. The numeric properties past nnz are
/// -1 when the line does not have them (an index written before the column existed).
struct Entry {
    std::string group;
    std::string name;
    std::int64_t id = 0;  ///< 0: not known (no index consulted)
    std::int64_t rows = -1;
    std::int64_t cols = -1;
    std::int64_t nnz = -1;
    int is_real = -1;                   ///< 1 real, 0 complex / integer / binary
    int is_binary = -1;                 ///< 1 pattern only
    int is_nd = -1;                     ///< 1 from a 2-D / 3-D discretisation
    int posdef = -1;                    ///< 1 symmetric positive definite
    double pattern_symmetry = -1;       ///< 0..1
    double numerical_symmetry = -1;     ///< 0..1 (1: symmetric)
    std::string kind;                   ///< "structural problem", "2D/3D problem", ...
    std::int64_t pattern_entries = -1;  ///< nnz plus the explicit zeros the files hold
};

struct Index {
    std::int64_t count = 0;      ///< line 1
    std::string date;            ///< line 2, as written ("14-Oct-2023 15:49:23")
    std::vector<Entry> entries;  ///< entries[k] has id k + 1
};

/// Group and matrix names of the collection: letters, digits, '_', '-', '.', '+' (never a path).
bool valid_name(const std::string& s);

/// The fields of one CSV line (double quotes around a field may hold commas).
std::vector<std::string> csv_fields(const std::string& line);

std::optional<std::int64_t> to_int(const std::string& s);

/// ssstats.csv; throws InvalidArgument naming `source` and the line for a malformed one, or for
/// a count on line 1 that is not the number of lines (a truncated file).
Index parse_index(std::istream& in, const std::string& source);

/// An inclusive range of a count; an absent bound is open.
struct Range {
    std::optional<std::int64_t> min;
    std::optional<std::int64_t> max;
    bool contains(std::int64_t v) const { return (!min || v >= *min) && (!max || v <= *max); }
};

/// "LO:HI", "LO:", ":HI" or "N" (exactly N); the numbers may carry k / M / G (10^3, 10^6,
/// 10^9: "1k:50k"). Throws InvalidArgument naming `option` for anything else or LO > HI.
Range parse_range(const std::string& text, const std::string& option);

/// What `fetch --search` selects: every given condition must hold (ssgetpy's AND).
struct Query {
    std::optional<Range> rows, cols, nnz;
    std::string kind;        ///< substring of the kind, ignoring case ("" any)
    std::string group;       ///< the group, exactly ("" any)
    std::string name;        ///< substring of the name, ignoring case ("" any)
    bool spd = false;        ///< posdef == 1
    bool symmetric = false;  ///< numerical_symmetry == 1
    bool real = false;       ///< isReal == 1
    bool square = false;     ///< rows == cols
};

bool matches(const Entry& e, const Query& q);

}  // namespace spmvlab::fetch
