// Local mirrors and the caches of ssget / ssgetpy (fetch_local.hpp).
// (Named cmd_fetch_*.cpp so that cli/CMakeLists.txt's glob of the commands builds it.)
#include <algorithm>
#include <cstdlib>
#include <string>

#include <spmv/error.hpp>

#include "fetch_local.hpp"

namespace spmvlab::fetch {

namespace fs = std::filesystem;

std::vector<fs::path> local_candidates(const fs::path& dir, const std::string& group,
                                       const std::string& name)
{
    const std::string archive = name + ".tar.gz";
    const std::string mtx = name + ".mtx";
    return {dir / "MM" / group / archive,    dir / group / archive,    dir / archive,
            dir / "MM" / group / name / mtx, dir / group / name / mtx, dir / name / mtx};
}

std::optional<LocalCopy> find_local(const fs::path& dir, const std::string& group,
                                    const std::string& name)
{
    std::error_code ec;
    for (const auto& p : local_candidates(dir, group, name)) {
        if (!fs::is_regular_file(p, ec)) {
            continue;
        }
        LocalCopy c{p, p.extension() == ".mtx", std::nullopt};
        const fs::path sum = p.string() + ".sha256";
        if (!c.unpacked && fs::is_regular_file(sum, ec)) {
            c.recorded_sha256 = sum;
        }
        return c;
    }
    return std::nullopt;
}

std::optional<fs::path> local_index(const fs::path& dir)
{
    std::error_code ec;
    for (const auto& p : {dir / "files" / "ssstats.csv", dir / "ssstats.csv"}) {
        if (fs::is_regular_file(p, ec)) {
            return p;
        }
    }
    return std::nullopt;
}

std::vector<AdoptDir> adopt_dirs(const std::vector<std::string>& explicit_dirs, bool defaults)
{
    std::vector<AdoptDir> out;
    std::error_code ec;
    const auto add = [&](const fs::path& p, const std::string& label) {
        const auto canon = fs::weakly_canonical(p, ec);
        for (const auto& d : out) {
            if (fs::weakly_canonical(d.path, ec) == canon) {
                return;
            }
        }
        out.push_back({p, label});
    };
    for (const auto& d : explicit_dirs) {
        if (!fs::is_directory(d, ec)) {
            SPMV_THROW(spmv::InvalidArgument, "--adopt " + d + ": no such directory");
        }
        add(fs::absolute(d, ec), "--adopt " + d);
    }
    if (!defaults) {
        return out;
    }
    if (const char* env = std::getenv("SPMVLAB_ADOPT"); env != nullptr) {
        const std::string list = env;
        std::size_t from = 0;
        while (from <= list.size()) {
            const auto to = std::min(list.find(':', from), list.size());
            const auto d = list.substr(from, to - from);
            if (!d.empty() && fs::is_directory(d, ec)) {
                add(fs::absolute(d, ec), "$SPMVLAB_ADOPT " + d);
            }
            from = to + 1;
        }
    }
    if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') {
        if (fs::is_directory(fs::path(h) / ".config" / "ssget", ec)) {
            add(fs::path(h) / ".config" / "ssget", "ssget's cache");
        }
        if (fs::is_directory(fs::path(h) / ".ssgetpy", ec)) {
            add(fs::path(h) / ".ssgetpy", "ssgetpy's cache");
        }
    }
    return out;
}

std::optional<fs::path> mirror_dir(const std::string& base)
{
    if (base.rfind("http://", 0) == 0 || base.rfind("https://", 0) == 0) {
        return std::nullopt;
    }
    if (base.rfind("file://", 0) == 0) {
        std::string rest = base.substr(7);
        if (rest.rfind("localhost/", 0) == 0) {
            rest = rest.substr(9);
        }
        if (rest.empty() || rest[0] != '/') {
            SPMV_THROW(spmv::InvalidArgument, "--base-url '" + base +
                                                  "': a file address is file:///absolute/path "
                                                  "(three slashes)");
        }
        if (rest.find('%') != std::string::npos) {
            SPMV_THROW(spmv::InvalidArgument, "--base-url '" + base +
                                                  "': percent-escapes are not decoded; give the "
                                                  "directory as a plain path instead");
        }
        return fs::path(rest);
    }
    if (base.find("://") != std::string::npos) {
        SPMV_THROW(spmv::InvalidArgument, "--base-url '" + base +
                                              "' is neither an http:// or https:// address, a "
                                              "file:///DIR address nor a directory");
    }
    if (base.empty()) {
        SPMV_THROW(spmv::InvalidArgument, "--base-url is empty");
    }
    std::error_code ec;
    return fs::absolute(base, ec);
}

}  // namespace spmvlab::fetch
