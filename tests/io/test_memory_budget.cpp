// The memory budget (spmv/memory.hpp) and where it is checked before allocating: the Matrix
// Market reader (a lying size line) and the generator specs (gen:NAME:key=value).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <sstream>
#include <string>

#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/memory.hpp>

namespace {

using namespace spmv;

Csr<double, std::int32_t> read_text(const std::string& text, const MemoryBudget& budget)
{
    std::istringstream in(text);
    io::ReadOptions options;
    options.memory = budget;
    return io::read_matrix_market(in, "lie.mtx", nullptr, options);
}

/// The message and the input line of a refused read.
std::string refusal(const std::string& text, const MemoryBudget& budget,
                    std::int64_t* line = nullptr)
{
    try {
        read_text(text, budget);
    } catch (const MatrixMarketError& e) {
        if (line) *line = e.input_line();
        return e.what();
    }
    FAIL("the read was not refused");
    return {};
}

bool contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

const std::string banner = "%%MatrixMarket matrix coordinate real general\n";

}  // namespace

TEST_CASE("parse_byte_size reads sizes with binary units and refuses the rest", "[memory]")
{
    CHECK(parse_byte_size("2048") == 2048u);
    CHECK(parse_byte_size("64k") == 65536u);
    CHECK(parse_byte_size("512M") == 512ull << 20);
    CHECK(parse_byte_size("512MB") == 512ull << 20);
    CHECK(parse_byte_size("1.5GiB") == 3ull << 29);
    CHECK(parse_byte_size("4g") == 4ull << 30);
    CHECK(parse_byte_size("2T") == 2ull << 40);
    for (const char* bad : {"", "0", "-1G", "G", "12Q", "1e30T", "nan", "4 G B x"}) {
        INFO(bad);
        CHECK_FALSE(parse_byte_size(bad).has_value());
    }
}

TEST_CASE("require_memory throws MemoryLimitExceeded naming the need and the limit", "[memory]")
{
    MemoryBudget b;
    b.bytes = 1 << 20;
    b.origin = "--max-memory 1M";
    b.hint = "give --max-memory SIZE to change it";
    CHECK_NOTHROW(require_memory(b, 1 << 20, "a format"));
    try {
        require_memory(b, 3 << 20, "ell of A");
        FAIL("no refusal");
    } catch (const MemoryLimitExceeded& e) {
        CHECK(e.needed() == 3u << 20);
        CHECK(e.limit() == 1u << 20);
        const std::string what = e.what();
        CHECK(contains(what, "ell of A would need 3.00 MiB; the memory limit is 1.00 MiB "
                             "(--max-memory 1M; give --max-memory SIZE to change it)"));
    }
    CHECK_NOTHROW(require_memory(MemoryBudget{}, ~std::uint64_t{0}, "anything"));  // no limit
    CHECK(format_bytes(144) == "144 B");
    CHECK(format_bytes(1.5 * (1 << 30)) == "1.50 GiB");
}

TEST_CASE("available_memory is known on Linux and the default budget is half of it", "[memory]")
{
#if defined(__linux__)
    const auto avail = available_memory();
    CHECK(avail > (std::uint64_t{16} << 20));
    const auto b = default_memory_budget(0.5);
    CHECK(b.bytes > 0);
    CHECK(b.bytes <= avail);  // available memory may only have shrunk since
    CHECK(contains(b.origin, "half of the"));
#else
    SUCCEED("available_memory is Linux-only");
#endif
}

TEST_CASE("A size line claiming 2e9 rows with one entry is refused before any allocation",
          "[io][memory]")
{
    MemoryBudget b;
    b.bytes = 200ull << 20;
    b.unconfirmed_dimension = 1 << 24;
    b.hint = "give --max-memory SIZE to change it";
    const auto t0 = std::chrono::steady_clock::now();
    std::int64_t line = 0;
    const auto rows = refusal(banner + "% a lie\n2000000000 2000000000 1\n1 1 1.0\n", b, &line);
    CHECK(line == 3);  // the size line
    CHECK(contains(rows, "lie.mtx:3: the size line declares 2000000000 x 2000000000 for 1 entry"));
    CHECK(contains(rows, "row pointers alone would need 7.45 GiB"));
    CHECK(contains(rows, "at most 16777216 rows or columns, 16 per entry, are read; give "
                         "--max-memory SIZE to change it"));
    const auto cols = refusal(banner + "1 2000000000 1\n1 1 1.0\n", b);
    CHECK(contains(cols, "1 x 2000000000 for 1 entry: its vector x alone would need 14.9 GiB"));
    // a file that cannot hold the declared entries is judged by what it can hold
    const auto lying_count = refusal(banner + "100000000 100000000 99999999\n1 1 1\n", b);
    CHECK(contains(lying_count, "for at most 2 entries"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
}

TEST_CASE("Without the dimension limit the byte limit still refuses the 2e9-row file",
          "[io][memory]")
{
    MemoryBudget b;
    b.bytes = 1ull << 30;
    b.origin = "--max-memory 1G";
    const auto what = refusal(banner + "2000000000 2000000000 1\n1 1 1.0\n", b);
    CHECK(contains(what, "reading this 2000000000 x 2000000000 matrix with 1 entry would need at "
                         "least 7.45 GiB (entries and CSR); the memory limit is 1.00 GiB "
                         "(--max-memory 1G)"));
}

TEST_CASE("Matrices within the limits read as before, empty rows included", "[io][memory]")
{
    MemoryBudget b;
    b.bytes = 64ull << 20;
    b.unconfirmed_dimension = 1000;
    // 1000 rows for 2 entries: allowed by the floor of the dimension limit
    const auto a = read_text(banner + "1000 1000 2\n1 1 2.5\n1000 3 -1\n", b);
    CHECK(a.num_rows == 1000);
    CHECK(a.num_cols == 1000);
    CHECK(a.row_ptrs.back() == 2);
    CHECK(a.values[1] == -1.0);
    // 1001 rows for 2 entries: not; 16 per entry would allow 32 + floor 1000
    CHECK(contains(refusal(banner + "1001 5 2\n1 1 2.5\n2 3 -1\n", b), "declares 1001 x 5"));
    // the same file is fine without a budget
    CHECK(read_text(banner + "1001 5 2\n1 1 2.5\n2 3 -1\n", {}).num_rows == 1001);
}

TEST_CASE("The byte limit counts the expanded entries of a symmetric file", "[io][memory]")
{
    std::string text = "%%MatrixMarket matrix coordinate real symmetric\n2000 2000 1999\n";
    for (int i = 2; i <= 2000; ++i) {
        text += std::to_string(i) + " " + std::to_string(i - 1) + " 1\n";
    }
    MemoryBudget small;
    small.bytes = 40000;  // 3998 expanded entries x 16 bytes = 64 KB at least
    CHECK(contains(refusal(text, small), "would need at least"));
    MemoryBudget enough;
    enough.bytes = 1 << 20;
    CHECK(read_text(text, enough).row_ptrs.back() == 3998);
}

TEST_CASE("A stream longer than the byte limit is refused while it is read", "[io][memory]")
{
    std::string text = banner + "3 3 1\n1 1 1\n";
    text += std::string(3 << 20, '%');  // a 3 MiB comment after the entries
    MemoryBudget b;
    b.bytes = 1 << 20;
    CHECK(contains(refusal(text, b), "more than 1.00 MiB of text"));
}

TEST_CASE("Generator specs parse with their seed, and bad ones are refused with the spec",
          "[generators][memory]")
{
    const auto s = gen::parse_spec("gen:powerlaw:rows=1000,min-len=4,seed=3");
    CHECK(s.name == "powerlaw");
    CHECK(s.seed == 3);
    REQUIRE(s.params.size() == 2);
    CHECK(s.params.at("rows") == 1000);
    CHECK(s.params.at("min-len") == 4);
    CHECK(gen::parse_spec("gen:pde").params.empty());
    CHECK(gen::parse_spec("gen:pde").seed == 1);
    const std::pair<const char*, const char*> bad[] = {
        {"pde:size=3", "does not start with 'gen:'"},
        {"gen:", "no generator name"},
        {"gen::size=3", "no generator name"},
        {"gen:pde:size", "expected key=value, got 'size'"},
        {"gen:pde:size=3,", "expected key=value, got ''"},
        {"gen:pde:=3", "expected key=value"},
        {"gen:pde:size=abc", "'abc' is not a number (key size)"},
        {"gen:pde:size=3x", "'3x' is not a number"},
        {"gen:pde:size=inf", "is not a number"},
        {"gen:pde:size=3,size=4", "key size given twice"},
        {"gen:onefull:seed=-1", "seed must be a whole number in [0, 2^53], got -1"},
        {"gen:onefull:seed=1.5", "seed must be a whole number"},
    };
    for (const auto& [spec, why] : bad) {
        INFO(spec);
        try {
            gen::parse_spec(spec);
            FAIL("accepted");
        } catch (const InvalidArgument& e) {
            CHECK(contains(e.what(), why));
        }
    }
}

TEST_CASE("estimate_bytes equals the CSR bytes of the deterministic generators",
          "[generators][memory]")
{
    auto bytes = [](const Csr<double, std::int32_t>& a) {
        return 4 * a.row_ptrs.size() + 4 * a.col_idxs.size() + 8 * a.values.size();
    };
    const std::pair<const char*, gen::GeneratorParams> exact[] = {
        {"pde", {{"size", 7}}},
        {"laplace2d", {{"nx", 9}, {"ny", 5}}},
        {"onefull", {{"n", 300}}},
        {"banded", {{"n", 500}, {"bandwidth", 3}, {"offdiags", 4}}},
        {"random", {{"rows", 200}, {"cols", 50}, {"nnz-per-row", 7}}},
    };
    for (const auto& [name, params] : exact) {
        INFO(name);
        const auto est = gen::estimate_bytes(name, params);
        const auto a = gen::generate(name, params, 1);
        // laplace2d's boundary rows are shorter: the estimate is an upper bound there
        if (std::string(name) == "laplace2d" || std::string(name) == "banded") {
            CHECK(est >= bytes(a));
            CHECK(static_cast<double>(est) <= 1.35 * static_cast<double>(bytes(a)));
        } else if (std::string(name) == "random") {
            CHECK(est >= bytes(a));  // plus the sampler's scratch
            CHECK(est - bytes(a) <= 4 * 7);
        } else {
            CHECK(est == bytes(a));
        }
    }
    // random structure: the expected size, within a few percent at these sizes
    for (const auto& [name, params] :
         {std::pair<const char*, gen::GeneratorParams>{"powerlaw", {{"rows", 20000}}},
          {"blocks5", {{"block-rows", 4000}, {"blocks", 6}}}}) {
        INFO(name);
        const auto est = static_cast<double>(gen::estimate_bytes(name, params));
        const auto real = static_cast<double>(bytes(gen::generate(name, params, 1)));
        CHECK(est == Approx(real).epsilon(0.05));
    }
    // the power law's mean over a range of 2^31 lengths is estimated without a 2^31 loop
    const auto t0 = std::chrono::steady_clock::now();
    const auto huge = gen::estimate_bytes(
        "powerlaw", {{"rows", 2000000000}, {"max-len", 2000000000}, {"min-len", 1}});
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
    CHECK(huge > (std::uint64_t{20} << 30));  // 8 GB of row pointers, 16 GB of weights, ...
}

TEST_CASE("A generator spec over the budget is refused before it is built",
          "[generators][memory]")
{
    MemoryBudget b;
    b.bytes = 1 << 20;
    b.origin = "test";
    try {
        gen::generate(gen::parse_spec("gen:onefull:n=1000000"), b);
        FAIL("no refusal");
    } catch (const MemoryLimitExceeded& e) {
        CHECK(contains(e.what(), "generating gen:onefull:n=1000000 (its CSR) would need 26.7 MiB; "
                                 "the memory limit is 1.00 MiB (test)"));
    }
    CHECK(gen::generate(gen::parse_spec("gen:onefull:n=1000"), b).num_rows == 1000);
}
