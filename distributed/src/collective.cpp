// collective() and the message size limit: the same in the builds with and without MPI
// (agree() differs).
#include <atomic>
#include <limits>
#include <new>
#include <string>

#include <spmv/dist/comm.hpp>

namespace spmv::dist {

namespace detail {

namespace {
std::atomic<std::int64_t> g_max_message{std::int64_t{1} << 30};
}

std::int64_t set_max_message_elements(std::int64_t n)
{
    SPMV_EXPECTS(n >= 1 && n <= std::numeric_limits<int>::max(),
                 "a message carries 1 to 2^31 - 1 elements, not " + std::to_string(n));
    return g_max_message.exchange(n);
}

std::int64_t max_message_elements() noexcept { return g_max_message.load(); }

}  // namespace detail

void collective(const Comm& comm, const std::function<void()>& f)
{
    std::string error;
    try {
        f();
    } catch (const RemoteError&) {
        throw;  // already agreed inside f: every rank throws it
    } catch (const std::bad_alloc&) {
        error = "out of host memory";
    } catch (const std::exception& e) {
        error = e.what();
    }
    agree(comm, error);
}

}  // namespace spmv::dist
