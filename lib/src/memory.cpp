#include <spmv/memory.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <spmv/error.hpp>

namespace spmv {
namespace {

constexpr std::uint64_t unknown = std::numeric_limits<std::uint64_t>::max();

/// The first number in `path` (a cgroup or /proc file); empty when missing or "max".
std::optional<std::uint64_t> read_number(const char* path)
{
    std::ifstream in(path);
    std::string word;
    if (!(in >> word)) {
        return std::nullopt;
    }
    std::uint64_t v = 0;
    const auto r = std::from_chars(word.data(), word.data() + word.size(), v);
    if (r.ec != std::errc() || r.ptr != word.data() + word.size()) {
        return std::nullopt;
    }
    return v;
}

std::uint64_t mem_available()
{
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib) {
        std::getline(in, unit);
        if (key == "MemAvailable:") {
            return kib * 1024;
        }
    }
    return unknown;
}

/// Room left under the cgroup's limit (v2: memory.max / memory.current; v1: limit_in_bytes /
/// usage_in_bytes); unknown when there is no limit.
std::uint64_t cgroup_room()
{
    auto room = [](std::optional<std::uint64_t> max, std::optional<std::uint64_t> used) {
        // v1 reports "no limit" as a huge page-rounded number
        if (!max || *max >= (std::uint64_t{1} << 60)) {
            return unknown;
        }
        const auto u = used.value_or(0);
        return *max > u ? *max - u : 0;
    };
    const auto v2 = room(read_number("/sys/fs/cgroup/memory.max"),
                         read_number("/sys/fs/cgroup/memory.current"));
    if (v2 != unknown) {
        return v2;
    }
    return room(read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
                read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes"));
}

/// Room left under RLIMIT_AS (against the virtual size) and RLIMIT_DATA (against the data
/// segment), from /proc/self/statm.
std::uint64_t rlimit_room()
{
#if defined(__linux__)
    std::uint64_t room = unknown;
    std::ifstream in("/proc/self/statm");
    std::uint64_t size = 0, resident = 0, shared = 0, text = 0, lib = 0, data = 0;
    if (!(in >> size >> resident >> shared >> text >> lib >> data)) {
        return unknown;
    }
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    auto left = [&](int resource, std::uint64_t used_pages) {
        rlimit r{};
        if (getrlimit(resource, &r) == 0 && r.rlim_cur != RLIM_INFINITY) {
            const auto used = used_pages * page;
            room = std::min<std::uint64_t>(room, r.rlim_cur > used ? r.rlim_cur - used : 0);
        }
    };
    left(RLIMIT_AS, size);
    left(RLIMIT_DATA, data);
    return room;
#else
    return unknown;
#endif
}

}  // namespace

std::string format_bytes(double bytes)
{
    static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    std::size_t u = 0;
    while (bytes >= 1024.0 && u + 1 < std::size(units)) {
        bytes /= 1024.0;
        ++u;
    }
    char buf[32];
    if (u == 0) {
        std::snprintf(buf, sizeof buf, "%.0f B", bytes);
    } else {
        std::snprintf(buf, sizeof buf, bytes < 10 ? "%.2f %s" : bytes < 100 ? "%.1f %s" : "%.0f %s",
                      bytes, units[u]);
    }
    return buf;
}

std::string MemoryBudget::describe() const
{
    std::string why = origin;
    if (!hint.empty()) {
        why += (why.empty() ? "" : "; ") + hint;
    }
    return (bytes == 0 ? std::string("none") : format_bytes(static_cast<double>(bytes))) +
           (why.empty() ? "" : " (" + why + ")");
}

std::uint64_t available_memory() noexcept
{
    try {
        const auto v = std::min({mem_available(), cgroup_room(), rlimit_room()});
        return v == unknown ? 0 : v;
    } catch (...) {
        return 0;
    }
}

MemoryBudget default_memory_budget(double share)
{
    SPMV_EXPECTS(share > 0 && share <= 1, "memory budget share must be in (0, 1]");
    MemoryBudget b;
    const auto avail = available_memory();
    if (avail == 0) {
        b.origin = "available memory unknown";
        return b;
    }
    b.bytes = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(avail) * share));
    std::ostringstream s;
    s << (share == 0.5 ? std::string("half") : std::to_string(static_cast<int>(share * 100)) + "%")
      << " of the " << format_bytes(static_cast<double>(avail)) << " available";
    b.origin = s.str();
    return b;
}

void require_memory(const MemoryBudget& budget, std::uint64_t need, const std::string& what)
{
    if (!budget.allows(need)) {
        throw MemoryLimitExceeded(__FILE__, __LINE__,
                                  what + " would need " + format_bytes(static_cast<double>(need)) +
                                      "; the memory limit is " + budget.describe(),
                                  need, budget.bytes);
    }
}

std::optional<std::uint64_t> parse_byte_size(std::string_view text)
{
    std::string t;
    for (char c : text) {
        if (c != ' ') t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    double value = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), value);
    if (r.ec != std::errc() || r.ptr == t.data() || !std::isfinite(value) || value <= 0) {
        return std::nullopt;
    }
    std::string unit(r.ptr, static_cast<std::size_t>(t.data() + t.size() - r.ptr));
    if (unit.size() > 1 && unit.back() == 'b') unit.pop_back();  // "GB", "GiB", "B"
    if (unit.size() == 2 && unit[1] == 'i') unit.pop_back();       // "Gi"
    double scale = 1;
    if (unit == "" || unit == "b") {
        scale = 1;
    } else if (unit == "k") {
        scale = 1024.0;
    } else if (unit == "m") {
        scale = 1024.0 * 1024;
    } else if (unit == "g") {
        scale = 1024.0 * 1024 * 1024;
    } else if (unit == "t") {
        scale = 1024.0 * 1024 * 1024 * 1024;
    } else {
        return std::nullopt;
    }
    const double bytes = std::floor(value * scale);
    if (bytes < 1 || bytes >= 18446744073709551616.0) {
        return std::nullopt;
    }
    return static_cast<std::uint64_t>(bytes);
}

}  // namespace spmv
