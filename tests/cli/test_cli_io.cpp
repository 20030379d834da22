// spmvlab's inputs as the field distributes them, end to end: compressed files, SuiteSparse
// archives, the standard input, directory trees, generator specs; convert keeping the
// collection's header; generate writing symmetric matrices as such; and `spmvlab fetch` against
// a loopback HTTP server (python3 -m http.server's handler) that serves an archive and an index
// in the collection's layout and counts the requests it gets.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

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
using spmv::test::spmvlab;


/// The statistics of an `info --json` object: without what names the input or the run.
nlohmann::json stats(nlohmann::json j)
{
    // (where the matrix came from is not a statistic: info --json's collection, compression
    // and archive_member differ between the forms of one matrix)
    for (const char* k : {"meta", "matrix", "file", "input", "inputs", "collection", "compression",
                          "archive_member"}) {
        j.erase(k);
    }
    return j;
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

bool have_compression_tools()
{
    return have_program("gzip") && have_program("bzip2") && have_program("xz") && have_program("tar");
}

/// Whether this spmvlab reads compressed input (built with libarchive).
bool spmvlab_reads_gzip(const fs::path& dir)
{
    sh("gzip -c " + sample("canonical4.mtx") + " > " + (dir / "probe.mtx.gz").string());
    const auto r = spmvlab("info " + (dir / "probe.mtx.gz").string());
    return r.status == 0;
}

/// A SuiteSparse-like matrix file: the collection's header lines, then pde05's entries.
std::string suitesparse_file(const std::string& group, const std::string& name)
{
    std::string text = slurp(sample("pde05.mtx"));
    const auto banner_end = text.find('\n') + 1;
    std::string body = text.substr(banner_end);
    while (!body.empty() && body[0] == '%') {  // drop pde05's own comments
        body = body.substr(body.find('\n') + 1);
    }
    return text.substr(0, banner_end) +
           "%-------------------------------------------------------------------------------\n"
           "% UF Sparse Matrix Collection, Tim Davis\n"
           "% name: " + group + "/" + name + "\n"
           "% [test matrix]\n"
           "% id: 1\n"
           "%-------------------------------------------------------------------------------\n" +
           body;
}

}  // namespace

TEST_CASE("spmvlab info gives the plain file's statistics for every way a matrix is distributed",
          "[cli][io]")
{
    const auto dir = fresh_dir("io_forms");
    if (!have_compression_tools()) {
        SPMV_SKIP("gzip, bzip2, xz or tar is missing here");
    }
    if (!spmvlab_reads_gzip(dir)) {
        SPMV_SKIP("spmvlab was built without libarchive: compressed input is refused");
    }
    const auto plain = dir / "pde05.mtx";
    fs::copy_file(sample("pde05.mtx"), plain);
    const auto ref = json_of("info " + plain.string() + " --json");
    REQUIRE(ref["rows"] == 125);
    const auto want = stats(ref);

    sh("gzip -c " + plain.string() + " > " + (dir / "pde05.mtx.gz").string());
    sh("bzip2 -c " + plain.string() + " > " + (dir / "pde05.mtx.bz2").string());
    sh("xz -c " + plain.string() + " > " + (dir / "pde05.mtx.xz").string());
    // SuiteSparse layout: pde05/pde05.mtx beside pde05_b.mtx and pde05_coord.mtx
    fs::create_directories(dir / "ss" / "pde05");
    fs::copy_file(plain, dir / "ss" / "pde05" / "pde05.mtx");
    fs::copy_file(sample("canonical4.mtx"), dir / "ss" / "pde05" / "pde05_b.mtx");
    fs::copy_file(sample("canonical4.mtx"), dir / "ss" / "pde05" / "pde05_coord.mtx");
    sh("cd " + (dir / "ss").string() +
       " && tar czf ../pde05.tar.gz pde05/pde05_b.mtx pde05/pde05.mtx pde05/pde05_coord.mtx");

    for (const char* name : {"pde05.mtx.gz", "pde05.mtx.bz2", "pde05.mtx.xz", "pde05.tar.gz"}) {
        INFO(name);
        CHECK(stats(json_of("info " + (dir / name).string() + " --json")) == want);
    }
    // ... which info --json says, as its text does
    const auto tgz = json_of("info " + (dir / "pde05.tar.gz").string() + " --json");
    CHECK(tgz["compression"] == "gzip");
    CHECK(tgz["archive_member"] == "pde05/pde05.mtx");
    CHECK(json_of("info " + (dir / "pde05.mtx.bz2").string() + " --json")["compression"] ==
          "bzip2");
    CHECK(ref["compression"].is_null());
    // a misleading extension: detected by content
    fs::copy_file(dir / "pde05.mtx.xz", dir / "pde05_xz.mtx");
    CHECK(stats(json_of("info " + (dir / "pde05_xz.mtx").string() + " --json")) == want);
    // the standard input, plain and compressed
    CHECK(stats(json_of("info - --json < " + plain.string())) == want);
    CHECK(stats(json_of("info - --json < " + (dir / "pde05.mtx.gz").string())) == want);
    const auto piped = shell("cat " + (dir / "pde05.mtx.bz2").string() + " | " + SPMVLAB_EXE +
                             " info - --json 2>/dev/null");
    REQUIRE(piped.status == 0);
    CHECK(stats(nlohmann::json::parse(piped.out)) == want);
    // archive:MEMBER
    const auto coord = json_of("info " + (dir / "pde05.tar.gz").string() + ":pde05_coord.mtx --json");
    CHECK(coord["rows"] == 4);
    CHECK(coord["nnz"] == 9);

    // a nested directory: found at any depth, sorted by path, {"meta", "results": [...]}
    const auto tree = fresh_dir("io_tree");
    fs::create_directories(tree / "b" / "deeper");
    fs::create_directories(tree / "a");
    fs::copy_file(dir / "pde05.mtx.xz", tree / "b" / "deeper" / "m.mtx.xz");
    fs::copy_file(dir / "pde05.tar.gz", tree / "a" / "pde05.tar.gz");
    fs::copy_file(sample("canonical4.mtx"), tree / "b" / "c4.mtx");
    std::ofstream(tree / "b" / "notes.txt") << "not a matrix\n";
    const auto all = json_of("info " + tree.string() + " --json")["results"];
    REQUIRE(all.is_array());
    REQUIRE(all.size() == 3);
    CHECK(stats(all[0]) == want);      // a/pde05.tar.gz
    CHECK(all[1]["rows"] == 4);        // b/c4.mtx
    CHECK(stats(all[2]) == want);      // b/deeper/m.mtx.xz
}

TEST_CASE("spmvlab info takes several inputs, generator specs and directories", "[cli][io]")
{
    const auto one = json_of("info gen:pde:size=5 --json");  // a spec alone: one object
    REQUIRE(one.is_object());
    CHECK(one["rows"] == 125);
    const auto two = json_of("info gen:pde:size=5 " + sample("canonical4.mtx") + " --json")["results"];
    REQUIRE(two.is_array());
    REQUIRE(two.size() == 2);
    CHECK(two[0]["rows"] == 125);
    CHECK(two[1]["nnz"] == 9);
    // pde05.mtx is gen:pde:size=5 written out: the same matrix statistics
    const auto file = json_of("info " + sample("pde05.mtx") + " --json");
    for (const char* k : {"rows", "cols", "nnz", "row_length", "histogram"}) {
        CHECK(two[0][k] == file[k]);
    }
    const auto text = spmvlab("info gen:pde:size=5 " + sample("canonical4.mtx"));
    CHECK(text.status == 0);
    CHECK(text.out.find("canonical4.mtx") != std::string::npos);
    CHECK(text.out.find("gen:pde:size=5") != std::string::npos);
    // one bad input among several: the others are reported, the exit status says it
    const auto bad = spmvlab("info " + sample("canonical4.mtx") + " /nonexistent/x.mtx");
    CHECK(bad.status != 0);
}

TEST_CASE("Malformed compressed input: a clear error naming the file, non-zero exit", "[cli][io]")
{
    const auto dir = fresh_dir("io_bad");
    if (!have_compression_tools()) {
        SPMV_SKIP("gzip, bzip2, xz or tar is missing here");
    }
    if (!spmvlab_reads_gzip(dir)) {
        const auto r = spmvlab("info " + (dir / "probe.mtx.gz").string());
        CHECK(r.out.find("built without libarchive (libarchive-dev)") != std::string::npos);
        SPMV_SKIP("spmvlab was built without libarchive: checked its message only");
    }
    // truncated gzip
    sh("gzip -c " + sample("banded_1k.mtx") + " > " + (dir / "cut.mtx.gz").string());
    fs::resize_file(dir / "cut.mtx.gz", fs::file_size(dir / "cut.mtx.gz") / 2);
    auto r = spmvlab("info " + (dir / "cut.mtx.gz").string());
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("spmvlab: error: " + (dir / "cut.mtx.gz").string() + ": ") != std::string::npos);
    CHECK(r.out.find("truncated") != std::string::npos);
    // a tar without a .mtx
    std::ofstream(dir / "readme.txt") << "nothing here\n";
    sh("cd " + dir.string() + " && tar czf nomtx.tar.gz readme.txt");
    r = spmvlab("info " + (dir / "nomtx.tar.gz").string());
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("holds no .mtx member") != std::string::npos);
    // garbage behind a gzip magic, and plain garbage
    std::ofstream(dir / "garbage.mtx.gz", std::ios::binary)
        << std::string("\x1f\x8b\x08\x00", 4) << std::string(2000, '\x7f');
    r = spmvlab("info " + (dir / "garbage.mtx.gz").string());
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("garbage.mtx.gz: ") != std::string::npos);
    std::ofstream(dir / "noise.mtx", std::ios::binary) << std::string(3000, '\x01');
    r = spmvlab("info " + (dir / "noise.mtx").string());
    CHECK(r.status == 1);
    CHECK(r.out.find("missing Matrix Market banner") != std::string::npos);
    // truncated stream on stdin
    r = spmvlab("info - < " + (dir / "cut.mtx.gz").string());
    CHECK(r.status == 1);
    CHECK(r.out.find("<stdin>") != std::string::npos);
}

TEST_CASE("convert keeps the collection's header, generate writes symmetric matrices as such",
          "[cli][io]")
{
    const auto dir = fresh_dir("io_convert");
    std::ofstream(dir / "HBtiny.mtx") << suitesparse_file("HB", "tiny");
    const auto out = dir / "out.mtx";
    auto r = spmvlab("convert " + (dir / "HBtiny.mtx").string() + " " + out.string());
    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto text = slurp(out);
    CHECK(text.find("% UF Sparse Matrix Collection, Tim Davis\n% name: HB/tiny\n% [test matrix]\n"
                    "% id: 1\n") != std::string::npos);
    CHECK(text.find("% converted by spmvlab") != std::string::npos);
    CHECK(stats(json_of("info " + out.string() + " --json")) ==
          stats(json_of("info " + sample("pde05.mtx") + " --json")));

    // generate pde: SPD, so written `symmetric`, lower triangle only, the same matrix
    const auto pde = dir / "pde.mtx";
    r = spmvlab("generate pde --size 5 -o " + pde.string());
    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto pde_text = slurp(pde);
    CHECK(pde_text.rfind("%%MatrixMarket matrix coordinate real symmetric\n", 0) == 0);
    const auto j = json_of("info " + pde.string() + " --json");
    CHECK(j["symmetry"] == "symmetric");
    CHECK(j["nnz"] == 725);
    // 7-point stencil on 5^3: nnz = 125 + 2*(3*5*5*4) = 725; stored: diagonal + lower = 125 + 300
    CHECK(j["entries_in_file"] == 425);
    // a general matrix stays general
    const auto pl = dir / "pl.mtx";
    REQUIRE(spmvlab("generate powerlaw --rows 300 --max-len 50 -o " + pl.string()).status == 0);
    CHECK(slurp(pl).rfind("%%MatrixMarket matrix coordinate real general\n", 0) == 0);
}

// ------------------------------------------------------------------------------------- fetch

namespace {

const char* server_py = R"PY(
import http.server, os, sys, threading
root, port_file, log_file = sys.argv[1], sys.argv[2], sys.argv[3]
threading.Timer(300, lambda: os._exit(0)).start()  # never outlives a broken test run
class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=root, **k)
    def log_message(self, fmt, *args):
        with open(log_file, 'a') as f:
            f.write(self.requestline + '\n')
    def do_GET(self):
        if '/Endless/' in self.path:  # a body without end (stops after 1 GiB, or when refused)
            self.send_response(200)
            self.end_headers()
            chunk = b'x' * (1 << 20)
            try:
                for _ in range(1024):
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True
            return
        if '/Trunc/' in self.path:  # announce more bytes than it sends, then hang up
            data = open(os.path.join(root, self.path.lstrip('/')), 'rb').read()
            self.send_response(200)
            self.send_header('Content-Length', str(len(data) + 1000))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        super().do_GET()
server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
with open(port_file + '.tmp', 'w') as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + '.tmp', port_file)
server.serve_forever()
)PY";

std::string find_python()
{
    if (fs::exists("/usr/bin/python3")) {
        return "/usr/bin/python3";
    }
    const auto r = shell("command -v python3 2>/dev/null");
    auto path = r.out.substr(0, r.out.find('\n'));
    return r.status == 0 ? path : std::string();
}

/// The loopback server: started in the constructor, killed in the destructor.
class Server {
public:
    Server(const std::string& python, const fs::path& dir)
        : root_(dir / "www"), log_(dir / "requests.log")
    {
        std::ofstream(dir / "server.py") << server_py;
        const auto port_file = dir / "port";
        const auto r = shell(python + " " + (dir / "server.py").string() + " " + root_.string() +
                             " " + port_file.string() + " " + log_.string() +
                             " >" + (dir / "server.out").string() + " 2>&1 & echo $!");
        pid_ = std::atoi(r.out.c_str());
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (!fs::exists(port_file) && std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        if (fs::exists(port_file)) {
            port_ = std::atoi(slurp(port_file).c_str());
        }
    }
    ~Server()
    {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
        }
    }
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    int port() const { return port_; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    /// Requests answered so far.
    int requests() const
    {
        const auto text = slurp(log_);
        return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    }

private:
    fs::path root_;
    fs::path log_;
    int pid_ = 0;
    int port_ = 0;
};

/// A TCP port on 127.0.0.1 that nothing listens on (bound, then released).
int closed_port()
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(s);
    return ntohs(a.sin_port);
}

/// Files under `dir` (any depth) whose name contains `part`.
int files_named(const fs::path& dir, const std::string& part)
{
    int n = 0;
    std::error_code ec;
    if (!fs::exists(dir, ec)) {
        return 0;
    }
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        n += e.path().filename().string().find(part) != std::string::npos ? 1 : 0;
    }
    return n;
}

}  // namespace

TEST_CASE("spmvlab fetch downloads, checks and caches, against a loopback server", "[cli][io][fetch]")
{
    const auto dir = fresh_dir("io_fetch");
    const auto python = find_python();
    if (python.empty()) {
        SPMV_SKIP("python3 is not installed: no loopback HTTP server for the fetch test");
    }
    if (!have_compression_tools()) {
        SPMV_SKIP("gzip or tar is missing here");
    }
    if (!spmvlab_reads_gzip(dir)) {
        SPMV_SKIP("spmvlab was built without libarchive: it cannot check a downloaded archive");
    }
    if (spmvlab("fetch HB/x --cache " + (dir / "probe").string() + " --base-url http://127.0.0.1:1 --timeout 2")
            .out.find("built without libcurl") != std::string::npos) {
        SPMV_SKIP("spmvlab was built without libcurl: fetch cannot download");
    }
    // the collection's layout: www/MM/Group/Name.tar.gz with Name/Name.mtx, www/files/ssstats.csv
    const auto www = dir / "www";
    fs::create_directories(www / "MM" / "HB");
    fs::create_directories(www / "MM" / "Trunc");
    fs::create_directories(www / "MM" / "Bad");
    fs::create_directories(www / "MM" / "Size");
    fs::create_directories(www / "MM" / "Endless");
    fs::create_directories(www / "files");
    fs::create_directories(dir / "src" / "tiny");
    fs::create_directories(dir / "src" / "broken");
    std::ofstream(dir / "src" / "tiny" / "tiny.mtx") << suitesparse_file("HB", "tiny");
    fs::copy_file(sample("canonical4.mtx"), dir / "src" / "tiny" / "tiny_b.mtx");
    fs::copy_file(sample("canonical4.mtx"), dir / "src" / "broken" / "other.mtx");
    sh("cd " + (dir / "src").string() + " && tar czf " + (www / "MM" / "HB" / "tiny.tar.gz").string() +
       " tiny/tiny.mtx tiny/tiny_b.mtx && cp " + (www / "MM" / "HB" / "tiny.tar.gz").string() + " " +
       (www / "MM" / "Trunc" / "tiny.tar.gz").string() + " && cp " +
       (www / "MM" / "HB" / "tiny.tar.gz").string() + " " + (www / "MM" / "Size" / "tiny.tar.gz").string() +
       " && tar czf " + (www / "MM" / "Bad" / "broken.tar.gz").string() + " broken/other.mtx");
    std::ofstream(www / "files" / "ssstats.csv")
        << "5\n01-Jan-2024 00:00:00\n"
           "HB,tiny,125,125,725,1,0,0,1,1,1,\"structural problem\",725\n"
           "Trunc,tiny,125,125,725,1,0,0,1,1,1,structural problem,725\n"
           "Bad,broken,4,4,9,1,0,0,0,0,0,test,9\n"
           "Size,tiny,126,126,725,1,0,0,1,1,1,structural problem,725\n"
           "Endless,tiny,125,125,725,1,0,0,1,1,1,structural problem,725\n";

    Server server(python, dir);
    REQUIRE(server.port() > 0);
    const auto cache = dir / "cache";
    const std::string common = " --cache " + cache.string() + " --base-url " + server.url() + " --timeout 10";
    const auto archive = cache / "MM" / "HB" / "tiny.tar.gz";

    // first run: index + archive downloaded, checked, cached; progress on stderr
    auto r = spmvlab("fetch HB/tiny" + common);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("HB/tiny: " + archive.string()) != std::string::npos);
    CHECK(r.out.find("downloading " + server.url() + "/MM/HB/tiny.tar.gz") != std::string::npos);
    CHECK(fs::exists(archive));
    CHECK(fs::exists(archive.string() + ".sha256"));
    CHECK(fs::exists(cache / "files" / "ssstats.csv"));
    CHECK(files_named(cache, ".tmp-") == 0);
    CHECK(server.requests() == 2);
    CHECK(slurp(archive) == slurp(www / "MM" / "HB" / "tiny.tar.gz"));
    // the sidecar is sha256sum's format
    if (have_program("sha256sum")) {
        CHECK(shell("cd " + archive.parent_path().string() + " && sha256sum -c tiny.tar.gz.sha256").status == 0);
    }
    // what it fetched reads as the matrix it is
    const auto info = json_of("info $(" + std::string(SPMVLAB_EXE) + " fetch HB/tiny --print-path" +
                              common + ") --json");
    CHECK(stats(info) == stats(json_of("info " + sample("pde05.mtx") + " --json")));

    // second run, by id and by name, base URL from the environment: all from the cache
    const int before = server.requests();
    // (no base URL at all: the default https://sparse.tamu.edu is never asked)
    r = spmvlab("fetch 1 --print-path --cache " + cache.string(), false);
    CHECK(r.status == 0);
    CHECK(r.out == archive.string() + "\n");
    r = shell("SPMVLAB_SSGET_URL=" + server.url() + " " + SPMVLAB_EXE + " fetch 1 HB/tiny --print-path --cache " +
              cache.string() + " 2>/dev/null");
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out == archive.string() + "\n" + archive.string() + "\n");
    // a name alone must be unique in the index
    r = spmvlab("fetch tiny" + common);
    CHECK(r.status == 1);
    CHECK(r.out.find("tiny is ambiguous: HB/tiny, Trunc/tiny, Size/tiny, Endless/tiny; give Group/Name") !=
          std::string::npos);
    CHECK(server.requests() == before);

    // a damaged cache entry is noticed and downloaded again
    std::ofstream(archive, std::ios::app) << "x";
    r = spmvlab("fetch HB/tiny" + common);
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("no longer has its SHA-256") != std::string::npos);
    CHECK(server.requests() == before + 1);
    CHECK(slurp(archive) == slurp(www / "MM" / "HB" / "tiny.tar.gz"));

    // refused downloads leave nothing in the cache
    const auto fresh = dir / "fresh";
    const std::string fresh_opts = " --cache " + fresh.string() + " --base-url " + server.url() + " --timeout 10";
    r = spmvlab("fetch HB/tiny --sha256 " + std::string(64, '0') + fresh_opts);
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("is not the expected") != std::string::npos);
    CHECK(files_named(fresh / "MM", "tiny") == 0);
    r = spmvlab("fetch Trunc/tiny" + fresh_opts);  // the connection closes half-way
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("Trunc/tiny.tar.gz: download") != std::string::npos);
    CHECK(files_named(fresh / "MM", "tiny") == 0);
    r = spmvlab("fetch Bad/broken" + fresh_opts);  // no broken/broken.mtx inside
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("not broken/broken.mtx") != std::string::npos);
    CHECK(files_named(fresh / "MM", "broken") == 0);
    r = spmvlab("fetch Size/tiny" + fresh_opts);  // the index says 126 x 126
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("index says 126 x 126") != std::string::npos);
    CHECK(files_named(fresh / "MM", "tiny") == 0);
    // an endless body is stopped at the cap the index's size gives (64 MiB + 2 x (64 x 725 +
    // 32 x 125) bytes here), and nothing is kept; --max-download sets the cap
    r = spmvlab("fetch Endless/tiny" + fresh_opts);
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("Endless/tiny.tar.gz: the download is larger than its cap of 64.") !=
          std::string::npos);
    CHECK(files_named(fresh / "MM", "tiny") == 0);
    r = spmvlab("fetch HB/tiny --max-download 100" + fresh_opts);
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("larger than its cap of 100 B (--max-download 100)") != std::string::npos);
    CHECK(files_named(fresh / "MM", "tiny") == 0);
    r = spmvlab("fetch HB/tiny --max-download 1M --print-path" + fresh_opts, false);
    CHECK(r.status == 0);
    r = spmvlab("fetch HB/nothing" + fresh_opts);
    CHECK(r.status == 1);
    CHECK(r.out.find("no such matrix in the collection's index") != std::string::npos);
    CHECK(files_named(fresh, ".tmp-") == 0);

    // nobody listening: the offline message, exit 5 (exit_status::offline), quickly
    const auto t0 = std::chrono::steady_clock::now();
    const int port = closed_port();
    r = spmvlab("fetch HB/tiny --cache " + (dir / "offline").string() + " --base-url http://127.0.0.1:" +
                std::to_string(port) + " --timeout 5");
    INFO(r.out);
    CHECK(r.status == 5);
    CHECK(r.out.find("cannot reach 127.0.0.1:" + std::to_string(port) + ": ") != std::string::npos);
    CHECK(r.out.find("(offline?)") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
}
