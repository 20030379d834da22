#pragma once
/// DistMatrix: a sparse matrix spread over MPI ranks, each rank holding its rows as a local and
/// a non-local block (local_matrix.hpp) in ANY registered format, on the host or on its GPU,
/// and the halo exchange plan computed once (exchange_plan.hpp). y = A x in one of four modes
/// (Mode, mode.hpp): Kreutzer et al.'s three of §III.A (vector, naive, task) and the
/// GPU era's explicit overlap (overlap, ours). "Pack" is the paper's "local gather" of the own
/// x entries a neighbour needs into the send buffer.
///
///   vector   (the paper's vector mode without overlap) post receives, pack, send, wait
///            (GPU ranks: the halo then to the device); then the whole SpMV. With halo it runs
///            on one block [local | non-local] over [x_own | halo] (one pass over y, the
///            paper's "single step"; DistOptions::merged_block); without halo it is the local
///            block alone.
///   naive    (the paper's vector mode with naive overlap, as it ran) post receives, pack
///            (GPU ranks: gather and copy to the host, and the host waits for both, since the
///            paper's node had the send buffer in host memory), post the sends; the local SpMV
///            (GPU ranks: launched, then the host blocks until it ends); wait (the messages
///            move only here: Open MPI 4.1 has no asynchronous progress, "OMPI progress: no");
///            GPU ranks: the halo to the device; the non-local SpMV. Nothing is hidden: the
///            paper expects no gain even over vector mode.
///   overlap  (explicit overlap, the GPU-era schedule: ours, not the paper's) GPU ranks: post
///            receives; queue the gather (and copy) on a high-priority stream, then the local
///            SpMV on the compute stream; the host waits for the packed buffer, sends, and sits
///            in MPI_Waitall while the GPU computes, so the messages move during the local
///            SpMV; the halo to the device on the comm stream; the non-local SpMV waits for it
///            with an event. Host ranks: the same schedule as naive (one thread cannot compute
///            and sit in MPI at once).
///   task     (the paper's task mode) a dedicated, persistent communication thread posts,
///            packs, sends and waits (GPU ranks: the gather and copy are queued on the
///            high-priority stream before the local SpMV, the thread waits for them, sends,
///            waits and queues the halo's copy to the device) while the compute side runs the
///            local SpMV; after the join, the non-local SpMV. DistOptions::task_poll_us says
///            how the thread waits.
/// "Local" and "non-local" SpMV in naive, overlap and task mode: with few boundary rows (rows
/// with halo entries, at most a third of the rank's rows) the first pass runs the interior
/// rows and the second the boundary rows whole (scattered into y), so every row is summed in
/// one pass and every mode gives vector mode's y to the last bit; with many, the local block
/// over every row, then the non-local block adding into y (Kreutzer's split by columns).
///
/// One schedule runs every mode on every rank (distributed/src/schedule.hpp): the modes differ
/// only in who drives the exchange (the host thread or task mode's communication thread), where
/// its device work is queued (the compute stream or the high-priority comm stream) and when the
/// host waits; the rank's blocks (host or GPU, src/blocks.hpp) and its halo exchange (one
/// object per path with start / send / finish, src/halo_exchange.hpp) plug into it, as the row
/// gatherer does into Ginkgo's distributed::Matrix::apply.
///
/// GPU ranks: one rank per GPU (node-local rank -> device ordinal modulo the devices present).
/// The halo is gathered on the device into a device buffer; how it then moves is
/// DistOptions::exchange, "auto" by default: "cuda-aware" (device buffers to MPI) where the MPI
/// library is CUDA-aware, else "cuda-ipc" (each rank pulls its halo from its neighbours' send
/// buffers with a device copy; MPI carries "packed" / "consumed" tokens) where every rank is on
/// one host and the GPUs can read each other's memory, else "host-staged" (copy to page-locked
/// host memory, MPI, copy back: the papers' path). "nccl", asked for by name, queues the gather
/// and one NCCL group of ncclSend / ncclRecv on the GPU's stream (no host staging, no MPI and
/// no host wait on the data path; halo_exchange.cpp, NcclExchange). exchange_path() says which
/// ran. In naive mode every path keeps the paper's order: the sends (IPC: the "packed" tokens;
/// NCCL: the group, queued before the local kernel on the same stream) are posted before the
/// local SpMV, everything that waits for the neighbours (IPC: their tokens and the device copy)
/// after its synchronize.
///
///   spmv::dist::Environment env(&argc, &argv);
///   auto comm = spmv::dist::Comm::world();
///   Csr<double> a;  if (comm.rank() == 0) a = load(...);      // only the root reads
///   auto A = DistMatrix<double>::create(comm, a, {.format = "sell", .gpu = true});
///   std::vector<double> x(A.own_cols()), y(A.own_rows());
///   A.apply(Mode::task, x, y);                                 // host vectors in and out
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/exchange_plan.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/mode.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/dist/timeline.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/memory.hpp>
#include <spmv/registry.hpp>

namespace spmv::dist {

namespace detail {
struct DeviceRank;
}

struct DistOptions {
    PartitionKind partition = PartitionKind::nnz;  ///< Cevahir's rule by default
    std::string format = "csr";  ///< registry name of both blocks' format
    FormatParams params;
    bool gpu = false;            ///< blocks on this rank's GPU
    std::string variant;         ///< GPU kernel variant (empty: the format's default)
    /// Build the merged [local | non-local] block that vector mode's single-step SpMV runs
    /// (extra memory: one more copy of the rank's rows). Off: vector mode runs the two
    /// blocks one after the other, after the wait.
    bool merged_block = true;
    /// Task mode: how the communication thread waits for its messages. 0: MPI_Waitall, which
    /// polls (and keeps a core busy: right when the thread has a core of its own, as in the
    /// paper). > 0: MPI_Testall, then sleep this many microseconds, until done: the thread
    /// gives its core to the compute side between polls (ranks sharing cores, e.g. 2 ranks on
    /// 2 cores), at the price of up to one interval of latency. -1 (default): 20 us when the
    /// ranks on this host have fewer than two hardware threads each, else 0
    /// (task_poll_interval_us() says which was taken).
    int task_poll_us = -1;
    /// GPU ranks: how the halo moves between the GPUs.
    /// - "auto" (default): "cuda-aware" where the MPI library is, else "cuda-ipc" where every
    ///   rank is on one host and the GPUs can read each other's memory, else "host-staged"
    ///   (exchange_note() says why IPC was not taken). auto never takes nccl (yet): the rule
    ///   is one function, auto_exchange() in distributed/src/halo_exchange.cpp;
    /// - "host-staged": gather on the device, copy to page-locked host memory, MPI, copy back
    ///   (the papers' path);
    /// - "cuda-ipc": each rank opens its neighbours' send buffers once (CUDA IPC) and pulls its
    ///   halo with a device copy (NVLink or PCIe peer-to-peer); MPI carries only a "packed" and
    ///   a "consumed" token per neighbour and exchange;
    /// - "cuda-aware": device buffers to MPI directly;
    /// - "nccl": one NCCL communicator per matrix (created with it, collectively, and shared
    ///   with the matrices with_values() makes of it; destroyed with the last), whose
    ///   connections are all made at creation (NCCL makes them lazily, ~100 ms per first
    ///   call: the setup time includes them, the first product does not); each exchange is
    ///   the gather and one group of ncclSend (from the device send buffer) and ncclRecv
    ///   (into the halo) queued on the stream of the mode's exchange
    ///   (vector, naive: the compute stream; overlap, task: the comm stream, the non-local
    ///   SpMV waiting on an event), so the host never waits for it. Distributed CG on such a
    ///   matrix also sums its dot products with ncclAllReduce on the device
    ///   (DistSolveOptions::device_reductions). Needs GPU ranks and a build with NCCL
    ///   (SPMV_ENABLE_NCCL, cmake/SpmvNccl.cmake): otherwise an error saying so.
    /// A path that cannot run here is an error naming why.
    std::string exchange = "auto";
    /// Float GPU ranks: add each row's products in double and round once
    /// (spmv::gpu::Sums::double_precision) where the format's kernel has that path (CSR, SELL,
    /// PELLR); MPIR-CG's inner solve asks for it (InnerOptions::double_sums). Host ranks and
    /// other kernels add in the value type (RankInfo::double_sums says which ran).
    bool double_sums = false;
    /// The most memory this rank's blocks may take (host memory on host ranks, device memory on
    /// GPU ranks): the local, non-local and merged blocks are estimated from their row lengths
    /// (parameters resolved first, sigma = auto included) before any is built, and a block set
    /// over the limit on any rank ends every rank with that rank's estimate
    /// (MemoryLimitExceeded, agreed collectively). No limit by default. With row chunks,
    /// every chunk's blocks are estimated and summed.
    MemoryBudget budget;
    /// Row chunks (ours, issue 36; the papers' nodes never held 2^31 nonzeros per process):
    /// the most nonzeros (local + non-local entries of its rows) and stored slots (padding
    /// included, from the format's footprint estimate) one chunk of a rank's blocks may hold.
    /// A rank with more is cut into consecutive row chunks, each an ordinary 32-bit block in
    /// the chosen format, and every pass runs once per chunk (RankInfo::chunks says how many);
    /// y is the same to the last bit. In [1, 2^31 - 1]; the default, 2^31 - 2^24, leaves a
    /// margin under 32 bits. Tests set it small to cut small matrices into many chunks.
    std::int64_t max_chunk_nnz = default_max_chunk_nnz;
};

/// Where the rank's work ran, for result records.
struct RankInfo {
    int rank = 0;
    std::string device;         ///< "host" or the GPU's name
    int device_ordinal = -1;    ///< GPU ordinal, -1 on the host
    std::int64_t rows = 0;
    std::int64_t nnz = 0;
    std::int64_t halo = 0;
    int neighbours = 0;
    bool double_sums = false;  ///< the kernels add in double (DistOptions::double_sums)
    int chunks = 1;  ///< row chunks of the rank's blocks (DistOptions::max_chunk_nnz)
};

template <typename ValueType>
class DistMatrix {
public:
    using value_type = ValueType;

    DistMatrix();
    ~DistMatrix();
    DistMatrix(DistMatrix&&) noexcept;
    DistMatrix& operator=(DistMatrix&&) noexcept;

    /// Collective. The root (rank 0) passes the whole matrix (the others' `a` is ignored): it
    /// partitions the rows, sends every rank its rows, and every rank splits them, builds the
    /// exchange plan with its neighbours and its two blocks in `opt.format` (on its GPU when
    /// opt.gpu). Any rank's failure (a format that does not fit, no GPU, ...) throws
    /// RemoteError on every rank.
    static DistMatrix create(const Comm& comm, const Csr<ValueType, std::int32_t>& a,
                             const DistOptions& opt);
    /// Collective. Every rank passes its own rows in global numbering and the partition (the
    /// same on all ranks): for matrices that no single process holds (more than 2^31 rows or
    /// nonzeros in total, generated rank by rank).
    static DistMatrix from_rows(const Comm& comm, const GlobalRows<ValueType>& rows,
                                const Partition& row_partition, const DistOptions& opt);
    /// The same, taking the rows: they are freed as soon as they are split into the rank's
    /// local and non-local parts, before the blocks are built, so that a rank never holds its
    /// rows and its blocks at once (per-rank input: spmvlab dist, issue 36).
    static DistMatrix from_rows(const Comm& comm, GlobalRows<ValueType>&& rows,
                                const Partition& row_partition, const DistOptions& opt);

    const Comm& comm() const;
    const Partition& row_partition() const;
    const Partition& col_partition() const;
    /// This rank's blocks as split (row chunks past DistOptions::max_chunk_nnz: read them
    /// through chunk_views(), or local_rows() / local_nnz() / nonlocal_nnz()).
    const LocalMatrix<ValueType>& part() const;
    const ExchangePlan& plan() const;
    const DistOptions& options() const;
    RankInfo info() const;
    std::int64_t own_rows() const;   ///< entries of y on this rank
    std::int64_t own_cols() const;   ///< entries of x on this rank
    /// "none" (no rank has a halo), "host" (host ranks), "host-staged" (GPU ranks through
    /// page-locked host buffers), "cuda-ipc" (GPU to GPU copies, MPI for tokens only),
    /// "cuda-aware" (device buffers to MPI) or "nccl" (ncclSend / ncclRecv on the device).
    std::string exchange_path() const;
    /// Why "auto" did not take CUDA IPC (empty when it did, or was not tried).
    std::string exchange_note() const;
    bool on_gpu() const;
    /// Internal to spmv::dist (its solvers): this GPU rank's device and streams, and with
    /// exchange path "nccl" its NCCL communicator (device_rank.hpp); null on host ranks.
    detail::DeviceRank* device_rank() const noexcept;
    /// The communication thread's poll interval in task mode (DistOptions::task_poll_us
    /// resolved): 0 for MPI_Waitall.
    int task_poll_interval_us() const;

    /// y_own = A x (x_own: this rank's entries of x in the column partition's order; y_own:
    /// its rows). GPU ranks copy x in and y out (not part of the SpMV a solver would run).
    /// Collective. With `timeline`, appends this rank's events of SpMV `iteration`.
    void apply(Mode mode, std::span<const ValueType> x_own, std::span<ValueType> y_own,
               Timeline* timeline = nullptr, int iteration = 0);
    /// The same on device pointers (GPU ranks): no host copies of x and y (x is copied into
    /// the matrix's ghosted buffer on the device).
    void apply_device(Mode mode, const ValueType* x_own, ValueType* y_own,
                      Timeline* timeline = nullptr, int iteration = 0);

    /// Entries of a "ghosted" x: own_cols() own entries followed by the halo (PETSc's
    /// VecGhost). A solver that keeps its SpMV input ghosted spares the copy of x: the
    /// exchange writes the halo into the tail, the blocks read the vector in place.
    std::int64_t ghosted_size() const;
    /// y_own = A x with x ghosted (host ranks): x_ghost[0, own_cols()) is read, the halo tail
    /// is overwritten by the exchange.
    void apply_ghosted(Mode mode, std::span<ValueType> x_ghost, std::span<ValueType> y_own,
                       Timeline* timeline = nullptr, int iteration = 0);
    /// The same on device pointers (GPU ranks).
    void apply_device_ghosted(Mode mode, ValueType* x_ghost, ValueType* y_own,
                              Timeline* timeline = nullptr, int iteration = 0);

    /// The same distributed matrix with its values converted (e.g. the float operator of
    /// MPIR-CG's inner solve): same partition, plan and format, blocks rebuilt on the same
    /// device. Collective.
    template <typename To>
    DistMatrix<To> with_values(bool double_sums = false) const;

    /// The timeline's origin: a barrier, then now. Events are in microseconds after it.
    void start_clock();

private:
    template <typename>
    friend class DistMatrix;
    struct Impl;
    std::unique_ptr<Impl> impl_;
    /// from_rows; `owned`, when given, is `rows` itself, freed once split.
    static DistMatrix from_rows_(const Comm& comm, const GlobalRows<ValueType>& rows,
                                 GlobalRows<ValueType>* owned, const Partition& row_partition,
                                 const DistOptions& opt);
};

/// This rank's exchange plan from its halo (LocalMatrix::halo_cols and halo_owner, as split()
/// makes them) under MPI: the receive side from the halo, then one all-to-all of the counts
/// and one of the requested global columns (64-bit) give every rank its send side. Collective;
/// DistMatrix::from_rows builds its plan so, and it serves to build plans without the blocks
/// (tests, tools). Throws RemoteError on every rank when any rank's plan is inconsistent.
ExchangePlan exchange_plan(const Comm& comm, std::span<const global_index> halo_cols,
                           std::span<const std::int32_t> halo_owner, const Partition& cols);

/// Gathers a distributed vector (each rank's own entries, `part` its index set) on the root in
/// global order; other ranks get an empty vector. Collective.
template <typename ValueType>
std::vector<ValueType> gather_to_root(const Comm& comm, const Partition& part,
                                      std::span<const ValueType> own);
/// The root's global vector cut into every rank's own entries. Collective.
template <typename ValueType>
std::vector<ValueType> scatter_from_root(const Comm& comm, const Partition& part,
                                         std::span<const ValueType> global);

}  // namespace spmv::dist
