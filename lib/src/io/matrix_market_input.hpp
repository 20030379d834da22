#pragma once
/// The bytes of a Matrix Market input (internal to lib/src/io), before any line is parsed:
/// opening a path ("-" for the standard input, "archive.tar:MEMBER"), mapping or reading it
/// within the memory budget, refusing what cannot be Matrix Market text by its first bytes, and
/// handing a compressed stream or a tar archive to detail::unpack (archive_input.hpp). The
/// parser (matrix_market_parser.hpp) then reads the text these give it.
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <istream>
#include <string>
#include <string_view>

#include <spmv/error.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/memory.hpp>

#include "archive_input.hpp"

namespace spmv::io::detail {

/// All of `in`, read in blocks of 1 MiB and refused beyond `budget` (naming `name`).
std::string read_all(std::istream& in, std::size_t size_hint, const std::string& name,
                     const MemoryBudget& budget);

/// The first bytes of an input, checked before the rest is read: a compressed file or a tar
/// archive is recognised by its magic bytes (whatever its name) and returned as such, and an
/// input that cannot start with the banner (binary data, /dev/zero) is refused after its first
/// block instead of being read to its end, which for a device never comes. Give at least 512
/// bytes when there are that many (a tar header). Only spaces and tabs may precede the banner
/// on line 1 (the parser's rule).
detail::Packing check_leading_bytes(const std::string& name, const char* p, std::size_t n);

/// What the first 512 bytes of `text` say it is.
detail::Packing detect_packing_of(std::string_view text) noexcept;

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
              const MemoryBudget& budget);
    ~FileBytes();

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
    // with mmap (POSIX) only
    void close_fd() noexcept;
    void load(const std::string& name, const MemoryBudget& budget);

    int fd_ = -1;
    void* map_ = nullptr;
    std::size_t size_ = 0;
    std::string text_;
    detail::Packing kind_ = detail::Packing::plain;
};

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

/// Where an unpacked input came from: compression, archive member, and the collection name
/// that the member's path gives when the comments gave none.
void describe_unpacked(MatrixMarketInfo& info, const detail::Unpacked& u);

struct OpenedInput {
    std::string name;
    std::filesystem::path file;
    int fd = -1;  ///< 0 for the standard input, else -1 (FileBytes opens the file)
    ReadOptions options;
};

/// The checks before a path is opened: "-", "archive:MEMBER", a missing file, a directory.
OpenedInput open_input(const std::filesystem::path& path, const ReadOptions& options);

/// Refuses an archive member asked of a plain (not archived) input.
void refuse_member_of_plain(const OpenedInput& in);

}  // namespace spmv::io::detail
