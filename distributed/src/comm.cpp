// spmv::dist's MPI calls: the only place besides the other distributed/src files that includes <mpi.h>.
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <cstdio>
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

void Comm::allreduce_sum(std::span<double> values) const
{
    if (size_ == 1 || values.empty()) {
        return;
    }
    SPMV_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()),
                                 MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
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
    SPMV_MPI_CHECK(MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, root, MPI_COMM_WORLD));
}

std::vector<std::string> Comm::allgather(const std::string& s) const
{
    if (size_ == 1) {
        return {s};
    }
    int n = static_cast<int>(s.size());
    std::vector<int> sizes(static_cast<std::size_t>(size_));
    SPMV_MPI_CHECK(MPI_Allgather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD));
    std::vector<int> displs(sizes.size(), 0);
    for (std::size_t r = 1; r < sizes.size(); ++r) {
        displs[r] = displs[r - 1] + sizes[r - 1];
    }
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

/// Messages carry at most this many elements (MPI counts are int).
constexpr std::int64_t max_chunk = std::int64_t{1} << 30;

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

}  // namespace

void Comm::broadcast(void* data, std::int64_t count, Datatype t, int root) const
{
    if (size_ == 1) {
        return;
    }
    auto* p = static_cast<char*>(data);
    for (std::int64_t done = 0; done < count; done += max_chunk) {
        const auto n = std::min(max_chunk, count - done);
        SPMV_MPI_CHECK(MPI_Bcast(p + done * static_cast<std::int64_t>(size_of(t)),
                                 static_cast<int>(n), native(t), root, MPI_COMM_WORLD));
    }
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
    const auto sc = as_counts(send_counts, "alltoallv");
    const auto rc = as_counts(recv_counts, "alltoallv");
    const auto sd = displacements(sc, "alltoallv");
    const auto rd = displacements(rc, "alltoallv");
    SPMV_MPI_CHECK(MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_INT64_T, recv.data(),
                                 rc.data(), rd.data(), MPI_INT64_T, MPI_COMM_WORLD));
}

void Comm::send(const void* data, std::int64_t count, Datatype t, int dest, int tag) const
{
    const auto* p = static_cast<const char*>(data);
    for (std::int64_t done = 0; done < count; done += max_chunk) {
        const auto n = std::min(max_chunk, count - done);
        SPMV_MPI_CHECK(MPI_Send(p + done * static_cast<std::int64_t>(size_of(t)),
                                static_cast<int>(n), native(t), dest, tag, MPI_COMM_WORLD));
    }
}

void Comm::recv(void* data, std::int64_t count, Datatype t, int source, int tag) const
{
    auto* p = static_cast<char*>(data);
    for (std::int64_t done = 0; done < count; done += max_chunk) {
        const auto n = std::min(max_chunk, count - done);
        SPMV_MPI_CHECK(MPI_Recv(p + done * static_cast<std::int64_t>(size_of(t)),
                                static_cast<int>(n), native(t), source, tag, MPI_COMM_WORLD,
                                MPI_STATUS_IGNORE));
    }
}

void Comm::isend(const void* data, std::int64_t count, Datatype t, int dest, int tag,
                 Requests& reqs) const
{
    MPI_Request r = MPI_REQUEST_NULL;
    SPMV_MPI_CHECK(MPI_Isend(data, as_count(count, "halo message"), native(t), dest, tag,
                             MPI_COMM_WORLD, &r));
    reqs.impl().handles.push_back(r);
}

void Comm::irecv(void* data, std::int64_t count, Datatype t, int source, int tag,
                 Requests& reqs) const
{
    MPI_Request r = MPI_REQUEST_NULL;
    SPMV_MPI_CHECK(MPI_Irecv(data, as_count(count, "halo message"), native(t), source, tag,
                             MPI_COMM_WORLD, &r));
    reqs.impl().handles.push_back(r);
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
    std::vector<int> c;
    std::vector<int> d;
    if (rank_ == root) {
        c = as_counts(counts, "gatherv");
        d = displacements(c, "gatherv");
    }
    SPMV_MPI_CHECK(MPI_Gatherv(mine, as_count(count, "gatherv"), native(t), all, c.data(),
                               d.data(), native(t), root, MPI_COMM_WORLD));
}

void Comm::scatterv(const void* all, std::span<const std::int64_t> counts, void* mine,
                    std::int64_t count, Datatype t, int root) const
{
    std::vector<int> c;
    std::vector<int> d;
    if (rank_ == root) {
        c = as_counts(counts, "scatterv");
        d = displacements(c, "scatterv");
    }
    SPMV_MPI_CHECK(MPI_Scatterv(all, c.data(), d.data(), native(t), mine,
                                as_count(count, "scatterv"), native(t), root, MPI_COMM_WORLD));
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
