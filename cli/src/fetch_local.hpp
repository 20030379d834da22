#pragma once
/// Matrices of the SuiteSparse Matrix Collection already on this machine: a local mirror
/// (`fetch --base-url file:///DIR` or `--base-url DIR`) and the caches of the collection's other
/// tools, which `fetch` adopts (cmd_fetch_local.cpp). The layouts, checked against the tools'
/// sources:
///
///   ssget   (ginkgo-project/ssget, bash): ARCHIVE_LOCATION="${HOME}/.config/ssget" (or
///           --custom-archive PATH); `-f` keeps ARCHIVE/MM/Group/Name.tar.gz, `-e` also unpacks
///           it into ARCHIVE/MM/Group/Name/ (tar --strip-components=1: Name.mtx, Name_b.mtx,
///           ...); its index is ARCHIVE/ssstats.csv.
///   ssgetpy (drdarshan/ssgetpy, Python): SS_DIR = ~/.ssgetpy (%APPDATA%\ssgetpy on Windows);
///           a download lands in SS_DIR/MM/Group/Name.tar.gz, and with extract=True (the
///           command line's default) is unpacked there into SS_DIR/MM/Group/Name/Name.mtx and
///           the archive deleted; its index is an SQLite file (SS_DIR/index.db), not read here.
///   the collection's server layout, and spmvlab's own cache: DIR/MM/Group/Name.tar.gz,
///           DIR/files/ssstats.csv (a copy of sparse.tamu.edu, or a colleague's cache).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace spmvlab::fetch {

/// A copy of one matrix found in a directory.
struct LocalCopy {
    std::filesystem::path path;
    bool unpacked = false;  ///< Name.mtx itself, not the Name.tar.gz archive
    /// "Name.tar.gz.sha256" beside the archive (sha256sum's format, as spmvlab's cache writes
    /// it), when there is one: the copy must have that SHA-256.
    std::optional<std::filesystem::path> recorded_sha256;
};

/// Where Group/Name may be in `dir`, in the order they are tried: MM/Group/Name.tar.gz,
/// Group/Name.tar.gz, Name.tar.gz, MM/Group/Name/Name.mtx, Group/Name/Name.mtx, Name/Name.mtx.
std::vector<std::filesystem::path> local_candidates(const std::filesystem::path& dir,
                                                    const std::string& group,
                                                    const std::string& name);

/// The first candidate that is a regular file (or a link to one), if any.
std::optional<LocalCopy> find_local(const std::filesystem::path& dir, const std::string& group,
                                    const std::string& name);

/// The collection's index in `dir`, if there is one: files/ssstats.csv (the server's layout) or
/// ssstats.csv (ssget's).
std::optional<std::filesystem::path> local_index(const std::filesystem::path& dir);

/// A directory to adopt matrices from, and what it is, for messages ("ssget's cache").
struct AdoptDir {
    std::filesystem::path path;
    std::string label;
};

/// The places adopted from, in order: every --adopt DIR (`explicit_dirs`; one that is not a
/// directory throws InvalidArgument), then unless `defaults` is false the directories of
/// $SPMVLAB_ADOPT (':'-separated; missing ones skipped), ssget's ~/.config/ssget and
/// ssgetpy's ~/.ssgetpy where they exist. The same directory is listed once.
std::vector<AdoptDir> adopt_dirs(const std::vector<std::string>& explicit_dirs, bool defaults);

/// The mirror directory of a --base-url / $SPMVLAB_SSGET_URL value: "file:///DIR" (or
/// "file://localhost/DIR") gives /DIR, a value without "://" is a directory path (made
/// absolute); an http:// or https:// address gives nothing (download). Any other scheme throws
/// InvalidArgument.
std::optional<std::filesystem::path> mirror_dir(const std::string& base);

}  // namespace spmvlab::fetch
