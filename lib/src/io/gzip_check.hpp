#pragma once
// GzipCheck: inflates a gzip stream a second time, alongside libarchive, only to verify each
// member's CRC-32 and length trailer (zlib checks both at the end of a member).
// libarchive's gzip filter reads the trailer without checking it, so a changed byte with the
// old CRC left in place was decompressed into silently wrong values. Internal to spmv::io.
#include <cstddef>
#include <memory>
#include <string>

namespace spmv::io::detail {

class GzipCheck {
public:
    GzipCheck();
    ~GzipCheck();
    GzipCheck(const GzipCheck&) = delete;
    GzipCheck& operator=(const GzipCheck&) = delete;

    /// The next bytes of the compressed stream, in order.
    void feed(const void* data, std::size_t bytes);
    /// After the last byte: "" when every member was complete and its CRC-32 and length
    /// matched, else what was wrong ("incorrect data check" = CRC-32 mismatch, "incorrect
    /// length check", "the stream ends inside a member").
    std::string finish();
    int members() const noexcept { return members_; }

private:
    struct Stream;
    std::unique_ptr<Stream> z_;
    bool in_member_ = false;
    bool done_ = false;  ///< an error, or trailing bytes that are not another member
    int members_ = 0;
    std::string error_;
};

}  // namespace spmv::io::detail
