// spmv::dist's MPI calls: the only place besides the other distributed/src files that includes <mpi.h>.
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <spmv/dist/comm.hpp>

#include "mpi_check.hpp"

namespace spmv::dist {

RemoteError::RemoteError(const char* file, int line, int failed_rank, const std::string& what)
    : Error(file, line, what), failed_rank_(failed_rank)
{}

bool has_mpi() noexcept { return true; }

namespace {

MPI_Datatype native(Datatype t)
{
    switch (t) {
    case Datatype::f32: return MPI_FLOAT;
    case Datatype::f64: return MPI_DOUBLE;
    case Datatype::i32: return MPI_INT32_T;
    case Datatype::i64: return MPI_INT64_T;
    }
    return MPI_BYTE;
}

std::size_t size_of(Datatype t) { return t == Datatype::f32 || t == Datatype::i32 ? 4 : 8; }

int as_count(std::int64_t n, const char* what)
{
    if (n < 0 || n > std::numeric_limits<int>::max()) {
        SPMV_THROW(Error, std::string(what) + ": " + std::to_string(n) +
                              " elements exceed one MPI message (2^31 - 1)");
    }
    return static_cast<int>(n);
}

std::vector<int> as_counts(std::span<const std::int64_t> c, const char* what)
{
    std::vector<int> out;
    for (auto v : c) {
        out.push_back(as_count(v, what));
    }
    return out;
}

/// MPI displacements of consecutive blocks; refused (as_count) past 2^31 - 1 elements.
std::vector<int> displacements(const std::vector<int>& counts, const char* what)
{
    std::vector<int> d(counts.size(), 0);
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        d[i] = as_count(sum, what);
        sum += counts[i];
    }
    as_count(sum, what);
    return d;
}

/// Tag of the point-to-point messages that stand in for a collective whose counts or
/// displacements pass one message (detail::max_message_elements).
constexpr int tag_large = 7190;

const char* at(const void* base, std::int64_t i, Datatype t)
{
    return static_cast<const char*>(base) + i * static_cast<std::int64_t>(size_of(t));
}
char* at(void* base, std::int64_t i, Datatype t)
{
    return static_cast<char*>(base) + i * static_cast<std::int64_t>(size_of(t));
}

/// Calls f(first, n) for the pieces of at most max_message_elements() elements that cover
/// [0, count), in order; for count == 0 once with n = 0 when `empty_message` (a message of no
/// elements is still a message), else never.
template <typename F>
void in_pieces(std::int64_t count, bool empty_message, F&& f)
{
    if (count == 0 && empty_message) {
        f(std::int64_t{0}, 0);
        return;
    }
    const auto limit = detail::max_message_elements();
    for (std::int64_t done = 0; done < count; done += limit) {
        f(done, static_cast<int>(std::min(limit, count - done)));
    }
}

/// Whether blocks of these counts, one after the other, fit one MPI collective: all of them
/// together at most max_message_elements() (at most 2^31 - 1), so that every count and
/// displacement is an int.
bool fits_one_call(std::span<const std::int64_t> counts)
{
    const auto limit = detail::max_message_elements();
    std::int64_t total = 0;
    for (auto c : counts) {
        if (c < 0 || c > limit - total) {
            return false;
        }
        total += c;
    }
    return true;
}

/// Whether every rank's counts fit one collective call (all ranks get the same answer).
bool everyone_fits(bool mine)
{
    int v = mine ? 1 : 0;
    SPMV_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    return v == 1;
}

/// Point-to-point stand-ins of a collective: `count` elements to / from `peer` in pieces.
void post_send(const void* data, std::int64_t count, Datatype t, int peer,
               std::vector<MPI_Request>& reqs)
{
    in_pieces(count, false, [&](std::int64_t first, int n) {
        reqs.push_back(MPI_REQUEST_NULL);
        SPMV_MPI_CHECK(MPI_Isend(at(data, first, t), n, native(t), peer, tag_large,
                                 MPI_COMM_WORLD, &reqs.back()));
    });
}
void post_recv(void* data, std::int64_t count, Datatype t, int peer,
               std::vector<MPI_Request>& reqs)
{
    in_pieces(count, false, [&](std::int64_t first, int n) {
        reqs.push_back(MPI_REQUEST_NULL);
        SPMV_MPI_CHECK(MPI_Irecv(at(data, first, t), n, native(t), peer, tag_large,
                                 MPI_COMM_WORLD, &reqs.back()));
    });
}
void wait(std::vector<MPI_Request>& reqs)
{
    if (!reqs.empty()) {
        SPMV_MPI_CHECK(MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(),
                                   MPI_STATUSES_IGNORE));
    }
}
void copy_elements(void* to, const void* from, std::int64_t count, Datatype t)
{
    if (count > 0) {
        std::memcpy(to, from, static_cast<std::size_t>(count) * size_of(t));
    }
}

std::vector<std::int64_t> starts(std::span<const std::int64_t> counts)
{
    std::vector<std::int64_t> d(counts.size(), 0);
    for (std::size_t i = 1; i < counts.size(); ++i) {
        d[i] = d[i - 1] + counts[i - 1];
    }
    return d;
}

}  // namespace

namespace {
int g_thread_level = 0;
}

Environment::Environment(int* argc, char*** argv)
{
    int init = 0;
    MPI_Initialized(&init);
    if (init == 0) {
        SPMV_MPI_CHECK(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &thread_level_));
        owns_ = true;
        // errors come back as codes that SPMV_MPI_CHECK turns into exceptions, instead of
        // MPI's default handler aborting without saying where
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    } else {
        MPI_Query_thread(&thread_level_);
    }
    g_thread_level = thread_level_;
}

Environment::~Environment()
{
    if (owns_) {
        int fin = 0;
        MPI_Finalized(&fin);
        if (fin == 0) {
            MPI_Finalize();
        }
    }
}

bool Environment::initialized() noexcept
{
    int init = 0;
    MPI_Initialized(&init);
    return init != 0;
}

Comm Comm::world()
{
    SPMV_EXPECTS(Environment::initialized(), "MPI is not initialised: create a "
                                             "spmv::dist::Environment first");
    Comm c;
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &c.size_);
    MPI_Comm node = MPI_COMM_NULL;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, c.rank_, MPI_INFO_NULL,
                            &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &c.node_rank_);
        MPI_Comm_size(node, &c.node_size_);
        MPI_Comm_free(&node);
    }
    MPI_Query_thread(&c.thread_level_);
    return c;
}

void Comm::barrier() const { SPMV_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); }

std::string Comm::processor_name() const
{
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int len = 0;
    SPMV_MPI_CHECK(MPI_Get_processor_name(name, &len));
    return std::string(name, static_cast<std::size_t>(std::max(len, 0)));
}

void Comm::allreduce_sum(std::span<double> values) const
{
    if (size_ == 1 || values.empty()) {
        return;
    }
    const auto limit = detail::max_message_elements();
    const auto count = static_cast<std::int64_t>(values.size());
    for (std::int64_t done = 0; done < count; done += limit) {
        SPMV_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values.data() + done,
                                     static_cast<int>(std::min(limit, count - done)), MPI_DOUBLE,
                                     MPI_SUM, MPI_COMM_WORLD));
    }
}

double Comm::allreduce_sum(double v) const
{
    allreduce_sum(std::span<double>(&v, 1));
    return v;
}

double Comm::allreduce_max(double v) const
{
    if (size_ > 1) {
        SPMV_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    }
    return v;
}

std::int64_t Comm::allreduce_sum(std::int64_t v) const
{
    if (size_ > 1) {
        SPMV_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD));
    }
    return v;
}

void Comm::broadcast(std::string& s, int root) const
{
    if (size_ == 1) {
        return;
    }
    std::uint64_t n = s.size();
    SPMV_MPI_CHECK(MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD));
    s.resize(n);
    const auto limit = static_cast<std::uint64_t>(detail::max_message_elements());
    for (std::uint64_t done = 0; done < n; done += limit) {
        SPMV_MPI_CHECK(MPI_Bcast(s.data() + done, static_cast<int>(std::min(limit, n - done)),
                                 MPI_CHAR, root, MPI_COMM_WORLD));
    }
}

std::vector<std::string> Comm::allgather(const std::string& s) const
{
    if (size_ == 1) {
        return {s};
    }
    // strings of a few kB (messages, records): one MPI_Allgatherv, refused past 2^31 - 1 bytes
    int n = as_count(static_cast<std::int64_t>(s.size()), "allgather");
    std::vector<int> sizes(static_cast<std::size_t>(size_));
    SPMV_MPI_CHECK(MPI_Allgather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD));
    const std::vector<int> displs = displacements(sizes, "allgather");
    std::string all(static_cast<std::size_t>(displs.back() + sizes.back()), '\0');
    SPMV_MPI_CHECK(MPI_Allgatherv(s.data(), n, MPI_CHAR, all.data(), sizes.data(), displs.data(),
                                  MPI_CHAR, MPI_COMM_WORLD));
    std::vector<std::string> out;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
        out.push_back(all.substr(static_cast<std::size_t>(displs[r]),
                                 static_cast<std::size_t>(sizes[r])));
    }
    return out;
}

struct Requests::Impl {
    std::vector<MPI_Request> handles;
};
Requests::Requests() : impl_(std::make_unique<Impl>()) {}
Requests::~Requests() = default;
Requests::Requests(Requests&&) noexcept = default;
Requests& Requests::operator=(Requests&&) noexcept = default;
bool Requests::empty() const noexcept { return impl_->handles.empty(); }


void Comm::broadcast(void* data, std::int64_t count, Datatype t, int root) const
{
    if (size_ == 1) {
        return;
    }
    in_pieces(count, false, [&](std::int64_t first, int n) {
        SPMV_MPI_CHECK(MPI_Bcast(at(data, first, t), n, native(t), root, MPI_COMM_WORLD));
    });
}

void Comm::alltoall(std::span<const std::int64_t> send, std::span<std::int64_t> recv) const
{
    SPMV_EXPECTS(send.size() == static_cast<std::size_t>(size_) && recv.size() == send.size(),
                 "alltoall needs one entry per rank");
    SPMV_MPI_CHECK(MPI_Alltoall(send.data(), 1, MPI_INT64_T, recv.data(), 1, MPI_INT64_T,
                                MPI_COMM_WORLD));
}

void Comm::alltoallv(std::span<const std::int64_t> send, std::span<const std::int64_t> send_counts,
                     std::span<std::int64_t> recv,
                     std::span<const std::int64_t> recv_counts) const
{
    SPMV_EXPECTS(send_counts.size() == static_cast<std::size_t>(size_) &&
                     recv_counts.size() == send_counts.size(),
                 "alltoallv needs one count per rank");
    if (everyone_fits(fits_one_call(send_counts) && fits_one_call(recv_counts))) {
        const auto sc = as_counts(send_counts, "alltoallv");
        const auto rc = as_counts(recv_counts, "alltoallv");
        const auto sd = displacements(sc, "alltoallv");
        const auto rd = displacements(rc, "alltoallv");
        SPMV_MPI_CHECK(MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_INT64_T, recv.data(),
                                     rc.data(), rd.data(), MPI_INT64_T, MPI_COMM_WORLD));
        return;
    }
    // some rank's blocks pass one message: every pair exchanges its block in pieces
    const auto sd = starts(send_counts);
    const auto rd = starts(recv_counts);
    const auto me = static_cast<std::size_t>(rank_);
    SPMV_EXPECTS(send_counts[me] == recv_counts[me],
                 "alltoallv: this rank's block to itself has two different counts");
    std::vector<MPI_Request> reqs;
    for (int r = 0; r < size_; ++r) {
        const auto rz = static_cast<std::size_t>(r);
        if (r != rank_) {
            post_recv(recv.data() + rd[rz], recv_counts[rz], Datatype::i64, r, reqs);
        }
    }
    for (int r = 0; r < size_; ++r) {
        const auto rz = static_cast<std::size_t>(r);
        if (r != rank_) {
            post_send(send.data() + sd[rz], send_counts[rz], Datatype::i64, r, reqs);
        }
    }
    copy_elements(recv.data() + rd[me], send.data() + sd[me], send_counts[me], Datatype::i64);
    wait(reqs);
}

void Comm::send(const void* data, std::int64_t count, Datatype t, int dest, int tag) const
{
    in_pieces(count, false, [&](std::int64_t first, int n) {
        SPMV_MPI_CHECK(MPI_Send(at(data, first, t), n, native(t), dest, tag, MPI_COMM_WORLD));
    });
}

void Comm::recv(void* data, std::int64_t count, Datatype t, int source, int tag) const
{
    in_pieces(count, false, [&](std::int64_t first, int n) {
        SPMV_MPI_CHECK(MPI_Recv(at(data, first, t), n, native(t), source, tag, MPI_COMM_WORLD,
                                MPI_STATUS_IGNORE));
    });
}

void Comm::isend(const void* data, std::int64_t count, Datatype t, int dest, int tag,
                 Requests& reqs) const
{
    // one message per piece (an empty message stays one message): the receiver's irecv of the
    // same count posts the same pieces, matched in order
    in_pieces(count, true, [&](std::int64_t first, int n) {
        MPI_Request r = MPI_REQUEST_NULL;
        SPMV_MPI_CHECK(MPI_Isend(at(data, first, t), n, native(t), dest, tag, MPI_COMM_WORLD, &r));
        reqs.impl().handles.push_back(r);
    });
}

void Comm::irecv(void* data, std::int64_t count, Datatype t, int source, int tag,
                 Requests& reqs) const
{
    in_pieces(count, true, [&](std::int64_t first, int n) {
        MPI_Request r = MPI_REQUEST_NULL;
        SPMV_MPI_CHECK(
            MPI_Irecv(at(data, first, t), n, native(t), source, tag, MPI_COMM_WORLD, &r));
        reqs.impl().handles.push_back(r);
    });
}

void Comm::wait_all(Requests& reqs) const
{
    auto& h = reqs.impl().handles;
    if (!h.empty()) {
        SPMV_MPI_CHECK(MPI_Waitall(static_cast<int>(h.size()), h.data(), MPI_STATUSES_IGNORE));
    }
    h.clear();
}

bool Comm::test_all(Requests& reqs) const
{
    auto& h = reqs.impl().handles;
    if (h.empty()) {
        return true;
    }
    int done = 0;
    SPMV_MPI_CHECK(MPI_Testall(static_cast<int>(h.size()), h.data(), &done, MPI_STATUSES_IGNORE));
    if (done != 0) {
        h.clear();
    }
    return done != 0;
}

void Comm::gatherv(const void* mine, std::int64_t count, void* all,
                   std::span<const std::int64_t> counts, Datatype t, int root) const
{
    const bool is_root = rank_ == root;
    SPMV_EXPECTS(!is_root || counts.size() == static_cast<std::size_t>(size_),
                 "gatherv needs one count per rank on the root");
    const std::int64_t own[1] = {count};
    if (everyone_fits(is_root ? fits_one_call(counts) : fits_one_call(own))) {
        std::vector<int> c;
        std::vector<int> d;
        if (is_root) {
            c = as_counts(counts, "gatherv");
            d = displacements(c, "gatherv");
        }
        SPMV_MPI_CHECK(MPI_Gatherv(mine, as_count(count, "gatherv"), native(t), all, c.data(),
                                   d.data(), native(t), root, MPI_COMM_WORLD));
        return;
    }
    std::vector<MPI_Request> reqs;
    if (!is_root) {
        post_send(mine, count, t, root, reqs);
    } else {
        const auto d = starts(counts);
        for (int r = 0; r < size_; ++r) {
            const auto rz = static_cast<std::size_t>(r);
            if (r != root) {
                post_recv(at(all, d[rz], t), counts[rz], t, r, reqs);
            }
        }
        copy_elements(at(all, d[static_cast<std::size_t>(root)], t), mine, count, t);
    }
    wait(reqs);
}

void Comm::scatterv(const void* all, std::span<const std::int64_t> counts, void* mine,
                    std::int64_t count, Datatype t, int root) const
{
    const bool is_root = rank_ == root;
    SPMV_EXPECTS(!is_root || counts.size() == static_cast<std::size_t>(size_),
                 "scatterv needs one count per rank on the root");
    const std::int64_t own[1] = {count};
    if (everyone_fits(is_root ? fits_one_call(counts) : fits_one_call(own))) {
        std::vector<int> c;
        std::vector<int> d;
        if (is_root) {
            c = as_counts(counts, "scatterv");
            d = displacements(c, "scatterv");
        }
        SPMV_MPI_CHECK(MPI_Scatterv(all, c.data(), d.data(), native(t), mine,
                                    as_count(count, "scatterv"), native(t), root,
                                    MPI_COMM_WORLD));
        return;
    }
    std::vector<MPI_Request> reqs;
    if (!is_root) {
        post_recv(mine, count, t, root, reqs);
    } else {
        const auto d = starts(counts);
        for (int r = 0; r < size_; ++r) {
            const auto rz = static_cast<std::size_t>(r);
            if (r != root) {
                post_send(at(all, d[rz], t), counts[rz], t, r, reqs);
            }
        }
        copy_elements(mine, at(all, d[static_cast<std::size_t>(root)], t), count, t);
    }
    wait(reqs);
}

void agree(const Comm& comm, const std::string& error)
{
    // lowest failing rank, or size() when none failed
    int mine = error.empty() ? comm.size() : comm.rank();
    int first = mine;
    if (comm.size() > 1) {
        SPMV_MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    }
    if (first == comm.size()) {
        return;
    }
    std::string msg = error;
    comm.broadcast(msg, first);
    throw RemoteError(__FILE__, __LINE__, first,
                      "rank " + std::to_string(first) + " of " + std::to_string(comm.size()) +
                          " failed: " + msg);
}

void abort_all(const std::string& why, int code)
{
    std::fprintf(stderr, "spmvlab: fatal error inside an MPI exchange, ending every rank: %s\n",
                 why.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
    std::abort();
}

std::string library_version()
{
    char buf[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(buf, &len);
    std::string s(buf, static_cast<std::size_t>(std::max(len, 0)));
    if (auto nl = s.find_first_of("\n,"); nl != std::string::npos) {
        s.resize(nl);
    }
    return s;
}

bool cuda_aware()
{
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return false;
#endif
}

}  // namespace spmv::dist
