#pragma once
// A GPU rank's device and its two streams (internal to spmv::dist), shared by the rank's
// blocks (blocks.hpp) and its halo exchange (halo_exchange.hpp).
#include <memory>
#include <string>
#include <utility>

#include <spmv/dist/comm.hpp>
#include <spmv/error.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/memory.hpp>

#include "nccl_comm.hpp"

namespace spmv::dist::detail {

/// Where the exchange's device work (the gather, the copies of the halo) is queued: behind and
/// before the products on the compute stream, in one line with them (vector and naive mode), or
/// on the comm stream beside them (overlap and task mode), where the second pass waits for the
/// halo with an event. Host ranks have one queue: the thread that does the work.
enum class Queue { compute, comm };

/// One rank per GPU: the device picked by the node-local rank modulo the devices present.
struct DeviceRank {
    DeviceRank(int ordinal_, std::string name_) : ordinal(ordinal_), name(std::move(name_)) {}

    int ordinal = -1;
    std::string name;
    gpu::Stream compute;                            ///< the products
    gpu::Stream comm{gpu::Stream::Priority::high};  ///< the halo's gather and copies go first
    /// Exchange path "nccl" with more than one rank: the ranks' NCCL communicator (the halo,
    /// and CG's reductions on the device), made by make_halo_exchange; shared with the matrices
    /// with_values() makes of this one (the same ranks and device; NCCL orders the operations
    /// of one communicator as they are queued, whatever the stream), destroyed with the last.
    std::shared_ptr<NcclComm> nccl;

    gpu::Stream& stream(Queue q) noexcept { return q == Queue::comm ? comm : compute; }
};

/// Makes this rank's GPU current and creates its streams on it.
inline std::unique_ptr<DeviceRank> open_device_rank(const Comm& comm)
{
    const int n = gpu::device_count();
    if (n == 0) {
        SPMV_THROW(InvalidArgument, gpu::is_compiled()
                                        ? "--gpu: no CUDA device on this rank's host"
                                        : "--gpu: this build has no CUDA kernels");
    }
    const int ordinal = comm.node_rank() % n;
    gpu::set_device(ordinal);
    return std::make_unique<DeviceRank>(ordinal, gpu::device_info().name);
}

}  // namespace spmv::dist::detail
