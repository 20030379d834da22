#include "hash.hpp"

#include <cstdio>
#include <memory>
#include <vector>

#include <spmv/error.hpp>

#if defined(SPMVLAB_HAVE_OPENSSL)
#include <openssl/evp.h>
#endif

namespace spmvlab {

bool have_sha256() noexcept
{
#if defined(SPMVLAB_HAVE_OPENSSL)
    return true;
#else
    return false;
#endif
}

#if defined(SPMVLAB_HAVE_OPENSSL)

namespace {
EVP_MD_CTX* as_ctx(void* p) { return static_cast<EVP_MD_CTX*>(p); }
}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new())
{
    if (ctx_ == nullptr || EVP_DigestInit_ex(as_ctx(ctx_), EVP_sha256(), nullptr) != 1) {
        SPMV_THROW(spmv::Error, "sha256: OpenSSL could not start a digest");
    }
}

Sha256::~Sha256() { EVP_MD_CTX_free(as_ctx(ctx_)); }

void Sha256::update(const void* data, std::size_t size)
{
    if (size != 0 && EVP_DigestUpdate(as_ctx(ctx_), data, size) != 1) {
        SPMV_THROW(spmv::Error, "sha256: OpenSSL digest update failed");
    }
}

std::string Sha256::hex()
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(as_ctx(ctx_), md, &len) != 1) {
        SPMV_THROW(spmv::Error, "sha256: OpenSSL digest final failed");
    }
    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(2 * len);
    for (unsigned int i = 0; i < len; ++i) {
        out += digits[md[i] >> 4];
        out += digits[md[i] & 15];
    }
    return out;
}

#else
Sha256::Sha256() : ctx_(nullptr)
{
    SPMV_THROW(spmv::NotCompiled, "sha256: this spmvlab was built without OpenSSL (libssl-dev)");
}
Sha256::~Sha256() = default;
void Sha256::update(const void*, std::size_t) {}
std::string Sha256::hex() { return {}; }
#endif

std::string sha256_file(const std::filesystem::path& path)
{
    Sha256 h;  // throws NotCompiled first in a build without OpenSSL
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) {
        SPMV_THROW(spmv::InvalidArgument, path.string() + ": cannot open to hash it");
    }
    std::vector<char> buf(1 << 20);
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0) {
        h.update(buf.data(), n);
    }
    if (std::ferror(f.get())) {
        SPMV_THROW(spmv::InvalidArgument, path.string() + ": read error while hashing it");
    }
    return h.hex();
}

std::string sha256_string(std::string_view bytes)
{
    Sha256 h;
    h.update(bytes);
    return h.hex();
}

}  // namespace spmvlab
