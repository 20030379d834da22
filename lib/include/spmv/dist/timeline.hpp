#pragma once
/// Event timelines of distributed SpMVs and solves (Kreutzer et al. Fig. 4): per rank and per
/// lane (the compute thread, the communication thread, the GPU), when each phase ran. Recorded
/// by spmv::dist's MPI layer (times from MPI_Wtime after a barrier, so all ranks share an
/// origin), written to JSON, read back by the GUI and drawn as SVG without a display.
/// MPI-free. Mode (the timeline's "mode") lives in mode.hpp, included here.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/dist/mode.hpp>

namespace spmv::dist {

enum class Phase {
    local,     ///< SpMV of the local block
    nonlocal,  ///< SpMV of the non-local block (adds into y)
    pack,      ///< gathering own x entries into the send buffer ("local gather")
    copy_d2h,  ///< device -> host copy of the send buffer (GPU ranks)
    copy_h2d,  ///< host -> device copy of the received halo (GPU ranks)
    post,      ///< posting the non-blocking sends and receives
    wait,      ///< waiting for the exchange to complete (MPI_Waitall)
    exchange,  ///< the whole exchange driven by the communication thread (task mode)
    reduce,    ///< MPI_Allreduce of a solver's dot products
    idle,      ///< waiting for another lane: task mode's join; naive mode's GPU ranks, the host
               ///< blocked on the local kernel (cudaStreamSynchronize)
    copy_peer, ///< device -> device copy of the halo from a neighbour's GPU (CUDA IPC)
};
std::string_view to_string(Phase p);
Phase parse_phase(std::string_view name);  ///< throws InvalidArgument for an unknown name

/// Where an event ran.
enum class Lane { compute = 0, comm = 1, gpu = 2 };
std::string_view to_string(Lane l);
Lane parse_lane(std::string_view name);

struct TimelineEvent {
    int rank = 0;
    Lane lane = Lane::compute;
    Phase phase = Phase::local;
    int iteration = 0;   ///< which SpMV (or solver iteration) of the run
    double begin_us = 0.0;
    double end_us = 0.0;

    friend bool operator==(const TimelineEvent&, const TimelineEvent&) = default;
};

/// One recorded run of one mode.
struct Timeline {
    Mode mode = Mode::vector;
    int num_ranks = 1;
    std::string matrix;     ///< input name
    std::string format;     ///< registry name of the blocks' format
    std::string partition;  ///< rows, nnz or metis
    std::string device;     ///< "host" or the GPUs' names
    std::string precision;  ///< "double" or "float"
    std::string date;       ///< ISO-8601 UTC
    std::string commit;
    bool predicted = false;  ///< made by the model, not measured
    std::vector<TimelineEvent> events;

    /// Time from the first begin to the last end (0 without events).
    double span_us() const noexcept;

    friend bool operator==(const Timeline&, const Timeline&) = default;
};

/// True for the phases that move halo data: post, wait, exchange, pack, copy_d2h, copy_h2d.
/// (reduce is a solver's global dot product, not part of the SpMV's exchange; idle is no work.)
bool is_exchange_phase(Phase p) noexcept;
/// True for the phases that compute: local and nonlocal.
bool is_compute_phase(Phase p) noexcept;

/// The distinct iterations that have events, ascending (empty without events).
std::vector<int> iterations(const Timeline& t);

/// Exchange time and the part of it hidden behind computation (see overlapped_fraction).
struct OverlapTimes {
    double exchange_us = 0.0;  ///< time during which some lane of the rank was exchanging
    double hidden_us = 0.0;    ///< the part of it during which ANOTHER lane was computing

    friend bool operator==(const OverlapTimes&, const OverlapTimes&) = default;
};

/// The two times behind overlapped_fraction, summed over the selected (rank, iteration)
/// pairs (all ranks / all iterations when rank < 0 / iteration < 0). Throws InvalidArgument
/// for an event with end_us < begin_us or a time that is not finite.
OverlapTimes overlap_times(const Timeline& t, int rank = -1, int iteration = -1);

/// Share of the exchange hidden behind computation on `rank` for SpMV `iteration`: the time
/// during which an exchange-type phase (post, wait, exchange, pack, copies) overlaps a local
/// or non-local phase on another lane, divided by the exchange's total time (0 when there was
/// no exchange). All ranks and iterations together when rank < 0 / iteration < 0.
///
/// Exactly, with |S| the length of a union of intervals S: for one rank and one iteration let
/// X_l be the union of the exchange-type events on lane l and C_l that of the compute events
/// on lane l. Then
///     exchange = | X_compute u X_comm u X_gpu |
///     hidden   = | (X_l n (C_m u C_n)) u ... over every lane l, m and n being the other two |
/// so a moment counts once however many events cover it, and a moment is hidden when some
/// lane exchanges while a DIFFERENT lane computes. Overlap on the same lane does not count:
/// one thread cannot compute and exchange at once, so two such events on one lane are a
/// recording artefact, not overlap. Consequences, as in Kreutzer et al. Fig. 4:
///   - vector mode: the exchange precedes all compute, fraction 0;
///   - naive overlap (Mode::naive, and Mode::overlap on host ranks): post, local, wait all on
///     the compute lane, fraction 0 (MPI does not progress in the background, and the wait is
///     exposed); on GPU ranks the local kernel on the gpu lane ends before the host enters
///     the wait, fraction 0 as well;
///   - explicit overlap on GPU ranks (Mode::overlap): a wait on the compute lane while the GPU
///     lane runs the local kernel is hidden; a wait overlapping nothing is exposed;
///   - task mode: the comm lane's exchange under the compute lane's (or GPU's) local part is
///     hidden, the rest of it (the compute lane then shows idle) is exposed.
/// Several ranks or iterations are pooled by summing the times (a time-weighted mean, not the
/// mean of per-iteration fractions); events of different ranks or iterations never hide each
/// other. Throws like overlap_times.
double overlapped_fraction(const Timeline& t, int rank = -1, int iteration = -1);

/// Value of the "schema" key that to_json writes into every timeline object.
inline constexpr std::string_view timeline_schema = "spmvlab.timeline/1";

/// JSON round trip (schema: {"mode", "num_ranks", ..., "events": [{"rank", "lane", "phase",
/// "iteration", "begin_us", "end_us"}]}); a file may hold one timeline or an array of them.
///
/// to_json always writes an array (pretty-printed, two-space indent), one object per timeline:
///   {"schema": "spmvlab.timeline/1", "mode": "task", "num_ranks": 2, "matrix": "...",
///    "format": "...", "partition": "...", "device": "...", "precision": "...", "date": "...",
///    "commit": "...", "predicted": false,
///    "events": [{"rank": 0, "lane": "comm", "phase": "exchange", "iteration": 1,
///                "begin_us": 12.5, "end_us": 40.0}, ...]}
/// Enumerations are written by name (to_string). Doubles are written in the shortest form that
/// reads back to the same value, so timelines_from_json(to_json(v)) == v exactly.
std::string to_json(const std::vector<Timeline>& timelines);
/// Throws InvalidArgument naming the key or the event index that is missing or wrong.
///
/// Reading rules: "schema", when present, must be "spmvlab.timeline/1" (files of an unknown
/// version are refused, not guessed at). Required: "mode", "num_ranks" (>= 1), "events"
/// (an array); in every event all six keys, with 0 <= rank < num_ranks, iteration >= 0,
/// finite times and end_us >= begin_us. Optional: the text fields (default "") and
/// "predicted" (default false). Unknown keys are ignored. A message reads e.g.
/// "timeline 0, event 3: key 'phase': unknown phase 'foo'".
std::vector<Timeline> timelines_from_json(std::string_view text);

}  // namespace spmv::dist
