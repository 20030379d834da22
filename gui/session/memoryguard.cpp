#include "memoryguard.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/resource.h>

#include <spmv/memory.hpp>

namespace {

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

}  // namespace

std::uint64_t formatMemoryLimit()
{
    if (const char* env = std::getenv("SPMVLAB_FORMAT_LIMIT_MB"); env && *env) {
        return std::strtoull(env, nullptr, 10) << 20;
    }
    // spmv::available_memory() already counts the room left under the guard's RLIMIT_DATA cap
    const std::uint64_t limit = spmv::available_memory() / 2;
    return limit > 0 ? limit : std::uint64_t{4} << 30;
}

std::uint64_t formatMemoryLimit(std::uint64_t matrixBytes, std::uint64_t machineLimit)
{
    if (const char* env = std::getenv("SPMVLAB_FORMAT_LIMIT_MB"); env && *env) {
        return machineLimit;
    }
    const std::uint64_t floor = std::uint64_t{3} << 29;  // 1.5 GiB
    return std::min(machineLimit, std::max(floor, 4 * matrixBytes));
}

std::uint64_t csrBytes(const spmv::Csr<double, std::int32_t>& a)
{
    return a.values.size() * sizeof(double) + a.col_idxs.size() * sizeof(std::int32_t) +
           a.row_ptrs.size() * sizeof(std::int32_t);
}

spmv::MemoryBudget explorerMemoryBudget()
{
    spmv::MemoryBudget b;
    b.bytes = formatMemoryLimit();
    b.unconfirmed_dimension = std::int64_t{1} << 24;
    b.origin = std::getenv("SPMVLAB_FORMAT_LIMIT_MB") ? "SPMVLAB_FORMAT_LIMIT_MB"
                                                       : "half of the memory available";
    b.hint = "SPMVLAB_FORMAT_LIMIT_MB=<MiB> changes it";
    return b;
}

std::uint64_t installMemoryGuard(double fraction)
{
    if (const char* env = std::getenv("SPMVLAB_MEMORY_GUARD"); env && std::strcmp(env, "0") == 0) {
        return 0;
    }
    const std::uint64_t available = spmv::available_memory();
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
    return setrlimit(RLIMIT_DATA, &wanted) == 0 ? static_cast<std::uint64_t>(wanted.rlim_cur) : 0;
}
