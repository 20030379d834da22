// spmvlab fetch Group/Name | Name | ID ...: matrices of the SuiteSparse Matrix Collection
// (https://sparse.tamu.edu), downloaded once into a cache and read from there by every command;
// spmvlab fetch --search ...: the collection's index filtered by properties.
//
// Addresses (those of the collection's own tools, ssget and ssgetpy):
//   BASE/MM/Group/Name.tar.gz    the Matrix Market archive, members Name/Name.mtx (+ Name_b.mtx
//   ...) BASE/files/ssstats.csv       the index (fetch_index.hpp)
// BASE is https://sparse.tamu.edu, or $SPMVLAB_SSGET_URL, or --base-url: an http(s) address, or
// a local mirror, file:///DIR or a plain directory (fetch_local.hpp: the collection's layout,
// also a flat DIR/Name.tar.gz or DIR/Group/Name.tar.gz, or unpacked DIR/.../Name/Name.mtx).
//
// The cache (--cache DIR, else $XDG_CACHE_HOME/spmvlab, else ~/.cache/spmvlab) mirrors those
// paths: DIR/files/ssstats.csv and DIR/MM/Group/Name.tar.gz. The archive is kept as it is (every
// command reads .tar.gz directly, so nothing is unpacked), beside a "Name.tar.gz.sha256" line in
// sha256sum's format written once the download was checked. A cache entry is used when both
// exist and the archive still has that SHA-256; anything else is fetched again. Downloads go
// to a temporary file (io/atomic_file.hpp) that becomes the entry only after every check passed:
// the transfer complete (curl: HTTP 200, Content-Length bytes received), the SHA-256 equal to
// --sha256 when given, and the archive holding Name/Name.mtx with a valid Matrix Market header
// of the index's size and stored entries.
//
// Before downloading, fetch looks for the matrix on this machine: in the caches of ssget
// (~/.config/ssget) and ssgetpy (~/.ssgetpy), $SPMVLAB_ADOPT and --adopt DIR. A copy found there
// passes the same checks and is then adopted: an archive is copied into the cache (with its
// .sha256 line), an unpacked Name.mtx is used where it is, its SHA-256 recorded in
// DIR/MM/Group/Name.mtx.sha256 ("HEX  /path/to/Name.mtx", sha256sum's format) and checked on
// every later use. A mirror's files go through the same path (no network at all).
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

#if SPMVLAB_HAVE_CURL
#include <curl/curl.h>
#include <dlfcn.h>
#endif

#include <nlohmann/json.hpp>

#include <spmv/error.hpp>
#include <spmv/io/atomic_file.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/memory.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "fetch_index.hpp"
#include "fetch_local.hpp"
#include "hash.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

namespace fs = std::filesystem;
using fetch::Entry;
using fetch::Index;
using fetch::valid_name;

constexpr const char* default_base_url = "https://sparse.tamu.edu";

struct FetchOptions {
    std::vector<std::string> specs;
    std::string cache;
    std::string base_url;
    std::string sha256;
    std::vector<std::string> adopt;  ///< --adopt DIR ...
    bool no_adopt = false;           ///< --no-adopt: not the default places nor $SPMVLAB_ADOPT
    bool print_path = false;
    bool refresh_index = false;
    bool quiet = false;
    double timeout = 30;
    std::string max_download;  ///< --max-download SIZE; empty: the cap derived from the index
    // --search
    bool search = false;
    std::string rows, cols, nnz;  ///< ranges, parsed by fetch::parse_range
    fetch::Query query;
    int limit = 20;
    bool json = false;
};

/// The index ssstats.csv is one line per matrix (about 3,000 lines, ~0.5 MB in 2024): 64 MiB
/// leaves a factor of 100 for growth and refuses an endless or hostile body long before it
/// fills the disk or memory (the index is parsed line by line, but it is cached whole).
constexpr std::int64_t index_cap = std::int64_t{64} << 20;
/// A matrix archive holds Name.mtx (at most ~64 bytes of text per stored entry and ~32 per
/// row: two 10-digit indices and a 17-digit value) and vectors of a few per row (Name_b.mtx,
/// coordinates); gzip never makes text larger. So 2 x (64 nnz + 32 rows) + 64 MiB is a
/// generous bound for an honest archive of the size the index announces.
std::int64_t archive_cap(std::int64_t nnz, std::int64_t rows)
{
    if (nnz < 0 || rows < 0) {
        return std::int64_t{64} << 30;  // nothing known: 64 GiB, the largest archives' order
    }
    return 2 * (64 * nnz + 32 * rows) + (std::int64_t{64} << 20);
}

/// The server or the mirror could not be reached at all (as opposed to answering with an
/// error): exit_status::offline.
struct Unreachable : spmv::Error {
    using spmv::Error::Error;
};

fs::path cache_dir(const FetchOptions& o)
{
    if (!o.cache.empty()) {
        return o.cache;
    }
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x == '/') {
        return fs::path(x) / "spmvlab";
    }
    if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') {
        return fs::path(h) / ".cache" / "spmvlab";
    }
    SPMV_THROW(spmv::InvalidArgument,
               "no cache directory: HOME and XDG_CACHE_HOME are unset; give --cache DIR");
}

/// --base-url, else $SPMVLAB_SSGET_URL, else the collection; without trailing slashes. An
/// http(s) address, file:///DIR or a directory (fetch::mirror_dir checks which).
std::string base_url(const FetchOptions& o)
{
    std::string b = o.base_url;
    if (b.empty()) {
        const char* env = std::getenv("SPMVLAB_SSGET_URL");
        b = env != nullptr && *env != '\0' ? env : default_base_url;
    }
    while (b.size() > 1 && b.back() == '/' && b.substr(b.size() - 3) != "://") {
        b.pop_back();
    }
    return b;
}

/// "sparse.tamu.edu" of "https://sparse.tamu.edu/MM/...": the host (and port) for messages.
std::string host_of(const std::string& url)
{
    const auto start = url.find("://");
    const auto from = start == std::string::npos ? 0 : start + 3;
    const auto end = url.find('/', from);
    return url.substr(from, end == std::string::npos ? std::string::npos : end - from);
}

bool all_digits(const std::string& s)
{
    return !s.empty() && s.size() < 10 &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

bool is_sha256_hex(const std::string& s)
{
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

// ---------------------------------------------------------------------------------- download

void progress_line(const std::string& what, std::int64_t done, std::int64_t total, bool final)
{
    const bool tty = isatty(STDERR_FILENO) != 0;
    std::string line = what + ": " + fmt_bytes(static_cast<double>(done));
    if (total > 0) {
        line += " of " + fmt_bytes(static_cast<double>(total)) + " (" +
                std::to_string(static_cast<int>(100.0 * static_cast<double>(done) /
                                                static_cast<double>(total))) +
                "%)";
    }
    if (tty) {
        std::fprintf(stderr, "\r\033[K%s%s", line.c_str(), final ? "\n" : "");
    } else {
        std::fprintf(stderr, "%s\n", line.c_str());
    }
    std::fflush(stderr);
}

#if SPMVLAB_HAVE_CURL

struct Transfer {
    std::ostream* out = nullptr;
    std::optional<Sha256> hash;
    std::int64_t bytes = 0;
    std::int64_t cap = 0;    ///< the most bytes accepted (> 0)
    bool too_large = false;  ///< the body went past `cap`: stopped there
    bool write_failed = false;
    std::string what;  ///< for progress lines; empty: quiet
    std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
    int last_decile = -1;
};

size_t on_data(char* data, size_t size, size_t count, void* user)
{
    auto* t = static_cast<Transfer*>(user);
    const size_t n = size * count;
    if (t->bytes + static_cast<std::int64_t>(n) > t->cap) {
        t->too_large = true;
        return 0;  // curl stops with CURLE_WRITE_ERROR before anything past the cap is kept
    }
    t->out->write(data, static_cast<std::streamsize>(n));
    if (!*t->out) {
        t->write_failed = true;
        return 0;  // curl stops with CURLE_WRITE_ERROR
    }
    if (t->hash) {
        t->hash->update(data, n);
    }
    t->bytes += static_cast<std::int64_t>(n);
    return n;
}

int on_progress(void* user, curl_off_t total, curl_off_t done, curl_off_t, curl_off_t)
{
    auto* t = static_cast<Transfer*>(user);
    if (t->what.empty() || done <= 0) {
        return 0;
    }
    const auto now = std::chrono::steady_clock::now();
    if (isatty(STDERR_FILENO) != 0) {
        if (now - t->last > std::chrono::milliseconds(200)) {
            t->last = now;
            progress_line(t->what, done, total, false);
        }
    } else if (total > 0) {  // a log: one line per 25%
        const int q = static_cast<int>(4 * done / total);
        if (q > t->last_decile && q < 4) {
            t->last_decile = q;
            progress_line(t->what, done, total, false);
        }
    }
    return 0;
}

/// libcurl, loaded when fetch first downloads (dlopen) rather than linked: its dependencies
/// (Kerberos, LDAP, SSH, ...) would add ~3.5 ms to the start of every spmvlab command.
struct CurlApi {
    CURLcode (*global_init)(long) = nullptr;
    CURL* (*easy_init)() = nullptr;
    CURLcode (*setopt)(CURL*, CURLoption, ...) = nullptr;
    CURLcode (*perform)(CURL*) = nullptr;
    CURLcode (*getinfo)(CURL*, CURLINFO, ...) = nullptr;
    void (*cleanup)(CURL*) = nullptr;
    const char* (*strerror)(CURLcode) = nullptr;
};

const CurlApi& curl_api()
{
    static const CurlApi api = [] {
        CurlApi a;
        void* lib = ::dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr) {
            lib = ::dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
        }
        if (lib == nullptr) {
            const char* why = ::dlerror();
            SPMV_THROW(spmv::NotCompiled,
                       std::string("cannot load libcurl (libcurl4): ") + (why ? why : "not found"));
        }
        const auto load = [lib](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
            if (fn == nullptr) {
                SPMV_THROW(spmv::NotCompiled, std::string("libcurl has no ") + name);
            }
        };
        load(a.global_init, "curl_global_init");
        load(a.easy_init, "curl_easy_init");
        load(a.setopt, "curl_easy_setopt");
        load(a.perform, "curl_easy_perform");
        load(a.getinfo, "curl_easy_getinfo");
        load(a.cleanup, "curl_easy_cleanup");
        load(a.strerror, "curl_easy_strerror");
        if (a.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
            SPMV_THROW(spmv::Error, "cannot initialise libcurl");
        }
        return a;
    }();
    return api;
}

/// GET `url` into `out`, hashing it when `hash`; returns the bytes received. Throws Unreachable
/// when no connection could be made, InvalidArgument for an HTTP error, a broken transfer, or
/// a body larger than `cap` bytes (announced or streamed: refused at the cap, never kept).
std::int64_t http_get(const std::string& url, std::ostream& out, bool hash, double timeout,
                      const std::string& progress_what, std::string* sha256_hex, std::int64_t cap,
                      const std::string& cap_hint)
{
    const CurlApi& api = curl_api();
    struct Easy {
        const CurlApi& api;
        CURL* h = api.easy_init();
        ~Easy()
        {
            if (h != nullptr) {
                api.cleanup(h);
            }
        }
    } easy{api};
    if (easy.h == nullptr) {
        SPMV_THROW(spmv::Error, "cannot initialise libcurl");
    }
    Transfer t;
    t.out = &out;
    t.cap = cap;
    if (hash) {
        t.hash.emplace();
    }
    t.what = progress_what;
    char error[CURL_ERROR_SIZE] = "";
    CURL* h = easy.h;
    api.setopt(h, CURLOPT_URL, url.c_str());
    api.setopt(h, CURLOPT_ERRORBUFFER, error);
    api.setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    api.setopt(h, CURLOPT_MAXREDIRS, 5L);
#if LIBCURL_VERSION_NUM >= 0x075500
    api.setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    api.setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
    api.setopt(h, CURLOPT_FAILONERROR, 1L);  // 404 & co. are errors, not content
    api.setopt(h, CURLOPT_NOSIGNAL, 1L);
    api.setopt(h, CURLOPT_USERAGENT, "spmvlab/0.1.0 (libcurl)");
    // never hang: a connection within `timeout`, and then at least 1 byte/s over `timeout`
    api.setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout * 1000));
    api.setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
    api.setopt(h, CURLOPT_LOW_SPEED_TIME, std::max(1L, static_cast<long>(timeout)));
    api.setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(cap));  // announced size
    api.setopt(h, CURLOPT_WRITEFUNCTION, on_data);
    api.setopt(h, CURLOPT_WRITEDATA, &t);
    api.setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
    api.setopt(h, CURLOPT_XFERINFODATA, &t);
    api.setopt(h, CURLOPT_NOPROGRESS, 0L);
    const CURLcode rc = api.perform(h);
    const std::string why = error[0] != '\0' ? error : api.strerror(rc);
    if (rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY ||
        rc == CURLE_COULDNT_CONNECT || (rc == CURLE_OPERATION_TIMEDOUT && t.bytes == 0)) {
        throw Unreachable(__FILE__, __LINE__,
                          "cannot reach " + host_of(url) + ": " + why + " (offline?)");
    }
    if (t.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
        SPMV_THROW(spmv::InvalidArgument, url + ": the download is larger than its cap of " +
                                              fmt_bytes(static_cast<double>(cap)) + " (" +
                                              cap_hint + "); stopped, nothing kept");
    }
    if (t.write_failed) {
        SPMV_THROW(spmv::Error, url + ": cannot write the download (disk full?)");
    }
    if (rc != CURLE_OK) {
        long status = 0;
        api.getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        SPMV_THROW(spmv::InvalidArgument,
                   url + ": download failed: " + why +
                       (status == 404 ? " (no such matrix on the server?)" : "") +
                       (t.bytes > 0 ? " after " + fmt_bytes(static_cast<double>(t.bytes)) : ""));
    }
    curl_off_t expected = -1;
    api.getinfo(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expected);
    if (expected >= 0 && expected != t.bytes) {
        SPMV_THROW(spmv::InvalidArgument,
                   url + ": download incomplete: " + std::to_string(t.bytes) +
                       " bytes received, the server announced " + std::to_string(expected));
    }
    if (!progress_what.empty()) {
        progress_line(progress_what, t.bytes, expected, true);
    }
    if (t.hash && sha256_hex != nullptr) {
        *sha256_hex = t.hash->hex();
    }
    return t.bytes;
}

#else

std::int64_t http_get(const std::string& url, std::ostream&, bool, double, const std::string&,
                      std::string*, std::int64_t, const std::string&)
{
    SPMV_THROW(
        spmv::NotCompiled,
        "cannot download " + url +
            ": this spmvlab was built without libcurl "
            "(libcurl4-openssl-dev); download it yourself and give the file to the commands");
}

#endif

// ---------------------------------------------------------------------------------- fetching

class Fetcher {
public:
    explicit Fetcher(const FetchOptions& o)
        : o_(o),
          cache_(cache_dir(o)),
          base_(base_url(o)),
          mirror_(fetch::mirror_dir(base_)),
          adopt_(fetch::adopt_dirs(o.adopt, !o.no_adopt))
    {}

    /// The matrix of `spec`: from the cache, else adopted from a local copy (ssget's or
    /// ssgetpy's cache, --adopt), else from the mirror or downloaded.
    fs::path fetch(const std::string& spec)
    {
        Entry e = resolve(spec);
        const fs::path dir = cache_ / "MM" / e.group;
        const fs::path archive = dir / (e.name + ".tar.gz");
        const std::string label = e.group + "/" + e.name;
        if (cached(archive)) {
            if (!o_.print_path) {
                say(label + ": in the cache");
            }
            return archive;
        }
        if (auto p = cached_unpacked(dir / (e.name + ".mtx.sha256"))) {
            if (!o_.print_path) {
                say(label + ": in the cache (the adopted file " + p->string() + ")");
            }
            return *p;
        }
        for (const auto& d : adopt_) {
            const auto copy = fetch::find_local(d.path, e.group, e.name);
            if (!copy) {
                continue;
            }
            index_for_checks(e, spec, false);
            try {
                return adopt(e, *copy, d.label);
            } catch (const spmv::Error& x) {
                std::fprintf(stderr, "spmvlab: %s: %s; not adopted\n", label.c_str(),
                             user_message(x.what()).c_str());
            }
        }
        if (mirror_) {
            const fs::path root = mirror_root();
            index_for_checks(e, spec, false);
            const auto copy = fetch::find_local(root, e.group, e.name);
            if (!copy) {
                std::string looked;
                for (const auto& p : fetch::local_candidates(root, e.group, e.name)) {
                    looked += "\n  " + p.string();
                }
                SPMV_THROW(spmv::InvalidArgument,
                           "not on the mirror " + root.string() + "; looked for:" + looked);
            }
            return adopt(e, *copy, "the mirror");
        }
        index_for_checks(e, spec, true);
        download(e, dir, archive);
        return archive;
    }

    /// The collection's index, from the cache, else copied from the mirror or an adopted
    /// directory (ssget keeps one), else downloaded (throws Unreachable, saying what to do).
    const Index& index() { return load_index(); }
    fs::path index_path() const { return cache_ / "files" / "ssstats.csv"; }

private:
    /// A progress line on stderr (unless --quiet).
    void say(const std::string& line) const
    {
        if (!o_.quiet) {
            std::fprintf(stderr, "%s\n", line.c_str());
        }
    }

    /// Group/Name: as it is (looked up in the index only when that is at hand). An id or a
    /// bare Name: looked up in the index (fetched when not cached).
    Entry resolve(const std::string& spec)
    {
        const auto slash = spec.find('/');
        if (slash != std::string::npos) {
            Entry e;
            e.group = spec.substr(0, slash);
            e.name = spec.substr(slash + 1);
            if (!valid_name(e.group) || !valid_name(e.name)) {
                SPMV_THROW(spmv::InvalidArgument,
                           "'" + spec + "' is not Group/Name (letters, digits, _ - . + only)");
            }
            if (index_) {
                for (const auto& x : index_->entries) {
                    if (x.group == e.group && x.name == e.name) {
                        return x;
                    }
                }
                SPMV_THROW(spmv::InvalidArgument,
                           spec + ": no such matrix in the collection's index (" +
                               index_path().string() + "); names are case-sensitive");
            }
            return e;
        }
        const auto& index = load_index().entries;
        if (all_digits(spec)) {
            const auto id = *fetch::to_int(spec);
            if (id < 1 || id > static_cast<std::int64_t>(index.size())) {
                SPMV_THROW(spmv::InvalidArgument, "id " + spec +
                                                      ": the collection's ids run from 1 to " +
                                                      std::to_string(index.size()));
            }
            return index[static_cast<std::size_t>(id - 1)];
        }
        if (!valid_name(spec)) {
            SPMV_THROW(spmv::InvalidArgument,
                       "'" + spec + "' is neither Group/Name, Name nor an id");
        }
        std::vector<const Entry*> hits;
        for (const auto& x : index) {
            if (x.name == spec) {
                hits.push_back(&x);
            }
        }
        if (hits.empty()) {
            SPMV_THROW(spmv::InvalidArgument,
                       spec + ": no matrix of that name in the collection's index");
        }
        if (hits.size() > 1) {
            std::string all;
            for (const auto* x : hits) {
                all += (all.empty() ? "" : ", ") + x->group + "/" + x->name;
            }
            SPMV_THROW(spmv::InvalidArgument, spec + " is ambiguous: " + all + "; give Group/Name");
        }
        return *hits.front();
    }

    /// A Group/Name spec: the index (when it can be had) gives the size the copy is checked
    /// against. Without one the copy is checked for its member and header only, and that is
    /// said; `must_reach` (a download follows): an unreachable server is the answer.
    void index_for_checks(Entry& e, const std::string& spec, bool must_reach)
    {
        if (e.id != 0 || index_) {
            return;
        }
        const std::string label = e.group + "/" + e.name;
        try {
            load_index();
            e = resolve(spec);
        } catch (const Unreachable& x) {
            if (must_reach) {
                throw;
            }
            std::fprintf(stderr, "spmvlab: %s: no index at hand (%s); its size is not checked\n",
                         label.c_str(), user_message(x.what()).c_str());
        } catch (const spmv::NotCompiled& x) {
            if (must_reach) {
                throw;
            }
            std::fprintf(stderr, "spmvlab: %s: no index at hand (%s); its size is not checked\n",
                         label.c_str(), user_message(x.what()).c_str());
        } catch (const spmv::Error& x) {
            if (index_) {
                throw;  // the index is there and does not list the matrix
            }
            std::fprintf(stderr, "spmvlab: %s: no index (%s); its size is not checked\n",
                         label.c_str(), user_message(x.what()).c_str());
        }
    }

    /// The mirror's directory; Unreachable when it is not there (an unmounted share).
    fs::path mirror_root() const
    {
        std::error_code ec;
        if (!fs::is_directory(*mirror_, ec)) {
            // "sparse.tamu.edu" is read as a directory: say how a server is named
            const bool bare = base_.find('/') == std::string::npos;
            throw Unreachable(__FILE__, __LINE__,
                              "cannot reach the mirror " + mirror_->string() +
                                  ": no such directory (not mounted?" +
                                  (bare ? " For a server give https://" + base_ : std::string()) +
                                  ")");
        }
        return *mirror_;
    }

    const Index& load_index()
    {
        if (index_) {
            return *index_;
        }
        const auto path = index_path();
        std::error_code ec;
        if (o_.refresh_index || !fs::exists(path, ec)) {
            fs::create_directories(path.parent_path(), ec);
            if (ec) {
                SPMV_THROW(spmv::InvalidArgument, path.parent_path().string() +
                                                      ": cannot create the cache: " + ec.message());
            }
            std::optional<fs::path> local;
            std::string from;
            if (mirror_) {
                const auto root = mirror_root();
                local = fetch::local_index(root);
                if (!local) {
                    SPMV_THROW(spmv::InvalidArgument,
                               "the mirror " + root.string() +
                                   " has no index: neither files/ssstats.csv nor ssstats.csv");
                }
                from = "the mirror";
            } else if (!o_.refresh_index) {
                for (const auto& d : adopt_) {
                    if ((local = fetch::local_index(d.path))) {
                        from = d.label;
                        break;
                    }
                }
            }
            spmv::io::AtomicFile out(path);
            if (local) {
                if (fs::file_size(*local, ec) > static_cast<std::uintmax_t>(index_cap)) {
                    SPMV_THROW(
                        spmv::InvalidArgument,
                        local->string() + ": larger than 64 MiB: not the collection's ssstats.csv");
                }
                std::ifstream in(*local, std::ios::binary);
                out.stream() << in.rdbuf();
                if (!o_.quiet) {
                    std::fprintf(stderr, "index ssstats.csv: copied from %s %s\n", from.c_str(),
                                 local->string().c_str());
                }
            } else {
                const std::string url = base_ + "/files/ssstats.csv";
                try {
                    http_get(url, out.stream(), false, o_.timeout,
                             o_.quiet ? "" : "index ssstats.csv", nullptr, index_cap,
                             "the index's cap: one line per matrix, 64 MiB");
                } catch (const Unreachable& x) {
                    throw Unreachable(
                        __FILE__, __LINE__,
                        "the collection's index is not in the cache (" + path.string() +
                            ") and cannot be downloaded: " + user_message(x.what()) +
                            ". Once online, any fetch of a name or id caches it; offline, give a "
                            "mirror holding files/ssstats.csv (--base-url DIR) or a directory "
                            "holding ssstats.csv (--adopt DIR, as ssget's ~/.config/ssget)");
                }
            }
            out.stream().flush();
            std::ifstream check(out.temp_path());
            fetch::parse_index(check, local ? local->string() : base_ + "/files/ssstats.csv");
            out.commit();  // a broken index never becomes the cached one
        }
        if (fs::file_size(path, ec) > static_cast<std::uintmax_t>(index_cap) && !ec) {
            SPMV_THROW(spmv::InvalidArgument,
                       path.string() +
                           ": the cached index is larger than 64 MiB: not the "
                           "collection's ssstats.csv (--refresh-index replaces it)");
        }
        std::ifstream in(path);
        if (!in) {
            SPMV_THROW(spmv::InvalidArgument, path.string() + ": cannot open the cached index");
        }
        index_ = fetch::parse_index(in, path.string());
        return *index_;
    }

    /// The archive and its checksum line exist, and the archive still has that checksum (and
    /// --sha256's, when given).
    bool cached(const fs::path& archive) const
    {
        std::error_code ec;
        const fs::path sum = archive.string() + ".sha256";
        if (!have_sha256()) {  // no OpenSSL: an archive is there only once it was checked
            return o_.sha256.empty() && fs::is_regular_file(archive, ec);
        }
        if (!fs::is_regular_file(archive, ec) || !fs::is_regular_file(sum, ec)) {
            return false;
        }
        std::ifstream in(sum);
        std::string recorded;
        in >> recorded;
        if (recorded.size() != 64) {
            return false;
        }
        if (!o_.sha256.empty() && recorded != o_.sha256) {
            return false;
        }
        try {
            if (sha256_file(archive) == recorded) {
                return true;
            }
        } catch (const spmv::Error&) {
        }
        std::fprintf(stderr,
                     "spmvlab: %s: the cached file no longer has its SHA-256; fetching it again\n",
                     archive.string().c_str());
        return false;
    }

    /// An adopted unpacked Name.mtx recorded in `record` ("HEX  /path/Name.mtx"), when it is
    /// still there with that SHA-256 (and --sha256's).
    std::optional<fs::path> cached_unpacked(const fs::path& record) const
    {
        std::error_code ec;
        if (!have_sha256() || !fs::is_regular_file(record, ec)) {
            return std::nullopt;
        }
        std::ifstream in(record);
        std::string line;
        std::getline(in, line);
        if (line.size() < 67 || line.compare(64, 2, "  ") != 0 ||
            !is_sha256_hex(line.substr(0, 64))) {
            return std::nullopt;
        }
        const std::string recorded = line.substr(0, 64);
        const fs::path file = line.substr(66);
        if (!o_.sha256.empty() && recorded != o_.sha256) {
            return std::nullopt;
        }
        try {
            if (fs::is_regular_file(file, ec) && sha256_file(file) == recorded) {
                return file;
            }
        } catch (const spmv::Error&) {
        }
        std::fprintf(
            stderr, "spmvlab: %s: no longer there with the SHA-256 recorded in %s; looking again\n",
            file.string().c_str(), record.string().c_str());
        return std::nullopt;
    }

    /// The cap on an archive's size (the index's size, or --max-download) and its explanation.
    std::pair<std::int64_t, std::string> cap_of(const Entry& e) const
    {
        if (!o_.max_download.empty()) {
            const auto given = spmv::parse_byte_size(o_.max_download);
            if (!given || *given == 0) {
                SPMV_THROW(spmv::InvalidArgument, "--max-download '" + o_.max_download +
                                                      "' is not a size such as 8G or 512M");
            }
            return {static_cast<std::int64_t>(*given), "--max-download " + o_.max_download};
        }
        return {archive_cap(e.nnz, e.rows),
                "2 x (64 bytes per entry + 32 per row) of the index's size + 64 MiB; "
                "--max-download SIZE to change it"};
    }

    /// Takes the copy `c` found in a local directory (`from`: "ssget's cache", "the mirror",
    /// ...) after the checks a download gets: an archive is copied into the cache with its
    /// .sha256 line; an unpacked Name.mtx stays where it is, its SHA-256 recorded in the cache.
    fs::path adopt(const Entry& e, const fetch::LocalCopy& c, const std::string& from)
    {
        const std::string label = e.group + "/" + e.name;
        const std::string where = c.path.string();
        const fs::path dir = cache_ / "MM" / e.group;
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) {
            SPMV_THROW(spmv::InvalidArgument,
                       dir.string() + ": cannot create the cache: " + ec.message());
        }
        const bool hash = have_sha256();
        if (!o_.sha256.empty() && !hash) {
            SPMV_THROW(spmv::NotCompiled,
                       "--sha256: this spmvlab was built without OpenSSL (libssl-dev)");
        }
        const auto [cap, hint] = cap_of(e);
        const auto bytes = static_cast<std::int64_t>(fs::file_size(c.path, ec));
        if (ec) {
            SPMV_THROW(spmv::InvalidArgument, where + ": cannot read it: " + ec.message());
        }
        if (!c.unpacked && bytes > cap) {
            SPMV_THROW(spmv::InvalidArgument, where + ": " + fmt_bytes(static_cast<double>(bytes)) +
                                                  " is larger than the cap of " +
                                                  fmt_bytes(static_cast<double>(cap)) + " (" +
                                                  hint + ")");
        }
        if (c.unpacked) {
            verify(e, c.path, where, "; not used");
            const std::string sha = hash ? sha256_file(c.path) : std::string();
            check_sha256(sha, where, "; not used");
            const fs::path record = dir / (e.name + ".mtx.sha256");
            const fs::path absolute = fs::absolute(c.path, ec);
            if (hash) {
                spmv::io::write_file_atomically(record, sha + "  " + absolute.string() + "\n");
            }
            say(label + ": adopted from " + from + ", unpacked: " + absolute.string() +
                " checked (" + checked_what(e, sha) + ")" +
                (hash ? ", recorded in " + record.string() : std::string()));
            return absolute;
        }
        const fs::path archive = dir / (e.name + ".tar.gz");
        const fs::path sum = archive.string() + ".sha256";
        fs::remove(sum, ec);  // from here on the entry is not valid until the new line is written
        spmv::io::AtomicFile out(archive);
        std::string sha;
        {
            std::ifstream in(c.path, std::ios::binary);
            if (!in) {
                SPMV_THROW(spmv::InvalidArgument, where + ": cannot open it");
            }
            std::optional<Sha256> h;
            if (hash) {
                h.emplace();
            }
            std::vector<char> buf(1 << 20);
            while (in) {
                in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
                const auto n = static_cast<std::size_t>(in.gcount());
                out.stream().write(buf.data(), static_cast<std::streamsize>(n));
                if (h) {
                    h->update(buf.data(), n);
                }
            }
            if (in.bad()) {
                SPMV_THROW(spmv::InvalidArgument, where + ": cannot read it");
            }
            out.stream().flush();
            if (!out.stream()) {
                SPMV_THROW(spmv::Error, archive.string() + ": cannot write the copy (disk full?)");
            }
            if (h) {
                sha = h->hex();
            }
        }
        if (c.recorded_sha256 && hash) {
            std::ifstream in(*c.recorded_sha256);
            std::string recorded;
            in >> recorded;
            if (recorded != sha) {
                SPMV_THROW(spmv::InvalidArgument,
                           where + ": SHA-256 " + sha + " is not the " +
                               (recorded.empty() ? std::string("(empty)") : recorded) +
                               " recorded beside it in " + c.recorded_sha256->string() +
                               " (a damaged copy?); not copied");
            }
        }
        check_sha256(sha, where, "; not copied");
        verify(e, out.temp_path(), where, "; not copied");
        out.commit();
        if (hash) {
            spmv::io::write_file_atomically(sum, sha + "  " + e.name + ".tar.gz\n");
        }
        say(label + ": copied from " + from + " " + where + ": " +
            fmt_bytes(static_cast<double>(bytes)) + " checked (" + checked_what(e, sha) +
            "), cached as " + archive.string());
        return archive;
    }

    void check_sha256(const std::string& sha, const std::string& where, const char* outcome) const
    {
        if (!o_.sha256.empty() && sha != o_.sha256) {
            SPMV_THROW(spmv::InvalidArgument,
                       where + ": SHA-256 " + sha + " is not the expected " + o_.sha256 + outcome);
        }
    }

    static std::string checked_what(const Entry& e, const std::string& sha)
    {
        std::string s = e.rows >= 0 ? std::to_string(e.rows) + " x " + std::to_string(e.cols) +
                                          " as the index says"
                                    : "header; no index";
        if (!sha.empty()) {
            s += ", SHA-256 " + sha.substr(0, 16) + "...";
        }
        return s;
    }

    void download(const Entry& e, const fs::path& dir, const fs::path& archive)
    {
        const std::string label = e.group + "/" + e.name;
        const std::string url = base_ + "/MM/" + e.group + "/" + e.name + ".tar.gz";
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) {
            SPMV_THROW(spmv::InvalidArgument,
                       dir.string() + ": cannot create the cache: " + ec.message());
        }
        const fs::path sum = archive.string() + ".sha256";
        fs::remove(sum, ec);  // from here on the entry is not valid until the new line is written
        if (!o_.quiet) {
            std::fprintf(stderr, "%s: downloading %s\n", label.c_str(), url.c_str());
        }
        spmv::io::AtomicFile out(archive);
        std::string sha;
        const bool hash = have_sha256();
        const auto [cap, hint] = cap_of(e);
        const auto bytes =
            http_get(url, out.stream(), hash, o_.timeout, o_.quiet ? "" : label, &sha, cap, hint);
        out.stream().flush();
        if (!out.stream()) {
            SPMV_THROW(spmv::Error, archive.string() + ": cannot write the download");
        }
        if (!o_.sha256.empty()) {
            if (!hash) {
                SPMV_THROW(spmv::NotCompiled,
                           "--sha256: this spmvlab was built without OpenSSL (libssl-dev)");
            }
            check_sha256(sha, url, "; the download was discarded");
        }
        verify(e, out.temp_path(), url, "; the download was discarded");
        out.commit();
        if (hash) {
            spmv::io::write_file_atomically(sum, sha + "  " + e.name + ".tar.gz\n");
        }
        if (!o_.quiet) {
            std::fprintf(stderr, "%s: %s checked%s, cached as %s\n", label.c_str(),
                         fmt_bytes(static_cast<double>(bytes)).c_str(),
                         hash ? (" (SHA-256 " + sha.substr(0, 16) + "...)").c_str() : "",
                         archive.string().c_str());
        }
    }

    /// `file` (an archive holding Name/Name.mtx, or Name.mtx itself) has a valid header naming
    /// no other matrix of the collection, of the index's size and stored entries when known.
    /// The stored entries: a general file lists the index's pattern_entries (nnz plus explicit
    /// zeros; at least nnz when the index has no such column); a symmetric one lists one
    /// triangle, so between half of them and all of them.
    static void verify(const Entry& e, const fs::path& file, const std::string& where,
                       const std::string& outcome)
    {
        spmv::io::MatrixMarketInfo h;
        try {
            h = spmv::io::read_matrix_market_header(file);
        } catch (const spmv::Error& x) {
            SPMV_THROW(spmv::InvalidArgument,
                       where + ": not a valid matrix " +
                           (file.extension() == ".mtx" ? "file" : "archive") + " (" +
                           user_message(x.what()) + ")" + outcome);
        }
        const std::string want = e.name + ".mtx";
        const auto& m = h.archive_member;
        if (file.extension() != ".mtx" || !m.empty()) {
            const bool named = m.size() >= want.size() + 1 &&
                               m.compare(m.size() - want.size(), want.size(), want) == 0 &&
                               m[m.size() - want.size() - 1] == '/';
            if (!named) {
                SPMV_THROW(spmv::InvalidArgument,
                           where + ": the archive holds " +
                               (m.empty() ? std::string("no tar member") : m) + ", not " + e.name +
                               "/" + want + outcome);
            }
        }
        if ((e.rows >= 0 && h.rows != e.rows) || (e.cols >= 0 && h.cols != e.cols)) {
            SPMV_THROW(spmv::InvalidArgument, where + ": the matrix is " + std::to_string(h.rows) +
                                                  " x " + std::to_string(h.cols) +
                                                  " but the index says " + std::to_string(e.rows) +
                                                  " x " + std::to_string(e.cols) + outcome);
        }
        const auto& named_as = h.collection_name;
        if (named_as.find('/') != std::string::npos && named_as != e.group + "/" + e.name) {
            SPMV_THROW(spmv::InvalidArgument, where + ": the file says it is " + named_as +
                                                  ", not " + e.group + "/" + e.name + outcome);
        }
        if (e.nnz >= 0) {
            const bool general = h.symmetry == spmv::io::Symmetry::general;
            const auto p = e.pattern_entries;
            const bool ok =
                general ? (p >= 0 ? h.entries == p : h.entries >= e.nnz)
                        : (p >= 0 ? h.entries <= p && p <= 2 * h.entries : e.nnz <= 2 * h.entries);
            if (!ok) {
                SPMV_THROW(
                    spmv::InvalidArgument,
                    where + ": the file stores " + std::to_string(h.entries) + " entries (" +
                        (general ? "general" : "one triangle") + ") but the index says " +
                        std::to_string(e.nnz) + " nonzeros" +
                        (p >= 0 ? ", " + std::to_string(p) + " pattern entries" : std::string()) +
                        outcome);
            }
        }
    }

    const FetchOptions& o_;
    fs::path cache_;
    std::string base_;
    std::optional<fs::path> mirror_;
    std::vector<fetch::AdoptDir> adopt_;
    std::optional<Index> index_;
};

// ---------------------------------------------------------------------------------- search

nlohmann::json range_json(const std::optional<fetch::Range>& r)
{
    if (!r) {
        return nullptr;
    }
    return {{"min", r->min ? nlohmann::json(*r->min) : nlohmann::json(nullptr)},
            {"max", r->max ? nlohmann::json(*r->max) : nlohmann::json(nullptr)}};
}

nlohmann::json entry_json(const Entry& e)
{
    const auto flag = [](int v) {
        return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v == 1);
    };
    const auto num = [](double v) { return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); };
    return {{"id", e.id},
            {"group", e.group},
            {"name", e.name},
            {"rows", e.rows},
            {"cols", e.cols},
            {"nnz", e.nnz},
            {"real", flag(e.is_real)},
            {"binary", flag(e.is_binary)},
            {"nd", flag(e.is_nd)},
            {"spd", flag(e.posdef)},
            {"pattern_symmetry", num(e.pattern_symmetry)},
            {"numerical_symmetry", num(e.numerical_symmetry)},
            {"kind", e.kind},
            {"pattern_entries",
             e.pattern_entries < 0 ? nlohmann::json(nullptr) : nlohmann::json(e.pattern_entries)}};
}

void run_search(FetchOptions o)
{
    try {  // a malformed range is a usage error
        if (!o.rows.empty()) {
            o.query.rows = fetch::parse_range(o.rows, "--rows");
        }
        if (!o.cols.empty()) {
            o.query.cols = fetch::parse_range(o.cols, "--cols");
        }
        if (!o.nnz.empty()) {
            o.query.nnz = fetch::parse_range(o.nnz, "--nnz");
        }
    } catch (const spmv::InvalidArgument& e) {
        throw CLI::ValidationError("fetch", user_message(e.what()));
    }
    Fetcher f(o);
    const Index& index = f.index();
    std::vector<const Entry*> hits;
    for (const auto& e : index.entries) {
        if (fetch::matches(e, o.query)) {
            hits.push_back(&e);
        }
    }
    const std::size_t shown =
        o.limit > 0 ? std::min<std::size_t>(hits.size(), static_cast<std::size_t>(o.limit))
                    : hits.size();
    if (o.json) {  // schema spmvlab/1 (schemas/fetch-search.schema.json)
        const auto& q = o.query;
        const auto text = [](const std::string& s) {
            return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
        };
        nlohmann::json matches = nlohmann::json::array();
        for (std::size_t k = 0; k < shown; ++k) {
            matches.push_back(entry_json(*hits[k]));
        }
        nlohmann::json body = {{"index",
                                {{"path", f.index_path().string()},
                                 {"date", index.date},
                                 {"matrices", index.entries.size()}}},
                               {"query",
                                {{"rows", range_json(q.rows)},
                                 {"cols", range_json(q.cols)},
                                 {"nnz", range_json(q.nnz)},
                                 {"kind", text(q.kind)},
                                 {"group", text(q.group)},
                                 {"name", text(q.name)},
                                 {"spd", q.spd},
                                 {"symmetric", q.symmetric},
                                 {"real", q.real},
                                 {"square", q.square}}},
                               {"total", hits.size()},
                               {"limit", o.limit},
                               {"matches", matches}};
        std::printf("%s\n", with_meta("fetch", body).dump(2).c_str());
        return;
    }
    std::size_t wname = std::string("Group/Name").size();
    for (std::size_t k = 0; k < shown; ++k) {
        wname = std::max(wname, hits[k]->group.size() + 1 + hits[k]->name.size());
    }
    const int w = static_cast<int>(wname);
    if (shown > 0) {
        std::printf("%-*s %7s %10s %10s %12s  %s\n", w, "Group/Name", "id", "rows", "cols", "nnz",
                    "kind");
    }
    for (std::size_t k = 0; k < shown; ++k) {
        const auto& e = *hits[k];
        std::printf("%-*s %7lld %10lld %10lld %12lld  %s\n", w, (e.group + "/" + e.name).c_str(),
                    static_cast<long long>(e.id), static_cast<long long>(e.rows),
                    static_cast<long long>(e.cols), static_cast<long long>(e.nnz), e.kind.c_str());
    }
    std::fflush(stdout);
    if (!o.quiet) {
        std::fprintf(
            stderr, "%zu of %zu matrices match (index of %s, %s)%s\n", hits.size(),
            index.entries.size(), index.date.c_str(), f.index_path().string().c_str(),
            shown < hits.size()
                ? ("; the first " + std::to_string(shown) + " shown (--limit 0: all)").c_str()
                : "");
    }
}

void run(const FetchOptions& o)
{
    if (o.search) {
        if (!o.specs.empty()) {
            throw CLI::ValidationError("fetch",
                                       "--search takes no matrices: it lists those of the index "
                                       "that match its filters");
        }
        try {
            run_search(o);
        } catch (const Unreachable& e) {
            std::fprintf(stderr, "spmvlab: fetch --search: %s\n", user_message(e.what()).c_str());
            throw ExitCode{exit_status::offline};
        }
        return;
    }
    if (o.specs.empty()) {
        throw CLI::ValidationError("fetch",
                                   "give the matrices to fetch (Group/Name, Name or id), or "
                                   "--search with filters");
    }
    if (!o.sha256.empty()) {
        if (!is_sha256_hex(o.sha256)) {
            SPMV_THROW(spmv::InvalidArgument, "--sha256 wants 64 lowercase hex digits");
        }
        if (o.specs.size() != 1) {
            SPMV_THROW(spmv::InvalidArgument, "--sha256 checks one matrix: give one Group/Name");
        }
    }
    Fetcher f(o);
    int status = 0;
    for (const auto& spec : o.specs) {
        try {
            const auto path = f.fetch(spec);
            if (o.print_path) {
                std::printf("%s\n", path.string().c_str());
            } else {
                std::printf("%s: %s\n", spec.c_str(), path.string().c_str());
            }
            std::fflush(stdout);
        } catch (const Unreachable& e) {
            std::fprintf(stderr, "spmvlab: fetch %s: %s\n", spec.c_str(),
                         user_message(e.what()).c_str());
            status = status == 0 ? exit_status::offline : status;
        } catch (const spmv::Error& e) {
            std::fprintf(stderr, "spmvlab: fetch %s: %s\n", spec.c_str(),
                         user_message(e.what()).c_str());
            status = exit_status::error;
        }
    }
    if (status != 0) {
        throw ExitCode{status};
    }
}

}  // namespace

void add_fetch_command(CLI::App& app)
{
    auto o = std::make_shared<FetchOptions>();
    auto* cmd = app.add_subcommand(
        "fetch",
        "get matrices of the SuiteSparse Matrix Collection (sparse.tamu.edu) into a cache, "
        "checked (SHA-256, holds Name/Name.mtx of the index's size), and print where they are: "
        "spmvlab info $(spmvlab fetch HB/bcsstk16 --print-path). Offline: from a local mirror "
        "(--base-url DIR), or adopted from ssget's / ssgetpy's cache. --search lists the index's "
        "matrices by properties. Exit 0, 1 (refused or failed, unknown matrix), 5 (server or "
        "mirror unreachable: offline)");
    cmd->add_option("matrices", o->specs,
                    "Group/Name (HB/bcsstk16), a name alone (bcsstk16) or a collection id (35); "
                    "names and ids are looked up in the collection's index ssstats.csv");
    cmd->add_option(
           "--cache", o->cache,
           "cache directory (default $XDG_CACHE_HOME/spmvlab, else ~/.cache/spmvlab); "
           "archives are kept there as MM/Group/Name.tar.gz, read directly by every command")
        ->type_name("DIR");
    cmd->add_option(
           "--base-url", o->base_url,
           "where the collection is (default $SPMVLAB_SSGET_URL, else "
           "https://sparse.tamu.edu): an http(s) address, or a local mirror as file:///DIR "
           "or DIR (no network): BASE/MM/Group/Name.tar.gz, also BASE/Group/Name.tar.gz, "
           "BASE/Name.tar.gz or unpacked .../Name/Name.mtx; the index BASE/files/ssstats.csv "
           "or BASE/ssstats.csv")
        ->type_name("URL|DIR");
    cmd->add_option(
           "--adopt", o->adopt,
           "also look in DIR (repeatable) before downloading, laid out as the mirror; "
           "by default ssget's ~/.config/ssget, ssgetpy's ~/.ssgetpy and the ':'-separated "
           "directories of $SPMVLAB_ADOPT are looked in. A copy found is checked as a "
           "download is, then an archive is copied into the cache, an unpacked Name.mtx "
           "used in place (its SHA-256 recorded)")
        ->type_name("DIR");
    cmd->add_flag(
        "--no-adopt", o->no_adopt,
        "do not look in ssget's / ssgetpy's caches nor $SPMVLAB_ADOPT (--adopt DIRs still)");
    cmd->add_option(
           "--sha256", o->sha256,
           "the archive's expected SHA-256 (one matrix): a download or copy with another is "
           "discarded, a cached file with another is fetched again")
        ->type_name("HEX");
    cmd->add_flag("--print-path", o->print_path,
                  "print only the path of each matrix on stdout (no other output there)");
    cmd->add_flag("--refresh-index", o->refresh_index,
                  "fetch the index ssstats.csv again from the server or mirror (it is otherwise "
                  "kept once cached)");
    cmd->add_flag("-q,--quiet", o->quiet, "no progress lines on stderr (errors still show)");
    cmd->add_option("--max-download", o->max_download,
                    "the largest archive accepted, e.g. 20G (default: 2 x (64 bytes per entry + "
                    "32 per row) of the size the index announces + 64 MiB; the index itself is "
                    "capped at 64 MiB); a larger body is stopped at the cap and nothing is kept")
        ->type_name("SIZE");
    cmd->add_option("--timeout", o->timeout,
                    "seconds to connect, and the longest a transfer may stall (default 30)")
        ->check(positive_number())
        ->default_val(30);
    auto* search = cmd->add_flag(
        "--search", o->search,
        "list the matrices of the collection's index that match every filter below (as ssgetpy's "
        "search): Group/Name, id, rows, cols, nnz, kind; works offline from the cached index");
    auto filters = std::make_shared<std::vector<CLI::Option*>>();
    const auto filter = [&](CLI::Option* opt) {
        opt->group("Search filters (with --search)");
        filters->push_back(opt);
    };
    filter(cmd->add_option("--rows", o->rows, "rows in LO:HI, LO:, :HI or N (k, M, G: 1k:50k)")
               ->type_name("RANGE"));
    filter(cmd->add_option("--cols", o->cols, "columns, as --rows")->type_name("RANGE"));
    filter(cmd->add_option("--nnz", o->nnz, "nonzeros, as --rows")->type_name("RANGE"));
    filter(cmd->add_option(
                  "--kind", o->query.kind,
                  "the kind contains TEXT, ignoring case (structural, \"2D/3D\", circuit ...)")
               ->type_name("TEXT"));
    filter(cmd->add_option("--group", o->query.group, "the group, exactly (HB, Boeing, ...)")
               ->type_name("GROUP"));
    filter(cmd->add_option("--name", o->query.name, "the name contains TEXT, ignoring case")
               ->type_name("TEXT"));
    filter(cmd->add_flag("--spd", o->query.spd, "symmetric positive definite only (posdef)"));
    filter(cmd->add_flag("--symmetric", o->query.symmetric,
                         "numerically symmetric only (numerical_symmetry = 1)"));
    filter(cmd->add_flag("--real", o->query.real,
                         "real values only (not complex, integer or pattern)"));
    filter(cmd->add_flag("--square", o->query.square, "square only (rows = cols)"));
    filter(cmd->add_option("--limit", o->limit, "print at most N matches (default 20; 0: all)")
               ->type_name("N")
               ->check(CLI::NonNegativeNumber));
    filter(
        cmd->add_flag("--json", o->json,
                      "the matches as JSON (schema spmvlab/1, schemas/fetch-search.schema.json)"));
    cmd->callback([o, filters, search] {
        for (const auto* opt : *filters) {
            if (opt->count() > 0 && search->count() == 0) {
                throw CLI::ValidationError(opt->get_name(), "goes with --search");
            }
        }
        run(*o);
    });
}

}  // namespace spmvlab
