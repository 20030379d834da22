#include <spmv/io/matrix_market.hpp>

#include <algorithm>
#include <initializer_list>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <istream>
#include <limits>
#include <memory>
#include <mutex>
#include <ostream>
#include <source_location>
#include <system_error>
#include <thread>
#include <utility>

#if (defined(__unix__) || defined(__APPLE__)) && __has_include(<sys/mman.h>)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define SPMV_IO_HAVE_MMAP 1
#else
#define SPMV_IO_HAVE_MMAP 0
#endif

#include <spmv/error.hpp>
#include <spmv/io/atomic_file.hpp>

#include "archive_input.hpp"

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

/// Refuses text beyond the budget while it is read from a pipe or stream (a mapped file costs
/// address space only).
void check_text_size(const std::string& name, std::size_t used, const MemoryBudget& budget)
{
    if (!budget.allows(used)) {
        throw MatrixMarketError(__FILE__, __LINE__, name, 0,
                                "more than " + format_bytes(static_cast<double>(budget.bytes)) +
                                    " of text read from a stream that is not a regular file; the "
                                    "memory limit is " + budget.describe());
    }
}

/// Makes room for `chunk` more bytes after `used` in `text`, in x1.5 steps that never take the
/// capacity past the budget plus one chunk (std::string's own doubling reached 1.35x the limit
/// before the check after the read refused it); running out of memory names the input.
void grow_for_chunk(std::string& text, std::size_t used, std::size_t chunk, const std::string& name,
                    const MemoryBudget& budget)
{
    if (used + chunk <= text.capacity()) {
        return;
    }
    std::size_t want = std::max(used + chunk, text.capacity() + text.capacity() / 2);
    if (budget.limited()) {
        want = std::min<std::size_t>(want, std::max<std::size_t>(budget.bytes, used) + chunk);
    }
    try {
        text.reserve(want);
    } catch (const std::bad_alloc&) {
        throw MatrixMarketError(__FILE__, __LINE__, name, 0,
                                "out of host memory after reading " +
                                    format_bytes(static_cast<double>(used)) + " of text");
    }
}

std::string read_all(std::istream& in, std::size_t size_hint, const std::string& name,
                     const MemoryBudget& budget)
{
    std::string text;
    text.reserve(size_hint);
    constexpr std::size_t chunk = std::size_t{1} << 20;
    std::size_t used = 0;
    while (in) {
        grow_for_chunk(text, used, chunk, name, budget);
        text.resize(used + chunk);
        in.read(text.data() + used, static_cast<std::streamsize>(chunk));
        used += static_cast<std::size_t>(in.gcount());
        check_text_size(name, used, budget);
    }
    text.resize(used);
    return text;
}

[[noreturn]] void fail_open(const std::string& name, int err)
{
    throw MatrixMarketError(
        __FILE__, __LINE__, name, 0,
        std::string("cannot open for reading: ") + (err ? std::strerror(err) : "unknown error"));
}

/// The first bytes of an input, checked before the rest is read: a compressed file or a tar
/// archive is recognised by its magic bytes (whatever its name) and returned as such, and an
/// input that cannot start with the banner (binary data, /dev/zero) is refused after its first
/// block instead of being read to its end, which for a device never comes. Give at least 512
/// bytes when there are that many (a tar header). Only spaces and tabs may precede the banner
/// on line 1 (the parser's rule).
detail::Packing check_leading_bytes(const std::string& name, const char* p, std::size_t n)
{
    const auto kind = detail::detect_packing(p, n);
    if (kind == detail::Packing::zip) {
        throw MatrixMarketError(__FILE__, __LINE__, name, 0,
                                "a zip archive: SpMV Lab reads Matrix Market text, compressed "
                                "(gzip, bzip2, xz, zstd) or in a tar archive; unzip it first");
    }
    if (kind != detail::Packing::plain) {
        return kind;
    }
    if (n >= 3 && static_cast<unsigned char>(p[0]) == 0xef &&
        static_cast<unsigned char>(p[1]) == 0xbb && static_cast<unsigned char>(p[2]) == 0xbf) {
        throw MatrixMarketError(__FILE__, __LINE__, name, 1,
                                "the input begins with a UTF-8 byte-order mark (EF BB BF) before "
                                "'%%MatrixMarket': Matrix Market files are plain ASCII; remove "
                                "it (e.g. sed -i '1s/^\\xEF\\xBB\\xBF//' FILE)");
    }
    // CR-only line ends (classic Mac OS): the whole file is then one line to the parser
    const std::string_view head(p, n);
    const auto cr = head.find('\r');
    if (cr != std::string_view::npos && head.substr(0, cr).find('\n') == std::string_view::npos &&
        (cr + 1 < n ? p[cr + 1] != '\n' : false)) {
        throw MatrixMarketError(__FILE__, __LINE__, name, 1,
                                "the lines end in CR alone (classic Mac OS line ends): Matrix "
                                "Market lines end in LF (or CR LF); convert it, e.g. "
                                "tr '\\r' '\\n' < IN > OUT");
    }
    for (std::size_t i = 0; i < n; ++i) {
        const char c = p[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
            continue;
        }
        if (c != '%') {
            throw MatrixMarketError(__FILE__, __LINE__, name, 1,
                                    "missing Matrix Market banner: the input does not begin "
                                    "with '%%MatrixMarket' (binary data or another format?)");
        }
        break;
    }
    return kind;
}

detail::Packing detect_packing_of(std::string_view text) noexcept
{
    return detail::detect_packing(text.data(), std::min<std::size_t>(text.size(), 512));
}

/// The bytes of an input. With POSIX, a regular file is mapped read-only (no copy: the pages
/// come straight from the page cache, faulted in by the threads that parse them); anything else
/// (a pipe, the standard input, an empty file, a refused mapping, a system without mmap) is
/// read into memory. A compressed input stops there: view() holds what was read of it (all of
/// a mapped file, the first block of a pipe) and pending_fd() where the rest is, for
/// detail::unpack. A file truncated by someone else while it is mapped makes the process fault
/// (SIGBUS), the usual price of mmap; a reader that copies would see a short file instead.
class FileBytes {
public:
    /// `fd`: the open input (-1: open `path`); closed at the end unless it is the standard input.
    FileBytes(const std::filesystem::path& path, int fd, const std::string& name,
              const MemoryBudget& budget)
    {
#if SPMV_IO_HAVE_MMAP
        if (fd < 0) {
            fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0) {
                fail_open(name, errno);
            }
        }
        fd_ = fd;
        try {
            load(name, budget);
        } catch (...) {
            close_fd();  // the destructor of a failed constructor never runs
            throw;
        }
        if (kind_ == detail::Packing::plain || map_ != nullptr) {
            close_fd();
        }
#else
        if (fd == 0) {
            text_ = read_all(std::cin, 0, name, budget);
        } else {
            std::ifstream in(path, std::ios::binary);
            if (!in) {
                fail_open(name, errno);
            }
            std::error_code ec;
            const auto size = std::filesystem::file_size(path, ec);
            text_ = read_all(in, ec ? 0 : static_cast<std::size_t>(size) + 1, name, budget);
            if (in.bad()) {
                throw MatrixMarketError(__FILE__, __LINE__, name, 0, "read error");
            }
        }
        kind_ = check_leading_bytes(name, text_.data(), std::min<std::size_t>(text_.size(), 512));
#endif
    }

    ~FileBytes()
    {
#if SPMV_IO_HAVE_MMAP
        if (map_) {
            ::munmap(map_, size_);
        }
        close_fd();
#endif
    }

    FileBytes(const FileBytes&) = delete;
    FileBytes& operator=(const FileBytes&) = delete;

    std::string_view view() const noexcept
    {
        return map_ ? std::string_view(static_cast<const char*>(map_), size_)
                    : std::string_view(text_);
    }
    detail::Packing kind() const noexcept { return kind_; }
    int pending_fd() const noexcept { return fd_; }

private:
#if SPMV_IO_HAVE_MMAP
    void close_fd() noexcept
    {
        if (fd_ > 0) {  // never the standard input
            ::close(fd_);
        }
        fd_ = -1;
    }

    void load(const std::string& name, const MemoryBudget& budget)
    {
        struct stat st {};
        const bool regular = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
        // a file on the standard input maps from its start only if nothing was read of it yet
        const bool at_start = fd_ != 0 || ::lseek(fd_, 0, SEEK_CUR) == 0;
        if (regular && st.st_size > 0 && at_start) {
            const auto size = static_cast<std::size_t>(st.st_size);
            void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd_, 0);
            if (p != MAP_FAILED) {
                try {
                    kind_ = check_leading_bytes(name, static_cast<const char*>(p),
                                                std::min<std::size_t>(size, 512));
                } catch (...) {
                    ::munmap(p, size);
                    throw;
                }
                ::madvise(p, size, kind_ == detail::Packing::plain ? MADV_WILLNEED
                                                                   : MADV_SEQUENTIAL);
                map_ = p;
                size_ = size;
                return;
            }
        }
        if (regular) {
            text_.reserve(static_cast<std::size_t>(st.st_size) + 1);
        }
        constexpr std::size_t block = std::size_t{1} << 20;
        std::size_t used = 0;
        bool checked = false;
        for (;;) {
            grow_for_chunk(text_, used, block, name, budget);
            text_.resize(used + block);
            const auto n = ::read(fd_, text_.data() + used, block);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                throw MatrixMarketError(__FILE__, __LINE__, name, 0, "read error");
            }
            used += static_cast<std::size_t>(n);
            // the first 512 bytes (or all, if fewer): refuse what cannot be Matrix Market now,
            // hand a compressed stream over to detail::unpack
            if (!checked && (used >= 512 || n == 0)) {
                checked = true;
                kind_ = check_leading_bytes(name, text_.data(), std::min<std::size_t>(used, 512));
                if (kind_ != detail::Packing::plain) {
                    break;
                }
            }
            if (n == 0) {
                break;
            }
            check_text_size(name, used, budget);
        }
        text_.resize(used);
    }

    int fd_ = -1;
#else
    int fd_ = -1;
#endif
    void* map_ = nullptr;
    std::size_t size_ = 0;
    std::string text_;
    detail::Packing kind_ = detail::Packing::plain;
};

/// Calls fn(k) for every k in [0, count) on up to `threads` threads, the calling thread being
/// one of them; the items are handed out in order, one at a time. The first exception stops
/// the handing out and is rethrown once every thread has finished. If the system refuses a
/// thread, the others do its share.
template <typename Fn>
void parallel_for(std::size_t count, unsigned threads, Fn&& fn)
{
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::exception_ptr error;
    const auto work = [&] {
        for (;;) {
            const std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
            if (k >= count) {
                return;
            }
            try {
                fn(k);
            } catch (...) {
                const std::lock_guard<std::mutex> lock(mutex);
                if (!error) {
                    error = std::current_exception();
                }
                next.store(count, std::memory_order_relaxed);
                return;
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        const std::size_t extra = std::min<std::size_t>(threads, count);
        for (std::size_t t = 1; t < extra; ++t) {
            try {
                pool.emplace_back(work);
            } catch (const std::system_error&) {
                break;
            }
        }
        work();
    }  // joins
    if (error) {
        std::rethrow_exception(error);
    }
}

/// Entries in file order, each symmetric mirror right after its entry.
struct Triplets {
    std::vector<std::int32_t> rows;
    std::vector<std::int32_t> cols;
    std::vector<double> vals;
};

/// What the entry lines add up to, carried from line to line (and chunk to chunk) in file order.
struct EntryState {
    std::int64_t count = 0;        ///< entry lines
    std::int64_t expanded = 0;     ///< entries after symmetric expansion
    std::int64_t diagonal = 0;     ///< entry lines with row == col
    std::int64_t first_lower = 0;  ///< line of the first entry below the diagonal, 0: none yet
    std::int64_t first_upper = 0;  ///< ... above the diagonal
};

/// A piece of the data section, cut at a line end, parsed on its own.
struct Chunk {
    const char* begin = nullptr;
    const char* end = nullptr;
    std::int64_t lines = 0;  ///< lines in [begin, end)
    EntryState state;        ///< counted from zero; lines relative to the chunk (except chunk 0)
    Triplets out;
    bool sorted = true;   ///< (row, col) strictly increasing and no mirrored entries
    bool failed = false;  ///< a MatrixMarketError while parsed without what precedes it
};

/// A CSR slot while the rows are assembled.
struct Slot {
    std::int32_t col;
    double val;
};

/// Smallest automatic chunk: smaller data sections are parsed by the calling thread alone
/// (starting threads would cost more than they save).
constexpr std::size_t min_chunk_bytes = std::size_t{1} << 22;

/// `key: value` of a comment line (" name: HB/bcsstk16" -> "HB/bcsstk16"), or empty.
std::string_view comment_value(std::string_view comment, std::string_view key) noexcept
{
    const auto b = comment.find_first_not_of(" \t");
    if (b == std::string_view::npos || comment.substr(b, key.size()) != key ||
        comment.substr(b + key.size(), 1) != ":") {
        return {};
    }
    auto v = comment.substr(b + key.size() + 1);
    const auto vb = v.find_first_not_of(" \t");
    if (vb == std::string_view::npos) {
        return {};
    }
    v = v.substr(vb);
    const auto ve = v.find_last_not_of(" \t\r");
    return v.substr(0, ve + 1);
}

/// The SuiteSparse Matrix Collection's "% name: Group/Name" and "% id: N" header lines.
void find_collection_name(MatrixMarketInfo& info)
{
    for (const auto& c : info.comments) {
        if (const auto v = comment_value(c, "name");
            info.collection_name.empty() && !v.empty() && v.find_first_of(" \t") == v.npos) {
            info.collection_name = std::string(v);
        }
        if (const auto v = comment_value(c, "id"); info.collection_id == 0 && !v.empty()) {
            std::int64_t id = 0;
            if (parse_int(v, id) == Parsed::ok && id > 0) {
                info.collection_id = id;
            }
        }
    }
}

/// "Name" from an archive member "Name/Name.mtx", "Group/Name" from "Group/Name/Name.mtx".
std::string collection_name_of_member(const std::string& member)
{
    const auto slash = member.find_last_of('/');
    if (slash == std::string::npos || member.size() < 4 ||
        member.compare(member.size() - 4, 4, ".mtx") != 0) {
        return {};
    }
    const std::string dir = member.substr(0, slash);
    const std::string stem = member.substr(slash + 1, member.size() - slash - 5);
    const auto up = dir.find_last_of('/');
    const std::string last = up == std::string::npos ? dir : dir.substr(up + 1);
    if (last != stem) {
        return {};
    }
    if (up == std::string::npos) {
        return stem;
    }
    const auto up2 = dir.find_last_of('/', up - 1);
    const std::string group = dir.substr(up2 == std::string::npos ? 0 : up2 + 1,
                                         up - (up2 == std::string::npos ? 0 : up2 + 1));
    return group.empty() ? stem : group + "/" + stem;
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
        threads_ = options.threads ? options.threads : std::thread::hardware_concurrency();
        threads_ = std::max(threads_, 1u);
    }

    Csr<double, std::int32_t> run(MatrixMarketInfo* info_out)
    {
        read_banner();
        read_size_line();
        find_collection_name(info_);
        check_size_line();
        auto chunks = read_entries();
        check_memory(assemble_bytes(in_csr_order(chunks), info_.expanded_entries), false);
        auto a = assemble(chunks);
        if (info_out) {
            *info_out = std::move(info_);
        }
        return a;
    }

    /// The banner and the size line only (read_matrix_market_header).
    MatrixMarketInfo header()
    {
        read_banner();
        read_size_line();
        find_collection_name(info_);
        return info_;
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
        p_ = cut_line(p_, end_, line);
        ++line_;
        return true;
    }

    /// The line starting at p (without "\n" or "\r\n"); returns where the next one starts.
    static const char* cut_line(const char* p, const char* end, std::string_view& line) noexcept
    {
        const auto* nl =
            static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
        const char* e = nl ? nl : end;
        line = std::string_view(p, static_cast<std::size_t>(e - p));
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        return nl ? nl + 1 : end;
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

    std::int32_t parse_index(std::string_view tok, const char* what, std::int64_t limit,
                             std::int64_t line) const
    {
        std::int64_t v = 0;
        const auto r = parse_int(tok, v);
        if (r == Parsed::invalid) {
            fail(line, std::string(what) + " index " + quoted(tok) + " is not an integer");
        }
        if (r == Parsed::out_of_range || v < 1 || v > limit) {
            fail(line, std::string(what) + " index " + std::string(tok) + " is out of range 1.." +
                           std::to_string(limit) + " (indices are 1-based)");
        }
        return static_cast<std::int32_t>(v - 1);
    }

    double parse_value(Tokens& t, std::int32_t i, std::int32_t j, std::int64_t line) const
    {
        if (info_.field == Field::pattern) {
            return options_.pattern_values == PatternValues::ones
                       ? 1.0
                       : pattern_value(i, j, options_.pattern_seed);
        }
        const auto tok = t.next();
        if (tok.empty()) {
            fail(line, "missing value: a " + std::string(to_string(info_.field)) +
                           " entry is 'row col value' (truncated line?)");
        }
        double v = 0;
        if (info_.field == Field::integer) {
            std::int64_t n = 0;
            const auto r = parse_int(tok, n);
            if (r == Parsed::out_of_range) {
                fail(line, "integer value " + quoted(tok) + " does not fit in 64 bits");
            }
            if (r != Parsed::ok) {
                fail(line, "value " + quoted(tok) +
                               " is not an integer (the banner says "
                               "'integer')");
            }
            return static_cast<double>(n);
        }
        const auto r = parse_real(tok, v);
        if (r == Parsed::out_of_range) {
            fail(line, "value " + quoted(tok) + " is outside the range of double");
        }
        if (r != Parsed::ok) {
            fail(line, "value " + quoted(tok) + " is not a number");
        }
        if (std::isnan(v)) {
            fail(line, "NaN value " + quoted(tok) + " is not allowed");
        }
        if (std::isinf(v)) {
            fail(line, "infinite value " + quoted(tok) + " is not allowed");
        }
        return v;
    }

    /// A 1-based index of at most 10 plain digits in 1..limit, read at p; returns the end of
    /// its digits, or nullptr (then the general path reads the line).
    static const char* fast_index(const char* p, const char* end, std::int64_t limit,
                                  std::int32_t& index) noexcept
    {
        const char* b = p;
        std::uint64_t v = 0;
        while (p < end && static_cast<unsigned char>(*p - '0') < 10 && p - b < 11) {
            v = v * 10 + static_cast<unsigned>(*p - '0');
            ++p;
        }
        if (p == b || p - b > 10 || v < 1 || v > static_cast<std::uint64_t>(limit)) {
            return nullptr;
        }
        index = static_cast<std::int32_t>(v - 1);
        return p;
    }

    /// Reads the line at p if it is a plain, valid entry ("row col [value]", digits only in
    /// the indices, a finite value that from_chars reads whole, spaces or tabs around them,
    /// "\n", "\r\n" or the end of the text after it) and returns where the next line starts.
    /// Anything else -- comments, blank lines, '+' signs, underflow, every error -- returns
    /// nullptr and goes through the general path, which gives exactly the same entry or the
    /// same error as before this shortcut existed.
    const char* fast_entry(const char* p, const char* end, std::int32_t& i, std::int32_t& j,
                           double& v) const noexcept
    {
        while (p < end && is_space(*p)) {
            ++p;
        }
        p = fast_index(p, end, info_.rows, i);
        if (!p || p == end || !is_space(*p)) {
            return nullptr;
        }
        while (p < end && is_space(*p)) {
            ++p;
        }
        p = fast_index(p, end, info_.cols, j);
        if (!p) {
            return nullptr;
        }
        if (info_.field == Field::pattern) {
            v = options_.pattern_values == PatternValues::ones
                    ? 1.0
                    : pattern_value(i, j, options_.pattern_seed);
        } else {
            if (p == end || !is_space(*p)) {
                return nullptr;
            }
            while (p < end && is_space(*p)) {
                ++p;
            }
            if (info_.field == Field::integer) {
                std::int64_t n = 0;
                const auto r = std::from_chars(p, end, n);
                if (r.ec != std::errc{}) {
                    return nullptr;
                }
                v = static_cast<double>(n);
                p = r.ptr;
            } else {
                const auto r = std::from_chars(p, end, v);
                if (r.ec != std::errc{} || !std::isfinite(v)) {
                    return nullptr;
                }
                p = r.ptr;
            }
        }
        while (p < end && is_space(*p)) {
            ++p;
        }
        if (p < end && *p == '\r') {
            ++p;
        }
        if (p == end) {
            return p;
        }
        return *p == '\n' ? p + 1 : nullptr;
    }

    /// Parses the lines in [p, end), the first of which is line `line` + 1, continuing from
    /// `st` (everything before p) and appending to `out`. Returns the number of the last line.
    /// Throws at the first malformed line, with its number.
    std::int64_t parse_entries(const char* p, const char* end, std::int64_t line, EntryState& st,
                               Triplets& out, bool& sorted) const
    {
        const bool sym = info_.symmetry != Symmetry::general;
        const bool skew = info_.symmetry == Symmetry::skew_symmetric;
        std::int64_t last_key = -1;
        while (p < end) {
            std::int32_t i = 0;
            std::int32_t j = 0;
            double v = 0;
            ++line;
            if (const char* next = fast_entry(p, end, i, j, v)) {
                p = next;
                if (st.count == info_.entries) {
                    fail_extra_entry(line);
                }
            } else {
                std::string_view text;
                p = cut_line(p, end, text);
                if (is_blank(text) || is_comment(text)) {
                    continue;
                }
                if (st.count == info_.entries) {
                    fail_extra_entry(line);
                }
                Tokens t(text);
                const auto row_tok = t.next();
                const auto col_tok = t.next();
                if (col_tok.empty()) {
                    fail(line, "truncated entry " + quoted(text) + ": expected 'row col" +
                                   (info_.field == Field::pattern ? "'" : " value'"));
                }
                i = parse_index(row_tok, "row", info_.rows, line);
                j = parse_index(col_tok, "column", info_.cols, line);
                v = parse_value(t, i, j, line);
                if (const auto extra = t.rest(); !extra.empty()) {
                    Tokens more(extra);
                    const auto first = more.next();
                    double ignored = 0;
                    const bool pattern_with_value = info_.field == Field::pattern &&
                                                    more.rest().empty() &&
                                                    parse_real(first, ignored) == Parsed::ok;
                    fail(line, "unexpected text " + quoted(extra) + " after the entry (a " +
                                   std::string(to_string(info_.field)) + " entry is 'row col" +
                                   (info_.field == Field::pattern ? "'" : " value'") + ")" +
                                   (pattern_with_value ? ": the file holds values although its "
                                                         "banner says 'pattern'"
                                                       : ""));
                }
            }
            ++st.count;
            if (i == j) {
                ++st.diagonal;
                if (skew) {
                    fail(line, "diagonal entry (" + std::to_string(i + 1) + ", " +
                                   std::to_string(j + 1) +
                                   ") in a skew-symmetric file: its diagonal is zero and "
                                   "must not be stored");
                }
            } else if (sym) {
                auto& mine = i > j ? st.first_lower : st.first_upper;
                const auto other = i > j ? st.first_upper : st.first_lower;
                if (mine == 0) {
                    mine = line;
                }
                if (other != 0) {
                    fail(line, "entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                                   ") is " + (i > j ? "below" : "above") +
                                   " the diagonal but line " + std::to_string(other) + " has one " +
                                   (i > j ? "above" : "below") + " it: a " +
                                   std::string(to_string(info_.symmetry)) +
                                   " file stores one triangle only (declare it general if it "
                                   "holds both)");
                }
            }
            st.expanded += (sym && i != j) ? 2 : 1;
            if (st.expanded > index_limit) {
                fail(line,
                     "the expanded matrix exceeds 2147483647 entries, the limit of "
                     "32-bit indices");
            }
            const std::int64_t key = (std::int64_t{i} << 32) | j;
            sorted = sorted && key > last_key;
            last_key = key;
            out.rows.push_back(i);
            out.cols.push_back(j);
            out.vals.push_back(v);
            if (sym && i != j) {
                out.rows.push_back(j);
                out.cols.push_back(i);
                out.vals.push_back(skew ? -v : v);
                sorted = false;
            }
        }
        return line;
    }

    [[noreturn]] void fail_extra_entry(std::int64_t line) const
    {
        fail(line, "extra entry: the size line (line " + std::to_string(size_line_) +
                       ") declares " + std::to_string(info_.entries) +
                       " entries and all of them were already read");
    }

    /// The most entries the rest of the text can hold (an entry line has at least 4 bytes,
    /// "1 1\n"), at most the declared count, expanded for a symmetric file.
    std::int64_t entries_bound() const noexcept
    {
        const auto room = static_cast<std::int64_t>(static_cast<std::size_t>(end_ - p_) / 4 + 1);
        return std::min(room, info_.entries) * (info_.symmetry != Symmetry::general ? 2 : 1);
    }

    /// Threads' groups of the counting sort in assemble() (one when n * groups is large).
    std::size_t sort_groups(std::size_t chunks) const noexcept
    {
        const auto n = static_cast<std::size_t>(info_.rows);
        std::size_t groups = std::min<std::size_t>(threads_, chunks);
        return (groups < 1 || n * groups > (std::size_t{1} << 26)) ? 1 : groups;
    }

    /// Peak bytes of the entries read (16 per entry: row, column, value) and of assemble()'s
    /// arrays for `m` expanded entries: in CSR order the row pointers (4 per row); otherwise
    /// also the counting sort's per-row arrays and the sorted slots before the final CSR.
    double assemble_bytes(bool csr_order, std::int64_t m) const noexcept
    {
        const double rows = static_cast<double>(info_.rows) + 1;
        const double entries = static_cast<double>(m);
        if (csr_order) {
            return 4 * rows + 16 * entries;
        }
        const double groups = static_cast<double>(sort_groups(std::size_t{threads_} * 8));
        return 4 * rows * (3 + groups) + (16 + 16 + 12) * entries;
    }

    /// Refuses, before anything sized by the header is allocated, a size line whose rows or
    /// columns the entries cannot justify, or whose reading cannot fit the memory limit even
    /// in the cheapest case (entries in CSR order).
    void check_size_line() const
    {
        const auto& budget = options_.memory;
        const auto bound = entries_bound();
        if (budget.unconfirmed_dimension > 0) {
            const std::int64_t allowed = std::max(budget.unconfirmed_dimension, 16 * bound);
            const std::int64_t dim = std::max(info_.rows, info_.cols);
            if (dim > allowed) {
                const bool rows = info_.rows >= info_.cols;
                const auto in_file = std::min(info_.entries, static_cast<std::int64_t>(
                                                                 static_cast<std::size_t>(end_ - p_) / 4 + 1));
                fail(size_line_,
                     "the size line declares " + std::to_string(info_.rows) + " x " +
                         std::to_string(info_.cols) + " for " +
                         (in_file < info_.entries ? "at most " : "") + std::to_string(in_file) +
                         (in_file == 1 ? " entry" : " entries") + ": its " +
                         (rows ? "row pointers" : "vector x") + " alone would need " +
                         format_bytes((rows ? 4.0 : 8.0) * static_cast<double>(dim)) +
                         " that the entries do not justify (at most " + std::to_string(allowed) +
                         " rows or columns, 16 per entry, are read" +
                         (budget.hint.empty() ? std::string(")") : "; " + budget.hint + ")"));
            }
        }
        check_memory(assemble_bytes(true, bound), true);
    }

    void check_memory(double need, bool estimate) const
    {
        const auto& budget = options_.memory;
        if (budget.limited() && need > static_cast<double>(budget.bytes)) {
            fail(size_line_, "reading this " + std::to_string(info_.rows) + " x " +
                                 std::to_string(info_.cols) + " matrix with " +
                                 std::to_string(info_.entries) +
                                 (info_.entries == 1 ? " entry" : " entries") + " would need " +
                                 (estimate ? "at least " : "") + format_bytes(need) +
                                 " (entries and CSR); the memory limit is " + budget.describe());
        }
    }

    /// Room for the entries of `bytes` of text out of `total`: never trusts the declared count
    /// alone (an entry line has at least 4 bytes), so a lying header cannot exhaust memory.
    std::size_t expected_entries(std::size_t bytes, std::size_t total) const
    {
        const auto room = static_cast<std::int64_t>(bytes / 4 + 1);
        const double share = total ? static_cast<double>(bytes) / static_cast<double>(total) : 1;
        const auto guess =
            bytes == total
                ? info_.entries
                : static_cast<std::int64_t>(static_cast<double>(info_.entries) * share * 1.05) + 16;
        return static_cast<std::size_t>(std::min({room, guess, info_.entries}) *
                                        (info_.symmetry != Symmetry::general ? 2 : 1));
    }

    /// Cuts the data section into chunks at line ends, parses them in parallel, then walks
    /// them in file order. A chunk's own errors, and the checks that need what comes before
    /// it (more entries than declared, both triangles of a symmetric file, too many expanded
    /// entries), send it through parse_entries again with the state of all earlier chunks:
    /// that throws the first error of the file, on its exact line, as a serial reader would.
    std::vector<Chunk> read_entries()
    {
        const auto total = static_cast<std::size_t>(end_ - p_);
        // Chunk 0 is the largest, 1/(2 threads) of the text, the rest about 1/(8 threads)
        // each: in CSR order the other chunks are copied behind chunk 0 (so a larger chunk 0
        // copies less), and small chunks keep the threads busy to the end when the system
        // slows one of them down (a single large chunk could not be shared).
        std::size_t chunk = options_.chunk_bytes;
        std::size_t first_chunk = chunk;
        if (chunk == 0) {
            const bool serial = threads_ == 1 || total <= min_chunk_bytes;
            chunk =
                serial ? total : std::max(min_chunk_bytes, total / (8 * std::size_t{threads_}) + 1);
            first_chunk = serial ? total : std::max(chunk, total / (2 * std::size_t{threads_}));
        }
        chunk = std::max<std::size_t>(chunk, 1);
        std::vector<Chunk> chunks;
        for (const char* b = p_; b < end_;) {
            const char* e = end_;
            const std::size_t want = chunks.empty() ? std::max<std::size_t>(first_chunk, 1) : chunk;
            if (static_cast<std::size_t>(end_ - b) > want) {
                const char* from = b + want - 1;
                const auto* nl = static_cast<const char*>(
                    std::memchr(from, '\n', static_cast<std::size_t>(end_ - from)));
                e = nl ? nl + 1 : end_;
            }
            chunks.emplace_back();
            chunks.back().begin = b;
            chunks.back().end = e;
            b = e;
        }
        // Chunk 0 starts from the known state (nothing read, line line_): its errors are final.
        parallel_for(chunks.size(), threads_, [&](std::size_t k) {
            Chunk& c = chunks[k];
            const std::size_t expect =
                expected_entries(static_cast<std::size_t>(c.end - c.begin), total);
            c.out.rows.reserve(expect);
            // chunk 0's columns and values get room for the whole file (address space only,
            // until written): in CSR order the others are appended to them, without a copy
            // of the first chunk or zero-filling of the rest
            const std::size_t whole = k == 0 ? expected_entries(total, total) : expect;
            c.out.cols.reserve(whole);
            c.out.vals.reserve(whole);
            const std::int64_t first = k == 0 ? line_ : 0;
            if (k == 0) {
                c.lines = parse_entries(c.begin, c.end, first, c.state, c.out, c.sorted) - first;
                return;
            }
            try {
                c.lines = parse_entries(c.begin, c.end, first, c.state, c.out, c.sorted) - first;
            } catch (const MatrixMarketError&) {
                c.failed = true;
                c.out = {};
            }
        });
        EntryState st;
        std::int64_t line = line_;
        for (std::size_t k = 0; k < chunks.size(); ++k) {
            Chunk& c = chunks[k];
            const EntryState& own = c.state;
            if (k == 0) {
                st = own;
            } else if (c.failed || st.count + own.count > info_.entries ||
                       (st.first_lower != 0 && own.first_upper != 0) ||
                       (st.first_upper != 0 && own.first_lower != 0) ||
                       st.expanded + own.expanded > index_limit) {
                c.out = {};
                c.sorted = true;
                c.lines = parse_entries(c.begin, c.end, line, st, c.out, c.sorted) - line;
            } else {
                st.count += own.count;
                st.expanded += own.expanded;
                st.diagonal += own.diagonal;
                if (st.first_lower == 0 && own.first_lower != 0) {
                    st.first_lower = line + own.first_lower;
                }
                if (st.first_upper == 0 && own.first_upper != 0) {
                    st.first_upper = line + own.first_upper;
                }
            }
            line += c.lines;
        }
        line_ = line;
        if (st.count < info_.entries) {
            fail(0, "file ends at line " + std::to_string(line_) + " after " +
                        std::to_string(st.count) + " of " + std::to_string(info_.entries) +
                        " entries");
        }
        info_.diagonal_entries = st.diagonal;
        info_.expanded_entries = st.expanded;
        return chunks;
    }

    /// Whether the chunks' entries, in file order, have strictly increasing (row, col): then
    /// the CSR is their concatenation.
    static bool in_csr_order(const std::vector<Chunk>& chunks) noexcept
    {
        std::int64_t last = -1;
        for (const auto& c : chunks) {
            if (!c.sorted) {
                return false;
            }
            if (c.out.rows.empty()) {
                continue;
            }
            const auto first = (std::int64_t{c.out.rows.front()} << 32) | c.out.cols.front();
            if (first <= last) {
                return false;
            }
            last = (std::int64_t{c.out.rows.back()} << 32) | c.out.cols.back();
        }
        return true;
    }

    /// The CSR of the chunks' entries: a counting sort by row that keeps file order inside a
    /// row, a stable sort of each row by column, then duplicates summed in file order -- the
    /// same additions in the same order whatever the number of threads.
    Csr<double, std::int32_t> assemble(std::vector<Chunk>& chunks)
    {
        Csr<double, std::int32_t> a;
        a.num_rows = static_cast<std::int32_t>(info_.rows);
        a.num_cols = static_cast<std::int32_t>(info_.cols);
        const auto n = static_cast<std::size_t>(info_.rows);
        std::size_t m = 0;
        for (const auto& c : chunks) {
            m += c.out.vals.size();
        }
        a.row_ptrs.assign(n + 1, 0);

        if (in_csr_order(chunks)) {  // e.g. every file write_matrix_market wrote (general)
            for (const auto& c : chunks) {
                for (const auto r : c.out.rows) {
                    ++a.row_ptrs[static_cast<std::size_t>(r) + 1];
                }
            }
            for (std::size_t i = 0; i < n; ++i) {
                a.row_ptrs[i + 1] += a.row_ptrs[i];
            }
            for (auto& c : chunks) {
                for (const double v : c.out.vals) {
                    info_.explicit_zeros += v == 0.0 ? 1 : 0;
                }
            }
            if (!chunks.empty()) {
                a.col_idxs = std::move(chunks[0].out.cols);
                a.values = std::move(chunks[0].out.vals);
                a.col_idxs.reserve(m);
                a.values.reserve(m);
                for (std::size_t k = 1; k < chunks.size(); ++k) {
                    auto& t = chunks[k].out;
                    a.col_idxs.insert(a.col_idxs.end(), t.cols.begin(), t.cols.end());
                    a.values.insert(a.values.end(), t.vals.begin(), t.vals.end());
                    t = {};
                }
                a.col_idxs.shrink_to_fit();
                a.values.shrink_to_fit();
            }
            info_.nnz = static_cast<std::int64_t>(m);
            return a;
        }

        // Counting sort by row. Each group of consecutive chunks counts its rows on its own
        // thread, so that each group knows where its entries of row r go (after those of the
        // earlier groups): the scatter is parallel and keeps file order.
        const std::size_t groups = sort_groups(chunks.size());
        const auto group_begin = [&](std::size_t g) { return g * chunks.size() / groups; };
        std::vector<std::vector<std::int32_t>> pos(groups);
        parallel_for(groups, threads_, [&](std::size_t g) {
            pos[g].assign(n, 0);
            for (std::size_t k = group_begin(g); k < group_begin(g + 1); ++k) {
                for (const auto r : chunks[k].out.rows) {
                    ++pos[g][static_cast<std::size_t>(r)];
                }
            }
        });
        std::vector<std::int32_t> start(n + 1, 0);
        for (std::size_t i = 0; i < n; ++i) {
            std::int32_t s = start[i];
            for (std::size_t g = 0; g < groups; ++g) {
                const std::int32_t c = pos[g][i];
                pos[g][i] = s;
                s += c;
            }
            start[i + 1] = s;
        }
        const std::unique_ptr<Slot[]> slots(new Slot[m]);  // uninitialised: all written below
        parallel_for(groups, threads_, [&](std::size_t g) {
            auto& p = pos[g];
            for (std::size_t k = group_begin(g); k < group_begin(g + 1); ++k) {
                auto& t = chunks[k].out;
                for (std::size_t e = 0; e < t.rows.size(); ++e) {
                    const auto r = static_cast<std::size_t>(t.rows[e]);
                    slots[static_cast<std::size_t>(p[r]++)] = {t.cols[e], t.vals[e]};
                }
                t = {};
            }
            p = {};
        });

        // Sort each row by column and sum its duplicates in place; rows split into ranges of
        // about equal entry counts, several per thread.
        const std::size_t ranges = threads_ == 1 ? 1 : std::size_t{threads_} * 4;
        std::vector<std::size_t> range_row(ranges + 1, n);
        range_row[0] = 0;
        for (std::size_t q = 1; q < ranges; ++q) {
            const auto target = static_cast<std::int32_t>(m * q / ranges);
            range_row[q] = static_cast<std::size_t>(
                std::lower_bound(start.begin(), start.end() - 1, target) - start.begin());
        }
        std::vector<std::int32_t> kept(n, 0);
        std::vector<std::int64_t> duplicates(ranges, 0);
        std::vector<std::int64_t> zeros(ranges, 0);
        const auto by_col = [](const Slot& l, const Slot& r) { return l.col < r.col; };
        parallel_for(ranges, threads_, [&](std::size_t q) {
            std::int64_t dups = 0;
            std::int64_t zero = 0;
            for (std::size_t i = range_row[q]; i < range_row[q + 1]; ++i) {
                Slot* b = slots.get() + start[i];
                Slot* e = slots.get() + start[i + 1];
                if (e - b > 32) {
                    if (!std::is_sorted(b, e, by_col)) {
                        std::stable_sort(b, e, by_col);
                    }
                } else {  // insertion sort: stable and allocation-free for the usual short rows
                    for (Slot* it = b; it != e; ++it) {
                        for (Slot* k = it; k != b && (k - 1)->col > k->col; --k) {
                            std::swap(*(k - 1), *k);
                        }
                    }
                }
                Slot* w = b;
                for (Slot* it = b; it != e; ++it) {
                    if (w != b && (w - 1)->col == it->col) {
                        (w - 1)->val += it->val;
                        ++dups;
                    } else {
                        *w++ = *it;
                    }
                }
                for (Slot* k = b; k != w; ++k) {
                    zero += k->val == 0.0 ? 1 : 0;
                }
                kept[i] = static_cast<std::int32_t>(w - b);
            }
            duplicates[q] = dups;
            zeros[q] = zero;
        });
        for (std::size_t i = 0; i < n; ++i) {
            a.row_ptrs[i + 1] = a.row_ptrs[i] + kept[i];
        }
        const auto nnz = static_cast<std::size_t>(a.row_ptrs[n]);
        a.col_idxs.resize(nnz);
        a.values.resize(nnz);
        parallel_for(ranges, threads_, [&](std::size_t q) {
            for (std::size_t i = range_row[q]; i < range_row[q + 1]; ++i) {
                const Slot* b = slots.get() + start[i];
                auto w = static_cast<std::size_t>(a.row_ptrs[i]);
                for (const Slot* s = b; s != b + kept[i]; ++s, ++w) {
                    a.col_idxs[w] = s->col;
                    a.values[w] = s->val;
                }
            }
        });
        for (std::size_t q = 0; q < ranges; ++q) {
            info_.duplicates_summed += duplicates[q];
            info_.explicit_zeros += zeros[q];
        }
        info_.nnz = static_cast<std::int64_t>(nnz);
        return a;
    }

    const char* p_;
    const char* end_;
    std::string source_;
    ReadOptions options_;
    unsigned threads_ = 1;
    std::int64_t line_ = 0;
    std::int64_t size_line_ = 0;
    MatrixMarketInfo info_;
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

bool have_compressed_input() noexcept
{
    return detail::have_libarchive();
}

InputPath parse_input_path(const std::filesystem::path& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (path == "-" || fs::exists(fs::symlink_status(path, ec))) {
        return {path, {}};
    }
    const std::string s = path.string();
    const auto colon = s.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == s.size()) {
        return {path, {}};
    }
    const fs::path file = s.substr(0, colon);
    if (!fs::is_regular_file(file, ec)) {
        return {path, {}};
    }
    return {file, s.substr(colon + 1)};
}

namespace {

/// The text of a compressed input, parsed (or only its header) as a plain file would be; the
/// info says where it came from.
template <typename Fn>
auto parse_unpacked(const detail::Unpacked& u, const std::string& name, Fn&& parse)
{
    const std::string source = u.member.empty() ? name : name + ":" + u.member;
    const auto inner = check_leading_bytes(
        source, u.text.data(), std::min<std::size_t>(u.text.size(), 512));
    if (inner != detail::Packing::plain) {
        throw MatrixMarketError(__FILE__, __LINE__, source, 0,
                                std::string("holds ") + detail::packing_name(inner) +
                                    " data after decompression (compressed twice?): SpMV Lab "
                                    "unpacks one level");
    }
    return parse(std::string_view(u.text), source);
}

void describe_unpacked(MatrixMarketInfo& info, const detail::Unpacked& u)
{
    info.compression = u.compression;
    info.archive_member = u.member;
    if (info.collection_name.empty()) {
        info.collection_name = collection_name_of_member(u.member);
    }
}

struct OpenedInput {
    std::string name;
    std::filesystem::path file;
    int fd = -1;  ///< 0 for the standard input, else -1 (FileBytes opens the file)
    ReadOptions options;
};

/// The checks before a path is opened: "-", "archive:MEMBER", a missing file, a directory.
OpenedInput open_input(const std::filesystem::path& path, const ReadOptions& options)
{
    OpenedInput in;
    in.options = options;
    if (path == "-") {
        in.name = "<stdin>";
        in.fd = 0;
        return in;
    }
    const auto parsed = parse_input_path(path);
    in.file = parsed.file;
    in.name = parsed.file.string();
    if (!parsed.member.empty()) {
        in.options.archive_member = parsed.member;
    }
    std::error_code ec;
    const auto status = std::filesystem::status(in.file, ec);
    if (ec && ec != std::errc::no_such_file_or_directory) {  // e.g. a loop of symbolic links
        throw MatrixMarketError(__FILE__, __LINE__, in.name, 0, "cannot open: " + ec.message());
    }
    if (!std::filesystem::exists(status)) {
        throw MatrixMarketError(__FILE__, __LINE__, in.name, 0, "cannot open: file not found");
    }
    if (std::filesystem::is_directory(status)) {
        throw MatrixMarketError(__FILE__, __LINE__, in.name, 0,
                                "cannot open: it is a directory, not a file");
    }
    return in;
}

void refuse_member_of_plain(const OpenedInput& in)
{
    if (!in.options.archive_member.empty()) {
        throw MatrixMarketError(__FILE__, __LINE__, in.name, 0,
                                "member '" + in.options.archive_member +
                                    "' asked for, but the input is a plain Matrix Market file, "
                                    "not an archive");
    }
}

}  // namespace

Csr<double, std::int32_t> read_matrix_market(std::istream& in, std::string source_name,
                                             MatrixMarketInfo* info, const ReadOptions& options)
{
    if (in.fail()) {
        throw MatrixMarketError(__FILE__, __LINE__, source_name, 0,
                                "cannot read: the stream is in a failed state");
    }
    const std::string text = read_all(in, 0, source_name, options.memory);
    if (in.bad()) {
        throw MatrixMarketError(__FILE__, __LINE__, source_name, 0, "read error");
    }
    const auto kind = detect_packing_of(text);
    if (kind == detail::Packing::plain || kind == detail::Packing::zip) {
        if (kind == detail::Packing::zip) {
            check_leading_bytes(source_name, text.data(), text.size());
        }
        return Parser(text, std::move(source_name), options).run(info);
    }
    const auto u = detail::unpack(source_name, kind, text, -1, options.archive_member,
                                  options.memory, false);
    MatrixMarketInfo local;
    auto a = parse_unpacked(u, source_name, [&](std::string_view t, const std::string& src) {
        return Parser(t, src, options).run(&local);
    });
    describe_unpacked(local, u);
    if (info) {
        *info = std::move(local);
    }
    return a;
}

Csr<double, std::int32_t> read_matrix_market(const std::filesystem::path& path,
                                             MatrixMarketInfo* info, const ReadOptions& options)
{
    const auto in = open_input(path, options);
    const FileBytes bytes(in.file, in.fd, in.name, in.options.memory);
    if (bytes.kind() == detail::Packing::plain) {
        refuse_member_of_plain(in);
        return Parser(bytes.view(), in.name, in.options).run(info);
    }
    const auto u = detail::unpack(in.name, bytes.kind(), bytes.view(), bytes.pending_fd(),
                                  in.options.archive_member, in.options.memory, false);
    MatrixMarketInfo local;
    auto a = parse_unpacked(u, in.name, [&](std::string_view t, const std::string& src) {
        return Parser(t, src, in.options).run(&local);
    });
    describe_unpacked(local, u);
    if (info) {
        *info = std::move(local);
    }
    return a;
}

MatrixMarketInfo read_matrix_market_header(const std::filesystem::path& path,
                                           const ReadOptions& options)
{
    const auto in = open_input(path, options);
    const FileBytes bytes(in.file, in.fd, in.name, in.options.memory);
    if (bytes.kind() == detail::Packing::plain) {
        refuse_member_of_plain(in);
        return Parser(bytes.view(), in.name, in.options).header();
    }
    const auto u = detail::unpack(in.name, bytes.kind(), bytes.view(), bytes.pending_fd(),
                                  in.options.archive_member, in.options.memory, true);
    auto info = parse_unpacked(u, in.name, [&](std::string_view t, const std::string& src) {
        return Parser(t, src, in.options).header();
    });
    describe_unpacked(info, u);
    return info;
}

namespace {

/// The text of write_matrix_market into `out`; the caller checks the stream.
void write_text(std::ostream& out, const Csr<double, std::int32_t>& a, const WriteOptions& options)
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
    for (const auto& kept : options.comments) {  // verbatim, as MatrixMarketInfo holds them
        std::string_view c = kept;
        do {
            const auto nl = c.find('\n');
            auto piece = c.substr(0, nl);
            while (!piece.empty() && piece.back() == '\r') {
                piece.remove_suffix(1);
            }
            buf += '%';
            buf += piece;
            buf += '\n';
            c = nl == std::string_view::npos ? std::string_view{} : c.substr(nl + 1);
        } while (!c.empty());
    }
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
}

}  // namespace

void write_matrix_market(std::ostream& out, const Csr<double, std::int32_t>& a,
                         const WriteOptions& options)
{
    write_text(out, a, options);
    out.flush();
    if (!out) {
        SPMV_THROW(Error, "write_matrix_market: write failed");
    }
}

void write_matrix_market(const std::filesystem::path& path, const Csr<double, std::int32_t>& a,
                         const WriteOptions& options)
{
    validate(a);  // before the target is touched
    SPMV_EXPECTS(options.precision >= 0 && options.precision <= 40,
                 "write_matrix_market: precision must be in 0..40");
    AtomicFile out(path);
    write_text(out.stream(), a, options);
    out.commit();  // names the file and the system's reason for a failed write
}

}  // namespace spmv::io
