// Compressed Matrix Market input with libarchive (Debian libarchive-dev): single compressed
// streams through libarchive's "raw" format, tar archives (compressed or not) through its tar
// reader, both as one stream of blocks -- nothing is written to disk.
#include "archive_input.hpp"
#include "gzip_check.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <vector>

#include <spmv/error.hpp>

namespace spmv::io::detail {
namespace {

/// The bytes libarchive decompresses: `head` first, then what `fd` still holds. A gzip stream
/// (magic 1f 8b) is also fed to `gzip`, which checks the trailers libarchive does not.
struct Feed {
    std::string_view head;
    bool head_given = false;
    int fd = -1;
    std::vector<char> block = std::vector<char>(std::size_t{1} << 20);
    bool verify = true;     ///< check a gzip stream's trailers (off when reading a header only)
    bool first = true;      ///< no byte seen yet: the next ones decide whether it is gzip
    std::optional<GzipCheck> gzip;

    void seen(const char* p, std::size_t n)
    {
        if (n == 0) {
            return;
        }
        if (first) {
            first = false;
            if (verify && n >= 2 && static_cast<unsigned char>(p[0]) == 0x1f &&
                static_cast<unsigned char>(p[1]) == 0x8b) {
                gzip.emplace();
            }
        }
        if (gzip) {
            gzip->feed(p, n);
        }
    }
};

la_ssize_t feed_read(struct archive* a, void* client, const void** buffer)
{
    auto* f = static_cast<Feed*>(client);
    if (!f->head_given) {
        f->head_given = true;
        if (!f->head.empty()) {
            *buffer = f->head.data();
            f->seen(f->head.data(), f->head.size());
            return static_cast<la_ssize_t>(f->head.size());
        }
    }
    if (f->fd < 0) {
        return 0;
    }
    for (;;) {
        const auto n = ::read(f->fd, f->block.data(), f->block.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            archive_set_error(a, errno, "read error: %s", std::strerror(errno));
            return -1;
        }
        *buffer = f->block.data();
        f->seen(f->block.data(), static_cast<std::size_t>(n));
        return static_cast<la_ssize_t>(n);
    }
}

struct ArchiveDeleter {
    void operator()(struct archive* a) const noexcept { archive_read_free(a); }
};

std::string strip_dot(std::string path)
{
    while (path.rfind("./", 0) == 0) {
        path.erase(0, 2);
    }
    return path;
}

std::string base_name(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool is_mtx(const std::string& path)
{
    return path.size() > 4 && path.compare(path.size() - 4, 4, ".mtx") == 0;
}

/// "Name/Name.mtx" or "Group/Name/Name.mtx": the file's stem is its directory's name.
bool is_main_member(const std::string& path)
{
    if (!is_mtx(path)) {
        return false;
    }
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos || slash == 0) {
        return false;
    }
    const auto dir_start = path.find_last_of('/', slash - 1);
    const auto dir = path.substr(dir_start == std::string::npos ? 0 : dir_start + 1,
                                 slash - (dir_start == std::string::npos ? 0 : dir_start + 1));
    const auto stem = path.substr(slash + 1, path.size() - slash - 1 - 4);
    return !dir.empty() && stem == dir;
}

std::string list(const std::vector<std::string>& names)
{
    std::string s;
    const std::size_t shown = std::min<std::size_t>(names.size(), 20);
    for (std::size_t k = 0; k < shown; ++k) {
        s += (k ? ", " : "") + names[k];
    }
    if (shown < names.size()) {
        s += ", ... (" + std::to_string(names.size()) + " in all)";
    }
    return s;
}

class Unpacker {
public:
    Unpacker(const std::string& name, Packing kind, const MemoryBudget& budget, bool header_only)
        : name_(name), kind_(kind), budget_(budget), header_only_(header_only)
    {
        limit_ = budget.bytes;
        if (!budget.limited()) {
            limit_ = available_memory();  // 0: unknown, no limit
        }
    }

    Unpacked run(std::string_view head, int fd, const std::string& wanted)
    {
        Feed feed;
        feed.head = head;
        feed.fd = fd;
        feed.verify = !header_only_;
        Unpacked out = read_archive(feed, wanted);
        if (feed.gzip) {
            drain(feed);  // a tar member may end before the stream does: its trailer decides
            const std::string why = feed.gzip->finish();
            if (!why.empty()) {
                throw MatrixMarketError(__FILE__, __LINE__, name_, 0,
                                        "the gzip input is damaged: " + why +
                                            (why == "incorrect data check"
                                                 ? " (the CRC-32 of the decompressed text differs "
                                                   "from the one stored)"
                                                 : std::string()));
            }
        }
        return out;
    }

private:
    /// The rest of the compressed input, through the gzip check only.
    void drain(Feed& feed) const
    {
        if (!feed.head_given) {
            feed.head_given = true;
            feed.seen(feed.head.data(), feed.head.size());
        }
        while (feed.fd >= 0) {
            const auto n = ::read(feed.fd, feed.block.data(), feed.block.size());
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                throw MatrixMarketError(__FILE__, __LINE__, name_, 0,
                                        std::string("read error: ") + std::strerror(errno));
            }
            if (n == 0) {
                break;
            }
            feed.seen(feed.block.data(), static_cast<std::size_t>(n));
        }
    }

    Unpacked read_archive(Feed& feed, const std::string& wanted)
    {
        std::unique_ptr<struct archive, ArchiveDeleter> owner(archive_read_new());
        struct archive* a = owner.get();
        if (a == nullptr) {
            throw std::bad_alloc();
        }
        // Only these filters: archive_read_support_filter_all() would also run external
        // programs (lrzip, lzop, grzip) for what it cannot decode itself.
        archive_read_support_filter_gzip(a);
        archive_read_support_filter_bzip2(a);
        archive_read_support_filter_xz(a);
        archive_read_support_filter_lzma(a);
        archive_read_support_filter_zstd(a);
        archive_read_support_format_tar(a);
        archive_read_support_format_gnutar(a);
        archive_read_support_format_raw(a);  // bids only when no tar header is found
        if (archive_read_open(a, &feed, nullptr, feed_read, nullptr) != ARCHIVE_OK) {
            fail(a, "cannot read");
        }
        Unpacked out;
        std::vector<std::string> members;      // every .mtx member, in archive order
        std::vector<std::string> main_members;  // those named Name/Name.mtx
        std::vector<std::string> others;        // regular members that are not .mtx
        int headers = 0;                        // entries of any kind
        std::string taken;                      // the member read when one was named
        bool have_text = false;
        bool text_is_main = false;
        struct archive_entry* entry = nullptr;
        for (;;) {
            const int r = archive_read_next_header(a, &entry);
            if (r == ARCHIVE_EOF) {
                break;
            }
            if (r < ARCHIVE_WARN) {
                fail(a, members.empty() ? "cannot read" : "cannot read past the members " + list(members) + " of");
            }
            if (out.compression.empty() && archive_filter_code(a, 0) != ARCHIVE_FILTER_NONE) {
                out.compression = archive_filter_name(a, 0);
            }
            if ((archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_RAW) {
                read_data(a, out.text);  // a single compressed stream: its text is the file
                return out;
            }
            ++headers;
            if (archive_entry_filetype(entry) != AE_IFREG) {
                continue;
            }
            const char* raw_path = archive_entry_pathname(entry);
            const std::string path = strip_dot(raw_path ? raw_path : "");
            if (!wanted.empty()) {
                const auto want = strip_dot(wanted);
                if (path == want || base_name(path) == want) {
                    if (!taken.empty()) {  // appended again (tar -r): which one is meant?
                        throw MatrixMarketError(
                            __FILE__, __LINE__, name_, 0,
                            "the archive holds " + taken + (path == taken ? " twice" : " and " + path) +
                                " (appended with tar -r?): the member '" + wanted +
                                "' is ambiguous");
                    }
                    check_declared_size(entry, path);
                    read_data(a, out.text);
                    out.member = path;
                    taken = path;
                    if (header_only_) {
                        return out;  // a header is wanted: do not decompress the rest
                    }
                    continue;  // read on: the same name appended later would be ambiguous
                }
                if (is_mtx(path)) {
                    members.push_back(path);
                }
                continue;
            }
            if (!is_mtx(path)) {
                others.push_back(path);
                continue;
            }
            if (std::find(members.begin(), members.end(), path) != members.end()) {
                throw MatrixMarketError(__FILE__, __LINE__, name_, 0,
                                        "the archive holds the member " + path +
                                            " twice (appended with tar -r?): which one is meant "
                                            "is ambiguous");
            }
            members.push_back(path);
            const bool main = is_main_member(path);
            if (main) {
                main_members.push_back(path);
            }
            // Read the first main member, or the first .mtx while no main one was seen (it is
            // the answer if it stays the only one); skip the others unread.
            if ((main && !text_is_main && main_members.size() == 1) || (!have_text && !main)) {
                check_declared_size(entry, path);
                out.text.clear();
                read_data(a, out.text);
                out.member = path;
                have_text = true;
                text_is_main = main;
            }
        }
        if (!taken.empty()) {
            return out;
        }
        if (!wanted.empty()) {
            throw MatrixMarketError(__FILE__, __LINE__, name_, 0,
                                    "the archive has no member '" + wanted + "'" +
                                        (members.empty() ? std::string(" and no .mtx member")
                                                         : "; its .mtx members: " + list(members)));
        }
        if (out.compression.empty() && archive_filter_code(a, 0) != ARCHIVE_FILTER_NONE) {
            out.compression = archive_filter_name(a, 0);  // no header was read to set it
        }
        if (members.empty()) {
            const std::string what =
                std::string("the ") + (out.compression.empty() ? "" : out.compression + "-compressed ");
            if (headers == 0) {  // a tar end marker is two blocks of zeros
                throw MatrixMarketError(__FILE__, __LINE__, name_, 0,
                                        what + "data holds no file at all (an empty tar archive, "
                                               "or nothing but zero bytes)");
            }
            std::string packed;  // compressed Matrix Market members
            for (const auto& o : others) {
                for (const char* ext : {".mtx.gz", ".mtx.bz2", ".mtx.xz", ".mtx.zst"}) {
                    const std::string e(ext);
                    if (o.size() > e.size() && o.compare(o.size() - e.size(), e.size(), e) == 0) {
                        packed += (packed.empty() ? "" : ", ") + o;
                    }
                }
            }
            throw MatrixMarketError(
                __FILE__, __LINE__, name_, 0,
                what + "tar archive holds no .mtx member (no Matrix Market file)" +
                    (!packed.empty() ? "; its compressed member(s) " + packed +
                                           " must be extracted first (tar xf), then read as files"
                     : !others.empty() ? "; its members: " + list(others)
                                       : std::string()));
        }
        if (main_members.size() > 1 || (main_members.empty() && members.size() > 1)) {
            const auto& names = main_members.size() > 1 ? main_members : members;
            throw MatrixMarketError(__FILE__, __LINE__, name_, 0,
                                    "the archive holds several matrices (" + list(names) +
                                        "): name one as " + name_ + ":MEMBER, e.g. " + name_ + ":" +
                                        base_name(names.front()));
        }
        return out;
    }

    [[noreturn]] void fail(struct archive* a, const std::string& what) const
    {
        const char* why = archive_error_string(a);
        throw MatrixMarketError(__FILE__, __LINE__, name_, 0,
                                what + " the " + packing_name(kind_) + " input: " +
                                    (why ? why : "unknown error") + " (truncated or damaged?)");
    }

    std::string limit_text() const
    {
        return budget_.limited() ? budget_.describe()
                                 : format_bytes(static_cast<double>(limit_)) + " (the memory available)";
    }

    void check_declared_size(struct archive_entry* entry, const std::string& path) const
    {
        if (limit_ != 0 && archive_entry_size_is_set(entry) && archive_entry_size(entry) > 0 &&
            static_cast<std::uint64_t>(archive_entry_size(entry)) > limit_ && !header_only_) {
            throw MatrixMarketError(
                __FILE__, __LINE__, name_ + ":" + path, 0,
                "the member holds " + format_bytes(static_cast<double>(archive_entry_size(entry))) +
                    " of text; the memory limit is " + limit_text());
        }
    }

    /// The current entry's data into `text`, checked against the limit BEFORE it grows: the
    /// buffer's capacity is set here (x1.5 steps, never past limit + one chunk), not left to
    /// std::string's doubling, so the peak stays within the limit plus 1 MiB; running out of
    /// memory first names the input.
    void read_data(struct archive* a, std::string& text)
    {
        constexpr std::size_t chunk = std::size_t{1} << 20;
        std::size_t used = text.size();
        for (;;) {
            if (used + chunk > text.capacity()) {
                std::size_t want = std::max(used + chunk, text.capacity() + text.capacity() / 2);
                if (limit_ != 0) {
                    want = std::min<std::size_t>(want, static_cast<std::size_t>(limit_) + chunk);
                }
                try {
                    text.reserve(want);
                } catch (const std::bad_alloc&) {
                    throw MatrixMarketError(__FILE__, __LINE__, name_, 0,
                                            "out of host memory after decompressing " +
                                                format_bytes(static_cast<double>(used)) +
                                                " of text (the memory limit is " + limit_text() +
                                                ")");
                }
            }
            text.resize(used + chunk);
            const auto n = archive_read_data(a, text.data() + used, chunk);
            if (n < 0) {
                text.resize(used);
                fail(a, "cannot decompress");
            }
            if (n == 0) {
                break;
            }
            used += static_cast<std::size_t>(n);
            if (limit_ != 0 && used > limit_) {
                throw MatrixMarketError(__FILE__, __LINE__, name_, 0,
                                        "decompresses to more than " +
                                            format_bytes(static_cast<double>(limit_)) +
                                            " of text (a decompression bomb?); the memory limit is " +
                                            limit_text());
            }
            if (header_only_ && header_end(std::string_view(text.data(), used)) != std::string::npos) {
                break;
            }
        }
        text.resize(used);
    }

    const std::string& name_;
    Packing kind_;
    const MemoryBudget& budget_;
    bool header_only_;
    std::uint64_t limit_ = 0;
};

}  // namespace

bool have_libarchive() noexcept
{
    return true;
}

Unpacked unpack(const std::string& name, Packing kind, std::string_view head, int fd,
                const std::string& member, const MemoryBudget& budget, bool header_only)
{
    return Unpacker(name, kind, budget, header_only).run(head, fd, member);
}

}  // namespace spmv::io::detail
