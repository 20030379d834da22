#include <spmv/io/matrix_market.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <source_location>
#include <system_error>
#include <utility>

#include <spmv/error.hpp>

namespace spmv::io {
namespace {

constexpr std::int64_t index_limit = std::numeric_limits<std::int32_t>::max();

bool is_space(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

char lower(char c) noexcept
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b) noexcept
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                              [](char x, char y) { return lower(x) == lower(y); });
}

/// A token for an error message: quoted, at most 40 characters, control bytes escaped.
std::string quoted(std::string_view t)
{
    std::string s = "'";
    const std::size_t shown = std::min<std::size_t>(t.size(), 40);
    for (std::size_t k = 0; k < shown; ++k) {
        const auto c = static_cast<unsigned char>(t[k]);
        if (c < 0x20 || c >= 0x7f) {
            const char* hex = "0123456789abcdef";
            s += "\\x";
            s += hex[c >> 4];
            s += hex[c & 15];
        } else {
            s += static_cast<char>(c);
        }
    }
    if (shown < t.size()) {
        s += "...";
    }
    return s + "'";
}

/// Whitespace-separated tokens of one line.
struct Tokens {
    const char* p;
    const char* end;

    explicit Tokens(std::string_view line) : p(line.data()), end(line.data() + line.size()) {}

    std::string_view next() noexcept
    {
        while (p < end && is_space(*p)) {
            ++p;
        }
        const char* b = p;
        while (p < end && !is_space(*p)) {
            ++p;
        }
        return {b, static_cast<std::size_t>(p - b)};
    }
    std::string_view rest() noexcept
    {
        while (p < end && is_space(*p)) {
            ++p;
        }
        return {p, static_cast<std::size_t>(end - p)};
    }
};

/// from_chars accepts no leading '+'; Matrix Market writers sometimes emit one.
const char* skip_plus(const char* b, const char* e) noexcept
{
    return (e - b > 1 && *b == '+' && b[1] != '-' && b[1] != '+') ? b + 1 : b;
}

enum class Parsed { ok, invalid, out_of_range };

Parsed parse_int(std::string_view t, std::int64_t& v) noexcept
{
    const char* e = t.data() + t.size();
    const auto [ptr, ec] = std::from_chars(skip_plus(t.data(), e), e, v);
    if (ec == std::errc::result_out_of_range && ptr == e) {
        return Parsed::out_of_range;
    }
    return (ec == std::errc{} && ptr == e && !t.empty()) ? Parsed::ok : Parsed::invalid;
}

Parsed parse_real(std::string_view t, double& v)
{
    const char* e = t.data() + t.size();
    const auto [ptr, ec] = std::from_chars(skip_plus(t.data(), e), e, v);
    if (ptr != e || t.empty() || (ec != std::errc{} && ec != std::errc::result_out_of_range)) {
        return Parsed::invalid;
    }
    if (ec == std::errc::result_out_of_range) {
        // Overflow is an error; underflow (e.g. 1e-400) reads as strtod reads it: 0 or subnormal.
        const std::string copy(t);
        errno = 0;
        v = std::strtod(copy.c_str(), nullptr);
        if (std::isinf(v)) {
            return Parsed::out_of_range;
        }
    }
    return Parsed::ok;
}

std::uint64_t mix64(std::uint64_t z) noexcept
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::string read_all(std::istream& in, std::size_t size_hint)
{
    std::string text;
    text.reserve(size_hint);
    constexpr std::size_t chunk = std::size_t{1} << 20;
    std::size_t used = 0;
    while (in) {
        text.resize(used + chunk);
        in.read(text.data() + used, static_cast<std::streamsize>(chunk));
        used += static_cast<std::size_t>(in.gcount());
    }
    text.resize(used);
    return text;
}

class Parser {
public:
    Parser(std::string_view text, std::string source, const ReadOptions& options)
        : p_(text.data()),
          end_(text.data() + text.size()),
          source_(std::move(source)),
          options_(options)
    {
        if (text.size() >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) {
            p_ += 3;  // UTF-8 byte order mark
        }
    }

    Csr<double, std::int32_t> run(MatrixMarketInfo* info_out)
    {
        read_banner();
        read_size_line();
        read_entries();
        auto a = assemble();
        if (info_out) {
            *info_out = std::move(info_);
        }
        return a;
    }

private:
    [[noreturn]] void fail(std::int64_t line, const std::string& what,
                           std::source_location loc = std::source_location::current()) const
    {
        throw MatrixMarketError(loc.file_name(), static_cast<int>(loc.line()), source_, line, what);
    }

    /// Next line without its end-of-line ("\n" or "\r\n"); false at the end of the text.
    bool next_line(std::string_view& line) noexcept
    {
        if (p_ >= end_) {
            return false;
        }
        const auto* nl =
            static_cast<const char*>(std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_)));
        const char* e = nl ? nl : end_;
        line = std::string_view(p_, static_cast<std::size_t>(e - p_));
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        p_ = nl ? nl + 1 : end_;
        ++line_;
        return true;
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

    void read_banner()
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

    void read_size_line()
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

    std::int32_t parse_index(std::string_view tok, const char* what, std::int64_t limit)
    {
        std::int64_t v = 0;
        const auto r = parse_int(tok, v);
        if (r == Parsed::invalid) {
            fail(line_, std::string(what) + " index " + quoted(tok) + " is not an integer");
        }
        if (r == Parsed::out_of_range || v < 1 || v > limit) {
            fail(line_, std::string(what) + " index " + std::string(tok) + " is out of range 1.." +
                            std::to_string(limit) + " (indices are 1-based)");
        }
        return static_cast<std::int32_t>(v - 1);
    }

    double parse_value(Tokens& t, std::int32_t i, std::int32_t j)
    {
        if (info_.field == Field::pattern) {
            return options_.pattern_values == PatternValues::ones
                       ? 1.0
                       : pattern_value(i, j, options_.pattern_seed);
        }
        const auto tok = t.next();
        if (tok.empty()) {
            fail(line_, "missing value: a " + std::string(to_string(info_.field)) +
                            " entry is 'row col value' (truncated line?)");
        }
        double v = 0;
        if (info_.field == Field::integer) {
            std::int64_t n = 0;
            const auto r = parse_int(tok, n);
            if (r == Parsed::out_of_range) {
                fail(line_, "integer value " + quoted(tok) + " does not fit in 64 bits");
            }
            if (r != Parsed::ok) {
                fail(line_, "value " + quoted(tok) +
                                " is not an integer (the banner says "
                                "'integer')");
            }
            return static_cast<double>(n);
        }
        const auto r = parse_real(tok, v);
        if (r == Parsed::out_of_range) {
            fail(line_, "value " + quoted(tok) + " is outside the range of double");
        }
        if (r != Parsed::ok) {
            fail(line_, "value " + quoted(tok) + " is not a number");
        }
        if (std::isnan(v)) {
            fail(line_, "NaN value " + quoted(tok) + " is not allowed");
        }
        if (std::isinf(v)) {
            fail(line_, "infinite value " + quoted(tok) + " is not allowed");
        }
        return v;
    }

    void push(std::int32_t i, std::int32_t j, double v)
    {
        rows_.push_back(i);
        cols_.push_back(j);
        vals_.push_back(v);
    }

    void read_entries()
    {
        const bool sym = info_.symmetry != Symmetry::general;
        const bool skew = info_.symmetry == Symmetry::skew_symmetric;
        // Never trust the declared count for allocation: an entry line has at least 4 bytes.
        const auto room = static_cast<std::int64_t>(end_ - p_) / 4 + 1;
        const auto expect = std::min(info_.entries, room) * (sym ? 2 : 1);
        rows_.reserve(static_cast<std::size_t>(expect));
        cols_.reserve(static_cast<std::size_t>(expect));
        vals_.reserve(static_cast<std::size_t>(expect));
        std::int64_t count = 0;
        std::int64_t expanded = 0;
        std::int64_t first_lower = 0;  // line of the first entry below / above the diagonal
        std::int64_t first_upper = 0;
        std::string_view line;
        while (next_line(line)) {
            if (is_blank(line) || is_comment(line)) {
                continue;
            }
            if (count == info_.entries) {
                fail(line_, "extra entry: the size line (line " + std::to_string(size_line_) +
                                ") declares " + std::to_string(info_.entries) +
                                " entries and all of them were already read");
            }
            Tokens t(line);
            const auto row_tok = t.next();
            const auto col_tok = t.next();
            if (col_tok.empty()) {
                fail(line_, "truncated entry " + quoted(line) + ": expected 'row col" +
                                (info_.field == Field::pattern ? "'" : " value'"));
            }
            const auto i = parse_index(row_tok, "row", info_.rows);
            const auto j = parse_index(col_tok, "column", info_.cols);
            const double v = parse_value(t, i, j);
            if (const auto extra = t.rest(); !extra.empty()) {
                Tokens more(extra);
                const auto first = more.next();
                double ignored = 0;
                const bool pattern_with_value = info_.field == Field::pattern &&
                                                more.rest().empty() &&
                                                parse_real(first, ignored) == Parsed::ok;
                fail(line_, "unexpected text " + quoted(extra) + " after the entry (a " +
                                std::string(to_string(info_.field)) + " entry is 'row col" +
                                (info_.field == Field::pattern ? "'" : " value'") + ")" +
                                (pattern_with_value ? ": the file holds values although its "
                                                      "banner says 'pattern'"
                                                    : ""));
            }
            ++count;
            if (i == j) {
                ++info_.diagonal_entries;
                if (skew) {
                    fail(line_, "diagonal entry (" + std::to_string(i + 1) + ", " +
                                    std::to_string(j + 1) +
                                    ") in a skew-symmetric file: its diagonal is zero and "
                                    "must not be stored");
                }
            } else if (sym) {
                auto& mine = i > j ? first_lower : first_upper;
                const auto other = i > j ? first_upper : first_lower;
                if (mine == 0) {
                    mine = line_;
                }
                if (other != 0) {
                    fail(line_, "entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                                    ") is " + (i > j ? "below" : "above") +
                                    " the diagonal but line " + std::to_string(other) +
                                    " has one " + (i > j ? "above" : "below") + " it: a " +
                                    std::string(to_string(info_.symmetry)) +
                                    " file stores one triangle only (declare it general if it "
                                    "holds both)");
                }
            }
            expanded += (sym && i != j) ? 2 : 1;
            if (expanded > index_limit) {
                fail(line_,
                     "the expanded matrix exceeds 2147483647 entries, the limit of "
                     "32-bit indices");
            }
            push(i, j, v);
            if (sym && i != j) {
                push(j, i, skew ? -v : v);
            }
        }
        if (count < info_.entries) {
            fail(0, "file ends at line " + std::to_string(line_) + " after " +
                        std::to_string(count) + " of " + std::to_string(info_.entries) +
                        " entries");
        }
        info_.expanded_entries = expanded;
    }

    /// Bucket the triplets by row (stable: file order kept inside a row), sort each row by
    /// column (stable), then sum duplicates in file order.
    Csr<double, std::int32_t> assemble()
    {
        Csr<double, std::int32_t> a;
        a.num_rows = static_cast<std::int32_t>(info_.rows);
        a.num_cols = static_cast<std::int32_t>(info_.cols);
        const auto n = static_cast<std::size_t>(info_.rows);
        const std::size_t m = vals_.size();
        std::vector<std::int32_t> start(n + 1, 0);
        for (auto i : rows_) {
            ++start[static_cast<std::size_t>(i) + 1];
        }
        for (std::size_t i = 0; i < n; ++i) {
            start[i + 1] += start[i];
        }
        std::vector<std::pair<std::int32_t, double>> entries(m);
        {
            std::vector<std::int32_t> pos(start.begin(), start.end() - 1);
            for (std::size_t k = 0; k < m; ++k) {
                const auto r = static_cast<std::size_t>(rows_[k]);
                entries[static_cast<std::size_t>(pos[r]++)] = {cols_[k], vals_[k]};
            }
        }
        rows_ = {};
        cols_ = {};
        vals_ = {};
        a.row_ptrs.assign(n + 1, 0);
        a.col_idxs.resize(m);
        a.values.resize(m);
        const auto by_col = [](const auto& l, const auto& r) { return l.first < r.first; };
        std::size_t w = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const auto b = entries.begin() + start[i];
            const auto e = entries.begin() + start[i + 1];
            if (e - b > 32) {
                if (!std::is_sorted(b, e, by_col)) {
                    std::stable_sort(b, e, by_col);
                }
            } else {  // insertion sort: stable and allocation-free for the usual short rows
                for (auto it = b; it != e; ++it) {
                    for (auto k = it; k != b && (k - 1)->first > k->first; --k) {
                        std::iter_swap(k - 1, k);
                    }
                }
            }
            const std::size_t row_begin = w;
            for (auto it = b; it != e; ++it) {
                if (w > row_begin && a.col_idxs[w - 1] == it->first) {
                    a.values[w - 1] += it->second;
                    ++info_.duplicates_summed;
                } else {
                    a.col_idxs[w] = it->first;
                    a.values[w] = it->second;
                    ++w;
                }
            }
            for (std::size_t k = row_begin; k < w; ++k) {
                info_.explicit_zeros += a.values[k] == 0.0 ? 1 : 0;
            }
            a.row_ptrs[i + 1] = static_cast<std::int32_t>(w);
        }
        a.col_idxs.resize(w);
        a.values.resize(w);
        info_.nnz = static_cast<std::int64_t>(w);
        return a;
    }

    const char* p_;
    const char* end_;
    std::string source_;
    ReadOptions options_;
    std::int64_t line_ = 0;
    std::int64_t size_line_ = 0;
    MatrixMarketInfo info_;
    std::vector<std::int32_t> rows_;
    std::vector<std::int32_t> cols_;
    std::vector<double> vals_;
};

/// Appends `v` with `precision` significant digits (0: shortest exact form).
void append_value(std::string& buf, double v, int precision)
{
    char tmp[64];
    const auto r = precision == 0 ? std::to_chars(tmp, tmp + sizeof tmp, v)
                                  : std::to_chars(tmp, tmp + sizeof tmp, v,
                                                  std::chars_format::general, precision);
    buf.append(tmp, r.ptr);
}

void append_int(std::string& buf, std::int64_t v)
{
    char tmp[24];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf.append(tmp, r.ptr);
}

/// The value stored at (i, j), or nullptr.
const double* find_entry(const Csr<double, std::int32_t>& a, std::int32_t i, std::int32_t j)
{
    const auto b = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(i)];
    const auto e = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(i) + 1];
    const auto it = std::lower_bound(b, e, j);
    return (it != e && *it == j) ? &a.values[static_cast<std::size_t>(it - a.col_idxs.begin())]
                                 : nullptr;
}

}  // namespace

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
    const std::string text = read_all(in, 0);
    if (in.bad()) {
        throw MatrixMarketError(__FILE__, __LINE__, source_name, 0, "read error");
    }
    return Parser(text, std::move(source_name), options).run(info);
}

Csr<double, std::int32_t> read_matrix_market(const std::filesystem::path& path,
                                             MatrixMarketInfo* info, const ReadOptions& options)
{
    const std::string name = path.string();
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(status)) {
        throw MatrixMarketError(__FILE__, __LINE__, name, 0, "cannot open: file not found");
    }
    if (std::filesystem::is_directory(status)) {
        throw MatrixMarketError(__FILE__, __LINE__, name, 0,
                                "cannot open: it is a directory, not a file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int err = errno;
        throw MatrixMarketError(__FILE__, __LINE__, name, 0,
                                std::string("cannot open for reading: ") +
                                    (err ? std::strerror(err) : "unknown error"));
    }
    std::size_t hint = 0;
    if (std::filesystem::is_regular_file(status)) {
        const auto size = std::filesystem::file_size(path, ec);
        hint = ec ? 0 : static_cast<std::size_t>(size) + 1;
    }
    const std::string text = read_all(in, hint);
    if (in.bad()) {
        throw MatrixMarketError(__FILE__, __LINE__, name, 0, "read error");
    }
    return Parser(text, name, options).run(info);
}

void write_matrix_market(std::ostream& out, const Csr<double, std::int32_t>& a,
                         const WriteOptions& options)
{
    validate(a);
    SPMV_EXPECTS(options.precision >= 0 && options.precision <= 40,
                 "write_matrix_market: precision must be in 0..40");
    if (!options.pattern) {
        for (std::int32_t i = 0; i < a.num_rows; ++i) {
            for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                if (!std::isfinite(a.values[static_cast<std::size_t>(k)])) {
                    SPMV_THROW(InvalidArgument,
                               "write_matrix_market: value at (" + std::to_string(i + 1) + ", " +
                                   std::to_string(a.col_idxs[static_cast<std::size_t>(k)] + 1) +
                                   ") is not finite; Matrix Market files cannot hold NaN/inf");
                }
            }
        }
    }
    std::int64_t count = nnz(a);
    if (options.symmetric) {
        SPMV_EXPECTS(a.num_rows == a.num_cols,
                     "write_matrix_market: a symmetric file needs a square matrix");
        count = 0;
        for (std::int32_t i = 0; i < a.num_rows; ++i) {
            for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                const auto j = a.col_idxs[static_cast<std::size_t>(k)];
                const double* mirror = find_entry(a, j, i);
                const bool ok =
                    mirror && (options.pattern || *mirror == a.values[static_cast<std::size_t>(k)]);
                if (!ok) {
                    SPMV_THROW(InvalidArgument,
                               "write_matrix_market: matrix is not symmetric at (" +
                                   std::to_string(i + 1) + ", " + std::to_string(j + 1) + ")");
                }
                count += j <= i ? 1 : 0;
            }
        }
    }
    std::string buf;
    buf.reserve(std::size_t{1} << 20);
    buf += "%%MatrixMarket matrix coordinate ";
    buf += options.pattern ? "pattern " : "real ";
    buf += options.symmetric ? "symmetric\n" : "general\n";
    if (!options.comment.empty()) {
        std::string_view c = options.comment;
        while (!c.empty()) {
            const auto nl = c.find('\n');
            const auto piece = c.substr(0, nl);
            buf += piece.empty() ? "%\n" : "% " + std::string(piece) + "\n";
            c = nl == std::string_view::npos ? std::string_view{} : c.substr(nl + 1);
        }
    }
    append_int(buf, a.num_rows);
    buf += ' ';
    append_int(buf, a.num_cols);
    buf += ' ';
    append_int(buf, count);
    buf += '\n';
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            const auto j = a.col_idxs[static_cast<std::size_t>(k)];
            if (options.symmetric && j > i) {
                continue;
            }
            append_int(buf, i + 1);
            buf += ' ';
            append_int(buf, j + 1);
            if (!options.pattern) {
                buf += ' ';
                append_value(buf, a.values[static_cast<std::size_t>(k)], options.precision);
            }
            buf += '\n';
            if (buf.size() > (std::size_t{1} << 20) - 256) {
                out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
                buf.clear();
            }
        }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    out.flush();
    if (!out) {
        SPMV_THROW(Error, "write_matrix_market: write failed");
    }
}

void write_matrix_market(const std::filesystem::path& path, const Csr<double, std::int32_t>& a,
                         const WriteOptions& options)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        const int err = errno;
        SPMV_THROW(Error, "cannot open " + path.string() +
                              " for writing: " + (err ? std::strerror(err) : "unknown error"));
    }
    write_matrix_market(out, a, options);
}

}  // namespace spmv::io
