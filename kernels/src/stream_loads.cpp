// SPMV_STREAM_LOADS parsing, the streaming-load rule and the process-wide setting
// (spmv/gpu/stream_loads.hpp). Plain C++, built with and without CUDA; the kernels' launchers use
// it through detail::stream_matrix_loads (device.cu), which adds the device's L2 size.
#include <atomic>
#include <cstdlib>
#include <string>
#include <string_view>

#include <spmv/error.hpp>
#include <spmv/memory.hpp>
#include <spmv/gpu/launch_log.hpp>
#include <spmv/gpu/stream_loads.hpp>

namespace spmv::gpu {
namespace {

constexpr int no_override = -1;
std::atomic<int> override_mode{no_override};  // a StreamLoads set by set_stream_loads

}  // namespace

StreamLoads parse_stream_loads(const char* value)
{
    if (value == nullptr) {
        return StreamLoads::automatic;
    }
    const std::string_view v(value);
    if (v == "auto") {
        return StreamLoads::automatic;
    }
    if (v == "always") {
        return StreamLoads::always;
    }
    if (v == "never") {
        return StreamLoads::never;
    }
    SPMV_THROW(InvalidArgument, std::string(stream_loads_variable) + "='" + std::string(v) +
                                    "': expected auto, always or never");
}

bool choose_stream_loads(StreamLoads mode, std::size_t matrix_bytes, std::size_t vector_bytes,
                         std::size_t l2_bytes) noexcept
{
    switch (mode) {
        case StreamLoads::always:
            return true;
        case StreamLoads::never:
            return false;
        case StreamLoads::automatic:
            break;
    }
    // matrix_bytes + vector_bytes > l2_bytes, without overflow
    return matrix_bytes > l2_bytes || vector_bytes > l2_bytes - matrix_bytes;
}

StreamLoads stream_loads()
{
    const int o = override_mode.load(std::memory_order_relaxed);
    if (o != no_override) {
        return static_cast<StreamLoads>(o);
    }
    // Read once (thread-safe static); when parsing throws, the next call tries again and throws.
    static const StreamLoads from_environment =
        parse_stream_loads(std::getenv(stream_loads_variable));
    return from_environment;
}

void set_stream_loads(StreamLoads mode) noexcept
{
    override_mode.store(static_cast<int>(mode), std::memory_order_relaxed);
}

std::string_view stream_loads_name(StreamLoads mode) noexcept
{
    switch (mode) {
        case StreamLoads::always:
            return "always";
        case StreamLoads::never:
            return "never";
        case StreamLoads::automatic:
            break;
    }
    return "auto";
}

void note_stream_decision(const StreamDecision& d) noexcept
{
    detail::LaunchLog<StreamDecision>::note(d);
}

std::optional<StreamDecision> take_stream_decision() noexcept
{
    return detail::LaunchLog<StreamDecision>::take();
}

std::string describe_stream_decision(const StreamDecision& d)
{
    std::string s = d.streaming ? "streaming: " : "read-only: ";
    if (d.mode != StreamLoads::automatic) {
        return s + stream_loads_variable + "=" + std::string(stream_loads_name(d.mode));
    }
    // in double: the sum of two byte counts may not fit a size_t (the rule is written for that too)
    const double compared =
        static_cast<double>(d.matrix_bytes) + static_cast<double>(d.vector_bytes);
    return s + "arrays + x + y " + spmv::format_bytes(compared) +
           (d.streaming ? " > L2 " : " <= L2 ") +
           spmv::format_bytes(static_cast<double>(d.l2_bytes));
}

}  // namespace spmv::gpu
