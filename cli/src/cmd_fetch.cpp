// spmvlab fetch Group/Name | Name | ID ...: matrices of the SuiteSparse Matrix Collection
// (https://sparse.tamu.edu), downloaded once into a cache and read from there by every command.
//
// Addresses (those of the collection's own tools, ssget and ssgetpy):
//   BASE/MM/Group/Name.tar.gz    the Matrix Market archive, members Name/Name.mtx (+ Name_b.mtx ...)
//   BASE/files/ssstats.csv       the index: line 1 the number of matrices, line 2 the date of the
//                                last revision, line k+2 the matrix of id k: Group, Name, nrows,
//                                ncols, nnz, isReal, isBinary, isND, posdef, pattern_symmetry,
//                                numerical_symmetry, kind[, pattern_entries]
// BASE is https://sparse.tamu.edu, or $SPMVLAB_SSGET_URL, or --base-url.
//
// The cache (--cache DIR, else $XDG_CACHE_HOME/spmvlab, else ~/.cache/spmvlab) mirrors those
// paths: DIR/files/ssstats.csv and DIR/MM/Group/Name.tar.gz. The archive is kept as it is (every
// command reads .tar.gz directly, so nothing is unpacked), beside a "Name.tar.gz.sha256" line in
// sha256sum's format written once the download was checked. A cache entry is used when both
// exist and the archive still has that SHA-256; anything else is downloaded again. Downloads go
// to a temporary file (io/atomic_file.hpp) that becomes the entry only after every check passed:
// the transfer complete (curl: HTTP 200, Content-Length bytes received), the SHA-256 equal to
// --sha256 when given, and the archive holding Name/Name.mtx with a valid Matrix Market header
// of the index's size. A failed, interrupted or refused download leaves no entry behind.
#include <unistd.h>

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
#include <vector>

#if SPMVLAB_HAVE_CURL
#include <curl/curl.h>
#include <dlfcn.h>
#endif

#include <spmv/error.hpp>
#include <spmv/io/atomic_file.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/memory.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "hash.hpp"

namespace spmvlab {
namespace {

namespace fs = std::filesystem;

constexpr const char* default_base_url = "https://sparse.tamu.edu";

/// Exit status when the server cannot be reached (offline, DNS, refused, timed out): scripts
/// can tell it from a refused or broken download (1).
constexpr int exit_unreachable = 2;

struct FetchOptions {
    std::vector<std::string> specs;
    std::string cache;
    std::string base_url;
    std::string sha256;
    bool print_path = false;
    bool refresh_index = false;
    bool quiet = false;
    double timeout = 30;
    std::string max_download;  ///< --max-download SIZE; empty: the cap derived from the index
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

/// A matrix of the collection.
struct Entry {
    std::string group;
    std::string name;
    std::int64_t id = 0;  ///< 0: not known (no index consulted)
    std::int64_t rows = -1;
    std::int64_t cols = -1;
    std::int64_t nnz = -1;
};

/// The server could not be reached at all (as opposed to answering with an error).
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

std::string base_url(const FetchOptions& o)
{
    std::string b = o.base_url;
    if (b.empty()) {
        const char* env = std::getenv("SPMVLAB_SSGET_URL");
        b = env != nullptr && *env != '\0' ? env : default_base_url;
    }
    while (!b.empty() && b.back() == '/') {
        b.pop_back();
    }
    if (b.rfind("http://", 0) != 0 && b.rfind("https://", 0) != 0) {
        SPMV_THROW(spmv::InvalidArgument, "--base-url '" + b + "' is not an http:// or https:// address");
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

/// Group and matrix names of the collection: letters, digits, '_', '-', '.', '+' (never a path).
bool valid_name(const std::string& s)
{
    return !s.empty() && s != "." && s != ".." &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) {
               return std::isalnum(c) != 0 || c == '_' || c == '-' || c == '.' || c == '+';
           });
}

bool all_digits(const std::string& s)
{
    return !s.empty() && s.size() < 10 &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
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
            SPMV_THROW(spmv::NotCompiled, std::string("cannot load libcurl (libcurl4): ") +
                                              (why ? why : "not found"));
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
                      const std::string& progress_what, std::string* sha256_hex,
                      std::int64_t cap, const std::string& cap_hint)
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
        SPMV_THROW(spmv::InvalidArgument,
                   url + ": the download is larger than its cap of " +
                       fmt_bytes(static_cast<double>(cap)) + " (" + cap_hint +
                       "); stopped, nothing kept");
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
        SPMV_THROW(spmv::InvalidArgument, url + ": download incomplete: " + std::to_string(t.bytes) +
                                              " bytes received, the server announced " +
                                              std::to_string(expected));
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
    SPMV_THROW(spmv::NotCompiled,
               "cannot download " + url + ": this spmvlab was built without libcurl "
               "(libcurl4-openssl-dev); download it yourself and give the file to the commands");
}

#endif

// ---------------------------------------------------------------------------------- the index

/// The fields of one CSV line (double quotes around a field may hold commas).
std::vector<std::string> csv_fields(const std::string& line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t k = 0; k < line.size(); ++k) {
        const char c = line[k];
        if (c == '"') {
            if (quoted && k + 1 < line.size() && line[k + 1] == '"') {
                out.back() += '"';
                ++k;
            } else {
                quoted = !quoted;
            }
        } else if (c == ',' && !quoted) {
            out.emplace_back();
        } else if (c != '\r') {
            out.back() += c;
        }
    }
    return out;
}

std::optional<std::int64_t> to_int(const std::string& s)
{
    try {
        std::size_t used = 0;
        const auto v = std::stoll(s, &used);
        return used == s.size() ? std::optional<std::int64_t>(v) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

/// ssstats.csv; throws InvalidArgument naming `source` and the line for a malformed one.
std::vector<Entry> parse_index(std::istream& in, const std::string& source)
{
    std::string line;
    if (!std::getline(in, line) || !to_int(csv_fields(line)[0])) {
        SPMV_THROW(spmv::InvalidArgument,
                   source + ":1: not the collection's index (ssstats.csv): the first line must be "
                            "the number of matrices");
    }
    const auto count = *to_int(csv_fields(line)[0]);
    std::getline(in, line);  // the date of the last revision
    std::vector<Entry> entries;
    std::int64_t number = 2;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty() || line == "\r") {
            continue;
        }
        const auto f = csv_fields(line);
        if (f.size() < 5 || !valid_name(f[0]) || !valid_name(f[1]) || !to_int(f[2]) ||
            !to_int(f[3]) || !to_int(f[4])) {
            SPMV_THROW(spmv::InvalidArgument,
                       source + ":" + std::to_string(number) +
                           ": not an index line 'Group,Name,nrows,ncols,nnz,...'");
        }
        entries.push_back({f[0], f[1], number - 2, *to_int(f[2]), *to_int(f[3]), *to_int(f[4])});
    }
    if (entries.empty() || static_cast<std::int64_t>(entries.size()) != count) {
        SPMV_THROW(spmv::InvalidArgument,
                   source + ": the index announces " + std::to_string(count) + " matrices and lists " +
                       std::to_string(entries.size()) + " (truncated download?)");
    }
    return entries;
}

class Fetcher {
public:
    explicit Fetcher(const FetchOptions& o) : o_(o), cache_(cache_dir(o)), base_(base_url(o)) {}

    /// The cached archive of `spec`, downloaded first when needed.
    fs::path fetch(const std::string& spec)
    {
        Entry e = resolve(spec);
        const fs::path dir = cache_ / "MM" / e.group;
        const fs::path archive = dir / (e.name + ".tar.gz");
        const std::string label = e.group + "/" + e.name;
        if (cached(archive)) {
            if (!o_.print_path && !o_.quiet) {
                std::fprintf(stderr, "%s: in the cache\n", label.c_str());
            }
            return archive;
        }
        if (e.id == 0 && !index_) {  // a Group/Name spec: the index gives the matrix's size
            try {
                load_index();
                e = resolve(spec);
            } catch (const Unreachable&) {
                throw;
            } catch (const spmv::NotCompiled&) {
                throw;
            } catch (const spmv::Error& x) {
                if (index_) {
                    throw;  // the index is there and does not list the matrix
                }
                std::fprintf(stderr, "spmvlab: %s: no index (%s); fetching without it\n",
                             label.c_str(), user_message(x.what()).c_str());
            }
        }
        download(e, dir, archive);
        return archive;
    }

private:
    /// Group/Name: as it is (looked up in the index only when that is at hand). An id or a
    /// bare Name: looked up in the index (downloaded when not cached).
    Entry resolve(const std::string& spec)
    {
        const auto slash = spec.find('/');
        if (slash != std::string::npos) {
            Entry e{spec.substr(0, slash), spec.substr(slash + 1)};
            if (!valid_name(e.group) || !valid_name(e.name)) {
                SPMV_THROW(spmv::InvalidArgument,
                           "'" + spec + "' is not Group/Name (letters, digits, _ - . + only)");
            }
            if (index_) {
                for (const auto& x : *index_) {
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
        const auto& index = load_index();
        if (all_digits(spec)) {
            const auto id = *to_int(spec);
            if (id < 1 || id > static_cast<std::int64_t>(index.size())) {
                SPMV_THROW(spmv::InvalidArgument, "id " + spec + ": the collection's ids run from 1 to " +
                                                      std::to_string(index.size()));
            }
            return index[static_cast<std::size_t>(id - 1)];
        }
        if (!valid_name(spec)) {
            SPMV_THROW(spmv::InvalidArgument, "'" + spec + "' is neither Group/Name, Name nor an id");
        }
        std::vector<const Entry*> hits;
        for (const auto& x : index) {
            if (x.name == spec) {
                hits.push_back(&x);
            }
        }
        if (hits.empty()) {
            SPMV_THROW(spmv::InvalidArgument, spec + ": no matrix of that name in the collection's index");
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

    fs::path index_path() const { return cache_ / "files" / "ssstats.csv"; }

    const std::vector<Entry>& load_index()
    {
        if (index_) {
            return *index_;
        }
        const auto path = index_path();
        std::error_code ec;
        if (o_.refresh_index || !fs::exists(path, ec)) {
            const std::string url = base_ + "/files/ssstats.csv";
            fs::create_directories(path.parent_path(), ec);
            if (ec) {
                SPMV_THROW(spmv::InvalidArgument, path.parent_path().string() + ": cannot create the cache: " + ec.message());
            }
            spmv::io::AtomicFile out(path);
            http_get(url, out.stream(), false, o_.timeout, o_.quiet ? "" : "index ssstats.csv", nullptr,
                     index_cap, "the index's cap: one line per matrix, 64 MiB");
            out.stream().flush();
            std::ifstream check(out.temp_path());
            parse_index(check, url);  // a broken index never becomes the cached one
            out.commit();
        }
        if (fs::file_size(path, ec) > static_cast<std::uintmax_t>(index_cap) && !ec) {
            SPMV_THROW(spmv::InvalidArgument,
                       path.string() + ": the cached index is larger than 64 MiB: not the "
                                       "collection's ssstats.csv (--refresh-index replaces it)");
        }
        std::ifstream in(path);
        if (!in) {
            SPMV_THROW(spmv::InvalidArgument, path.string() + ": cannot open the cached index");
        }
        index_ = parse_index(in, path.string());
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
        std::fprintf(stderr, "spmvlab: %s: the cached file no longer has its SHA-256; downloading it again\n",
                     archive.string().c_str());
        return false;
    }

    void download(const Entry& e, const fs::path& dir, const fs::path& archive)
    {
        const std::string label = e.group + "/" + e.name;
        const std::string url = base_ + "/MM/" + e.group + "/" + e.name + ".tar.gz";
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) {
            SPMV_THROW(spmv::InvalidArgument, dir.string() + ": cannot create the cache: " + ec.message());
        }
        const fs::path sum = archive.string() + ".sha256";
        fs::remove(sum, ec);  // from here on the entry is not valid until the new line is written
        if (!o_.quiet) {
            std::fprintf(stderr, "%s: downloading %s\n", label.c_str(), url.c_str());
        }
        spmv::io::AtomicFile out(archive);
        std::string sha;
        const bool hash = have_sha256();
        std::int64_t cap = archive_cap(e.nnz, e.rows);
        std::string hint = "2 x (64 bytes per entry + 32 per row) of the index's size + 64 MiB; "
                           "--max-download SIZE to change it";
        if (!o_.max_download.empty()) {
            const auto given = spmv::parse_byte_size(o_.max_download);
            if (!given || *given == 0) {
                SPMV_THROW(spmv::InvalidArgument, "--max-download '" + o_.max_download +
                                                      "' is not a size such as 8G or 512M");
            }
            cap = static_cast<std::int64_t>(*given);
            hint = "--max-download " + o_.max_download;
        }
        const auto bytes = http_get(url, out.stream(), hash, o_.timeout, o_.quiet ? "" : label, &sha,
                                    cap, hint);
        out.stream().flush();
        if (!out.stream()) {
            SPMV_THROW(spmv::Error, archive.string() + ": cannot write the download");
        }
        if (!o_.sha256.empty()) {
            if (!hash) {
                SPMV_THROW(spmv::NotCompiled, "--sha256: this spmvlab was built without OpenSSL (libssl-dev)");
            }
            if (sha != o_.sha256) {
                SPMV_THROW(spmv::InvalidArgument, url + ": SHA-256 " + sha + " is not the expected " +
                                                      o_.sha256 + "; the download was discarded");
            }
        }
        verify(e, out.temp_path(), url);
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

    /// The archive holds Name/Name.mtx with a valid header, of the index's size when known.
    static void verify(const Entry& e, const fs::path& file, const std::string& url)
    {
        spmv::io::MatrixMarketInfo h;
        try {
            h = spmv::io::read_matrix_market_header(file);
        } catch (const spmv::Error& x) {
            SPMV_THROW(spmv::InvalidArgument, url + ": not a valid matrix archive (" +
                                                  user_message(x.what()) + "); the download was discarded");
        }
        const std::string want = e.name + ".mtx";
        const auto& m = h.archive_member;
        const bool named = m.size() >= want.size() + 1 &&
                           m.compare(m.size() - want.size(), want.size(), want) == 0 &&
                           m[m.size() - want.size() - 1] == '/';
        if (!named) {
            SPMV_THROW(spmv::InvalidArgument,
                       url + ": the archive holds " + (m.empty() ? std::string("no tar member") : m) +
                           ", not " + e.name + "/" + want + "; the download was discarded");
        }
        if ((e.rows >= 0 && h.rows != e.rows) || (e.cols >= 0 && h.cols != e.cols)) {
            SPMV_THROW(spmv::InvalidArgument,
                       url + ": the matrix is " + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
                           " but the index says " + std::to_string(e.rows) + " x " +
                           std::to_string(e.cols) + "; the download was discarded");
        }
    }

    const FetchOptions& o_;
    fs::path cache_;
    std::string base_;
    std::optional<std::vector<Entry>> index_;
};

void run(const FetchOptions& o)
{
    if (!o.sha256.empty()) {
        const bool hex = o.sha256.size() == 64 && std::all_of(o.sha256.begin(), o.sha256.end(), [](char c) {
                             return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                         });
        if (!hex) {
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
            std::fprintf(stderr, "spmvlab: fetch %s: %s\n", spec.c_str(), user_message(e.what()).c_str());
            status = std::max(status, exit_unreachable);
        } catch (const spmv::Error& e) {
            std::fprintf(stderr, "spmvlab: fetch %s: %s\n", spec.c_str(), user_message(e.what()).c_str());
            status = std::max(status, 1);
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
        "download matrices of the SuiteSparse Matrix Collection (sparse.tamu.edu) into a cache, "
        "checked (complete, SHA-256, holds Name/Name.mtx), and print where they are: "
        "spmvlab info $(spmvlab fetch HB/bcsstk16 --print-path). Exit 0, 1 (refused or failed "
        "download), 2 (server unreachable)");
    cmd->add_option("matrices", o->specs,
                    "Group/Name (HB/bcsstk16), a name alone (bcsstk16) or a collection id (35); "
                    "names and ids are looked up in the collection's index ssstats.csv")
        ->required();
    cmd->add_option("--cache", o->cache,
                    "cache directory (default $XDG_CACHE_HOME/spmvlab, else ~/.cache/spmvlab); "
                    "archives are kept there as MM/Group/Name.tar.gz, read directly by every command")
        ->type_name("DIR");
    cmd->add_option("--base-url", o->base_url,
                    "the collection's address (default $SPMVLAB_SSGET_URL, else "
                    "https://sparse.tamu.edu): BASE/MM/Group/Name.tar.gz, BASE/files/ssstats.csv")
        ->type_name("URL");
    cmd->add_option("--sha256", o->sha256,
                    "the archive's expected SHA-256 (one matrix): a download with another is "
                    "discarded, a cached file with another is downloaded again")
        ->type_name("HEX");
    cmd->add_flag("--print-path", o->print_path,
                  "print only the path of each matrix on stdout (no other output there)");
    cmd->add_flag("--refresh-index", o->refresh_index,
                  "download the index ssstats.csv again (it is otherwise kept once cached)");
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
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
