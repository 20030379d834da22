#include <spmv/parallel.hpp>

#include <cstdlib>
#include <string>

namespace spmv {
namespace {

std::atomic<unsigned> chosen{0};  // 0: the default

unsigned default_threads() noexcept
{
    if (const char* env = std::getenv("SPMV_BUILD_THREADS"); env != nullptr && *env != '\0') {
        char* end = nullptr;
        const long v = std::strtol(env, &end, 10);
        if (end != nullptr && *end == '\0' && v >= 1 && v <= 4096) {
            return static_cast<unsigned>(v);
        }
    }
    return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

unsigned build_threads() noexcept
{
    const unsigned t = chosen.load(std::memory_order_relaxed);
    return t != 0 ? t : default_threads();
}

void set_build_threads(unsigned threads) noexcept
{
    chosen.store(threads, std::memory_order_relaxed);
}

}  // namespace spmv
