// Output files are written whole or not at all (spmv/io/atomic_file.hpp).
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <spmv/error.hpp>
#include <spmv/io/atomic_file.hpp>
#include <spmv/io/matrix_market.hpp>

#include "test_files.hpp"
#include "test_matrices.hpp"

namespace {

namespace fs = std::filesystem;

using spmv::test::slurp;

/// A path in the tests' scratch directory (test_files.hpp), as a path.
fs::path scratch(const char* name)
{
    return spmv::test::tmp(name);
}

/// Files in the directory of `p` whose name starts with p's file name (the target and any
/// temporary file beside it).
int files_like(const fs::path& p)
{
    int n = 0;
    for (const auto& e : fs::directory_iterator(p.parent_path())) {
        n += e.path().filename().string().rfind(p.filename().string(), 0) == 0 ? 1 : 0;
    }
    return n;
}

}  // namespace

TEST_CASE("An atomic file replaces the target only when committed", "[io][atomic]")
{
    const auto p = scratch("out.txt");
    spmv::io::write_file_atomically(p, "first version\n");
    CHECK(slurp(p) == "first version\n");
    {
        spmv::io::AtomicFile f(p);
        f.stream() << "half of the second";
        CHECK(slurp(p) == "first version\n");  // still the old one while writing
        // no commit: as if the run ended here with an exception
    }
    CHECK(slurp(p) == "first version\n");
    CHECK(files_like(p) == 1);  // the temporary file is gone
    {
        spmv::io::AtomicFile f(p);
        f.stream() << "second version\n";
        f.commit();
    }
    CHECK(slurp(p) == "second version\n");
    CHECK(files_like(p) == 1);
}

TEST_CASE("Write errors name the file, the step and the reason", "[io][atomic]")
{
#if defined(__linux__)
    try {
        spmv::io::write_file_atomically("/dev/full", std::string(100000, 'x'));
        FAIL("no error");
    } catch (const spmv::Error& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("cannot write /dev/full (") != std::string::npos);
        CHECK(what.find("No space left on device") != std::string::npos);
    }
#endif
    try {
        spmv::io::write_file_atomically(scratch("no_such_dir") / "x.json", "{}");
        FAIL("no error");
    } catch (const spmv::Error& e) {
        CHECK(std::string(e.what()).find("x.json (open): No such file or directory") !=
              std::string::npos);
    }
    CHECK_THROWS_AS(spmv::io::write_file_atomically(fs::temp_directory_path(), "x"), spmv::Error);
}

TEST_CASE("write_matrix_market to a file is atomic and checks its writes", "[io][atomic]")
{
    const auto p = scratch("m.mtx");
    const auto a = spmv::test::canonical4();
    spmv::io::write_matrix_market(p, a);
    const auto before = slurp(p);
    CHECK(spmv::io::read_matrix_market(p).values == a.values);
    // an invalid matrix is refused before the target is touched
    auto bad = a;
    bad.col_idxs[0] = 99;
    CHECK_THROWS_AS(spmv::io::write_matrix_market(p, bad), spmv::InvalidLayout);
    CHECK(slurp(p) == before);
    CHECK(files_like(p) == 1);
#if defined(__linux__)
    CHECK_THROWS_WITH(spmv::io::write_matrix_market("/dev/full", a),
                      Catch::Contains("No space left on device"));
#endif
}

TEST_CASE("An atomic file written through a symbolic link keeps the link", "[io][atomic]")
{
    const auto target = scratch("link_target.txt");
    const auto link = scratch("link.txt");
    fs::remove(link);
    spmv::io::write_file_atomically(target, "old\n");
    fs::create_symlink(target.filename(), link);

    spmv::io::write_file_atomically(link, "new\n");

    CHECK(fs::is_symlink(fs::symlink_status(link)));
    CHECK(slurp(target) == "new\n");
    fs::remove(link);
}

TEST_CASE("An atomic file named - writes the standard output", "[io][atomic]")
{
    // the child's standard output goes to a regular file: "-" must write it in place (a
    // rename would detach the file the redirection opened)
    const auto out = scratch("dash.txt");
    fs::remove(out);
    std::fflush(stdout);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        FILE* f = std::freopen(out.c_str(), "w", stdout);
        if (f == nullptr) _exit(2);
        try {
            spmv::io::write_file_atomically("-", "to stdout\n");
        } catch (...) {
            _exit(3);
        }
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);

    CHECK((WIFEXITED(st) && WEXITSTATUS(st) == 0));
    CHECK(slurp(out) == "to stdout\n");
    CHECK(files_like(out) == 1);  // no temporary file beside it
    CHECK_FALSE(fs::exists("-"));
}
