#include <spmv/io/atomic_file.hpp>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

#include <spmv/error.hpp>

namespace spmv::io {
namespace {

/// Temporary files of live AtomicFiles, for remove_unfinished_files() in a signal handler:
/// fixed buffers (no allocation there), a slot is taken by an atomic exchange and its path is
/// readable once `ready` is set.
constexpr int max_tracked = 64;
constexpr std::size_t max_path = 4096;
struct Tracked {
    std::atomic<bool> used{false};
    std::atomic<bool> ready{false};
    char path[max_path];
};
Tracked tracked[max_tracked];

int track(const std::string& path) noexcept
{
    if (path.size() + 1 > max_path) {
        return -1;
    }
    for (int k = 0; k < max_tracked; ++k) {
        if (!tracked[k].used.exchange(true)) {
            std::memcpy(tracked[k].path, path.c_str(), path.size() + 1);
            tracked[k].ready.store(true);
            return k;
        }
    }
    return -1;
}

void untrack(int slot) noexcept
{
    if (slot >= 0) {
        tracked[slot].ready.store(false);
        tracked[slot].used.store(false);
    }
}

long process_id()
{
#if defined(__unix__) || defined(__APPLE__)
    return static_cast<long>(::getpid());
#else
    return 0;
#endif
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target))
{
    namespace fs = std::filesystem;
    std::error_code ec;
    // "-" is the standard output, wherever an output path is taken. It and anything under
    // /dev or /proc (/dev/stdout, /proc/self/fd/1) are written in place: a rename there would
    // replace a device, or detach the file the shell opened for the redirection.
    if (target_ == "-") {
        target_ = "/dev/stdout";
    }
    const std::string t = target_.string();
    const bool system_path = t.rfind("/dev/", 0) == 0 || t.rfind("/proc/", 0) == 0;
    // A symbolic link is followed: its target is written (atomically when regular) and the
    // link stays a link, instead of being replaced by the renamed temporary file.
    if (!system_path && fs::is_symlink(fs::symlink_status(target_, ec))) {
        const fs::path resolved = fs::weakly_canonical(target_, ec);
        if (!ec) {
            target_ = resolved;
        }
    }
    ec.clear();
    const auto st = fs::status(target_, ec);
    in_place_ = system_path || (!ec && fs::exists(st) && !fs::is_regular_file(st));
    if (in_place_ && fs::is_directory(st)) {
        fail("open", EISDIR);
    }
    temp_ = in_place_ ? target_ : fs::path(target_.string() + ".tmp-" + std::to_string(process_id()));
    if (!in_place_) {
        slot_ = track(temp_.string());  // before the file exists: a signal now finds nothing
    }
    errno = 0;
    out_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!out_) {
        fail("open", errno);
    }
}

AtomicFile::~AtomicFile()
{
    if (!done_ && !in_place_) {
        out_.close();
        std::error_code ec;
        std::filesystem::remove(temp_, ec);
    }
    untrack(slot_);
}

void AtomicFile::fail(const char* step, int err)
{
    done_ = true;
    if (!in_place_ && !temp_.empty()) {
        out_.close();
        std::error_code ec;
        std::filesystem::remove(temp_, ec);
    }
    untrack(slot_);
    slot_ = -1;
    throw Error(__FILE__, __LINE__,
                "cannot write " + target_.string() + " (" + step +
                    "): " + (err ? std::strerror(err) : "unknown error"));
}

void AtomicFile::commit()
{
    SPMV_EXPECTS(!done_, "AtomicFile::commit called twice");
    // errno still holds the reason of a failed write (nothing since has touched it)
    if (!out_) {
        fail("write", errno);
    }
    errno = 0;
    out_.flush();
    if (!out_) {
        fail("flush", errno);
    }
    out_.close();
    if (out_.fail()) {
        fail("close", errno);
    }
    if (!in_place_) {
        std::error_code ec;
        std::filesystem::rename(temp_, target_, ec);
        if (ec) {
            fail("rename", ec.value());
        }
    }
    done_ = true;
    untrack(slot_);
    slot_ = -1;
}

void remove_unfinished_files() noexcept
{
#if defined(__unix__) || defined(__APPLE__)
    for (auto& t : tracked) {
        if (t.ready.load()) {
            ::unlink(t.path);  // async-signal-safe; a file renamed meanwhile is simply gone
        }
    }
#endif
}

void write_file_atomically(const std::filesystem::path& target, std::string_view text)
{
    AtomicFile f(target);
    errno = 0;
    f.stream().write(text.data(), static_cast<std::streamsize>(text.size()));
    f.commit();
}

}  // namespace spmv::io
