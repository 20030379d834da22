#include "gzip_check.hpp"

#include <zlib.h>

#include <new>
#include <vector>

namespace spmv::io::detail {

struct GzipCheck::Stream {
    z_stream zs{};
    std::vector<unsigned char> out = std::vector<unsigned char>(std::size_t{1} << 16);
};

GzipCheck::GzipCheck() : z_(std::make_unique<Stream>())
{
    // 16 + MAX_WBITS: a gzip wrapper, whose trailer inflate() checks
    if (inflateInit2(&z_->zs, 16 + MAX_WBITS) != Z_OK) {
        throw std::bad_alloc();
    }
}

GzipCheck::~GzipCheck()
{
    inflateEnd(&z_->zs);
}

void GzipCheck::feed(const void* data, std::size_t bytes)
{
    auto* p = static_cast<const unsigned char*>(data);
    while (!done_ && bytes > 0) {
        if (!in_member_) {
            // gzip -d reads concatenated members; bytes after the last member that do not
            // start another one are not part of the stream (libarchive ignores them too)
            if (members_ > 0 && p[0] != 0x1f) {
                done_ = true;
                return;
            }
            if (members_ > 0) {
                inflateReset(&z_->zs);
            }
            in_member_ = true;
        }
        z_stream& zs = z_->zs;
        // zlib's interface takes non-const input pointers and 32-bit counts
        const auto chunk = static_cast<uInt>(bytes > (1u << 30) ? (1u << 30) : bytes);
        zs.next_in = const_cast<Bytef*>(p);
        zs.avail_in = chunk;
        int r = Z_OK;
        do {
            zs.next_out = z_->out.data();
            zs.avail_out = static_cast<uInt>(z_->out.size());
            r = inflate(&zs, Z_NO_FLUSH);
        } while (r == Z_OK && zs.avail_in > 0);
        const std::size_t used = chunk - zs.avail_in;
        p += used;
        bytes -= used;
        if (r == Z_STREAM_END) {
            in_member_ = false;
            ++members_;
            continue;
        }
        if (r != Z_OK && r != Z_BUF_ERROR) {
            error_ = zs.msg != nullptr ? zs.msg : "inflate error " + std::to_string(r);
            done_ = true;
            return;
        }
    }
}

std::string GzipCheck::finish()
{
    if (!error_.empty()) {
        return error_;
    }
    if (in_member_) {
        return "the stream ends inside a member (truncated)";
    }
    return {};
}

}  // namespace spmv::io::detail
