// The chunked, multi-threaded Matrix Market reader against an independent reference: a small
// std::istringstream parser written here, on generated files of thousands of lines (comments,
// blank lines, CRLF, '+' signs, duplicates, explicit zeros; general, symmetric, skew-symmetric,
// integer and pattern), read with many thread counts and chunk sizes down to one byte, so that
// every line is a chunk boundary. Errors deep in a file must name their exact line whatever
// chunk they fall in, and the first error of the file must win.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/io/matrix_market.hpp>

using namespace spmv;
namespace fs = std::filesystem;

namespace {

using Matrix = Csr<double, std::int32_t>;

/// What the reference reader makes of a file: the CSR and the counts of MatrixMarketInfo.
struct Reference {
    Matrix a;
    std::int64_t entries = 0;
    std::int64_t diagonal = 0;
    std::int64_t expanded = 0;
    std::int64_t duplicates = 0;
    std::int64_t zeros = 0;
    std::vector<std::string> comments;
};

/// A deliberately plain reader for well-formed files: getline, istringstream >> number,
/// std::map for the structure. Shares no code with the library's reader (pattern_value is the
/// documented value of PatternValues::random, so it is called, not re-derived).
Reference reference_read(const std::string& text, const io::ReadOptions& options)
{
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    std::istringstream banner(line);
    std::string head, object, format, field, symmetry;
    banner >> head >> object >> format >> field >> symmetry;
    Reference r;
    std::int64_t rows = 0, cols = 0;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        const auto k = line.find_first_not_of(" \t");
        if (k != std::string::npos && line[k] == '%') {
            auto c = line.substr(line.find('%') + 1);
            while (!c.empty() && (c.back() == ' ' || c.back() == '\t')) {
                c.pop_back();
            }
            r.comments.push_back(c);
            continue;
        }
        if (k == std::string::npos) {
            continue;
        }
        std::istringstream size(line);
        size >> rows >> cols >> r.entries;
        break;
    }
    std::map<std::pair<std::int32_t, std::int32_t>, double> cells;
    const auto add = [&](std::int32_t i, std::int32_t j, double v) {
        ++r.expanded;
        const auto [it, fresh] = cells.insert({{i, j}, v});
        if (!fresh) {
            it->second += v;
            ++r.duplicates;
        }
    };
    while (std::getline(in, line)) {
        const auto k = line.find_first_not_of(" \t\r");
        if (k == std::string::npos || line[k] == '%') {
            continue;
        }
        std::istringstream entry(line);
        std::int64_t i = 0, j = 0;
        double v = 1.0;
        entry >> i >> j;
        if (field == "pattern") {
            if (options.pattern_values == io::PatternValues::random) {
                v = io::pattern_value(i - 1, j - 1, options.pattern_seed);
            }
        } else if (field == "integer") {
            std::int64_t n = 0;
            entry >> n;
            v = static_cast<double>(n);
        } else {
            entry >> v;
        }
        const auto r0 = static_cast<std::int32_t>(i - 1);
        const auto c0 = static_cast<std::int32_t>(j - 1);
        r.diagonal += i == j ? 1 : 0;
        add(r0, c0, v);
        if (symmetry != "general" && i != j) {
            add(c0, r0, symmetry == "skew-symmetric" ? -v : v);
        }
    }
    r.a.num_rows = static_cast<std::int32_t>(rows);
    r.a.num_cols = static_cast<std::int32_t>(cols);
    r.a.row_ptrs.assign(static_cast<std::size_t>(rows) + 1, 0);
    for (const auto& [ij, v] : cells) {
        ++r.a.row_ptrs[static_cast<std::size_t>(ij.first) + 1];
        r.a.col_idxs.push_back(ij.second);
        r.a.values.push_back(v);
        r.zeros += v == 0.0 ? 1 : 0;
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(rows); ++i) {
        r.a.row_ptrs[i + 1] += r.a.row_ptrs[i];
    }
    return r;
}

struct Kind {
    const char* field;
    const char* symmetry;
};

/// How generate_file orders the entries.
enum class Order {
    random,      ///< random positions, some repeated, comments and blank lines in between
    csr,         ///< CSR order, nothing else (the reader's shortcut: concatenate the chunks)
    csr_repeats  ///< CSR order, but some entries repeated right away (no shortcut possible)
};

/// A valid file of about `lines` entry lines with everything the format allows sprinkled in.
std::string generate_file(const Kind& kind, std::int32_t n, std::int64_t lines, Order order,
                          std::uint64_t seed)
{
    const bool sorted = order != Order::random;
    std::mt19937_64 rng(seed);
    const std::string field = kind.field;
    const std::string symmetry = kind.symmetry;
    const bool lower_only = symmetry != "general";
    const bool no_diagonal = symmetry == "skew-symmetric";
    std::uniform_int_distribution<std::int32_t> index(1, n);
    std::uniform_int_distribution<int> pick(0, 99);
    std::vector<std::pair<std::int32_t, std::int32_t>> ij;
    if (sorted) {
        for (std::int32_t i = 1; i <= n && static_cast<std::int64_t>(ij.size()) < lines; ++i) {
            for (std::int32_t j = 1; j <= (lower_only ? i : n); j += 1 + pick(rng) % 7) {
                if (!(no_diagonal && i == j)) {
                    ij.emplace_back(i, j);
                    if (order == Order::csr_repeats && pick(rng) < 3) {
                        ij.emplace_back(i, j);
                    }
                }
            }
        }
    } else {
        while (static_cast<std::int64_t>(ij.size()) < lines) {
            auto i = index(rng), j = index(rng);
            if (lower_only && i < j) {
                std::swap(i, j);
            }
            if (no_diagonal && i == j) {
                continue;
            }
            ij.emplace_back(i, j);
            if (pick(rng) < 5) {  // a duplicate right away or later
                ij.emplace_back(i, j);
            }
        }
    }
    const char* values[] = {"1.5",   "-2.25", "0",   "1e-3", "+4",      "-0.0",
                            ".5",    "3.",    "7E2", "0.1",  "-1e-310", "123456789.123456789",
                            "2.5e+1"};
    std::ostringstream out;
    out << "%%MatrixMarket matrix coordinate " << field << ' ' << symmetry << "\n";
    out << "% generated for the parallel reader test\n%\n%   indented comment  \n";
    out << n << ' ' << n << ' ' << ij.size() << "\n";
    std::uniform_int_distribution<std::size_t> value_pick(0, std::size(values) - 1);
    for (std::size_t k = 0; k < ij.size(); ++k) {
        if (!sorted) {
            const int p = pick(rng);
            if (p < 3) {
                out << "% a comment between entries\n";
            } else if (p < 5) {
                out << (p == 3 ? "\n" : "  \t\n");
            }
        }
        const int style = sorted ? 99 : pick(rng);
        out << (style < 4 ? "  " : "") << ij[k].first << (style < 8 ? "\t" : " ") << ij[k].second;
        if (field == "real") {
            out << ' ' << values[value_pick(rng)];
        } else if (field == "integer") {
            out << ' ' << static_cast<std::int64_t>(pick(rng)) - 50;
        }
        out << (style >= 8 && style < 12 ? " \r\n" : style >= 12 && style < 16 ? "\r\n" : "\n");
    }
    return out.str();
}

Matrix read_text(const std::string& text, io::MatrixMarketInfo* info,
                 const io::ReadOptions& options)
{
    std::istringstream in(text);
    return io::read_matrix_market(in, "test.mtx", info, options);
}

fs::path temp_file(const std::string& name)
{
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    return fs::temp_directory_path() / ("spmv_io_par_" + std::to_string(stamp) + "_" + name);
}

bool same_bits(const Matrix& a, const Matrix& b)
{
    if (a.num_rows != b.num_rows || a.num_cols != b.num_cols || a.row_ptrs != b.row_ptrs ||
        a.col_idxs != b.col_idxs || a.values.size() != b.values.size()) {
        return false;
    }
    for (std::size_t k = 0; k < a.values.size(); ++k) {
        if (std::memcmp(&a.values[k], &b.values[k], sizeof(double)) != 0) {
            return false;
        }
    }
    return true;
}

struct Split {
    unsigned threads;
    std::size_t chunk_bytes;
};

const Split splits[] = {{1, 0}, {2, 0}, {1, 1}, {2, 1}, {3, 7}, {4, 64}, {2, 1000}, {8, 4096}};

/// The message and line of the MatrixMarketError that reading `text` throws ("" if none).
std::pair<std::string, std::int64_t> error_of(const std::string& text, const Split& s)
{
    io::ReadOptions o;
    o.threads = s.threads;
    o.chunk_bytes = s.chunk_bytes;
    try {
        read_text(text, nullptr, o);
    } catch (const MatrixMarketError& e) {
        return {e.what(), e.input_line()};
    }
    return {"", -1};
}

/// Replaces 1-based line `line` of `text` by `replacement` (no newline).
std::string replace_line(const std::string& text, std::int64_t line, const std::string& with)
{
    std::size_t b = 0;
    for (std::int64_t k = 1; k < line; ++k) {
        b = text.find('\n', b) + 1;
    }
    const auto e = text.find('\n', b);
    return text.substr(0, b) + with + text.substr(e);
}

/// The 1-based number of the line holding the `k`-th entry (1-based) of a file.
std::int64_t line_of_entry(const std::string& text, std::int64_t k)
{
    std::istringstream in(text);
    std::string line;
    std::int64_t number = 0;
    bool size_seen = false;
    while (std::getline(in, line)) {
        ++number;
        const auto f = line.find_first_not_of(" \t\r");
        if (number == 1 || f == std::string::npos || line[f] == '%') {
            continue;
        }
        if (!size_seen) {
            size_seen = true;
            continue;
        }
        if (--k == 0) {
            return number;
        }
    }
    return -1;
}

}  // namespace

TEST_CASE("The parallel reader gives what a plain reference reader gives, for any chunking",
          "[io][parallel]")
{
    const Kind kinds[] = {{"real", "general"},        {"real", "symmetric"},
                          {"real", "skew-symmetric"}, {"integer", "general"},
                          {"pattern", "general"},     {"pattern", "symmetric"}};
    for (const auto order : {Order::random, Order::csr, Order::csr_repeats}) {
        for (const auto& kind : kinds) {
            for (const auto pattern_values : {io::PatternValues::ones, io::PatternValues::random}) {
                if (pattern_values == io::PatternValues::random &&
                    std::string(kind.field) != "pattern") {
                    continue;
                }
                const std::string text = generate_file(kind, 150, 3000, order, 7);
                io::ReadOptions base;
                base.pattern_values = pattern_values;
                const Reference ref = reference_read(text, base);
                INFO(kind.field << ' ' << kind.symmetry << ", order " << static_cast<int>(order));
                REQUIRE(ref.entries >= 2000);
                REQUIRE_NOTHROW(validate(ref.a));

                for (const auto& s : splits) {
                    INFO("threads " << s.threads << ", chunk bytes " << s.chunk_bytes);
                    io::ReadOptions o = base;
                    o.threads = s.threads;
                    o.chunk_bytes = s.chunk_bytes;
                    io::MatrixMarketInfo info;

                    const Matrix a = read_text(text, &info, o);

                    CHECK(same_bits(a, ref.a));
                    CHECK(info.entries == ref.entries);
                    CHECK(info.diagonal_entries == ref.diagonal);
                    CHECK(info.expanded_entries == ref.expanded);
                    CHECK(info.duplicates_summed == ref.duplicates);
                    CHECK(info.explicit_zeros == ref.zeros);
                    CHECK(info.nnz == static_cast<std::int64_t>(ref.a.values.size()));
                    CHECK(info.comments == ref.comments);
                }
            }
        }
    }
}

TEST_CASE("Reading a large file from disk in parallel equals reading it serially", "[io][parallel]")
{
    for (const auto order : {Order::random, Order::csr}) {
        // about 3 MB, read from disk (mapped) serially, with the automatic split (one chunk
        // below 4 MB) and in chunks of 100 kB on 4 threads
        const std::string text = generate_file({"real", "general"}, 20000, 160000, order, 11);
        const auto path = temp_file("large.mtx");
        {
            std::ofstream out(path, std::ios::binary);
            out << text;
        }
        io::ReadOptions serial;
        serial.threads = 1;
        io::ReadOptions parallel;
        parallel.threads = 4;
        parallel.chunk_bytes = 100000;
        io::MatrixMarketInfo info_serial, info_auto, info_parallel;
        INFO("order " << static_cast<int>(order) << ", " << text.size() << " bytes");

        const Matrix a = io::read_matrix_market(path, &info_serial, serial);
        const Matrix b = io::read_matrix_market(path, &info_auto);
        const Matrix c = io::read_matrix_market(path, &info_parallel, parallel);
        const Reference ref = reference_read(text, {});
        fs::remove(path);

        CHECK(same_bits(a, ref.a));
        CHECK(same_bits(b, ref.a));
        CHECK(same_bits(c, ref.a));
        CHECK(info_serial.duplicates_summed == ref.duplicates);
        CHECK(info_auto.duplicates_summed == ref.duplicates);
        CHECK(info_parallel.explicit_zeros == ref.zeros);
        CHECK(info_parallel.expanded_entries == ref.expanded);
    }
}

TEST_CASE("An error deep in the file names its exact line in whatever chunk it falls",
          "[io][parallel]")
{
    const std::string text = generate_file({"real", "general"}, 500, 5000, Order::random, 3);
    struct Case {
        std::int64_t entry;  // which entry line (1-based) is broken
        const char* line;
        const char* phrase;
    };
    const Case cases[] = {
        {1, "1 1 abc", "value 'abc' is not a number"},
        {4321, "3 4 abc", "value 'abc' is not a number"},
        {2500, "501 1 1.0", "row index 501 is out of range 1..500"},
        {4999, "7 0 1.0", "column index 0 is out of range 1..500"},
        {3000, "7", "truncated entry '7'"},
        {1234, "7 8", "missing value"},
        {5000, "7 8 1.0 9", "unexpected text '9' after the entry"},
        {2222, "7 8 nan", "NaN value 'nan' is not allowed"},
        {3333, "7 8 1e999", "value '1e999' is outside the range of double"},
        {4444, "1.5 8 1", "row index '1.5' is not an integer"},
    };
    for (const auto& c : cases) {
        const std::int64_t line = line_of_entry(text, c.entry);
        REQUIRE(line > 0);
        const std::string bad = replace_line(text, line, c.line);
        const std::string where = "test.mtx:" + std::to_string(line) + ": " + c.phrase;
        const std::string serial = error_of(bad, {1, 0}).first;
        for (const auto& s : splits) {
            INFO(c.line << " on line " << line << "; threads " << s.threads << ", chunk bytes "
                        << s.chunk_bytes);

            const auto [message, at] = error_of(bad, s);

            CHECK(at == line);
            CHECK(message.find(where) != std::string::npos);
            CHECK(message == serial);
        }
    }
}

TEST_CASE("The first error of the file wins, also when checks span chunks", "[io][parallel]")
{
    const std::string text = generate_file({"real", "general"}, 500, 5000, Order::random, 5);
    const std::int64_t early = line_of_entry(text, 1700);
    const std::int64_t late = line_of_entry(text, 4200);
    const std::string two_errors =
        replace_line(replace_line(text, late, "1 1 x"), early, "0 1 1.0");

    // fewer entries declared than present: the extra one is deep in the file
    std::string extra = text;
    {
        const auto size_at = extra.find("\n500 500 ") + 1;
        const auto size_end = extra.find('\n', size_at);
        extra.replace(size_at, size_end - size_at, "500 500 3999");
    }
    const std::int64_t extra_line = line_of_entry(text, 4000);
    const std::int64_t size_line = line_of_entry(text, 1) - 1;
    // more entries declared than present
    std::string short_file = text;
    {
        const auto size_at = short_file.find("\n500 500 ") + 1;
        const auto size_end = short_file.find('\n', size_at);
        short_file.replace(size_at, size_end - size_at, "500 500 9999");
    }
    const auto total_lines = static_cast<std::int64_t>(std::count(text.begin(), text.end(), '\n'));
    const std::int64_t present = reference_read(text, {}).entries;

    // a symmetric file whose upper triangle starts deep inside, after a lower one started
    std::string sym = "%%MatrixMarket matrix coordinate real symmetric\n300 300 4000\n";
    for (int k = 0; k < 4000; ++k) {
        const int i = 1 + k % 300;
        const int j = k < 2500 ? 1 + (k * 7) % i : (k == 3500 ? i + 1 : 1 + (k * 7) % i);
        if (k == 1500) {
            sym += "% the first entry below the diagonal is the next one\n";
        }
        const int row = k < 1500 ? i : (k == 1500 ? 200 : i);
        const int col = k < 1500 ? i : (k == 1500 ? 3 : j);
        sym += std::to_string(row) + " " + std::to_string(col) + " 1.5\n";
    }
    const std::int64_t first_lower = 2 + 1500 + 1 + 1;  // banner, size, 1500 diagonal, comment
    const std::int64_t first_upper = first_lower + (3500 - 1500);
    const std::string upper_phrase =
        "test.mtx:" + std::to_string(first_upper) + ": entry (" + std::to_string(1 + 3500 % 300) +
        ", " + std::to_string(2 + 3500 % 300) + ") is above the diagonal but line " +
        std::to_string(first_lower) + " has one below it";
    // a skew-symmetric file with a diagonal entry deep inside
    std::string skew = "%%MatrixMarket matrix coordinate real skew-symmetric\n300 300 3000\n";
    for (int k = 0; k < 3000; ++k) {
        const int i = 2 + k % 299;
        skew +=
            std::to_string(k == 2718 ? 5 : i) + " " + std::to_string(k == 2718 ? 5 : 1) + " -2\n";
    }

    for (const auto& s : splits) {
        INFO("threads " << s.threads << ", chunk bytes " << s.chunk_bytes);

        const auto two = error_of(two_errors, s);
        const auto ex = error_of(extra, s);
        const auto sh = error_of(short_file, s);
        const auto up = error_of(sym, s);
        const auto sk = error_of(skew, s);

        CHECK(two.second == early);
        CHECK(two.first.find("'x'") == std::string::npos);
        CHECK(two.first.find("row index 0 is out of range 1..500") != std::string::npos);
        CHECK(ex.second == extra_line);
        CHECK(ex.first.find("test.mtx:" + std::to_string(extra_line) +
                            ": extra entry: the size line (line " + std::to_string(size_line) +
                            ") declares 3999 entries") != std::string::npos);
        CHECK(sh.second == 0);
        CHECK(sh.first.find("test.mtx: file ends at line " + std::to_string(total_lines) +
                            " after " + std::to_string(present) + " of 9999 entries") !=
              std::string::npos);
        CHECK(up.second == first_upper);
        CHECK(up.first.find(upper_phrase) != std::string::npos);
        CHECK(sk.second == 2 + 2718 + 1);
        CHECK(sk.first.find("diagonal entry (5, 5) in a skew-symmetric file") != std::string::npos);
    }
}
