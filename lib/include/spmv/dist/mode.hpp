#pragma once
/// The modes of the distributed SpMV: how the halo exchange is placed around the two passes of
/// y = A x (Kreutzer et al. 2012 §III.A, Fig. 4, plus the GPU era's explicit overlap). The mode
/// is an enumeration, named and parsed here and nowhere else: the CLI parses `--mode` once with
/// parse_mode, the timelines, the model, the GUI and spmv::dist take the enumeration. What each
/// mode runs is spmv::dist's schedule (distributed/src/schedule.hpp, docs/distributed.md).
/// MPI-free, header-only.
#include <array>
#include <string>
#include <string_view>

#include <spmv/error.hpp>

namespace spmv::dist {

/// The ways of overlapping the halo exchange with the SpMV: Kreutzer et al.'s three (§III.A,
/// Fig. 4) and the GPU era's own. The order (vector, naive, overlap, task) is the order in
/// which every list, table and `--mode all` run shows them.
enum class Mode {
    /// Kreutzer's "vector mode without overlap": exchange, then the whole SpMV.
    vector,
    /// Kreutzer's "vector mode with naive overlap", run as the paper ran it: non-blocking
    /// receives and sends posted (GPU ranks: after the gather and the device-to-host copy of the
    /// send buffer have finished), the host busy in (GPU ranks: blocked on) the local SpMV, the
    /// messages progressing only inside MPI_Waitall after it, then the non-local SpMV. Without
    /// asynchronous progress in the MPI library nothing is hidden.
    naive,
    /// Explicit overlap, the GPU-era schedule (the project's, not the paper's): on GPU ranks the
    /// halo's gather and copy are queued first, the local kernel runs asynchronously and the
    /// host drives the exchange (MPI_Waitall) while the GPU computes. On host ranks, whose one
    /// thread cannot compute and sit in MPI at once, it is the same schedule as naive.
    overlap,
    /// Kreutzer's "task mode": a dedicated communication thread drives the exchange while the
    /// compute side runs the local SpMV; then the non-local SpMV.
    task,
};

/// Every mode, in that order (`--mode all`, tables, charts).
inline constexpr std::array<Mode, 4> all_modes{Mode::vector, Mode::naive, Mode::overlap,
                                               Mode::task};

/// "vector", "naive", "overlap" or "task" (the `--mode` names, the timelines' "mode" key).
constexpr std::string_view to_string(Mode m) noexcept
{
    switch (m) {
    case Mode::vector: return "vector";
    case Mode::naive: return "naive";
    case Mode::overlap: return "overlap";
    case Mode::task: return "task";
    }
    return "unknown";
}

/// The mode named `name` (exactly, lower case: to_string's names). Throws InvalidArgument
/// naming the known modes otherwise ("unknown mode 'Vector'; known: 'vector', 'naive', ...").
inline Mode parse_mode(std::string_view name)
{
    std::string known;
    for (Mode m : all_modes) {
        if (to_string(m) == name) return m;
        if (!known.empty()) known += ", ";
        known += "'" + std::string(to_string(m)) + "'";
    }
    SPMV_THROW(InvalidArgument, "unknown mode '" + std::string(name) + "'; known: " + known);
}

}  // namespace spmv::dist
