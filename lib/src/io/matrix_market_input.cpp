// The bytes of a Matrix Market input, before any line is parsed (matrix_market_input.hpp):
// opening the path, mapping a regular file or reading a stream within the memory budget,
// refusing by its first bytes what cannot be Matrix Market text, and what comes back from
// detail::unpack for a compressed input or a tar archive. Also the two public functions about
// inputs, have_compressed_input() and parse_input_path().
#include "matrix_market_input.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <istream>
#include <new>
#include <system_error>

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
#include <spmv/memory.hpp>

namespace spmv::io::detail {
namespace {

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

[[noreturn]] void fail_open(const std::string& name, int err)
{
    throw MatrixMarketError(
        __FILE__, __LINE__, name, 0,
        std::string("cannot open for reading: ") + (err ? std::strerror(err) : "unknown error"));
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

}  // namespace

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

FileBytes::FileBytes(const std::filesystem::path& path, int fd, const std::string& name,
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

FileBytes::~FileBytes()
{
#if SPMV_IO_HAVE_MMAP
    if (map_) {
        ::munmap(map_, size_);
    }
    close_fd();
#endif
}

#if SPMV_IO_HAVE_MMAP
void FileBytes::close_fd() noexcept
{
    if (fd_ > 0) {  // never the standard input
        ::close(fd_);
    }
    fd_ = -1;
}

void FileBytes::load(const std::string& name, const MemoryBudget& budget)
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
#endif

void describe_unpacked(MatrixMarketInfo& info, const detail::Unpacked& u)
{
    info.compression = u.compression;
    info.archive_member = u.member;
    if (info.collection_name.empty()) {
        info.collection_name = collection_name_of_member(u.member);
    }
}

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

}  // namespace spmv::io::detail

namespace spmv::io {

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

}  // namespace spmv::io
