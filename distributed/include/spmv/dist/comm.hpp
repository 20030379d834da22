#pragma once
/// The MPI side of spmv::dist, behind a plain C++ header: no <mpi.h> here, so the CLI, the
/// tests and the tutorials compile the same way with and without MPI (in a build without MPI
/// the functions behave as one rank of one, and everything needing a peer throws NotCompiled;
/// distributed/src/comm_none.cpp, like the kernels' stubs).
///
/// Errors under MPI: a bad file, a failed allocation or a device error on one rank must end
/// every rank with the same message, never a hang. Every collective step of spmv::dist is
/// wrapped in collective(): the function runs on every rank, then the ranks agree (one
/// MPI_Allreduce of a flag, then the first failing rank's message is broadcast) before any
/// point-to-point exchange, so no rank waits for a message a failed rank will never send.
/// MPI_Abort is the last resort (abort_all), for an error inside an exchange.
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <spmv/error.hpp>

namespace spmv::dist {

/// Thrown on every rank when some rank failed a collective step; what() names the rank that
/// failed first and its own message.
class RemoteError : public Error {
public:
    RemoteError(const char* file, int line, int failed_rank, const std::string& what);
    int failed_rank() const noexcept { return failed_rank_; }

private:
    int failed_rank_;
};

/// Whether this build has MPI (spmv::dist's real implementation).
bool has_mpi() noexcept;

/// Initialises MPI on construction (MPI_Init_thread asking for MPI_THREAD_MULTIPLE, as task
/// mode's communication thread calls MPI while the main thread computes) unless it is already
/// initialised, and finalises it on destruction if it initialised it. One per process.
class Environment {
public:
    Environment(int* argc, char*** argv);
    ~Environment();  // never throws
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;
    /// The thread support MPI granted: 0 single, 1 funneled, 2 serialized, 3 multiple.
    int thread_level() const noexcept { return thread_level_; }
    /// Whether the process runs under mpiexec with more than one rank, or as a singleton.
    static bool initialized() noexcept;

private:
    bool owns_ = false;
    int thread_level_ = 0;
};

/// Element types of the messages spmv::dist sends.
enum class Datatype { f32, f64, i32, i64 };
template <typename T>
constexpr Datatype datatype_of();
template <>
constexpr Datatype datatype_of<float>() { return Datatype::f32; }
template <>
constexpr Datatype datatype_of<double>() { return Datatype::f64; }
template <>
constexpr Datatype datatype_of<std::int32_t>() { return Datatype::i32; }
template <>
constexpr Datatype datatype_of<std::int64_t>() { return Datatype::i64; }

/// Pending non-blocking operations (MPI_Request handles, opaque here).
class Requests {
public:
    Requests();
    ~Requests();
    Requests(Requests&&) noexcept;
    Requests& operator=(Requests&&) noexcept;
    bool empty() const noexcept;
    struct Impl;
    Impl& impl() { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

/// MPI_COMM_WORLD (rank / size), with the collective and point-to-point helpers spmv::dist
/// uses. In a build without MPI it is one rank of one.
class Comm {
public:
    static Comm world();
    int rank() const noexcept { return rank_; }
    int size() const noexcept { return size_; }
    /// The rank among the ranks on the same host (MPI_Comm_split_type SHARED): picks the GPU.
    int node_rank() const noexcept { return node_rank_; }
    int node_size() const noexcept { return node_size_; }
    /// The MPI library's thread level (Environment::thread_level).
    int thread_level() const noexcept { return thread_level_; }
    /// This rank's host as MPI names it (MPI_Get_processor_name; the host name without MPI).
    std::string processor_name() const;

    void barrier() const;
    /// Sum over all ranks, in place.
    void allreduce_sum(std::span<double> values) const;
    double allreduce_sum(double v) const;
    double allreduce_max(double v) const;
    std::int64_t allreduce_sum(std::int64_t v) const;
    /// Root's bytes to everyone (resized on the other ranks).
    void broadcast(std::string& s, int root = 0) const;
    /// Every rank's string, on every rank (rank order).
    std::vector<std::string> allgather(const std::string& s) const;
    /// Root's array to everyone (`count` elements; the other ranks' buffer must hold them).
    void broadcast(void* data, std::int64_t count, Datatype t, int root = 0) const;
    /// One int64 to and from every rank (send.size() == recv.size() == size()).
    void alltoall(std::span<const std::int64_t> send, std::span<std::int64_t> recv) const;
    /// Variable all-to-all of int64 (counts and displacements in elements).
    void alltoallv(std::span<const std::int64_t> send, std::span<const std::int64_t> send_counts,
                   std::span<std::int64_t> recv, std::span<const std::int64_t> recv_counts) const;
    /// Blocking send / receive of `count` elements (split into messages of at most
    /// detail::max_message_elements(); the same for every call below that takes a count).
    void send(const void* data, std::int64_t count, Datatype t, int dest, int tag) const;
    void recv(void* data, std::int64_t count, Datatype t, int source, int tag) const;
    /// Non-blocking; completed by wait_all (the buffers must live until then).
    void isend(const void* data, std::int64_t count, Datatype t, int dest, int tag,
               Requests& reqs) const;
    void irecv(void* data, std::int64_t count, Datatype t, int source, int tag,
               Requests& reqs) const;
    void wait_all(Requests& reqs) const;
    /// MPI_Testall: true (and reqs emptied) when every operation has completed; advances the
    /// library's progress either way.
    bool test_all(Requests& reqs) const;
    /// Every rank's `count` elements on the root, rank after rank (counts: one per rank, on
    /// the root). Non-root ranks pass an empty `all`.
    void gatherv(const void* mine, std::int64_t count, void* all,
                 std::span<const std::int64_t> counts, Datatype t, int root = 0) const;
    void scatterv(const void* all, std::span<const std::int64_t> counts, void* mine,
                  std::int64_t count, Datatype t, int root = 0) const;

private:
    int rank_ = 0;
    int size_ = 1;
    int node_rank_ = 0;
    int node_size_ = 1;
    int thread_level_ = 0;
};

/// Every rank reports whether its part of a step failed (`error` empty: it did not). If any
/// did, every rank throws RemoteError with the lowest failing rank's message; otherwise
/// returns. Collective: every rank must call it, in the same order.
void agree(const Comm& comm, const std::string& error);

/// Runs f on this rank and agrees on the outcome (agree): f's exception on any rank becomes a
/// RemoteError on all. Collective.
void collective(const Comm& comm, const std::function<void()>& f);

/// Ends every rank now (MPI_Abort with `code` after printing `why` on stderr): only for an
/// error inside an exchange, where the peers may be blocked in a receive.
[[noreturn]] void abort_all(const std::string& why, int code = 1);

namespace detail {
/// Large counts: MPI counts and displacements are int, so one message carries at most this
/// many elements (2^30 by default). Longer transfers go as several messages: send, recv,
/// isend, irecv, broadcast and allreduce_sum in pieces of at most this many elements (in order:
/// MPI does not let messages of one sender, tag and communicator overtake each other), and
/// gatherv, scatterv and alltoallv, when the blocks a rank sends or receives pass it together
/// on any rank, as point-to-point messages of at most this many elements between every pair
/// of ranks. Tests
/// lower it to run the splitting on small arrays; it must be the same on every rank (set it
/// between collective steps). Returns the previous limit; throws InvalidArgument outside
/// [1, 2^31 - 1].
std::int64_t set_max_message_elements(std::int64_t n);
std::int64_t max_message_elements() noexcept;
}  // namespace detail

/// "Open MPI v4.1.4, ..." (MPI_Get_library_version, first line), or "no MPI".
std::string library_version();
/// Whether the MPI library can take device pointers: compiled with CUDA support (Open MPI's
/// MPIX_Query_cuda_support where available) and saying so at run time.
bool cuda_aware();

}  // namespace spmv::dist
