// Matrix Market input as it is distributed: .mtx.gz/.bz2/.xz, SuiteSparse .tar.gz archives and
// the standard input. The compressed files are made here from plain ones with the gzip, bzip2,
// xz and tar programs (no binaries in the tree); the reference is always the plain file.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
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

/// A fresh directory of its own for each test case.
fs::path temp_dir(const std::string& name)
{
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    const auto dir = fs::temp_directory_path() /
                     ("spmv_compressed_" + std::to_string(stamp) + "_" + name);
    fs::create_directories(dir);
    return dir;
}

bool have_program(const char* name)
{
    return std::system(("command -v " + std::string(name) + " >/dev/null 2>&1").c_str()) == 0;
}

void sh(const std::string& cmd)
{
    INFO(cmd);
    REQUIRE(std::system(cmd.c_str()) == 0);
}

void write_text(const fs::path& p, const std::string& text)
{
    std::ofstream f(p, std::ios::binary);
    f << text;
}

std::string read_error(const fs::path& p, const io::ReadOptions& options = {})
{
    try {
        io::read_matrix_market(p, nullptr, options);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

/// A SuiteSparse-like file: the collection's header, then an unsorted symmetric matrix.
const std::string suitesparse_text =
    "%%MatrixMarket matrix coordinate real symmetric\n"
    "%-------------------------------------------------------------------------------\n"
    "% UF Sparse Matrix Collection, Tim Davis\n"
    "% name: HB/tiny5\n"
    "% [a small test matrix]\n"
    "% id: 4242\n"
    "%-------------------------------------------------------------------------------\n"
    "5 5 8\n"
    "1 1 4\n"
    "2 1 -1\n"
    "2 2 4\n"
    "3 2 -1\n"
    "3 3 4\n"
    "5 4 -1.5\n"
    "4 4 4\n"
    "5 5 4\n";

const std::string rhs_text =
    "%%MatrixMarket matrix array real general\n"  // Name_b.mtx: dense, unreadable here
    "5 1\n1\n2\n3\n4\n5\n";

bool tools_missing()
{
    return !io::have_compressed_input() || !have_program("gzip") || !have_program("bzip2") ||
           !have_program("xz") || !have_program("tar");
}

}  // namespace

TEST_CASE("Compressed streams read as the plain file: gzip, bzip2, xz", "[io][compressed]")
{
    if (tools_missing()) {
        SPMV_SKIP("no libarchive in this build, or no gzip/bzip2/xz/tar program");
    }
    const auto dir = temp_dir("streams");
    const auto plain = dir / "tiny5.mtx";
    write_text(plain, suitesparse_text);
    io::MatrixMarketInfo ref_info;
    const Matrix ref = io::read_matrix_market(plain, &ref_info);
    REQUIRE(ref.num_rows == 5);
    REQUIRE(nnz(ref) == 11);  // 8 entries, 5 on the diagonal: 5 + 2 * 3
    CHECK(ref_info.collection_name == "HB/tiny5");
    CHECK(ref_info.collection_id == 4242);
    CHECK(ref_info.compression.empty());

    for (const auto& [tool, ext, kind] :
         std::vector<std::tuple<std::string, std::string, std::string>>{
             {"gzip", ".gz", "gzip"}, {"bzip2", ".bz2", "bzip2"}, {"xz", ".xz", "xz"}}) {
        SECTION(kind)
        {
            // a misleading name: detection is by content
            const auto packed = dir / ("tiny5" + ext + ".data");
            sh(tool + " -c " + plain.string() + " > " + packed.string());
            io::MatrixMarketInfo info;
            io::ReadOptions small_chunks;  // many chunks on several threads, as for big files
            small_chunks.threads = 3;
            small_chunks.chunk_bytes = 16;
            const Matrix a = io::read_matrix_market(packed, &info, small_chunks);
            CHECK(a == ref);
            CHECK(info.compression == kind);
            CHECK(info.archive_member.empty());
            CHECK(info.entries == ref_info.entries);
            CHECK(info.nnz == ref_info.nnz);
            CHECK(info.comments == ref_info.comments);
            CHECK(info.collection_name == "HB/tiny5");
            CHECK(info.collection_id == 4242);
        }
    }
    fs::remove_all(dir);
}

TEST_CASE("A SuiteSparse .tar.gz gives Name/Name.mtx, or the member named after ':'",
          "[io][compressed]")
{
    if (tools_missing()) {
        SPMV_SKIP("no libarchive in this build, or no gzip/bzip2/xz/tar program");
    }
    const auto dir = temp_dir("tar");
    fs::create_directories(dir / "tiny5");
    // the collection's own header names HB/tiny5; a member path alone gives the name only
    write_text(dir / "tiny5" / "tiny5.mtx", suitesparse_text);
    write_text(dir / "tiny5" / "tiny5_b.mtx", rhs_text);
    auto canonical = test::canonical4();
    io::write_matrix_market(dir / "tiny5" / "tiny5_coord.mtx", canonical);
    // tar puts tiny5_b.mtx and tiny5_coord.mtx first: the rule must not take the first member
    sh("cd " + dir.string() + " && tar czf tiny5.tar.gz tiny5/tiny5_b.mtx tiny5/tiny5_coord.mtx "
                              "tiny5/tiny5.mtx");
    const Matrix ref = io::read_matrix_market(dir / "tiny5" / "tiny5.mtx");

    io::MatrixMarketInfo info;
    const Matrix a = io::read_matrix_market(dir / "tiny5.tar.gz", &info);
    CHECK(a == ref);
    CHECK(info.compression == "gzip");
    CHECK(info.archive_member == "tiny5/tiny5.mtx");
    CHECK(info.collection_name == "HB/tiny5");  // from "% name:", more than the member says

    // archive:MEMBER, by file name or by path
    io::MatrixMarketInfo coord_info;
    CHECK(io::read_matrix_market(dir.string() + "/tiny5.tar.gz:tiny5_coord.mtx", &coord_info) ==
          canonical);
    CHECK(coord_info.archive_member == "tiny5/tiny5_coord.mtx");
    CHECK(coord_info.collection_name.empty());  // not Name/Name.mtx, no "% name:" line
    io::ReadOptions by_option;
    by_option.archive_member = "tiny5/tiny5_coord.mtx";
    CHECK(io::read_matrix_market(dir / "tiny5.tar.gz", nullptr, by_option) == canonical);
    // the dense right-hand side is a member too, and says why it cannot be read
    CHECK_THAT(read_error(dir.string() + "/tiny5.tar.gz:tiny5_b.mtx"),
               Catch::Contains("tiny5.tar.gz:tiny5/tiny5_b.mtx:1: array format not supported"));
    CHECK_THAT(read_error(dir.string() + "/tiny5.tar.gz:nothing.mtx"),
               Catch::Contains("no member 'nothing.mtx'") && Catch::Contains("tiny5/tiny5.mtx"));

    // header only: the size line's numbers, without the entries
    const auto h = io::read_matrix_market_header(dir / "tiny5.tar.gz");
    CHECK(h.rows == 5);
    CHECK(h.cols == 5);
    CHECK(h.entries == 8);
    CHECK(h.nnz == 0);
    CHECK(h.symmetry == io::Symmetry::symmetric);
    CHECK(h.archive_member == "tiny5/tiny5.mtx");

    // an archive without "% name:" gets Group/Name from Group/Name/Name.mtx
    fs::create_directories(dir / "Grp" / "canon");
    io::write_matrix_market(dir / "Grp" / "canon" / "canon.mtx", canonical);
    sh("cd " + dir.string() + " && tar cJf canon.tar.xz Grp/canon/canon.mtx && "
                              "tar cf canon.tar Grp/canon/canon.mtx");
    io::MatrixMarketInfo canon_info;
    CHECK(io::read_matrix_market(dir / "canon.tar.xz", &canon_info) == canonical);
    CHECK(canon_info.collection_name == "Grp/canon");
    CHECK(canon_info.compression == "xz");
    io::MatrixMarketInfo tar_info;
    CHECK(io::read_matrix_market(dir / "canon.tar", &tar_info) == canonical);  // uncompressed tar
    CHECK(tar_info.compression.empty());
    CHECK(tar_info.archive_member == "Grp/canon/canon.mtx");
    fs::remove_all(dir);
}

TEST_CASE("Archives with no matrix or several are refused with their members listed",
          "[io][compressed]")
{
    if (tools_missing()) {
        SPMV_SKIP("no libarchive in this build, or no gzip/bzip2/xz/tar program");
    }
    const auto dir = temp_dir("ambiguous");
    fs::create_directories(dir / "a");
    fs::create_directories(dir / "b");
    io::write_matrix_market(dir / "a" / "a.mtx", test::canonical4());
    io::write_matrix_market(dir / "b" / "b.mtx", test::canonical4());
    write_text(dir / "a" / "notes.txt", "not a matrix\n");
    sh("cd " + dir.string() + " && tar czf two.tar.gz a/a.mtx b/b.mtx && "
                              "tar czf none.tar.gz a/notes.txt && tar czf one.tar.gz b/b.mtx "
                              "a/notes.txt");

    CHECK_THAT(read_error(dir / "two.tar.gz"),
               Catch::Contains("two.tar.gz: the archive holds several matrices (a/a.mtx, b/b.mtx)") &&
                   Catch::Contains("two.tar.gz:a.mtx"));
    CHECK(io::read_matrix_market(dir.string() + "/two.tar.gz:b/b.mtx") == test::canonical4());
    CHECK_THAT(read_error(dir / "none.tar.gz"),
               Catch::Contains("none.tar.gz: the gzip-compressed tar archive holds no .mtx member"));
    CHECK(io::read_matrix_market(dir / "one.tar.gz") == test::canonical4());
    // a member asked of a plain file
    CHECK_THAT(read_error(dir.string() + "/a/a.mtx:x.mtx"),
               Catch::Contains("a plain Matrix Market file, not an archive"));
    fs::remove_all(dir);
}

TEST_CASE("Damaged compressed input gives a clear error, never a crash or a hang",
          "[io][compressed]")
{
    if (tools_missing()) {
        SPMV_SKIP("no libarchive in this build, or no gzip/bzip2/xz/tar program");
    }
    const auto dir = temp_dir("damaged");
    // a file of a few hundred KiB, so that a cut removes real data
    std::string text = "%%MatrixMarket matrix coordinate real general\n3000 3000 30000\n";
    for (int k = 0; k < 30000; ++k) {
        text += std::to_string(k % 3000 + 1) + " " + std::to_string((k * 7) % 3000 + 1) + " " +
                std::to_string(k) + ".25\n";
    }
    write_text(dir / "big.mtx", text);
    sh("gzip -c " + (dir / "big.mtx").string() + " > " + (dir / "big.mtx.gz").string());
    const auto size = fs::file_size(dir / "big.mtx.gz");
    fs::copy_file(dir / "big.mtx.gz", dir / "cut.mtx.gz");
    fs::resize_file(dir / "cut.mtx.gz", size / 2);
    CHECK_THAT(read_error(dir / "cut.mtx.gz"),
               Catch::Contains("cut.mtx.gz: ") && Catch::Contains("gzip input") &&
                   Catch::Contains("truncated"));

    // the gzip magic followed by garbage
    write_text(dir / "garbage.mtx.gz", std::string("\x1f\x8b\x08\x00", 4) + std::string(600, 'x'));
    CHECK_THAT(read_error(dir / "garbage.mtx.gz"), Catch::Contains("garbage.mtx.gz: "));
    // the gzip header only (10 bytes)
    write_text(dir / "header.mtx.gz", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10));
    CHECK_THAT(read_error(dir / "header.mtx.gz"), Catch::Contains("header.mtx.gz: "));

    // a bad line inside: named with the file and the line of the decompressed text
    write_text(dir / "bad.mtx", "%%MatrixMarket matrix coordinate real general\n% c\n2 2 2\n"
                                "1 1 1\n3 1 1\n");
    sh("gzip -c " + (dir / "bad.mtx").string() + " > " + (dir / "bad.mtx.gz").string());
    CHECK_THAT(read_error(dir / "bad.mtx.gz"),
               Catch::Contains("bad.mtx.gz:5: row index 3 is out of range 1..2"));
    // compressed twice: libarchive unpacks every layer, and the text's error shows
    sh("gzip -c " + (dir / "bad.mtx.gz").string() + " > " + (dir / "twice.gz").string());
    CHECK_THAT(read_error(dir / "twice.gz"),
               Catch::Contains("twice.gz:5: row index 3 is out of range 1..2"));
    // a tar member that is itself compressed is named as such
    sh("cd " + dir.string() + " && mkdir -p bad && cp bad.mtx.gz bad/bad.mtx && "
                              "tar czf nested.tar.gz bad/bad.mtx");
    CHECK_THAT(read_error(dir / "nested.tar.gz"),
               Catch::Contains("nested.tar.gz:bad/bad.mtx: holds gzip data after decompression"));
    fs::remove_all(dir);
}

TEST_CASE("Decompressed text beyond the memory limit is refused before it is all allocated",
          "[io][compressed]")
{
    if (tools_missing()) {
        SPMV_SKIP("no libarchive in this build, or no gzip/bzip2/xz/tar program");
    }
    const auto dir = temp_dir("bomb");
    // 8 MiB of comment lines compress to a few KiB: a small decompression bomb
    std::string text = "%%MatrixMarket matrix coordinate real general\n";
    const std::string comment = "% " + std::string(1022, 'z') + "\n";
    for (int k = 0; k < 8192; ++k) {
        text += comment;
    }
    text += "1 1 1\n1 1 1\n";
    write_text(dir / "bomb.mtx", text);
    sh("gzip -9 -c " + (dir / "bomb.mtx").string() + " > " + (dir / "bomb.mtx.gz").string());
    REQUIRE(fs::file_size(dir / "bomb.mtx.gz") < 100000);
    io::ReadOptions limited;
    limited.memory.bytes = 2u << 20;  // 2 MiB
    CHECK_THAT(read_error(dir / "bomb.mtx.gz", limited),
               Catch::Contains("bomb.mtx.gz: decompresses to more than 2.00 MiB"));
    CHECK(read_error(dir / "bomb.mtx.gz").empty());  // without the limit it is a fine 1x1 matrix
    fs::remove_all(dir);
}

TEST_CASE("'-' reads the standard input, plain or compressed", "[io][compressed]")
{
    if (tools_missing()) {
        SPMV_SKIP("no libarchive in this build, or no gzip/bzip2/xz/tar program");
    }
    const auto dir = temp_dir("stdin");
    write_text(dir / "tiny5.mtx", suitesparse_text);
    sh("xz -c " + (dir / "tiny5.mtx").string() + " > " + (dir / "tiny5.mtx.xz").string());
    const Matrix ref = io::read_matrix_market(dir / "tiny5.mtx");
    const auto from_stdin = [](const fs::path& file, io::MatrixMarketInfo* info) {
        const int saved = ::dup(0);
        const int fd = ::open(file.c_str(), O_RDONLY);
        REQUIRE(saved >= 0);
        REQUIRE(fd >= 0);
        ::dup2(fd, 0);
        ::close(fd);
        Matrix a;
        std::string error;
        try {
            a = io::read_matrix_market("-", info);
        } catch (const Error& e) {
            error = e.what();
        }
        ::dup2(saved, 0);
        ::close(saved);
        INFO(error);
        CHECK(error.empty());
        return a;
    };
    io::MatrixMarketInfo plain_info;
    io::MatrixMarketInfo xz_info;
    CHECK(from_stdin(dir / "tiny5.mtx", &plain_info) == ref);
    CHECK(from_stdin(dir / "tiny5.mtx.xz", &xz_info) == ref);
    CHECK(plain_info.compression.empty());
    CHECK(xz_info.compression == "xz");
    CHECK(xz_info.collection_name == "HB/tiny5");

    // and the istream overload takes compressed bytes too
    std::ifstream f(dir / "tiny5.mtx.xz", std::ios::binary);
    CHECK(io::read_matrix_market(f, "stream.xz") == ref);
    fs::remove_all(dir);
}

TEST_CASE("Header comments survive a write: the collection's attribution is kept", "[io]")
{
    std::istringstream in(suitesparse_text);
    io::MatrixMarketInfo info;
    const Matrix a = io::read_matrix_market(in, "tiny5.mtx", &info);
    io::WriteOptions w;
    w.comments = info.comments;
    w.comment = "converted by a test";
    w.symmetric = true;
    std::ostringstream out;
    io::write_matrix_market(out, a, w);
    // the original lines, byte for byte, then the new one
    CHECK(out.str().rfind("%%MatrixMarket matrix coordinate real symmetric\n"
                          "%-------------------------------------------------------------------------------\n"
                          "% UF Sparse Matrix Collection, Tim Davis\n"
                          "% name: HB/tiny5\n"
                          "% [a small test matrix]\n"
                          "% id: 4242\n"
                          "%-------------------------------------------------------------------------------\n"
                          "% converted by a test\n"
                          "5 5 8\n",
                          0) == 0);
    std::istringstream back(out.str());
    io::MatrixMarketInfo again;
    CHECK(io::read_matrix_market(back, "again.mtx", &again) == a);
    CHECK(again.collection_name == "HB/tiny5");
    CHECK(again.comments.size() == info.comments.size() + 1);
}

TEST_CASE("A build without libarchive names what it lacks", "[io][compressed]")
{
    if (io::have_compressed_input()) {
        SUCCEED("built with libarchive: the other [compressed] tests run");
        return;
    }
    const auto dir = temp_dir("nolib");
    write_text(dir / "x.mtx.gz", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10));
    try {
        io::read_matrix_market(dir / "x.mtx.gz");
        FAIL("no error");
    } catch (const NotCompiled& e) {
        CHECK_THAT(e.what(), Catch::Contains("built without libarchive (libarchive-dev)"));
    }
    fs::remove_all(dir);
}

TEST_CASE("A gzip file whose CRC-32 or length does not match is refused with its name",
          "[io][compressed]")
{
    if (!io::have_compressed_input() || !have_program("python3")) {
        SPMV_SKIP("no libarchive in this build, or no python3 to make the damaged files");
    }
    const auto dir = temp_dir("damaged_gz");
    const auto plain = dir / "tiny5.mtx";
    write_text(plain, suitesparse_text);
    // Stored (level 0) deflate blocks keep the text readable in the compressed bytes, so one
    // byte of it can be changed without breaking the deflate stream: "5 5 4" -> "5 5 9", the
    // CRC-32 in the trailer left as it was (libarchive decompressed this silently before).
    const auto damaged = dir / "changed.mtx.gz";
    sh("python3 -c \"import gzip,sys; d=gzip.compress(open(sys.argv[1],'rb').read(), "
       "compresslevel=0); i=d.rindex(b'5 5 4'); "
       "open(sys.argv[2],'wb').write(d[:i+4]+b'9'+d[i+5:])\" " +
       plain.string() + " " + damaged.string());
    const auto good = dir / "good.mtx.gz";
    sh("python3 -c \"import gzip,sys; open(sys.argv[2],'wb').write(gzip.compress("
       "open(sys.argv[1],'rb').read(), compresslevel=0))\" " +
       plain.string() + " " + good.string());
    const auto cut = dir / "cut.mtx.gz";  // the trailer's last 4 bytes (the length) missing
    sh("head -c -4 " + good.string() + " > " + cut.string());
    const auto archive = dir / "tiny5.tar.gz";  // a damaged tar.gz: its member's text changed
    sh("cd " + dir.string() + " && mkdir -p tiny5 && cp tiny5.mtx tiny5/tiny5.mtx && "
       "tar cf tiny5.tar tiny5/tiny5.mtx && python3 -c \"import gzip; "
       "d=gzip.compress(open('tiny5.tar','rb').read(), compresslevel=0); "
       "i=d.rindex(b'5 5 4'); open('tiny5.tar.gz','wb').write(d[:i+4]+b'9'+d[i+5:])\"");

    CHECK(io::read_matrix_market(good) == io::read_matrix_market(plain));
    CHECK_THAT(read_error(damaged), Catch::Contains("changed.mtx.gz") &&
                                        Catch::Contains("gzip input is damaged") &&
                                        Catch::Contains("CRC-32"));
    CHECK_THAT(read_error(cut), Catch::Contains("cut.mtx.gz"));
    CHECK_THAT(read_error(archive),
               Catch::Contains("tiny5.tar.gz") && Catch::Contains("gzip input is damaged"));
    fs::remove_all(dir);
}

TEST_CASE("Odd inputs get messages that say what they are", "[io][compressed]")
{
    if (tools_missing()) {
        SPMV_SKIP("no libarchive in this build, or no gzip/bzip2/xz/tar program");
    }
    const auto dir = temp_dir("odd");
    const std::string d = dir.string();
    write_text(dir / "a.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 4\n");
    sh("cd " + d + " && head -c 100000 /dev/zero | gzip > zeros.gz && mkdir -p A X && "
       "gzip -c a.mtx > A/A.mtx.gz && tar cf packed.tar A/A.mtx.gz && cp a.mtx X/X.mtx && "
       "tar cf dup.tar X/X.mtx && tar rf dup.tar X/X.mtx");
    write_text(dir / "bom.mtx", "\xEF\xBB\xBF%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 4\n");
    write_text(dir / "cr.mtx", "%%MatrixMarket matrix coordinate real general\r2 2 1\r1 1 4\r");
    write_text(dir / "crlf.mtx", "%%MatrixMarket matrix coordinate real general\r\n2 2 1\r\n1 1 4\r\n");

    CHECK_THAT(read_error(dir / "zeros.gz"),
               Catch::Contains("gzip-compressed data holds no file at all"));
    CHECK_THAT(read_error(dir / "packed.tar"),
               Catch::Contains("A/A.mtx.gz must be extracted first"));
    CHECK_THAT(read_error(dir / "dup.tar"), Catch::Contains("X/X.mtx twice"));
    CHECK_THAT(read_error(d + "/dup.tar:X.mtx"), Catch::Contains("is ambiguous"));
    CHECK_THAT(read_error(dir / "bom.mtx"), Catch::Contains("bom.mtx:1: ") &&
                                                 Catch::Contains("UTF-8 byte-order mark"));
    CHECK_THAT(read_error(dir / "cr.mtx"), Catch::Contains("cr.mtx:1: ") &&
                                                Catch::Contains("CR alone"));
    CHECK(read_error(dir / "crlf.mtx").empty());  // CR LF stays accepted
    fs::remove_all(dir);
}
