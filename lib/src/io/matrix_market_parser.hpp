#pragma once
/// The Matrix Market text parser (internal to lib/src/io): class Parser reads the banner, the
/// size line and the entries of a text already in memory (matrix_market_input.hpp gets it
/// there) and assembles the CSR. Its parts live in one file each:
///   matrix_market_header.cpp    the banner, the size line, the comments, the checks of the
///                               size line against the text and the memory budget
///   matrix_market.cpp           the entry lines, cut into chunks parsed in parallel, and the
///                               public read functions that tie input and parser together
///   matrix_market_assemble.cpp  the entries in CSR order: counting sort, duplicates summed
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <source_location>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/parallel.hpp>
#include <spmv/io/matrix_market.hpp>

#include "matrix_market_text.hpp"

namespace spmv::io::detail {

using spmv::parallel_for;  // spmv/parallel.hpp

/// Entries in file order, each symmetric mirror right after its entry.
struct Triplets {
    std::vector<std::int32_t> rows;
    std::vector<std::int32_t> cols;
    std::vector<double> vals;
};

/// What the entry lines add up to, carried from line to line (and chunk to chunk) in file order:
/// the public EntryCounts, which EntryRangeReader carries from range to range.
using EntryState = EntryCounts;

/// A piece of the data section, cut at a line end, parsed on its own.
struct Chunk {
    const char* begin = nullptr;
    const char* end = nullptr;
    std::int64_t lines = 0;  ///< lines in [begin, end)
    EntryState state;        ///< counted from zero; lines relative to the chunk (except chunk 0)
    Triplets out;
    bool sorted = true;   ///< (row, col) strictly increasing and no mirrored entries
    bool failed = false;  ///< a MatrixMarketError while parsed without what precedes it
};

/// Reads one Matrix Market text: run() for the matrix, header() for the banner and size line.
class Parser {
public:
    /// `text` must outlive the parser; `source` names it in error messages.
    Parser(std::string_view text, std::string source, const ReadOptions& options);

    /// The whole matrix; fills *info_out (when given) with what the text held.
    Csr<double, std::int32_t> run(MatrixMarketInfo* info_out);

    /// The banner and the size line only (read_matrix_market_header).
    MatrixMarketInfo header();

    // -- spmv::io::EntryRangeReader (matrix_market.cpp): one byte range of the entry lines

    /// The banner, the comments and the size line, read and checked as run() does before the
    /// entries; returns where the entry lines start. Then info() holds the header's fields and
    /// lines_read() the number of the size line.
    const char* open_entries();
    const MatrixMarketInfo& info() const noexcept { return info_; }
    std::int64_t lines_read() const noexcept { return line_; }
    /// parse_entries on [p, end) (below), for a range parsed on its own.
    std::int64_t parse_range(const char* p, const char* end, std::int64_t line, EntryState& st,
                             Triplets& out) const
    {
        bool sorted = true;
        return parse_entries(p, end, line, st, out, sorted);
    }
    /// Throws "file ends at line `last_line` after `count` of N entries" (no line number).
    [[noreturn]] void fail_short(std::int64_t last_line, std::int64_t count) const;

private:
    // -- matrix_market_header.cpp: the lines before the entries, the checks of the size line

    /// The banner, the comments and the size line; the collection name from the comments.
    void read_header();

    /// Throws MatrixMarketError naming the source and `line` (0: none), located where called.
    [[noreturn]] void fail(std::int64_t line, const std::string& what,
                           std::source_location loc = std::source_location::current()) const;

    /// Next line without its end-of-line ("\n" or "\r\n"); false at the end of the text.
    bool next_line(std::string_view& line) noexcept
    {
        if (p_ >= end_) {
            return false;
        }
        p_ = cut_line(p_, end_, line);
        ++line_;
        return true;
    }

    /// The line starting at p (without "\n" or "\r\n"); returns where the next one starts.
    static const char* cut_line(const char* p, const char* end, std::string_view& line) noexcept
    {
        const auto* nl =
            static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
        const char* e = nl ? nl : end;
        line = std::string_view(p, static_cast<std::size_t>(e - p));
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        return nl ? nl + 1 : end;
    }

    static bool is_blank(std::string_view line) noexcept
    {
        return std::all_of(line.begin(), line.end(), is_space);
    }

    static bool is_comment(std::string_view line) noexcept
    {
        const auto k = line.find_first_not_of(" \t\v\f");
        return k != std::string_view::npos && line[k] == '%';
    }

    void read_banner();
    void read_size_line();

    /// The most entries the rest of the text can hold (an entry line has at least 4 bytes,
    /// "1 1\n"), at most the declared count, expanded for a symmetric file.
    std::int64_t entries_bound() const noexcept;

    /// Refuses, before anything sized by the header is allocated, a size line whose rows or
    /// columns the entries cannot justify, or whose reading cannot fit the memory limit even
    /// in the cheapest case (entries in CSR order).
    void check_size_line() const;

    /// Refuses `need` bytes (`estimate`: a lower bound) beyond the memory limit.
    void check_memory(double need, bool estimate) const;

    // -- matrix_market.cpp: the entry lines

    std::int32_t parse_index(std::string_view tok, const char* what, std::int64_t limit,
                             std::int64_t line) const;
    double parse_value(Tokens& t, std::int32_t i, std::int32_t j, std::int64_t line) const;

    /// A 1-based index of at most 10 plain digits in 1..limit, read at p; returns the end of
    /// its digits, or nullptr (then the general path reads the line).
    static const char* fast_index(const char* p, const char* end, std::int64_t limit,
                                  std::int32_t& index) noexcept;

    /// Reads the line at p if it is a plain, valid entry ("row col [value]", digits only in
    /// the indices, a finite value that from_chars reads whole, spaces or tabs around them,
    /// "\n", "\r\n" or the end of the text after it) and returns where the next line starts.
    /// Anything else -- comments, blank lines, '+' signs, underflow, every error -- returns
    /// nullptr and goes through the general path, which gives exactly the same entry or the
    /// same error as before this shortcut existed.
    const char* fast_entry(const char* p, const char* end, std::int32_t& i, std::int32_t& j,
                           double& v) const noexcept;

    /// Parses the lines in [p, end), the first of which is line `line` + 1, continuing from
    /// `st` (everything before p) and appending to `out`. Returns the number of the last line.
    /// Throws at the first malformed line, with its number.
    std::int64_t parse_entries(const char* p, const char* end, std::int64_t line, EntryState& st,
                               Triplets& out, bool& sorted) const;

    [[noreturn]] void fail_extra_entry(std::int64_t line) const;

    /// Room for the entries of `bytes` of text out of `total`: never trusts the declared count
    /// alone (an entry line has at least 4 bytes), so a lying header cannot exhaust memory.
    std::size_t expected_entries(std::size_t bytes, std::size_t total) const;

    /// Cuts the data section into chunks at line ends, parses them in parallel, then walks
    /// them in file order. A chunk's own errors, and the checks that need what comes before
    /// it (more entries than declared, both triangles of a symmetric file, too many expanded
    /// entries), send it through parse_entries again with the state of all earlier chunks:
    /// that throws the first error of the file, on its exact line, as a serial reader would.
    std::vector<Chunk> read_entries();

    // -- matrix_market_assemble.cpp: the CSR

    /// Threads' groups of the counting sort in assemble() (one when n * groups is large).
    std::size_t sort_groups(std::size_t chunks) const noexcept;

    /// Peak bytes of the entries read (16 per entry: row, column, value) and of assemble()'s
    /// arrays for `m` expanded entries: in CSR order the row pointers (4 per row); otherwise
    /// also the counting sort's per-row arrays and the sorted slots before the final CSR.
    double assemble_bytes(bool csr_order, std::int64_t m) const noexcept;

    /// Whether the chunks' entries, in file order, have strictly increasing (row, col): then
    /// the CSR is their concatenation.
    static bool in_csr_order(const std::vector<Chunk>& chunks) noexcept;

    /// The CSR of the chunks' entries: a counting sort by row that keeps file order inside a
    /// row, a stable sort of each row by column, then duplicates summed in file order -- the
    /// same additions in the same order whatever the number of threads.
    Csr<double, std::int32_t> assemble(std::vector<Chunk>& chunks);

    const char* p_;
    const char* end_;
    std::string source_;
    ReadOptions options_;
    unsigned threads_ = 1;
    std::int64_t line_ = 0;
    std::int64_t size_line_ = 0;
    MatrixMarketInfo info_;
};

}  // namespace spmv::io::detail
