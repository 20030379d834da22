#pragma once
/// The per-thread log of one kind of launch choice (T: StreamDecision, stream_loads.hpp;
/// BlockOrderDecision, block_order.hpp): the launchers note the choice they made (the last one
/// stays), `spmvlab bench` takes it before and after each variant's timing. Taking empties it.
#include <optional>
#include <utility>

namespace spmv::gpu::detail {

template <typename T>
class LaunchLog {
public:
    static void note(const T& choice) noexcept { last() = choice; }
    static std::optional<T> take() noexcept { return std::exchange(last(), std::nullopt); }

private:
    static std::optional<T>& last() noexcept
    {
        thread_local std::optional<T> choice;
        return choice;
    }
};

}  // namespace spmv::gpu::detail
