// collective(): the same in the builds with and without MPI (agree() differs).
#include <new>
#include <string>

#include <spmv/dist/comm.hpp>

namespace spmv::dist {

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
