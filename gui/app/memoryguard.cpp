#include "memoryguard.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/resource.h>

namespace {

/// MemAvailable from /proc/meminfo in bytes (0 if unknown).
std::uint64_t availableMemory()
{
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit) {
        if (key == "MemAvailable:") {
            return kib * 1024;
        }
    }
    return 0;
}

/// Private writable memory the process uses now (VmData in /proc/self/status), in bytes.
std::uint64_t dataInUse()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("VmData:", 0) == 0) {
            return std::strtoull(line.c_str() + 7, nullptr, 10) * 1024;
        }
    }
    return 0;
}

std::uint64_t installedCap = 0;

}  // namespace

std::uint64_t formatMemoryLimit()
{
    if (const char* env = std::getenv("SPMVLAB_FORMAT_LIMIT_MB"); env && *env) {
        return std::strtoull(env, nullptr, 10) << 20;
    }
    std::uint64_t limit = availableMemory() / 2;
    if (installedCap > 0) {
        const auto used = dataInUse();
        const auto room = installedCap > used ? installedCap - used : 0;
        limit = limit == 0 ? room / 2 : std::min(limit, room / 2);
    }
    return limit > 0 ? limit : std::uint64_t{4} << 30;
}

std::uint64_t installMemoryGuard(double fraction)
{
    if (const char* env = std::getenv("SPMVLAB_MEMORY_GUARD"); env && std::strcmp(env, "0") == 0) {
        return 0;
    }
    const std::uint64_t available = availableMemory();
    if (available == 0) {
        return 0;
    }
    const auto cap =
        static_cast<std::uint64_t>(static_cast<double>(available) * fraction) + dataInUse();
    rlimit current{};
    if (getrlimit(RLIMIT_DATA, &current) != 0) {
        return 0;
    }
    if (current.rlim_cur != RLIM_INFINITY && current.rlim_cur <= cap) {
        return 0;  // already tighter
    }
    rlimit wanted = current;
    wanted.rlim_cur = static_cast<rlim_t>(cap);
    if (current.rlim_max != RLIM_INFINITY && wanted.rlim_cur > current.rlim_max) {
        wanted.rlim_cur = current.rlim_max;
    }
    installedCap =
        setrlimit(RLIMIT_DATA, &wanted) == 0 ? static_cast<std::uint64_t>(wanted.rlim_cur) : 0;
    return installedCap;
}
