#pragma once
/// Which load the slice/column-major SpMV kernels (ELLPACK family, SELL, pJDS, PELLR, BiELL/BiJAD,
/// the split kernels) use for the matrix arrays, chosen per launch (kernels/src/launch.cuh):
/// streaming loads (__ldcs, evict-first: +4-6 % on an H100 for matrices larger than the L2,
/// which must not evict the gathered x) or the read-only path (__ldg: ~4 % faster on tiny,
/// latency-bound matrices). By default (auto) a launch streams when the format's device arrays
/// plus x and y exceed the device's L2; the environment variable SPMV_STREAM_LOADS=always|never
/// forces one kind for benchmarking and tuning. Plain C++, in both builds: the parsing and the
/// rule are testable without a device.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace spmv::gpu {

/// The value of SPMV_STREAM_LOADS.
enum class StreamLoads {
    automatic,  ///< "auto" or unset: stream when matrix + vectors exceed the L2
    always,     ///< "always": streaming loads for every matrix
    never,      ///< "never": the read-only path for every matrix
};

/// Name of the environment variable read (once) by the kernels.
inline constexpr const char* stream_loads_variable = "SPMV_STREAM_LOADS";

/// Parses a value of SPMV_STREAM_LOADS: nullptr (unset) and "auto" give automatic, "always" and
/// "never" themselves; anything else (also "", "ALWAYS") throws spmv::InvalidArgument naming the
/// variable and the value.
StreamLoads parse_stream_loads(const char* value);

/// The rule: always -> true, never -> false, automatic -> matrix_bytes + vector_bytes > l2_bytes.
bool choose_stream_loads(StreamLoads mode, std::size_t matrix_bytes, std::size_t vector_bytes,
                         std::size_t l2_bytes) noexcept;

/// The setting the kernels use: the last set_stream_loads, else SPMV_STREAM_LOADS (read at the
/// first call; a bad value throws spmv::InvalidArgument, at that call and every later one).
StreamLoads stream_loads();

/// Overrides SPMV_STREAM_LOADS for the rest of the process (tests of both kernel instantiations,
/// tuning tools); takes effect at the next launch.
void set_stream_loads(StreamLoads mode) noexcept;

/// "auto", "always" or "never": the setting as SPMV_STREAM_LOADS spells it.
std::string_view stream_loads_name(StreamLoads mode) noexcept;

/// One decision of the rule, as a launch took it (detail::stream_matrix_loads, device.cu): the
/// choice a kernel makes from the device's properties (its L2), which `spmvlab bench` prints.
struct StreamDecision {
    bool streaming = false;
    StreamLoads mode = StreamLoads::automatic;
    std::size_t matrix_bytes = 0;  ///< the format's device arrays
    std::size_t vector_bytes = 0;  ///< x and y
    std::size_t l2_bytes = 0;      ///< the device's L2; 0 where the setting left nothing to ask
};

/// The decision log of the calling thread. The launchers note each decision (the last one
/// stays); take_stream_decision returns it and empties the log. std::nullopt: no launch asked the
/// rule since the last take, as for the kernels that keep the read-only path whatever the size
/// (CSR scalar, vector, adaptive and merge, COO, JDS, the `_xs` kernels where x fits) and for
/// cuSPARSE. `spmvlab bench` takes it before and after each variant's timing.
void note_stream_decision(const StreamDecision& d) noexcept;
std::optional<StreamDecision> take_stream_decision() noexcept;

/// The decision in words, both sizes in spmv::format_bytes's binary units, e.g. "streaming:
/// arrays + x + y 235 MiB > L2 60.0 MiB", "read-only: arrays + x + y 1.14 MiB <= L2 50.0 MiB",
/// "streaming: SPMV_STREAM_LOADS=always".
std::string describe_stream_decision(const StreamDecision& d);

}  // namespace spmv::gpu
