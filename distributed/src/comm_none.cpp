// spmv::dist without MPI (no MPI found when the build was configured): every process is one
// rank of one. A distributed matrix on one rank has no halo, so no message is ever sent; the
// point-to-point calls say that this build has no MPI.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include <spmv/dist/comm.hpp>

namespace spmv::dist {

RemoteError::RemoteError(const char* file, int line, int failed_rank, const std::string& what)
    : Error(file, line, what), failed_rank_(failed_rank)
{}

bool has_mpi() noexcept { return false; }

namespace {
bool g_initialized = false;
std::size_t size_of(Datatype t) { return t == Datatype::f32 || t == Datatype::i32 ? 4 : 8; }
[[noreturn]] void no_mpi(const char* what)
{
    SPMV_THROW(NotCompiled, std::string(what) + ": this build has no MPI (install "
                                                "libopenmpi-dev and re-run cmake)");
}
}  // namespace

Environment::Environment(int*, char***) { g_initialized = true; }
Environment::~Environment() { g_initialized = false; }
bool Environment::initialized() noexcept { return g_initialized; }

struct Requests::Impl {};
Requests::Requests() : impl_(std::make_unique<Impl>()) {}
Requests::~Requests() = default;
Requests::Requests(Requests&&) noexcept = default;
Requests& Requests::operator=(Requests&&) noexcept = default;
bool Requests::empty() const noexcept { return true; }

Comm Comm::world() { return Comm{}; }
void Comm::barrier() const {}
std::string Comm::processor_name() const
{
    char name[256] = {};
    return gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("localhost");
}
void Comm::allreduce_sum(std::span<double>) const {}
double Comm::allreduce_sum(double v) const { return v; }
double Comm::allreduce_max(double v) const { return v; }
std::int64_t Comm::allreduce_sum(std::int64_t v) const { return v; }
void Comm::broadcast(std::string&, int) const {}
std::vector<std::string> Comm::allgather(const std::string& s) const { return {s}; }
void Comm::broadcast(void*, std::int64_t, Datatype, int) const {}
void Comm::alltoall(std::span<const std::int64_t> send, std::span<std::int64_t> recv) const
{
    std::copy(send.begin(), send.end(), recv.begin());
}
void Comm::alltoallv(std::span<const std::int64_t> send, std::span<const std::int64_t>,
                     std::span<std::int64_t> recv, std::span<const std::int64_t>) const
{
    std::copy(send.begin(), send.end(), recv.begin());
}
void Comm::send(const void*, std::int64_t, Datatype, int, int) const { no_mpi("send"); }
void Comm::recv(void*, std::int64_t, Datatype, int, int) const { no_mpi("recv"); }
void Comm::isend(const void*, std::int64_t, Datatype, int, int, Requests&) const
{
    no_mpi("isend");
}
void Comm::irecv(void*, std::int64_t, Datatype, int, int, Requests&) const { no_mpi("irecv"); }
void Comm::wait_all(Requests&) const {}
bool Comm::test_all(Requests&) const { return true; }
void Comm::gatherv(const void* mine, std::int64_t count, void* all, std::span<const std::int64_t>,
                   Datatype t, int) const
{
    if (count > 0) {
        std::memcpy(all, mine, static_cast<std::size_t>(count) * size_of(t));
    }
}
void Comm::scatterv(const void* all, std::span<const std::int64_t>, void* mine,
                    std::int64_t count, Datatype t, int) const
{
    if (count > 0) {
        std::memcpy(mine, all, static_cast<std::size_t>(count) * size_of(t));
    }
}

void agree(const Comm&, const std::string& error)
{
    if (!error.empty()) {
        throw RemoteError(__FILE__, __LINE__, 0, "rank 0 of 1 failed: " + error);
    }
}

void abort_all(const std::string& why, int code)
{
    std::fprintf(stderr, "spmvlab: fatal error: %s\n", why.c_str());
    std::exit(code);
}

std::string library_version() { return "no MPI"; }
bool cuda_aware() { return false; }

}  // namespace spmv::dist
