#pragma once
/// The memory budget: every step that allocates something large (a matrix read or generated,
/// one storage format, the vectors of a benchmark) first ESTIMATES its size and compares it
/// with the budget, so that a matrix too large for the machine gives a message naming the
/// input, what would be built, how many bytes and the limit -- instead of the kernel's OOM
/// killer, or a std::bad_alloc far from its cause.
///
/// Two limits:
/// - `bytes`: the most one such step may allocate. The CLI's and the explorer's default is half
///   of the memory available when they start (available_memory()); `--max-memory` sets it.
/// - `unconfirmed_dimension`: the most rows or columns a header (a Matrix Market size line) may
///   declare beyond what its entries justify (16 rows or columns per entry). A 94-byte file
///   claiming 2*10^9 rows with one entry would otherwise make its CSR ask for 7.5 GiB of row
///   pointers and each of its vectors for 15 GiB. 0 = no such limit (the library's default);
///   the CLI sets 2^24 unless the user gives --max-memory.
/// `origin` says where the limits came from ("half of the 23.1 GiB available", "--max-memory
/// 2G") and `hint` how to change them ("give --max-memory SIZE to change it"); refusals end
/// with both, so a user learns what to do.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spmv {

struct MemoryBudget {
    std::uint64_t bytes = 0;                ///< 0 = no limit
    std::int64_t unconfirmed_dimension = 0;  ///< 0 = no limit
    std::string origin;                      ///< for messages; may be empty
    std::string hint;                        ///< for messages; may be empty

    bool limited() const noexcept { return bytes != 0; }
    bool allows(std::uint64_t need) const noexcept { return bytes == 0 || need <= bytes; }
    /// "11.6 GiB (half of the 23.1 GiB available; give --max-memory SIZE to change it)", or
    /// "none".
    std::string describe() const;
};

/// Bytes this process can still allocate without swapping or being killed: MemAvailable of
/// /proc/meminfo, lowered by a cgroup memory limit (v2 or v1) and by RLIMIT_AS / RLIMIT_DATA
/// minus what the process already uses. 0 when none of them is known (not Linux).
std::uint64_t available_memory() noexcept;

/// `share` of available_memory() (0 < share <= 1), with `origin` saying so; no limit when the
/// available memory is unknown.
MemoryBudget default_memory_budget(double share = 0.5);

/// Throws MemoryLimitExceeded "<what> would need <bytes>; the memory limit is <describe()>"
/// when `need` exceeds the budget; does nothing otherwise.
void require_memory(const MemoryBudget& budget, std::uint64_t need, const std::string& what);

/// "4G", "512M", "1.5GiB", "300MB", "2048" (bytes), "64k": a size with an optional binary unit
/// (K, M, G, T; with or without "i" and "B"; any case). Empty for anything else, for 0 and for
/// values of 2^64 bytes or more.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

/// "1.5 GiB", "320 MiB", "12 KiB", "144 B": a byte count for messages (binary units, three
/// significant digits).
std::string format_bytes(double bytes);

}  // namespace spmv
