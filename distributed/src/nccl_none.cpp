// A build without NCCL (cmake/SpmvNccl.cmake did not find it, or CUDA or MPI is off): the same
// NcclComm (nccl_comm.hpp), whose creation says so on every rank, so that exchange path "nccl"
// is a clear error and everything else builds and runs.
#include <spmv/error.hpp>

#include "nccl_comm.hpp"

namespace spmv::dist::detail {

namespace {

[[noreturn]] void no_nccl()
{
    SPMV_THROW(NotCompiled, "exchange path nccl: this build has no NCCL (" + nccl_version() + ")");
}

}  // namespace

bool nccl_compiled() noexcept
{
    return false;
}

std::string nccl_version()
{
    return "configure with CUDA, MPI and NCCL (nccl.h / libnccl beside the CUDA toolkit, "
           "SPMV_ENABLE_NCCL not OFF) to have it";
}

std::unique_ptr<NcclComm> NcclComm::create(const Comm& comm, int /*device*/)
{
    collective(comm, [] { no_nccl(); });
    return nullptr;  // not reached: every rank threw
}

NcclComm::~NcclComm() = default;

void NcclComm::exchange(std::span<const NcclPeer>, std::span<const NcclPeer>, Datatype,
                        gpu::StreamRef)
{
    no_nccl();
}

void NcclComm::allreduce_sum(double*, std::int64_t, gpu::StreamRef)
{
    no_nccl();
}

}  // namespace spmv::dist::detail
