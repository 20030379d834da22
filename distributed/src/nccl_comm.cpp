// NcclComm (nccl_comm.hpp) over NCCL's host API: the only file that includes <nccl.h>, built when
// CMake found NCCL (cmake/SpmvNccl.cmake, which defines SPMV_HAS_NCCL for it).
#include <cstdlib>
#include <cstring>
#include <string>

#include <cuda_runtime.h>
#include <nccl.h>

#include <spmv/error.hpp>
#include <spmv/gpu/device.hpp>

#include "nccl_comm.hpp"
#include "shared_steps.hpp"

#ifndef SPMV_HAS_NCCL
#error "nccl_comm.cpp is built only with NCCL (cmake/SpmvNccl.cmake)"
#endif

namespace spmv::dist::detail {

namespace {

/// Throws spmv::Error naming the call and NCCL's own words for `r` (and its last error).
void check(ncclResult_t r, const char* what)
{
    if (r == ncclSuccess) {
        return;
    }
    std::string msg = std::string("NCCL: ") + what + ": " + ncclGetErrorString(r);
    const char* last = ncclGetLastError(nullptr);
    if (last != nullptr && last[0] != '\0') {
        msg += " (" + std::string(last) + ")";
    }
    SPMV_THROW(Error, msg);
}

ncclDataType_t nccl_type(Datatype t)
{
    switch (t) {
    case Datatype::f32: return ncclFloat32;
    case Datatype::f64: return ncclFloat64;
    case Datatype::i32: return ncclInt32;
    case Datatype::i64: return ncclInt64;
    }
    SPMV_THROW(InvalidArgument, "NCCL: unknown element type");
}

cudaStream_t native(gpu::StreamRef s)
{
    return static_cast<cudaStream_t>(s.handle);
}

ncclComm_t native(void* c)
{
    return static_cast<ncclComm_t>(c);
}

// the unique id travels over MPI as int64 words
static_assert(sizeof(ncclUniqueId) % sizeof(std::int64_t) == 0);
constexpr std::int64_t id_words = sizeof(ncclUniqueId) / sizeof(std::int64_t);

}  // namespace

bool nccl_compiled() noexcept
{
    return true;
}

std::string nccl_version()
{
    int v = 0;
    if (ncclGetVersion(&v) != ncclSuccess) {
        return "NCCL (version unknown)";
    }
    // NCCL >= 2.9 encodes major * 10000 + minor * 100 + patch
    return "NCCL " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
           std::to_string(v % 100);
}

std::unique_ptr<NcclComm> NcclComm::create(const Comm& comm, int device)
{
    std::unique_ptr<NcclComm> c(new NcclComm());
    c->rank_ = comm.rank();
    c->size_ = comm.size();
    ncclUniqueId id;
    std::memset(&id, 0, sizeof id);
    // everything that can fail on one rank alone happens before any rank enters the
    // initialisation, which waits for all of them
    collective(comm, [&] {
        const int gpus = gpu::device_count();
        if (comm.node_size() > gpus) {  // NCCL refuses two ranks on one device
            SPMV_THROW(InvalidArgument,
                       "exchange path nccl: " + std::to_string(comm.node_size()) +
                           " ranks on this host share " + std::to_string(gpus) +
                           " GPU(s); NCCL needs a GPU of its own per rank");
        }
        if (hosts_apart()) {  // NCCL's network transport, as between hosts (shared_steps.hpp)
            setenv("NCCL_P2P_DISABLE", "1", 0);
            setenv("NCCL_SHM_DISABLE", "1", 0);
        }
        gpu::set_device(device);
        if (comm.rank() == 0) {
            check(ncclGetUniqueId(&id), "ncclGetUniqueId");
        }
    });
    comm.broadcast(&id, id_words, Datatype::i64);
    ncclComm_t nc = nullptr;
    collective(comm, [&] {
        check(ncclCommInitRank(&nc, comm.size(), id, comm.rank()),
              "ncclCommInitRank (the ranks' NCCL communicator)");
    });
    c->comm_ = nc;
    return c;
}

NcclComm::~NcclComm()
{
    if (comm_ != nullptr) {
        // queued work has finished: every product and solver step ends with a synchronize
        (void)ncclCommDestroy(native(comm_));
    }
}

void NcclComm::exchange(std::span<const NcclPeer> sends, std::span<const NcclPeer> recvs,
                        Datatype t, gpu::StreamRef stream)
{
    if (sends.empty() && recvs.empty()) {
        return;
    }
    const auto type = nccl_type(t);
    check(ncclGroupStart(), "ncclGroupStart");
    // a failing call inside the group still needs the group closed
    try {
        for (const auto& p : recvs) {
            check(ncclRecv(p.data, static_cast<std::size_t>(p.count), type, p.rank,
                           native(comm_), native(stream)),
                  "ncclRecv of the halo");
        }
        for (const auto& p : sends) {
            check(ncclSend(p.data, static_cast<std::size_t>(p.count), type, p.rank,
                           native(comm_), native(stream)),
                  "ncclSend of the halo");
        }
    } catch (...) {
        (void)ncclGroupEnd();
        throw;
    }
    check(ncclGroupEnd(), "ncclGroupEnd of the halo exchange");
}

void NcclComm::allreduce_sum(double* data, std::int64_t count, gpu::StreamRef stream)
{
    if (count <= 0) {
        return;
    }
    check(ncclAllReduce(data, data, static_cast<std::size_t>(count), ncclFloat64, ncclSum,
                        native(comm_), native(stream)),
          "ncclAllReduce of the dot products");
}

}  // namespace spmv::dist::detail
