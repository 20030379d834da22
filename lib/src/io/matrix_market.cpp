// The entry reader of Matrix Market text, and the public read functions (matrix_market.hpp).
// class Parser (matrix_market_parser.hpp) reads the entry lines here: the data section is cut
// into chunks at line ends and parsed on several threads, a fast path reads the plain lines
// and the general one every other line and every error, and the chunks are then walked in file
// order so that errors and counts come out exactly as a serial reader's. The banner and the
// size line are read in matrix_market_header.cpp, the CSR built in matrix_market_assemble.cpp,
// the bytes of an input got in matrix_market_input.cpp, the text written in
// matrix_market_write.cpp.
#include <spmv/io/matrix_market.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <spmv/error.hpp>

#include "archive_input.hpp"
#include "matrix_market_input.hpp"
#include "matrix_market_parser.hpp"
#include "matrix_market_text.hpp"

namespace spmv::io::detail {
namespace {

/// Smallest automatic chunk: smaller data sections are parsed by the calling thread alone
/// (starting threads would cost more than they save).
constexpr std::size_t min_chunk_bytes = std::size_t{1} << 22;

}  // namespace

Csr<double, std::int32_t> Parser::run(MatrixMarketInfo* info_out)
{
    read_header();
    check_size_line();
    auto chunks = read_entries();
    check_memory(assemble_bytes(in_csr_order(chunks), info_.expanded_entries), false);
    auto a = assemble(chunks);
    if (info_out) {
        *info_out = std::move(info_);
    }
    return a;
}

std::int32_t Parser::parse_index(std::string_view tok, const char* what, std::int64_t limit,
                                 std::int64_t line) const
{
    std::int64_t v = 0;
    const auto r = parse_int(tok, v);
    if (r == Parsed::invalid) {
        fail(line, std::string(what) + " index " + quoted(tok) + " is not an integer");
    }
    if (r == Parsed::out_of_range || v < 1 || v > limit) {
        fail(line, std::string(what) + " index " + std::string(tok) + " is out of range 1.." +
                       std::to_string(limit) + " (indices are 1-based)");
    }
    return static_cast<std::int32_t>(v - 1);
}

double Parser::parse_value(Tokens& t, std::int32_t i, std::int32_t j, std::int64_t line) const
{
    if (info_.field == Field::pattern) {
        return options_.pattern_values == PatternValues::ones
                   ? 1.0
                   : pattern_value(i, j, options_.pattern_seed);
    }
    const auto tok = t.next();
    if (tok.empty()) {
        fail(line, "missing value: a " + std::string(to_string(info_.field)) +
                       " entry is 'row col value' (truncated line?)");
    }
    double v = 0;
    if (info_.field == Field::integer) {
        std::int64_t n = 0;
        const auto r = parse_int(tok, n);
        if (r == Parsed::out_of_range) {
            fail(line, "integer value " + quoted(tok) + " does not fit in 64 bits");
        }
        if (r != Parsed::ok) {
            fail(line, "value " + quoted(tok) +
                           " is not an integer (the banner says "
                           "'integer')");
        }
        return static_cast<double>(n);
    }
    const auto r = parse_real(tok, v);
    if (r == Parsed::out_of_range) {
        fail(line, "value " + quoted(tok) + " is outside the range of double");
    }
    if (r != Parsed::ok) {
        fail(line, "value " + quoted(tok) + " is not a number");
    }
    if (std::isnan(v)) {
        fail(line, "NaN value " + quoted(tok) + " is not allowed");
    }
    if (std::isinf(v)) {
        fail(line, "infinite value " + quoted(tok) + " is not allowed");
    }
    return v;
}

const char* Parser::fast_index(const char* p, const char* end, std::int64_t limit,
                               std::int32_t& index) noexcept
{
    const char* b = p;
    std::uint64_t v = 0;
    while (p < end && static_cast<unsigned char>(*p - '0') < 10 && p - b < 11) {
        v = v * 10 + static_cast<unsigned>(*p - '0');
        ++p;
    }
    if (p == b || p - b > 10 || v < 1 || v > static_cast<std::uint64_t>(limit)) {
        return nullptr;
    }
    index = static_cast<std::int32_t>(v - 1);
    return p;
}

const char* Parser::fast_entry(const char* p, const char* end, std::int32_t& i, std::int32_t& j,
                               double& v) const noexcept
{
    while (p < end && is_space(*p)) {
        ++p;
    }
    p = fast_index(p, end, info_.rows, i);
    if (!p || p == end || !is_space(*p)) {
        return nullptr;
    }
    while (p < end && is_space(*p)) {
        ++p;
    }
    p = fast_index(p, end, info_.cols, j);
    if (!p) {
        return nullptr;
    }
    if (info_.field == Field::pattern) {
        v = options_.pattern_values == PatternValues::ones
                ? 1.0
                : pattern_value(i, j, options_.pattern_seed);
    } else {
        if (p == end || !is_space(*p)) {
            return nullptr;
        }
        while (p < end && is_space(*p)) {
            ++p;
        }
        if (info_.field == Field::integer) {
            std::int64_t n = 0;
            const auto r = std::from_chars(p, end, n);
            if (r.ec != std::errc{}) {
                return nullptr;
            }
            v = static_cast<double>(n);
            p = r.ptr;
        } else {
            const auto r = std::from_chars(p, end, v);
            if (r.ec != std::errc{} || !std::isfinite(v)) {
                return nullptr;
            }
            p = r.ptr;
        }
    }
    while (p < end && is_space(*p)) {
        ++p;
    }
    if (p < end && *p == '\r') {
        ++p;
    }
    if (p == end) {
        return p;
    }
    return *p == '\n' ? p + 1 : nullptr;
}

std::int64_t Parser::parse_entries(const char* p, const char* end, std::int64_t line,
                                   EntryState& st, Triplets& out, bool& sorted) const
{
    const bool sym = info_.symmetry != Symmetry::general;
    const bool skew = info_.symmetry == Symmetry::skew_symmetric;
    std::int64_t last_key = -1;
    while (p < end) {
        std::int32_t i = 0;
        std::int32_t j = 0;
        double v = 0;
        ++line;
        if (const char* next = fast_entry(p, end, i, j, v)) {
            p = next;
            if (st.count == info_.entries) {
                fail_extra_entry(line);
            }
        } else {
            std::string_view text;
            p = cut_line(p, end, text);
            if (is_blank(text) || is_comment(text)) {
                continue;
            }
            if (st.count == info_.entries) {
                fail_extra_entry(line);
            }
            Tokens t(text);
            const auto row_tok = t.next();
            const auto col_tok = t.next();
            if (col_tok.empty()) {
                fail(line, "truncated entry " + quoted(text) + ": expected 'row col" +
                               (info_.field == Field::pattern ? "'" : " value'"));
            }
            i = parse_index(row_tok, "row", info_.rows, line);
            j = parse_index(col_tok, "column", info_.cols, line);
            v = parse_value(t, i, j, line);
            if (const auto extra = t.rest(); !extra.empty()) {
                Tokens more(extra);
                const auto first = more.next();
                double ignored = 0;
                const bool pattern_with_value = info_.field == Field::pattern &&
                                                more.rest().empty() &&
                                                parse_real(first, ignored) == Parsed::ok;
                fail(line, "unexpected text " + quoted(extra) + " after the entry (a " +
                               std::string(to_string(info_.field)) + " entry is 'row col" +
                               (info_.field == Field::pattern ? "'" : " value'") + ")" +
                               (pattern_with_value ? ": the file holds values although its "
                                                     "banner says 'pattern'"
                                                   : ""));
            }
        }
        ++st.count;
        if (i == j) {
            ++st.diagonal;
            if (skew) {
                fail(line, "diagonal entry (" + std::to_string(i + 1) + ", " +
                               std::to_string(j + 1) +
                               ") in a skew-symmetric file: its diagonal is zero and "
                               "must not be stored");
            }
        } else if (sym) {
            auto& mine = i > j ? st.first_lower : st.first_upper;
            const auto other = i > j ? st.first_upper : st.first_lower;
            if (mine == 0) {
                mine = line;
            }
            if (other != 0) {
                fail(line, "entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                               ") is " + (i > j ? "below" : "above") +
                               " the diagonal but line " + std::to_string(other) + " has one " +
                               (i > j ? "above" : "below") + " it: a " +
                               std::string(to_string(info_.symmetry)) +
                               " file stores one triangle only (declare it general if it "
                               "holds both)");
            }
        }
        st.expanded += (sym && i != j) ? 2 : 1;
        if (st.expanded > index_limit) {
            fail(line,
                 "the expanded matrix exceeds 2147483647 entries, the limit of "
                 "32-bit indices");
        }
        const std::int64_t key = (std::int64_t{i} << 32) | j;
        sorted = sorted && key > last_key;
        last_key = key;
        out.rows.push_back(i);
        out.cols.push_back(j);
        out.vals.push_back(v);
        if (sym && i != j) {
            out.rows.push_back(j);
            out.cols.push_back(i);
            out.vals.push_back(skew ? -v : v);
            sorted = false;
        }
    }
    return line;
}

[[noreturn]] void Parser::fail_short(std::int64_t last_line, std::int64_t count) const
{
    fail(0, "file ends at line " + std::to_string(last_line) + " after " + std::to_string(count) +
                " of " + std::to_string(info_.entries) + " entries");
}

const char* Parser::open_entries()
{
    read_header();
    check_size_line();
    return p_;
}

[[noreturn]] void Parser::fail_extra_entry(std::int64_t line) const
{
    fail(line, "extra entry: the size line (line " + std::to_string(size_line_) +
                   ") declares " + std::to_string(info_.entries) +
                   " entries and all of them were already read");
}

std::size_t Parser::expected_entries(std::size_t bytes, std::size_t total) const
{
    const auto room = static_cast<std::int64_t>(bytes / 4 + 1);
    const double share = total ? static_cast<double>(bytes) / static_cast<double>(total) : 1;
    const auto guess =
        bytes == total
            ? info_.entries
            : static_cast<std::int64_t>(static_cast<double>(info_.entries) * share * 1.05) + 16;
    return static_cast<std::size_t>(std::min({room, guess, info_.entries}) *
                                    (info_.symmetry != Symmetry::general ? 2 : 1));
}

std::vector<Chunk> Parser::read_entries()
{
    const auto total = static_cast<std::size_t>(end_ - p_);
    // Chunk 0 is the largest, 1/(2 threads) of the text, the rest about 1/(8 threads)
    // each: in CSR order the other chunks are copied behind chunk 0 (so a larger chunk 0
    // copies less), and small chunks keep the threads busy to the end when the system
    // slows one of them down (a single large chunk could not be shared).
    std::size_t chunk = options_.chunk_bytes;
    std::size_t first_chunk = chunk;
    if (chunk == 0) {
        const bool serial = threads_ == 1 || total <= min_chunk_bytes;
        chunk =
            serial ? total : std::max(min_chunk_bytes, total / (8 * std::size_t{threads_}) + 1);
        first_chunk = serial ? total : std::max(chunk, total / (2 * std::size_t{threads_}));
    }
    chunk = std::max<std::size_t>(chunk, 1);
    std::vector<Chunk> chunks;
    for (const char* b = p_; b < end_;) {
        const char* e = end_;
        const std::size_t want = chunks.empty() ? std::max<std::size_t>(first_chunk, 1) : chunk;
        if (static_cast<std::size_t>(end_ - b) > want) {
            const char* from = b + want - 1;
            const auto* nl = static_cast<const char*>(
                std::memchr(from, '\n', static_cast<std::size_t>(end_ - from)));
            e = nl ? nl + 1 : end_;
        }
        chunks.emplace_back();
        chunks.back().begin = b;
        chunks.back().end = e;
        b = e;
    }
    // Chunk 0 starts from the known state (nothing read, line line_): its errors are final.
    parallel_for(chunks.size(), threads_, [&](std::size_t k) {
        Chunk& c = chunks[k];
        const std::size_t expect =
            expected_entries(static_cast<std::size_t>(c.end - c.begin), total);
        c.out.rows.reserve(expect);
        // chunk 0's columns and values get room for the whole file (address space only,
        // until written): in CSR order the others are appended to them, without a copy
        // of the first chunk or zero-filling of the rest
        const std::size_t whole = k == 0 ? expected_entries(total, total) : expect;
        c.out.cols.reserve(whole);
        c.out.vals.reserve(whole);
        const std::int64_t first = k == 0 ? line_ : 0;
        if (k == 0) {
            c.lines = parse_entries(c.begin, c.end, first, c.state, c.out, c.sorted) - first;
            return;
        }
        try {
            c.lines = parse_entries(c.begin, c.end, first, c.state, c.out, c.sorted) - first;
        } catch (const MatrixMarketError&) {
            c.failed = true;
            c.out = {};
        }
    });
    EntryState st;
    std::int64_t line = line_;
    for (std::size_t k = 0; k < chunks.size(); ++k) {
        Chunk& c = chunks[k];
        const EntryState& own = c.state;
        if (k == 0) {
            st = own;
        } else if (c.failed || st.count + own.count > info_.entries ||
                   (st.first_lower != 0 && own.first_upper != 0) ||
                   (st.first_upper != 0 && own.first_lower != 0) ||
                   st.expanded + own.expanded > index_limit) {
            c.out = {};
            c.sorted = true;
            c.lines = parse_entries(c.begin, c.end, line, st, c.out, c.sorted) - line;
        } else {
            st.count += own.count;
            st.expanded += own.expanded;
            st.diagonal += own.diagonal;
            if (st.first_lower == 0 && own.first_lower != 0) {
                st.first_lower = line + own.first_lower;
            }
            if (st.first_upper == 0 && own.first_upper != 0) {
                st.first_upper = line + own.first_upper;
            }
        }
        line += c.lines;
    }
    line_ = line;
    if (st.count < info_.entries) {
        fail_short(line_, st.count);
    }
    info_.diagonal_entries = st.diagonal;
    info_.expanded_entries = st.expanded;
    return chunks;
}

}  // namespace spmv::io::detail

namespace spmv::io {
namespace {

std::uint64_t mix64(std::uint64_t z) noexcept
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

double pattern_value(std::int64_t row, std::int64_t col, std::uint64_t seed) noexcept
{
    const auto lo = static_cast<std::uint64_t>(std::min(row, col));
    const auto hi = static_cast<std::uint64_t>(std::max(row, col));
    const std::uint64_t h = mix64(mix64(mix64(seed) ^ lo) ^ hi);
    return static_cast<double>((h >> 11) + 1) * 0x1.0p-53;  // in (0, 1]
}

Csr<double, std::int32_t> read_matrix_market(std::istream& in, std::string source_name,
                                             MatrixMarketInfo* info, const ReadOptions& options)
{
    if (in.fail()) {
        throw MatrixMarketError(__FILE__, __LINE__, source_name, 0,
                                "cannot read: the stream is in a failed state");
    }
    const std::string text = detail::read_all(in, 0, source_name, options.memory);
    if (in.bad()) {
        throw MatrixMarketError(__FILE__, __LINE__, source_name, 0, "read error");
    }
    const auto kind = detail::detect_packing_of(text);
    if (kind == detail::Packing::plain || kind == detail::Packing::zip) {
        if (kind == detail::Packing::zip) {
            detail::check_leading_bytes(source_name, text.data(), text.size());
        }
        return detail::Parser(text, std::move(source_name), options).run(info);
    }
    const auto u = detail::unpack(source_name, kind, text, -1, options.archive_member,
                                  options.memory, false);
    MatrixMarketInfo local;
    auto a = detail::parse_unpacked(u, source_name,
                                    [&](std::string_view t, const std::string& src) {
                                        return detail::Parser(t, src, options).run(&local);
                                    });
    detail::describe_unpacked(local, u);
    if (info) {
        *info = std::move(local);
    }
    return a;
}

Csr<double, std::int32_t> read_matrix_market(const std::filesystem::path& path,
                                             MatrixMarketInfo* info, const ReadOptions& options)
{
    const auto in = detail::open_input(path, options);
    const detail::FileBytes bytes(in.file, in.fd, in.name, in.options.memory);
    if (bytes.kind() == detail::Packing::plain) {
        detail::refuse_member_of_plain(in);
        return detail::Parser(bytes.view(), in.name, in.options).run(info);
    }
    const auto u = detail::unpack(in.name, bytes.kind(), bytes.view(), bytes.pending_fd(),
                                  in.options.archive_member, in.options.memory, false);
    MatrixMarketInfo local;
    auto a = detail::parse_unpacked(u, in.name, [&](std::string_view t, const std::string& src) {
        return detail::Parser(t, src, in.options).run(&local);
    });
    detail::describe_unpacked(local, u);
    if (info) {
        *info = std::move(local);
    }
    return a;
}

struct EntryRangeReader::Impl {
    detail::OpenedInput in;
    std::optional<detail::FileBytes> bytes;
    std::optional<detail::Parser> parser;
    std::string packing;
    std::size_t data_begin = 0;
    std::int64_t data_line = 0;
};

EntryRangeReader::EntryRangeReader(const std::filesystem::path& path, const ReadOptions& options)
    : impl_(std::make_unique<Impl>())
{
    auto& d = *impl_;
    d.in = detail::open_input(path, options);
    if (d.in.fd == 0) {
        d.packing = "standard input";
        return;
    }
    d.bytes.emplace(d.in.file, d.in.fd, d.in.name, d.in.options.memory);
    if (d.bytes->kind() != detail::Packing::plain) {
        d.packing = detail::packing_name(d.bytes->kind());
        return;
    }
    detail::refuse_member_of_plain(d.in);
    const auto text = d.bytes->view();
    d.parser.emplace(text, d.in.name, d.in.options);
    d.data_begin = static_cast<std::size_t>(d.parser->open_entries() - text.data());
    d.data_line = d.parser->lines_read();
}

EntryRangeReader::~EntryRangeReader() = default;

bool EntryRangeReader::plain() const noexcept { return impl_->parser.has_value(); }
std::string EntryRangeReader::packing() const { return impl_->packing; }
const std::string& EntryRangeReader::source() const noexcept { return impl_->in.name; }
const MatrixMarketInfo& EntryRangeReader::info() const noexcept { return impl_->parser->info(); }
std::string_view EntryRangeReader::text() const noexcept { return impl_->bytes->view(); }
std::size_t EntryRangeReader::data_begin() const noexcept { return impl_->data_begin; }
std::int64_t EntryRangeReader::data_line() const noexcept { return impl_->data_line; }

std::int64_t EntryRangeReader::parse(std::size_t begin, std::size_t end, std::int64_t line,
                                     EntryCounts& counts, std::vector<std::int32_t>& rows,
                                     std::vector<std::int32_t>& cols,
                                     std::vector<double>& vals) const
{
    const auto all = text();
    SPMV_EXPECTS(begin <= end && end <= all.size(), "byte range outside the file");
    detail::EntryState st = counts;
    detail::Triplets out;
    out.rows.swap(rows);
    out.cols.swap(cols);
    out.vals.swap(vals);
    std::int64_t last = line;
    try {
        last = impl_->parser->parse_range(all.data() + begin, all.data() + end, line, st, out);
    } catch (...) {
        out.rows.swap(rows);
        out.cols.swap(cols);
        out.vals.swap(vals);
        throw;
    }
    out.rows.swap(rows);
    out.cols.swap(cols);
    out.vals.swap(vals);
    counts = st;
    return last;
}

void EntryRangeReader::fail_short(std::int64_t last_line, std::int64_t count) const
{
    impl_->parser->fail_short(last_line, count);
}

MatrixMarketInfo read_matrix_market_header(const std::filesystem::path& path,
                                           const ReadOptions& options)
{
    const auto in = detail::open_input(path, options);
    const detail::FileBytes bytes(in.file, in.fd, in.name, in.options.memory);
    if (bytes.kind() == detail::Packing::plain) {
        detail::refuse_member_of_plain(in);
        return detail::Parser(bytes.view(), in.name, in.options).header();
    }
    const auto u = detail::unpack(in.name, bytes.kind(), bytes.view(), bytes.pending_fd(),
                                  in.options.archive_member, in.options.memory, true);
    auto info = detail::parse_unpacked(u, in.name, [&](std::string_view t, const std::string& src) {
        return detail::Parser(t, src, in.options).header();
    });
    detail::describe_unpacked(info, u);
    return info;
}

}  // namespace spmv::io
