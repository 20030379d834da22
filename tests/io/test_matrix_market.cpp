#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/io/matrix_market.hpp>

#include "skip.hpp"
#include "test_matrices.hpp"

using namespace spmv;
namespace fs = std::filesystem;

namespace {

using Matrix = Csr<double, std::int32_t>;

Matrix parse(const std::string& text, io::MatrixMarketInfo* info = nullptr,
             const io::ReadOptions& options = {})
{
    std::istringstream in(text);
    return io::read_matrix_market(in, "test.mtx", info, options);
}

std::string write(const Matrix& a, const io::WriteOptions& options = {})
{
    std::ostringstream out;
    io::write_matrix_market(out, a, options);
    return out.str();
}

/// The message of the MatrixMarketError that reading `text` throws ("" if none).
std::string parse_error(const std::string& text, std::int64_t* line = nullptr)
{
    try {
        parse(text);
    } catch (const MatrixMarketError& e) {
        if (line) {
            *line = e.input_line();
        }
        return e.what();
    }
    return "";
}

/// A(i, j) or 0 (absent), by binary search.
double at(const Matrix& a, std::int32_t i, std::int32_t j)
{
    for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
        if (a.col_idxs[k] == j) {
            return a.values[k];
        }
    }
    return 0.0;
}

bool has(const Matrix& a, std::int32_t i, std::int32_t j)
{
    for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
        if (a.col_idxs[k] == j) {
            return true;
        }
    }
    return false;
}

fs::path temp_file(const std::string& name)
{
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    return fs::temp_directory_path() / ("spmv_io_test_" + std::to_string(stamp) + "_" + name);
}

}  // namespace

TEST_CASE("Matrix Market write then read gives back the same matrix exactly", "[io]")
{
    auto a = test::canonical4();
    a.values = {1.0 / 3.0, -2.5e-300, 4e-320, 1e300, -0.1, 6, 7, 8, 0.0};  // subnormal, explicit 0
    const auto b = test::random_csr(70, 45, 0, 12, 7);
    io::WriteOptions shortest;
    shortest.precision = 0;

    const auto text = write(a);
    const auto a2 = parse(text);
    const auto b2 = parse(write(b));
    const auto b3 = parse(write(b, shortest));

    CHECK(a2 == a);
    CHECK(b2 == b);
    CHECK(b3 == b);
    CHECK(text.rfind("%%MatrixMarket matrix coordinate real general\n4 4 9\n"
                     "1 1 0.33333333333333331\n1 3 -2.5e-300\n1 4 3.999955468730732e-320\n",
                     0) == 0);
}

TEST_CASE("Matrix Market round trip through a file on disk, with a comment", "[io]")
{
    const auto a = test::canonical4();
    const auto path = temp_file("canonical4.mtx");

    io::WriteOptions options;
    options.comment = "canonical 4x4\nsecond line";
    io::write_matrix_market(path, a, options);
    io::MatrixMarketInfo info;
    const auto back = io::read_matrix_market(path, &info);
    fs::remove(path);

    CHECK(back == a);
    CHECK(info.comments == std::vector<std::string>{" canonical 4x4", " second line"});
    CHECK(info.rows == 4);
    CHECK(info.entries == 9);
    CHECK(info.nnz == 9);
}

TEST_CASE("A symmetric file is expanded to both triangles", "[io]")
{
    // A = [2 -1 0; -1 0 -1.5; 0 -1.5 4], lower triangle stored (column-major, as SuiteSparse).
    const std::string lower =
        "%%MatrixMarket matrix coordinate real symmetric\n"
        "3 3 4\n1 1 2.0\n2 1 -1.0\n3 2 -1.5\n3 3 4.0\n";
    const std::string upper =
        "%%MatrixMarket matrix coordinate real symmetric\n"
        "3 3 4\n3 3 4.0\n2 3 -1.5\n1 2 -1.0\n1 1 2.0\n";
    io::MatrixMarketInfo info;

    const auto a = parse(lower, &info);
    const auto b = parse(upper);

    CHECK(a.row_ptrs == std::vector<std::int32_t>{0, 2, 4, 6});
    CHECK(a.col_idxs == std::vector<std::int32_t>{0, 1, 0, 2, 1, 2});
    CHECK(a.values == std::vector<double>{2, -1, -1, -1.5, -1.5, 4});
    CHECK(b == a);
    CHECK(info.symmetry == io::Symmetry::symmetric);
    CHECK(info.entries == 4);
    CHECK(info.diagonal_entries == 2);
    CHECK(info.expanded_entries == 6);
    CHECK(info.nnz == 6);
    CHECK(info.duplicates_summed == 0);
    CHECK(info.explicit_zeros == 0);
}

TEST_CASE("A skew-symmetric file is expanded with a_ji = -a_ij", "[io]")
{
    // A = [0 -3 2; 3 0 0; -2 0 0]
    const std::string text =
        "%%MatrixMarket matrix coordinate real skew-symmetric\n"
        "3 3 2\n2 1 3.0\n3 1 -2.0\n";
    io::MatrixMarketInfo info;

    const auto a = parse(text, &info);

    CHECK(a.row_ptrs == std::vector<std::int32_t>{0, 2, 3, 4});
    CHECK(a.col_idxs == std::vector<std::int32_t>{1, 2, 0, 0});
    CHECK(a.values == std::vector<double>{-3, 2, 3, -2});
    CHECK(info.symmetry == io::Symmetry::skew_symmetric);
    CHECK(info.expanded_entries == 4);
}

TEST_CASE("Pattern files get 1.0 or a reproducible value that ignores entry order", "[io]")
{
    const std::string general =
        "%%MatrixMarket matrix coordinate pattern general\n"
        "2 3 3\n1 1\n2 3\n1 3\n";
    const std::string sym1 =
        "%%MatrixMarket matrix coordinate pattern symmetric\n"
        "4 4 4\n2 1\n4 1\n3 3\n4 2\n";
    const std::string sym2 =
        "%%MatrixMarket matrix coordinate pattern symmetric\n"
        "4 4 4\n4 2\n3 3\n4 1\n2 1\n";
    io::ReadOptions random;
    random.pattern_values = io::PatternValues::random;
    io::ReadOptions other_seed = random;
    other_seed.pattern_seed = 99;
    io::MatrixMarketInfo info;

    const auto ones = parse(general, &info);
    const auto r1 = parse(sym1, nullptr, random);
    const auto r2 = parse(sym2, nullptr, random);
    const auto r3 = parse(sym1, nullptr, other_seed);

    CHECK(info.field == io::Field::pattern);
    CHECK(ones.row_ptrs == std::vector<std::int32_t>{0, 2, 3});
    CHECK(ones.col_idxs == std::vector<std::int32_t>{0, 2, 2});
    CHECK(ones.values == std::vector<double>{1, 1, 1});
    CHECK(r1 == r2);  // same entries in another order: same values
    CHECK(r1.values != r3.values);
    CHECK(at(r1, 0, 1) == at(r1, 1, 0));
    CHECK(at(r1, 3, 1) == at(r1, 1, 3));
    CHECK(at(r1, 3, 0) == io::pattern_value(3, 0, random.pattern_seed));
    CHECK(at(r1, 2, 2) == io::pattern_value(2, 2, random.pattern_seed));
    for (double v : r1.values) {
        CHECK(v > 0.0);
        CHECK(v <= 1.0);
    }
    CHECK(at(r1, 0, 1) != at(r1, 1, 3));
}

TEST_CASE("Integer files are read exactly as doubles", "[io]")
{
    const std::string text =
        "%%MatrixMarket matrix coordinate integer general\n"
        "2 2 3\n1 1 7\n2 1 -3\n2 2 +9007199254740992\n";
    io::MatrixMarketInfo info;

    const auto a = parse(text, &info);

    CHECK(info.field == io::Field::integer);
    CHECK(a.values == std::vector<double>{7, -3, 9007199254740992.0});
}

TEST_CASE("Duplicates are summed in file order and explicit zeros are kept and counted", "[io]")
{
    const std::string text =
        "%%MatrixMarket matrix coordinate real general\n"
        "2 2 5\n1 1 1.5\n2 2 0.0\n1 1 2.5\n1 2 1.0\n1 2 -1.0\n";
    const std::string sym =
        "%%MatrixMarket matrix coordinate real symmetric\n"
        "2 2 3\n2 1 1.0\n2 2 3.0\n2 1 2.0\n";
    io::MatrixMarketInfo info;
    io::MatrixMarketInfo sym_info;

    const auto a = parse(text, &info);
    const auto s = parse(sym, &sym_info);

    CHECK(a.row_ptrs == std::vector<std::int32_t>{0, 2, 3});
    CHECK(a.col_idxs == std::vector<std::int32_t>{0, 1, 1});
    CHECK(a.values == std::vector<double>{4.0, 0.0, 0.0});
    CHECK(info.entries == 5);
    CHECK(info.expanded_entries == 5);
    CHECK(info.duplicates_summed == 2);
    CHECK(info.explicit_zeros == 2);
    CHECK(info.nnz == 3);
    CHECK(s.values == std::vector<double>{3.0, 3.0, 3.0});  // (2,1)+(2,1) mirrored, then (2,2)
    CHECK(sym_info.expanded_entries == 5);
    CHECK(sym_info.duplicates_summed == 2);
    CHECK(sym_info.nnz == 3);
}

TEST_CASE("The reader accepts comments, blank lines, CRLF, tabs and Fortran-style numbers", "[io]")
{
    const std::string text =
        "\xEF\xBB\xBF%%matrixmarket MATRIX Coordinate Real General  \r\n"
        "% comment\r\n"
        "\r\n"
        "  %indented comment\n"
        "3 4 3   \n"
        "\n"
        "1\t1\t.5E+01\r\n"
        "% comment between entries\n"
        "  3 4 +2\n"
        "2 2 -1.25e-3";  // no final newline
    io::MatrixMarketInfo info;

    const auto a = parse(text, &info);

    CHECK(a.num_rows == 3);
    CHECK(a.num_cols == 4);
    CHECK(a.row_ptrs == std::vector<std::int32_t>{0, 1, 2, 3});
    CHECK(a.col_idxs == std::vector<std::int32_t>{0, 1, 3});
    CHECK(a.values == std::vector<double>{5.0, -1.25e-3, 2.0});
    CHECK(info.comments == std::vector<std::string>{" comment", "indented comment"});
}

TEST_CASE("Empty matrices and underflowing values are read", "[io]")
{
    const auto empty = parse("%%MatrixMarket matrix coordinate real general\n0 0 0\n");
    const auto no_entries = parse("%%MatrixMarket matrix coordinate real general\n3 2 0\n");
    const auto tiny = parse("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1e-400\n");

    CHECK(empty == Matrix{});
    CHECK(no_entries.row_ptrs == std::vector<std::int32_t>{0, 0, 0, 0});
    CHECK(no_entries.num_cols == 2);
    CHECK(tiny.values == std::vector<double>{0.0});
}

TEST_CASE("Every malformed file fails with its line number and a meaningful message", "[io]")
{
    struct Case {
        const char* file;
        std::int64_t line;  // 0: the error is not tied to one line
        const char* phrase;
    };
    const Case cases[] = {
        {"empty.mtx", 0, "empty input"},
        {"no_banner.mtx", 1, "missing Matrix Market banner"},
        {"bad_object.mtx", 1, "unsupported object 'vector'"},
        {"array_format.mtx", 1, "array format not supported"},
        {"complex_field.mtx", 1, "complex field not supported"},
        {"hermitian.mtx", 1, "hermitian symmetry not supported"},
        {"incomplete_banner.mtx", 1, "incomplete banner"},
        {"pattern_skew.mtx", 1, "not a valid Matrix Market type"},
        {"bad_size_line.mtx", 4, "bad size line '3 3'"},
        {"negative_size.mtx", 2, "negative number of rows (-3)"},
        {"too_large_dims.mtx", 3, "3000000000 rows exceed 2147483647"},
        {"too_many_entries_declared.mtx", 2, "declares 3000000000 entries"},
        {"too_few_entries.mtx", 0, "file ends at line 5 after 2 of 4 entries"},
        {"extra_entry.mtx", 5, "extra entry: the size line (line 2) declares 2 entries"},
        {"row_out_of_range.mtx", 5, "row index 4 is out of range 1..3"},
        {"col_zero.mtx", 5, "column index 0 is out of range 1..3"},
        {"bad_index.mtx", 3, "row index '1.5' is not an integer"},
        {"non_numeric_value.mtx", 4, "value 'abc' is not a number"},
        {"missing_value.mtx", 4, "missing value"},
        {"truncated_entry.mtx", 4, "truncated entry '3'"},
        {"trailing_garbage.mtx", 4, "unexpected text '7.5' after the entry"},
        {"pattern_with_value.mtx", 4,
         "'3.0' after the entry (a pattern entry is 'row col'): "
         "the file holds values although its banner says 'pattern'"},
        {"nan_value.mtx", 4, "NaN value 'nan' is not allowed"},
        {"inf_value.mtx", 4, "infinite value '-inf' is not allowed"},
        {"value_overflow.mtx", 3, "value '1e999' is outside the range of double"},
        {"integer_not_integer.mtx", 4, "value '2.5' is not an integer"},
        {"skew_diagonal.mtx", 4, "diagonal entry (2, 2) in a skew-symmetric file"},
        {"symmetric_not_square.mtx", 2, "must be square, but the size line says 3 x 4"},
        {"symmetric_both_triangles.mtx", 5, "line 3 has one below it"},
    };
    const fs::path dir = fs::path(SPMV_SOURCE_DIR) / "tests" / "io" / "malformed";
    std::size_t files_on_disk = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        files_on_disk += entry.path().extension() == ".mtx" ? 1 : 0;
    }
    CHECK(files_on_disk == std::size(cases));  // every file of the corpus has its case

    for (const auto& c : cases) {
        INFO(c.file);
        const auto path = dir / c.file;
        REQUIRE(fs::exists(path));
        std::string message;
        std::int64_t line = -1;
        try {
            io::read_matrix_market(path);
        } catch (const MatrixMarketError& e) {
            message = e.what();
            line = e.input_line();
        }
        INFO(message);
        CHECK(line == c.line);
        std::string where = path.string();
        if (c.line > 0) {
            where += ':';
            where += std::to_string(c.line);
        }
        where += ": ";
        CHECK(message.find(where) != std::string::npos);
        CHECK(message.find(c.phrase) != std::string::npos);
    }
}

TEST_CASE("Missing files and directories are reported, not crashed on", "[io]")
{
    const fs::path missing = temp_file("does_not_exist.mtx");
    const fs::path dir = fs::temp_directory_path();

    CHECK_THROWS_WITH(io::read_matrix_market(missing),
                      Catch::Contains("does_not_exist.mtx: cannot open: file not found"));
    CHECK_THROWS_WITH(io::read_matrix_market(dir), Catch::Contains("is a directory"));
    CHECK_THROWS_AS(io::read_matrix_market(missing), MatrixMarketError);
}

TEST_CASE("Errors inside the text are located on their line", "[io]")
{
    std::int64_t line = -1;
    const std::string head = "%%MatrixMarket matrix coordinate real general\n% c\n2 2 2\n";

    const auto msg = parse_error(head + "1 1 1\n\n2 2 1x\n", &line);
    const auto trunc = parse_error(head + "1 1 1\n");
    const auto size_garbage =
        parse_error("%%MatrixMarket matrix coordinate real general\n2 2 1 x\n");
    const auto zero_dim = parse_error("%%MatrixMarket matrix coordinate real general\n0 3 2\n");
    const auto huge_index = parse_error(head + "99999999999999999999 1 1\n2 2 1\n");
    const auto no_size = parse_error("%%MatrixMarket matrix coordinate real general\n% only\n");

    CHECK(line == 6);
    CHECK(msg.find("test.mtx:6: value '1x' is not a number") != std::string::npos);
    CHECK(trunc.find("test.mtx: file ends at line 4 after 1 of 2 entries") != std::string::npos);
    CHECK(size_garbage.find("test.mtx:2: unexpected text 'x' after the size line") !=
          std::string::npos);
    CHECK(zero_dim.find("a 0 x 3 matrix cannot hold 2 entries") != std::string::npos);
    CHECK(huge_index.find("test.mtx:4: row index 99999999999999999999 is out of range") !=
          std::string::npos);
    CHECK(no_size.find("file ends at line 2 before the size line") != std::string::npos);
}

TEST_CASE("A header that declares many entries does not make the reader allocate them", "[io]")
{
    const std::string text =
        "%%MatrixMarket matrix coordinate real symmetric\n2000000000 2000000000 2000000000\n"
        "1 1 1\n";

    const auto msg = parse_error(text);

    CHECK(msg.find("file ends at line 3 after 1 of 2000000000 entries") != std::string::npos);
}

TEST_CASE("write_matrix_market writes symmetric and pattern files and refuses bad input", "[io]")
{
    // S = [2 -1 0; -1 3 5; 0 5 0]
    Matrix s;
    s.num_rows = s.num_cols = 3;
    s.row_ptrs = {0, 2, 5, 6};
    s.col_idxs = {0, 1, 0, 1, 2, 1};
    s.values = {2, -1, -1, 3, 5, 5};
    auto nan = test::canonical4();
    nan.values[4] = std::nan("");

    io::WriteOptions symmetric;
    symmetric.symmetric = true;
    io::WriteOptions pattern_only;
    pattern_only.pattern = true;
    io::WriteOptions bad_precision;
    bad_precision.precision = -1;

    const auto sym_text = write(s, symmetric);
    const auto pattern_text = write(test::canonical4(), pattern_only);
    io::MatrixMarketInfo info;
    const auto back = parse(sym_text, &info);
    const auto pattern = parse(pattern_text);

    CHECK(sym_text ==
          "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n"
          "1 1 2\n2 1 -1\n2 2 3\n3 2 5\n");
    CHECK(back == s);
    CHECK(info.entries == 4);
    CHECK(pattern_text.rfind("%%MatrixMarket matrix coordinate pattern general\n4 4 9\n1 1\n1 3\n",
                             0) == 0);
    CHECK(pattern.col_idxs == test::canonical4().col_idxs);
    CHECK(pattern.values == std::vector<double>(9, 1.0));
    CHECK_THROWS_WITH(write(test::canonical4(), symmetric),
                      Catch::Contains("not symmetric at (1, 3)"));
    CHECK_THROWS_WITH(write(nan), Catch::Contains("not finite"));
    CHECK_THROWS_AS(write(s, bad_precision), InvalidArgument);
    CHECK_THROWS_AS(io::write_matrix_market(fs::path("/nonexistent_dir/x.mtx"), s), Error);
}

// ---------------------------------------------------------------------------------------------
// Real files from /work/shared/matrices (beside the clone in CI), checked against an
// independent slow reader (iostream >> per token, csr_from_triplets).

namespace {

struct Header {
    std::string field, symmetry;
    std::int64_t rows = 0, cols = 0, entries = 0, diagonal = 0;
};

/// Straightforward, independent reading of a Matrix Market file (trusted input only).
Matrix slow_read(const fs::path& path, Header& h)
{
    std::ifstream in(path);
    std::string line, word;
    std::getline(in, line);
    std::istringstream banner(line);
    banner >> word >> word >> word >> h.field >> h.symmetry;
    while (std::getline(in, line) && (line.empty() || line[0] == '%')) {
    }
    std::istringstream(line) >> h.rows >> h.cols >> h.entries;
    std::vector<std::int32_t> r, c;
    std::vector<double> v;
    for (std::int64_t k = 0; k < h.entries; ++k) {
        std::int64_t i = 0, j = 0;
        double x = 1.0;
        in >> i >> j;
        if (h.field != "pattern") {
            in >> x;
        }
        h.diagonal += i == j ? 1 : 0;
        r.push_back(static_cast<std::int32_t>(i - 1));
        c.push_back(static_cast<std::int32_t>(j - 1));
        v.push_back(x);
        if (h.symmetry != "general" && i != j) {
            r.push_back(static_cast<std::int32_t>(j - 1));
            c.push_back(static_cast<std::int32_t>(i - 1));
            v.push_back(h.symmetry == "skew-symmetric" ? -x : x);
        }
    }
    return csr_from_triplets<double, std::int32_t>(static_cast<std::int32_t>(h.rows),
                                                   static_cast<std::int32_t>(h.cols), r, c, v);
}

fs::path shared_matrices()
{
    return fs::path(SPMV_SHARED_MATRICES);
}

}  // namespace

TEST_CASE("bcsstk01 (symmetric) expands to 2*entries - diagonal nonzeros", "[io][shared]")
{
    const auto path = shared_matrices() / "bcsstk01.mtx";
    if (!fs::exists(path)) {
        SPMV_SKIP(path.string() << " not found (no shared matrices beside the clone)");
    }
    Header h;
    const auto expected = slow_read(path, h);
    io::MatrixMarketInfo info;

    const auto a = io::read_matrix_market(path, &info);

    REQUIRE_NOTHROW(validate(a));
    CHECK(h.rows == 48);
    CHECK(h.entries == 224);
    CHECK(a.num_rows == 48);
    CHECK(info.entries == 224);
    CHECK(info.diagonal_entries == h.diagonal);
    CHECK(nnz(a) == 2 * 224 - h.diagonal);
    CHECK(info.expanded_entries == 2 * 224 - h.diagonal);
    CHECK(a == expected);
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            CHECK(at(a, a.col_idxs[k], i) == a.values[k]);
        }
    }
}

TEST_CASE("Every shared matrix reads like an independent reader reads it", "[io][shared]")
{
    const auto dir = shared_matrices();
    if (!fs::is_directory(dir)) {
        SPMV_SKIP(dir.string() << " not found (no shared matrices beside the clone)");
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() == ".mtx") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    CHECK(files.size() > 10);
    int compared = 0;
    for (const auto& path : files) {
        INFO(path.string());
        Header h;
        {
            std::ifstream in(path);
            std::string banner, line;
            std::getline(in, banner);
            if (banner.find("complex") != std::string::npos) {
                CHECK_THROWS_WITH(io::read_matrix_market(path),
                                  Catch::Contains("complex field not supported"));
                continue;
            }
            while (std::getline(in, line) && (line.empty() || line[0] == '%')) {
            }
            std::getline(in, line);  // first entry
            std::istringstream tokens(line);
            std::string token;
            int count = 0;
            while (tokens >> token) {
                ++count;
            }
            if (banner.find("pattern") != std::string::npos && count == 3) {  // e.g. Ragusa16
                CHECK_THROWS_WITH(io::read_matrix_market(path),
                                  Catch::Contains("holds values although its banner says "
                                                  "'pattern'"));
                continue;
            }
        }
        io::MatrixMarketInfo info;
        const auto a = io::read_matrix_market(path, &info);
        REQUIRE_NOTHROW(validate(a));
        if (fs::file_size(path) < 2'000'000) {
            const auto expected = slow_read(path, h);
            CHECK(a == expected);
            CHECK(info.rows == h.rows);
            CHECK(info.cols == h.cols);
            CHECK(info.entries == h.entries);
            CHECK(info.diagonal_entries == h.diagonal);
            ++compared;
        }
        CHECK(info.nnz == nnz(a));
        CHECK(info.nnz == info.expanded_entries - info.duplicates_summed);
        if (info.symmetry != io::Symmetry::general) {
            CHECK(info.expanded_entries == 2 * info.entries - info.diagonal_entries);
        }
    }
    CHECK(compared > 10);
    CHECK(has(io::read_matrix_market(dir / "can_24.mtx"), 0, 0));
}

TEST_CASE("Compressed files are named as such, not reported as a missing banner", "[io]")
{
    const auto path = temp_file("compressed.mtx.gz");
    {
        std::ofstream f(path, std::ios::binary);
        const unsigned char gz[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03};
        f.write(reinterpret_cast<const char*>(gz), sizeof gz);
    }

    // with libarchive this header-only gzip is read and found truncated; without it, refused
    // (tests/io/test_compressed_input.cpp tests compressed input as such)
    CHECK_THROWS_WITH(io::read_matrix_market(path),
                      Catch::Contains("gzip") && !Catch::Contains("missing Matrix Market banner") &&
                          (io::have_compressed_input()
                               ? Catch::Contains("truncated")
                               : Catch::Contains("decompress it first")));
    fs::remove(path);
}

TEST_CASE("A device that never ends is refused after its first block", "[io]")
{
    if (!fs::exists("/dev/zero")) {
        SPMV_SKIP("/dev/zero does not exist here");
    }
    const auto t0 = std::chrono::steady_clock::now();

    CHECK_THROWS_WITH(io::read_matrix_market("/dev/zero"), Catch::Contains("missing Matrix Market banner"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
}

TEST_CASE("A loop of symbolic links is reported as such, not as a missing file", "[io]")
{
    const auto a = temp_file("loop_a.mtx");
    const auto b = temp_file("loop_b.mtx");
    fs::remove(a);
    fs::remove(b);
    fs::create_symlink(b, a);
    fs::create_symlink(a, b);

    CHECK_THROWS_WITH(io::read_matrix_market(a), Catch::Contains("symbolic links"));
    fs::remove(a);
    fs::remove(b);
}

TEST_CASE("Spaces before the banner on line 1 are still accepted from a file", "[io]")
{
    const auto path = temp_file("lead.mtx");
    {
        std::ofstream f(path);
        f << "  %%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2.5\n";
    }

    const auto a = io::read_matrix_market(path);

    CHECK(a.values == std::vector<double>{2.5});
    fs::remove(path);
}
