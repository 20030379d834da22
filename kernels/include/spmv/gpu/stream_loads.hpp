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

}  // namespace spmv::gpu
