#pragma once
/// Compressed Matrix Market input (internal to lib/src/io): what the first bytes of an input say
/// it is, and its text after decompression. archive_input.cpp does it with libarchive;
/// archive_none.cpp, in a build without libarchive, throws NotCompiled.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include <spmv/memory.hpp>

namespace spmv::io::detail {

/// What an input is, by its first bytes.
enum class Packing { plain, gzip, bzip2, xz, lzma, zstd, tar, zip };

/// The kind of the input whose first `n` bytes are at `p` (a tar archive is recognised by the
/// "ustar" magic at offset 257, so give at least 512 bytes when there are that many).
inline Packing detect_packing(const char* p, std::size_t n) noexcept
{
    const auto starts = [&](const char* magic, std::size_t len) {
        return n >= len && std::memcmp(p, magic, len) == 0;
    };
    if (starts("\x1f\x8b", 2)) {
        return Packing::gzip;
    }
    if (starts("BZh", 3)) {
        return Packing::bzip2;
    }
    if (starts("\xfd" "7zXZ\x00", 6)) {
        return Packing::xz;
    }
    if (starts("\x28\xb5\x2f\xfd", 4)) {
        return Packing::zstd;
    }
    if (starts("\x5d\x00\x00", 3)) {  // .lzma (LZMA-alone): properties 0x5d, dictionary size
        return Packing::lzma;
    }
    if (starts("PK\x03\x04", 4)) {
        return Packing::zip;
    }
    if (n >= 262 && std::memcmp(p + 257, "ustar", 5) == 0) {
        return Packing::tar;
    }
    return Packing::plain;
}

inline const char* packing_name(Packing k) noexcept
{
    switch (k) {
        case Packing::plain:
            return "plain";
        case Packing::gzip:
            return "gzip";
        case Packing::bzip2:
            return "bzip2";
        case Packing::xz:
            return "xz";
        case Packing::lzma:
            return "lzma";
        case Packing::zstd:
            return "zstd";
        case Packing::tar:
            return "tar";
        case Packing::zip:
            return "zip";
    }
    return "?";
}

/// Where the size line of a Matrix Market text ends (just after its '\n'), or npos while the
/// text seen so far does not yet hold it: line 1 is the banner, then comments and blank lines.
inline std::size_t header_end(std::string_view text) noexcept
{
    std::size_t pos = 0;
    bool banner = true;
    while (pos < text.size()) {
        const auto nl = text.find('\n', pos);
        if (nl == std::string_view::npos) {
            return std::string_view::npos;
        }
        const auto line = text.substr(pos, nl - pos);
        pos = nl + 1;
        if (banner) {
            banner = false;
            continue;
        }
        const auto k = line.find_first_not_of(" \t\r\v\f");
        if (k == std::string_view::npos || line[k] == '%') {
            continue;
        }
        return pos;
    }
    return std::string_view::npos;
}

/// A decompressed input.
struct Unpacked {
    std::string text;         ///< the Matrix Market text
    std::string member;       ///< its path in a tar archive; empty for a single stream
    std::string compression;  ///< "gzip", "bzip2", ...; empty for an uncompressed tar
};

/// Decompresses an input whose first bytes are `head`; the rest is read from `fd` (-1: `head`
/// is all of it). A tar archive gives the member `member` (path or file name) or, if empty,
/// the member chosen by the rule of matrix_market.hpp. With `header_only`, stops once the text
/// holds the size line. The text is refused beyond `budget` (without a limit, beyond the
/// memory available). Throws MatrixMarketError naming `name`, or NotCompiled without libarchive.
Unpacked unpack(const std::string& name, Packing kind, std::string_view head, int fd,
                const std::string& member, const MemoryBudget& budget, bool header_only);

bool have_libarchive() noexcept;

}  // namespace spmv::io::detail
