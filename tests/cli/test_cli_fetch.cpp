// `spmvlab fetch` without the network (issue 35): a local mirror given as file:///DIR or a
// directory (the collection's layout, flat, Group/, unpacked), the caches of ssget
// (~/.config/ssget) and ssgetpy (~/.ssgetpy) adopted after the checks a download gets, and
// `fetch --search` over the collection's index (tests/cli/data/ssstats_fixture.csv: lines in
// the shape of the collection's ssstats.csv, ids are their positions in the fixture). The
// matrices are pde05 (125 x 125, 725 entries, general) packed as the collection packs them:
// Name.tar.gz holding Name/Name.mtx with the collection's "% name: Group/Name" header.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "../../cli/src/exit_codes.hpp"
#include "cli_run.hpp"
#include "skip.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;

namespace {

using spmv::test::fresh_dir;
using spmv::test::json_of;
using spmv::test::Run;
using spmv::test::sample;
using spmv::test::shell;
using spmv::test::slurp;

constexpr int offline = ::spmvlab::exit_status::offline;

/// spmvlab with `args` (stderr joined unless `with_stderr` is false); named apart from the
/// namespace spmvlab of exit_codes.hpp.
Run run(const std::string& args, bool with_stderr = true)
{
    return spmv::test::spmvlab(args, with_stderr);
}

std::string fixture()
{
    return std::string(SPMV_SOURCE_DIR) + "/tests/cli/data/ssstats_fixture.csv";
}

void sh(const std::string& cmd)
{
    INFO(cmd);
    REQUIRE(std::system(cmd.c_str()) == 0);
}

bool have_program(const std::string& name)
{
    return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

/// pde05 with the collection's header naming it `group/name`.
std::string collection_file(const std::string& group, const std::string& name)
{
    std::string text = slurp(sample("pde05.mtx"));
    const auto banner_end = text.find('\n') + 1;
    std::string body = text.substr(banner_end);
    while (!body.empty() && body[0] == '%') {
        body = body.substr(body.find('\n') + 1);
    }
    return text.substr(0, banner_end) +
           "%-------------------------------------------------------------------------------\n"
           "% SuiteSparse Matrix Collection, Tim Davis\n"
           "% name: " +
           group + "/" + name +
           "\n"
           "%-------------------------------------------------------------------------------\n" +
           body;
}

/// `target` (a .tar.gz) holding `name`/`name`.mtx, the collection's file of `group`/`name`.
void write_archive(const fs::path& target, const std::string& group, const std::string& name,
                   const std::string& file_group = "")
{
    const auto src = target.parent_path() / (".src-" + name);
    fs::create_directories(src / name);
    std::ofstream(src / name / (name + ".mtx"))
        << collection_file(file_group.empty() ? group : file_group, name);
    fs::create_directories(target.parent_path());
    sh("cd " + src.string() + " && tar czf " + target.string() + " " + name + "/" + name + ".mtx");
    fs::remove_all(src);
}

/// `dir`/files/ssstats.csv (or `dir`/ssstats.csv, ssget's place) listing `lines`.
void write_index(const fs::path& path, const std::vector<std::string>& lines)
{
    fs::create_directories(path.parent_path());
    std::ofstream out(path);
    out << lines.size() << "\n01-Nov-2026 00:00:00\n";
    for (const auto& l : lines) {
        out << l << "\n";
    }
}

/// Index lines for stand-ins of pde05: 125 x 125, 725 entries, SPD.
std::string line_of(const std::string& group, const std::string& name)
{
    return group + "," + name + ",125,125,725,1,0,1,1,1,1,2D/3D problem,725";
}

/// A TCP port on 127.0.0.1 that nothing listens on: an http base URL that is offline.
int closed_port()
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(s);
    return ntohs(a.sin_port);
}

/// The statistics `info --json` gives (what names the input removed).
nlohmann::json stats(nlohmann::json j)
{
    for (const char* k : {"meta", "matrix", "file", "input", "inputs", "collection",
                          "archive_member", "compression"}) {
        j.erase(k);
    }
    return j;
}

bool reads_gzip(const fs::path& dir)
{
    sh("gzip -c " + sample("canonical4.mtx") + " > " + (dir / "probe.mtx.gz").string());
    return run("info " + (dir / "probe.mtx.gz").string()).status == 0;
}

/// Why the archives cannot be made or read here ("" when they can).
std::string missing_tools(const fs::path& dir)
{
    if (!have_program("tar") || !have_program("gzip")) {
        return "tar or gzip is missing here";
    }
    if (!reads_gzip(dir)) {
        return "spmvlab was built without libarchive: it cannot check an archive";
    }
    return "";
}

}  // namespace

TEST_CASE(
    "spmvlab fetch takes matrices from a local mirror, file:// or a directory, with no network",
    "[cli][io][fetch]")
{
    const auto dir = fresh_dir("fetch_mirror");
    if (const auto why = missing_tools(dir); !why.empty()) {
        SPMV_SKIP(why);
    }
    // the collection's layout: MIRROR/MM/Group/Name.tar.gz and MIRROR/files/ssstats.csv
    const auto mirror = dir / "mirror";
    write_archive(mirror / "MM" / "HB" / "bcsstk16.tar.gz", "HB", "bcsstk16");
    write_archive(mirror / "MM" / "Test" / "damaged.tar.gz", "Test", "damaged");
    std::ofstream(mirror / "MM" / "Test" / "damaged.tar.gz.sha256")
        << std::string(64, '0') << "  damaged.tar.gz\n";
    write_archive(mirror / "MM" / "Test" / "other.tar.gz", "Test", "other", "HB");  // says HB/other
    write_index(mirror / "files" / "ssstats.csv",
                {line_of("HB", "bcsstk16"), line_of("Test", "damaged"), line_of("Test", "absent"),
                 line_of("Test", "other")});
    const auto cache = dir / "cache";
    const std::string opts = " --no-adopt --cache " + cache.string();
    const auto archive = cache / "MM" / "HB" / "bcsstk16.tar.gz";

    // the bar: spmvlab fetch HB/bcsstk16 --base-url file:///some/mirror
    auto r = run("fetch HB/bcsstk16 --base-url file://" + mirror.string() + opts);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("HB/bcsstk16: " + archive.string()) != std::string::npos);
    CHECK(r.out.find("index ssstats.csv: copied from the mirror " +
                     (mirror / "files" / "ssstats.csv").string()) != std::string::npos);
    CHECK(r.out.find("HB/bcsstk16: copied from the mirror " +
                     (mirror / "MM" / "HB" / "bcsstk16.tar.gz").string()) != std::string::npos);
    CHECK(r.out.find("125 x 125 as the index says") != std::string::npos);
    CHECK(r.out.find("downloading") == std::string::npos);
    CHECK(slurp(archive) == slurp(mirror / "MM" / "HB" / "bcsstk16.tar.gz"));
    CHECK(slurp(cache / "files" / "ssstats.csv") ==
          slurp(mirror / "files" / "ssstats.csv"));
    if (have_program("sha256sum")) {  // the record is sha256sum's format, of the copied bytes
        CHECK(shell("cd " + archive.parent_path().string() +
                    " && sha256sum -c bcsstk16.tar.gz.sha256")
                  .status == 0);
    }
    const auto info = json_of("info " + archive.string() + " --json");
    CHECK(stats(info) == stats(json_of("info " + sample("pde05.mtx") + " --json")));
    // again: from the cache, the mirror not even looked at (it may be gone)
    r = run("fetch HB/bcsstk16 --base-url " + (dir / "gone").string() + opts);
    CHECK(r.status == 0);
    CHECK(r.out.find("HB/bcsstk16: in the cache") != std::string::npos);

    // a plain directory, names and ids through the mirror's index, --print-path alone on stdout
    const auto cache2 = dir / "cache2";
    r = run("fetch 1 bcsstk16 --print-path --no-adopt --base-url " + mirror.string() + " --cache " +
                cache2.string(),
            false);
    CHECK(r.status == 0);
    const auto archive2 = (cache2 / "MM" / "HB" / "bcsstk16.tar.gz").string();
    CHECK(r.out == archive2 + "\n" + archive2 + "\n");

    // missing from the mirror: exit 1, the places looked at named
    r = run("fetch Test/absent --base-url " + mirror.string() + opts);
    INFO(r.out);
    CHECK(r.status == ::spmvlab::exit_status::error);
    CHECK(r.out.find("not on the mirror " + mirror.string() + "; looked for:") !=
          std::string::npos);
    CHECK(r.out.find((mirror / "MM" / "Test" / "absent.tar.gz").string()) != std::string::npos);
    CHECK(r.out.find((mirror / "MM" / "Test" / "absent" / "absent.mtx").string()) !=
          std::string::npos);
    // not in the index at all
    r = run("fetch HB/nothing --base-url " + mirror.string() + opts);
    CHECK(r.status == 1);
    CHECK(r.out.find("no such matrix in the collection's index") != std::string::npos);

    // a copy that does not have the SHA-256 recorded beside it: refused, nothing cached
    r = run("fetch Test/damaged --base-url " + mirror.string() + opts);
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("is not the " + std::string(64, '0') + " recorded beside it in " +
                     (mirror / "MM" / "Test" / "damaged.tar.gz.sha256").string()) !=
          std::string::npos);
    CHECK_FALSE(fs::exists(cache / "MM" / "Test" / "damaged.tar.gz"));
    // --sha256 that the copy does not have: refused, nothing cached
    r = run("fetch HB/bcsstk16 --sha256 " + std::string(64, 'a') + " --base-url " +
            mirror.string() + " --no-adopt --cache " + (dir / "cache3").string());
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("is not the expected " + std::string(64, 'a') + "; not copied") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(dir / "cache3" / "MM" / "HB" / "bcsstk16.tar.gz"));
    // an archive whose file names another matrix of the collection
    r = run("fetch Test/other --base-url " + mirror.string() + opts);
    CHECK(r.status == 1);
    CHECK(r.out.find("the file says it is HB/other, not Test/other; not copied") !=
          std::string::npos);

    // a mirror that is not there is unreachable (offline): exit_status::offline
    r = run("fetch HB/bcsstk16 --base-url file://" + (dir / "unmounted").string() +
            " --no-adopt --cache " + (dir / "cache4").string());
    INFO(r.out);
    CHECK(r.status == offline);
    CHECK(r.out.find("cannot reach the mirror " + (dir / "unmounted").string() +
                     ": no such directory (not mounted?)") != std::string::npos);
    // addresses fetch cannot use
    r = run("fetch HB/bcsstk16 --base-url ftp://example.org" + opts);
    CHECK(r.status == 1);
    CHECK(r.out.find(
              "is neither an http:// or https:// address, a file:///DIR address nor a directory") !=
          std::string::npos);
    r = run("fetch HB/bcsstk16 --base-url file://relative/dir" + opts);
    CHECK(r.status == 1);
    CHECK(r.out.find("file:///absolute/path") != std::string::npos);
}

TEST_CASE("spmvlab fetch reads flat, grouped and unpacked mirrors and records unpacked files",
          "[cli][io][fetch]")
{
    const auto dir = fresh_dir("fetch_layouts");
    if (const auto why = missing_tools(dir); !why.empty()) {
        SPMV_SKIP(why);
    }
    // flat: DIR/Name.tar.gz, no index (the size cannot be checked, and that is said)
    write_archive(dir / "flat" / "bcsstk16.tar.gz", "HB", "bcsstk16");
    auto r = run("fetch HB/bcsstk16 --no-adopt --base-url " + (dir / "flat").string() +
                 " --cache " + (dir / "c1").string());
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(
        r.out.find(
            "has no index: neither files/ssstats.csv nor ssstats.csv); its size is not checked") !=
        std::string::npos);
    CHECK(r.out.find("checked (header; no index") != std::string::npos);
    CHECK(fs::exists(dir / "c1" / "MM" / "HB" / "bcsstk16.tar.gz"));
    // a flat mirror holding another group's matrix of that name is refused
    r = run("fetch Other/bcsstk16 --no-adopt --base-url " + (dir / "flat").string() + " --cache " +
            (dir / "c1").string());
    CHECK(r.status == 1);
    CHECK(r.out.find("the file says it is HB/bcsstk16, not Other/bcsstk16") != std::string::npos);
    // grouped: DIR/Group/Name.tar.gz, with ssget's index place DIR/ssstats.csv
    write_archive(dir / "grouped" / "HB" / "bcsstk16.tar.gz", "HB", "bcsstk16");
    write_index(dir / "grouped" / "ssstats.csv", {line_of("HB", "bcsstk16")});
    r = run("fetch HB/bcsstk16 --no-adopt --base-url " + (dir / "grouped").string() + " --cache " +
            (dir / "c2").string());
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("125 x 125 as the index says") != std::string::npos);
    // the index's size is checked: a line saying 126 x 126 refuses the copy
    write_index(dir / "grouped" / "ssstats.csv", {"HB,bcsstk16,126,126,725,1,0,1,1,1,1,x,725"});
    r = run("fetch HB/bcsstk16 --no-adopt --base-url " + (dir / "grouped").string() + " --cache " +
            (dir / "c3").string());
    CHECK(r.status == 1);
    CHECK(r.out.find("the matrix is 125 x 125 but the index says 126 x 126; not copied") !=
          std::string::npos);
    // ... and its stored entries: 725 entries of a general file is not an index's 700
    write_index(dir / "grouped" / "ssstats.csv", {"HB,bcsstk16,125,125,700,1,0,1,1,1,1,x,700"});
    r = run("fetch HB/bcsstk16 --no-adopt --base-url " + (dir / "grouped").string() + " --cache " +
            (dir / "c4").string());
    CHECK(r.status == 1);
    CHECK(r.out.find("the file stores 725 entries (general) but the index says 700 nonzeros, 700 "
                     "pattern entries; not copied") != std::string::npos);

    // unpacked: DIR/MM/Group/Name/Name.mtx, used in place, its SHA-256 recorded in the cache
    const auto mtx = dir / "unpacked" / "MM" / "HB" / "bcsstk16" / "bcsstk16.mtx";
    fs::create_directories(mtx.parent_path());
    std::ofstream(mtx) << collection_file("HB", "bcsstk16");
    const auto cache = dir / "c5";
    const std::string opts =
        " --no-adopt --base-url " + (dir / "unpacked").string() + " --cache " + cache.string();
    r = run("fetch HB/bcsstk16 --print-path" + opts, false);
    CHECK(r.status == 0);
    CHECK(r.out == mtx.string() + "\n");
    const auto record = cache / "MM" / "HB" / "bcsstk16.mtx.sha256";
    REQUIRE(fs::exists(record));
    const auto line = slurp(record);
    CHECK(line.substr(64) == "  " + mtx.string() + "\n");
    if (have_program("sha256sum")) {
        CHECK(shell("sha256sum -c " + record.string()).status == 0);
    }
    r = run("fetch HB/bcsstk16" + opts);
    CHECK(r.out.find("in the cache (the adopted file " + mtx.string() + ")") != std::string::npos);
    // an edited file is noticed and checked again
    std::ofstream(mtx, std::ios::app) << "% edited\n";
    r = run("fetch HB/bcsstk16" + opts);
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("no longer there with the SHA-256 recorded in " + record.string()) !=
          std::string::npos);
    CHECK(r.out.find("adopted from the mirror, unpacked") != std::string::npos);
    CHECK(slurp(record).substr(0, 64) != line.substr(0, 64));
}

TEST_CASE("spmvlab fetch adopts ssget's and ssgetpy's caches offline, checked and recorded",
          "[cli][io][fetch]")
{
    const auto dir = fresh_dir("fetch_adopt");
    if (const auto why = missing_tools(dir); !why.empty()) {
        SPMV_SKIP(why);
    }
    const auto home = dir / "home";
    // ssget: ~/.config/ssget/MM/Group/Name.tar.gz (-f) and its index ~/.config/ssget/ssstats.csv
    const auto ssget = home / ".config" / "ssget";
    write_archive(ssget / "MM" / "HB" / "bcsstk16.tar.gz", "HB", "bcsstk16");
    write_index(ssget / "ssstats.csv", {line_of("HB", "bcsstk16"), line_of("Test", "tiny"),
                                        line_of("Test", "bad"), line_of("Test", "extra")});
    // ssgetpy: ~/.ssgetpy/MM/Group/Name/Name.mtx (extract=True deletes the archive)
    const auto ssgetpy = home / ".ssgetpy";
    const auto tiny = ssgetpy / "MM" / "Test" / "tiny" / "tiny.mtx";
    fs::create_directories(tiny.parent_path());
    std::ofstream(tiny) << collection_file("Test", "tiny");
    // a copy in ssget's cache whose matrix is not the one its name says
    write_archive(ssget / "MM" / "Test" / "bad.tar.gz", "Test", "bad", "HB");
    const auto cache = dir / "cache";
    const std::string env = "HOME=" + home.string() + " ";
    const std::string offline_url =
        " --base-url http://127.0.0.1:" + std::to_string(closed_port()) + " --timeout 5 --cache " +
        cache.string();
    const std::string exe = std::string(SPMVLAB_EXE);

    auto r = shell(env + exe + " fetch HB/bcsstk16" + offline_url + " 2>&1");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("index ssstats.csv: copied from ssget's cache " +
                     (ssget / "ssstats.csv").string()) != std::string::npos);
    CHECK(r.out.find("HB/bcsstk16: copied from ssget's cache " +
                     (ssget / "MM" / "HB" / "bcsstk16.tar.gz").string()) != std::string::npos);
    CHECK(r.out.find("125 x 125 as the index says, SHA-256 ") != std::string::npos);
    const auto archive = cache / "MM" / "HB" / "bcsstk16.tar.gz";
    CHECK(slurp(archive) == slurp(ssget / "MM" / "HB" / "bcsstk16.tar.gz"));
    CHECK(slurp(archive.string() + ".sha256").size() ==
          64 + 2 + std::string("bcsstk16.tar.gz\n").size());

    r = shell(env + exe + " fetch Test/tiny --print-path" + offline_url + " 2>&1");
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("Test/tiny: adopted from ssgetpy's cache, unpacked: " + tiny.string()) !=
          std::string::npos);
    CHECK(r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1) == tiny.string() + "\n");
    CHECK(fs::exists(cache / "MM" / "Test" / "tiny.mtx.sha256"));

    // a copy that fails the checks is not adopted; offline, nothing else can be had: exit 5
    r = shell(env + exe + " fetch Test/bad" + offline_url + " 2>&1");
    INFO(r.out);
    CHECK(r.status == offline);
    CHECK(r.out.find("the file says it is HB/bad, not Test/bad; not copied; not adopted") !=
          std::string::npos);
    CHECK(r.out.find("(offline?)") != std::string::npos);
    CHECK_FALSE(fs::exists(cache / "MM" / "Test" / "bad.tar.gz"));

    // --no-adopt: the default places are not looked in
    r = shell(env + exe + " fetch HB/bcsstk16 --no-adopt --base-url http://127.0.0.1:" +
              std::to_string(closed_port()) + " --timeout 5 --cache " + (dir / "c2").string() +
              " 2>&1");
    CHECK(r.status == offline);
    // --adopt DIR and $SPMVLAB_ADOPT name other places (laid out as a mirror)
    const auto other = dir / "other";
    write_archive(other / "Test" / "extra.tar.gz", "Test", "extra");
    r = shell(env + exe + " fetch Test/extra --no-adopt --adopt " + other.string() + offline_url +
              " 2>&1");
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("copied from --adopt " + other.string()) != std::string::npos);
    r = shell(env + "SPMVLAB_ADOPT=/nonexistent:" + other.string() + " " + exe +
              " fetch Test/extra --cache " + (dir / "c3").string() +
              " --base-url http://127.0.0.1:" + std::to_string(closed_port()) +
              " --timeout 5 2>&1");
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("copied from $SPMVLAB_ADOPT " + other.string()) != std::string::npos);
    r = run("fetch Test/extra --adopt " + (dir / "nowhere").string() + offline_url);
    CHECK(r.status == 1);
    CHECK(r.out.find("--adopt " + (dir / "nowhere").string() + ": no such directory") !=
          std::string::npos);
}

TEST_CASE("spmvlab fetch --search filters the collection's index offline", "[cli][io][fetch]")
{
    const auto dir = fresh_dir("fetch_search");
    const auto cache = dir / "cache";
    fs::create_directories(cache / "files");
    fs::copy_file(fixture(), cache / "files" / "ssstats.csv");
    const std::string opts = " --no-adopt --cache " + cache.string() +
                             " --base-url http://127.0.0.1:" + std::to_string(closed_port()) +
                             " --timeout 5";
    // the names of the matches, in the order printed (first column of the table)
    const auto names = [&](const std::string& filters) {
        const auto r = run("fetch --search" + filters + opts, false);
        INFO("fetch --search" + filters + "\n" + r.out);
        REQUIRE(r.status == 0);
        std::string out;
        std::istringstream in(r.out);
        std::string line;
        std::getline(in, line);  // the header
        while (std::getline(in, line)) {
            out += (out.empty() ? "" : " ") + line.substr(0, line.find(' '));
        }
        return out;
    };

    // the fixture by hand: posdef = 1 on lines 1, 2, 6, 7, 11
    CHECK(names(" --spd") == "HB/bcsstk01 HB/bcsstk16 GHS_psdef/wathen100 Williams/cant Test/tiny");
    CHECK(names(" --rows 1k:100k --kind STRUCTURAL") == "HB/bcsstk16 Boeing/ct20stif");
    CHECK(names(" --kind 2d/3d --nnz :500k") == "GHS_psdef/wathen100 Test/tiny");
    CHECK(names(" --group HB --symmetric") == "HB/bcsstk01 HB/bcsstk16");
    CHECK(names(" --real --square --nnz 1M:") == "Boeing/ct20stif Williams/cant");
    CHECK(names(" --kind complex") ==
          "Bai/qc324");  // the quoted field "electromagnetics problem, complex"
    CHECK(names(" --name BCSSTK") == "HB/bcsstk01 HB/bcsstk16");
    CHECK(names(" --cols 320") == "Rect/well1033");
    CHECK(names(" --square --rows 1033") == "");
    // the table: Group/Name, id, rows, cols, nnz, kind
    auto r = run("fetch --search --name bcsstk16" + opts, false);
    CHECK(r.out.find("HB/bcsstk16") == r.out.find('\n') + 1);
    CHECK(r.out.find("2       4884       4884       290378  structural problem") !=
          std::string::npos);
    // --limit, and the count on stderr
    r = run("fetch --search --spd --limit 2" + opts);
    CHECK(r.out.find("5 of 11 matrices match (index of 01-Nov-2026 00:00:00, ") !=
          std::string::npos);
    CHECK(r.out.find("the first 2 shown (--limit 0: all)") != std::string::npos);
    CHECK(r.out.find("Williams/cant") == std::string::npos);

    // --json
    const auto j = json_of("fetch --search --spd --rows 40:5000 --json" + opts);
    CHECK(j["meta"]["command"] == "fetch");
    CHECK(j["total"] == 3);  // bcsstk01 (48 rows), bcsstk16 (4884), Test/tiny (125)
    CHECK(j["index"]["matrices"] == 11);
    CHECK(j["query"]["rows"] == nlohmann::json({{"min", 40}, {"max", 5000}}));
    CHECK(j["query"]["nnz"].is_null());
    CHECK(j["query"]["spd"] == true);
    REQUIRE(j["matches"].size() == 3);
    CHECK(j["matches"][2]["id"] == 11);
    CHECK(j["matches"][2]["name"] == "tiny");
    CHECK(j["matches"][1]["id"] == 2);
    CHECK(j["matches"][1]["group"] == "HB");
    CHECK(j["matches"][1]["nnz"] == 290378);
    CHECK(j["matches"][1]["spd"] == true);
    CHECK(j["matches"][1]["kind"] == "structural problem");
    const auto json_file = dir / "search.json";
    std::ofstream(json_file) << j.dump();
    // valid, and closed: a key added to any object of it is refused (unevaluatedProperties)
    const auto v = shell("/usr/bin/python3 " + std::string(SPMV_SOURCE_DIR) +
                         "/tests/cli/validate_json.py --closed " + SPMV_SOURCE_DIR +
                         "/schemas fetch-search.schema.json " + json_file.string() + " 2>&1");
    INFO(v.out);
    if (v.status == 77) {
        WARN(
            "python3-jsonschema is missing: the --search JSON is not validated against its schema");
    } else {
        CHECK(v.status == 0);
    }

    // usage: a bad range, a filter without --search, matrices with --search
    r = run("fetch --search --rows 5:3" + opts);
    CHECK(r.status != 0);
    CHECK(r.out.find("--rows '5:3': the lower bound is above the upper one") != std::string::npos);
    r = run("fetch --search --nnz 1x" + opts);
    CHECK(r.status != 0);
    CHECK(r.out.find("--nnz '1x'") != std::string::npos);
    CHECK(run("fetch --spd" + opts).status != 0);
    CHECK(run("fetch HB/bcsstk16 --search" + opts).status != 0);

    // no index cached and the server unreachable: said, exit_status::offline
    r = run("fetch --search --spd --no-adopt --cache " + (dir / "empty").string() +
            " --base-url http://127.0.0.1:" + std::to_string(closed_port()) + " --timeout 5");
    INFO(r.out);
    CHECK(r.status == offline);
    CHECK(r.out.find("the collection's index is not in the cache (" +
                     (dir / "empty" / "files" / "ssstats.csv").string() +
                     ") and cannot be downloaded") != std::string::npos);
    // ... while a mirror's index needs no network
    const auto mirror = dir / "mirror";
    fs::create_directories(mirror / "files");
    fs::copy_file(fixture(), mirror / "files" / "ssstats.csv");
    r = run("fetch --search --group Pajek --no-adopt --base-url file://" + mirror.string() +
                " --cache " + (dir / "c2").string(),
            false);
    CHECK(r.status == 0);
    CHECK(r.out.find("Pajek/Erdos971") == r.out.find('\n') + 1);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 2);
}
