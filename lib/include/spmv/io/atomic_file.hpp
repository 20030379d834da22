#pragma once
/// Output files that a reader never sees half-written: the text goes to a temporary file beside
/// the target ("<target>.tmp-<pid>"), is flushed and closed with every error checked, and is
/// then renamed over the target in one step. A run interrupted at any moment leaves the previous
/// complete file, or none (and at most a temporary file, never the target, half-written). A
/// target that is not a regular file (/dev/stdout, a pipe, /dev/full) is written in place,
/// errors still checked; a symbolic link is followed (its target is written, the link stays);
/// "-" is the standard output, and a path under /dev or /proc is always written in place. Every failure throws spmv::Error naming the path, the step and the
/// system's reason: "cannot write out.json (flush): No space left on device".
#include <filesystem>
#include <fstream>
#include <string_view>

namespace spmv::io {

class AtomicFile {
public:
    explicit AtomicFile(std::filesystem::path target);
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    /// Not committed: the temporary file is removed, the target untouched.
    ~AtomicFile();

    std::ostream& stream() noexcept { return out_; }
    /// Where the text goes until commit() (the target itself when written in place): a caller
    /// may read back what it wrote (after stream().flush()) to check it before committing.
    const std::filesystem::path& temp_path() const noexcept { return temp_; }
    /// Flushes, closes and renames the temporary file over the target.
    void commit();

private:
    [[noreturn]] void fail(const char* step, int err);

    std::filesystem::path target_;
    std::filesystem::path temp_;
    bool in_place_ = false;
    bool done_ = false;
    int slot_ = -1;  ///< entry in the table remove_unfinished_files() walks; -1 when none
    std::ofstream out_;
};

/// Removes the temporary files of every AtomicFile not yet committed or destroyed, using only
/// async-signal-safe calls: a program's SIGINT / SIGTERM handler calls it, so that Ctrl-C
/// leaves neither a partial target nor a stray "<target>.tmp-<pid>". At most 64 files are
/// tracked at once (beyond that a temporary file may stay behind after a signal).
void remove_unfinished_files() noexcept;

/// AtomicFile with `text` as its whole content.
void write_file_atomically(const std::filesystem::path& target, std::string_view text);

}  // namespace spmv::io
