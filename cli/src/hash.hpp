#pragma once
/// Content hashes for records and downloads (OpenSSL's EVP SHA-256, Debian libssl-dev).
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace spmvlab {

/// False in a build without OpenSSL, where constructing a Sha256 throws spmv::NotCompiled.
bool have_sha256() noexcept;

/// Incremental SHA-256: feed bytes with update(), then hex() once (64 lowercase hex digits).
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;
    void update(const void* data, std::size_t size);
    void update(std::string_view s) { update(s.data(), s.size()); }
    std::string hex();

private:
    void* ctx_;  // EVP_MD_CTX*
};

/// SHA-256 of a whole file's bytes, read in 1 MiB pieces; throws InvalidArgument naming the
/// path when it cannot be read.
std::string sha256_file(const std::filesystem::path& path);
std::string sha256_string(std::string_view bytes);

}  // namespace spmvlab
