// The lines before the entries of a Matrix Market text (class Parser,
// matrix_market_parser.hpp): the banner "%%MatrixMarket matrix coordinate <field> <symmetry>",
// the comments (and the SuiteSparse collection name in them), the size line "rows cols
// entries", and the checks of the size line against the text that follows it and the memory
// budget, made before anything sized by the header is allocated. Also Field's and Symmetry's
// names (the banner's words).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include <spmv/error.hpp>
#include <spmv/memory.hpp>

#include "matrix_market_parser.hpp"

namespace spmv::io::detail {
namespace {

/// `key: value` of a comment line (" name: HB/bcsstk16" -> "HB/bcsstk16"), or empty.
std::string_view comment_value(std::string_view comment, std::string_view key) noexcept
{
    const auto b = comment.find_first_not_of(" \t");
    if (b == std::string_view::npos || comment.substr(b, key.size()) != key ||
        comment.substr(b + key.size(), 1) != ":") {
        return {};
    }
    auto v = comment.substr(b + key.size() + 1);
    const auto vb = v.find_first_not_of(" \t");
    if (vb == std::string_view::npos) {
        return {};
    }
    v = v.substr(vb);
    const auto ve = v.find_last_not_of(" \t\r");
    return v.substr(0, ve + 1);
}

/// The SuiteSparse Matrix Collection's "% name: Group/Name" and "% id: N" header lines.
void find_collection_name(MatrixMarketInfo& info)
{
    for (const auto& c : info.comments) {
        if (const auto v = comment_value(c, "name");
            info.collection_name.empty() && !v.empty() && v.find_first_of(" \t") == v.npos) {
            info.collection_name = std::string(v);
        }
        if (const auto v = comment_value(c, "id"); info.collection_id == 0 && !v.empty()) {
            std::int64_t id = 0;
            if (parse_int(v, id) == Parsed::ok && id > 0) {
                info.collection_id = id;
            }
        }
    }
}

}  // namespace

Parser::Parser(std::string_view text, std::string source, const ReadOptions& options)
    : p_(text.data()),
      end_(text.data() + text.size()),
      source_(std::move(source)),
      options_(options)
{
    if (text.size() >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) {
        p_ += 3;  // UTF-8 byte order mark
    }
    threads_ = options.threads ? options.threads : std::thread::hardware_concurrency();
    threads_ = std::max(threads_, 1u);
}

MatrixMarketInfo Parser::header()
{
    read_header();
    return info_;
}

void Parser::read_header()
{
    read_banner();
    read_size_line();
    find_collection_name(info_);
}

[[noreturn]] void Parser::fail(std::int64_t line, const std::string& what,
                               std::source_location loc) const
{
    throw MatrixMarketError(loc.file_name(), static_cast<int>(loc.line()), source_, line, what);
}

void Parser::read_banner()
{
    std::string_view line;
    if (!next_line(line)) {
        fail(0,
             "empty input: expected the banner '%%MatrixMarket matrix coordinate <field> "
             "<symmetry>' on line 1");
    }
    Tokens t(line);
    const auto head = t.next();
    if (!iequals(head, "%%MatrixMarket")) {
        fail(line_,
             "missing Matrix Market banner: the first line must be '%%MatrixMarket "
             "matrix coordinate <field> <symmetry>', not " +
                 quoted(line));
    }
    const std::string_view object = t.next();
    const std::string_view format = t.next();
    const std::string_view field = t.next();
    const std::string_view symmetry = t.next();
    if (symmetry.empty()) {
        fail(line_,
             "incomplete banner: expected '%%MatrixMarket matrix coordinate <field> "
             "<symmetry>', got " +
                 quoted(line));
    }
    if (!iequals(object, "matrix")) {
        fail(line_, "unsupported object " + quoted(object) + " in the banner (only 'matrix')");
    }
    if (iequals(format, "array")) {
        fail(line_,
             "array format not supported (dense storage): only 'coordinate' files "
             "can be read");
    }
    if (!iequals(format, "coordinate")) {
        fail(line_, "unknown format " + quoted(format) +
                        " in the banner (expected "
                        "'coordinate')");
    }
    if (iequals(field, "real") || iequals(field, "double")) {
        info_.field = Field::real;
    } else if (iequals(field, "integer")) {
        info_.field = Field::integer;
    } else if (iequals(field, "pattern")) {
        info_.field = Field::pattern;
    } else if (iequals(field, "complex")) {
        fail(line_,
             "complex field not supported: SpMV Lab reads real, integer and pattern "
             "matrices");
    } else {
        fail(line_, "unknown field " + quoted(field) +
                        " in the banner (expected real, integer or pattern)");
    }
    if (iequals(symmetry, "general")) {
        info_.symmetry = Symmetry::general;
    } else if (iequals(symmetry, "symmetric")) {
        info_.symmetry = Symmetry::symmetric;
    } else if (iequals(symmetry, "skew-symmetric")) {
        info_.symmetry = Symmetry::skew_symmetric;
    } else if (iequals(symmetry, "hermitian")) {
        fail(line_, "hermitian symmetry not supported (it needs complex values)");
    } else {
        fail(line_, "unknown symmetry " + quoted(symmetry) +
                        " in the banner (expected general, symmetric or skew-symmetric)");
    }
    if (const auto extra = t.rest(); !extra.empty()) {
        fail(line_, "unexpected text " + quoted(extra) + " after the banner's symmetry word");
    }
    if (info_.field == Field::pattern && info_.symmetry == Symmetry::skew_symmetric) {
        fail(line_,
             "'pattern skew-symmetric' is not a valid Matrix Market type (a pattern "
             "has no sign to flip)");
    }
}

void Parser::read_size_line()
{
    std::string_view line;
    for (;;) {
        if (!next_line(line)) {
            fail(0, "file ends at line " + std::to_string(line_) +
                        " before the size line 'rows cols entries'");
        }
        if (is_comment(line)) {
            auto c = line.substr(line.find('%') + 1);
            while (!c.empty() && (is_space(c.back()))) {
                c.remove_suffix(1);
            }
            info_.comments.emplace_back(c);
            continue;
        }
        if (!is_blank(line)) {
            break;
        }
    }
    size_line_ = line_;
    Tokens t(line);
    std::int64_t v[3] = {0, 0, 0};
    const char* names[3] = {"rows", "columns", "entries"};
    for (int k = 0; k < 3; ++k) {
        const auto tok = t.next();
        if (tok.empty()) {
            fail(line_, "bad size line " + quoted(line) +
                            ": expected three integers 'rows cols entries'");
        }
        const auto r = parse_int(tok, v[k]);
        if (r == Parsed::out_of_range) {
            fail(line_, std::string("size line: number of ") + names[k] + " " + quoted(tok) +
                            " is too large (more than 32-bit indices can address)");
        }
        if (r != Parsed::ok) {
            fail(line_, "bad size line " + quoted(line) + ": number of " + names[k] + " " +
                            quoted(tok) + " is not an integer");
        }
        if (v[k] < 0) {
            fail(line_, std::string("size line: negative number of ") + names[k] + " (" +
                            std::to_string(v[k]) + ")");
        }
    }
    if (const auto extra = t.rest(); !extra.empty()) {
        fail(line_,
             "unexpected text " + quoted(extra) + " after the size line 'rows cols entries'");
    }
    info_.rows = v[0];
    info_.cols = v[1];
    info_.entries = v[2];
    for (int k = 0; k < 2; ++k) {
        if (v[k] > index_limit) {
            fail(line_, std::string("size line: ") + std::to_string(v[k]) + " " + names[k] +
                            " exceed 2147483647, the limit of 32-bit indices");
        }
    }
    if (v[2] > index_limit) {
        fail(line_, "size line declares " + std::to_string(v[2]) +
                        " entries, more than 2147483647 (the limit of 32-bit indices)");
    }
    if (info_.symmetry != Symmetry::general && v[0] != v[1]) {
        fail(line_, std::string("a ") + std::string(to_string(info_.symmetry)) +
                        " matrix must be square, but the size line says " +
                        std::to_string(v[0]) + " x " + std::to_string(v[1]));
    }
    if ((v[0] == 0 || v[1] == 0) && v[2] > 0) {
        fail(line_, "a " + std::to_string(v[0]) + " x " + std::to_string(v[1]) +
                        " matrix cannot hold " + std::to_string(v[2]) + " entries");
    }
}

std::int64_t Parser::entries_bound() const noexcept
{
    const auto room = static_cast<std::int64_t>(static_cast<std::size_t>(end_ - p_) / 4 + 1);
    return std::min(room, info_.entries) * (info_.symmetry != Symmetry::general ? 2 : 1);
}

void Parser::check_size_line() const
{
    const auto& budget = options_.memory;
    const auto bound = entries_bound();
    if (budget.unconfirmed_dimension > 0) {
        const std::int64_t allowed = std::max(budget.unconfirmed_dimension, 16 * bound);
        const std::int64_t dim = std::max(info_.rows, info_.cols);
        if (dim > allowed) {
            const bool rows = info_.rows >= info_.cols;
            const auto room =
                static_cast<std::int64_t>(static_cast<std::size_t>(end_ - p_) / 4 + 1);
            const auto in_file = std::min(info_.entries, room);
            fail(size_line_,
                 "the size line declares " + std::to_string(info_.rows) + " x " +
                     std::to_string(info_.cols) + " for " +
                     (in_file < info_.entries ? "at most " : "") + std::to_string(in_file) +
                     (in_file == 1 ? " entry" : " entries") + ": its " +
                     (rows ? "row pointers" : "vector x") + " alone would need " +
                     format_bytes((rows ? 4.0 : 8.0) * static_cast<double>(dim)) +
                     " that the entries do not justify (at most " + std::to_string(allowed) +
                     " rows or columns, 16 per entry, are read" +
                     (budget.hint.empty() ? std::string(")") : "; " + budget.hint + ")"));
        }
    }
    check_memory(assemble_bytes(true, bound), true);
}

void Parser::check_memory(double need, bool estimate) const
{
    const auto& budget = options_.memory;
    if (budget.limited() && need > static_cast<double>(budget.bytes)) {
        fail(size_line_, "reading this " + std::to_string(info_.rows) + " x " +
                             std::to_string(info_.cols) + " matrix with " +
                             std::to_string(info_.entries) +
                             (info_.entries == 1 ? " entry" : " entries") + " would need " +
                             (estimate ? "at least " : "") + format_bytes(need) +
                             " (entries and CSR); the memory limit is " + budget.describe());
    }
}

}  // namespace spmv::io::detail

namespace spmv::io {

std::string_view to_string(Field f) noexcept
{
    switch (f) {
        case Field::real:
            return "real";
        case Field::integer:
            return "integer";
        case Field::pattern:
            return "pattern";
    }
    return "?";
}

std::string_view to_string(Symmetry s) noexcept
{
    switch (s) {
        case Symmetry::general:
            return "general";
        case Symmetry::symmetric:
            return "symmetric";
        case Symmetry::skew_symmetric:
            return "skew-symmetric";
    }
    return "?";
}

}  // namespace spmv::io
