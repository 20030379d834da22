// Host-only build of spmv::kernels: every entry point defined in a .cu file reports that CUDA
// was not compiled in (spmv::NotCompiled). The plain C++ parts (DeviceVector, DeviceMatrix,
// the variant registry, verify, bench) are built as usual and fail at their first device call.
#include <string>
#include <utility>

#include <spmv/error.hpp>
#include <spmv/gpu/biell.hpp>
#include <spmv/gpu/bijad.hpp>
#include <spmv/gpu/coo.hpp>
#include <spmv/gpu/csr.hpp>
#include <spmv/gpu/csr_adaptive.hpp>
#include <spmv/gpu/csr_merge.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/ell.hpp>
#include <spmv/gpu/ellg.hpp>
#include <spmv/gpu/ellr.hpp>
#include <spmv/gpu/hyb.hpp>
#include <spmv/gpu/ipc.hpp>
#include <spmv/gpu/jds.hpp>
#include <spmv/gpu/jds_csr.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/pellr.hpp>
#include <spmv/gpu/permutation.hpp>
#include <spmv/gpu/pjds.hpp>
#include <spmv/gpu/pjds_ladder.hpp>
#include <spmv/gpu/sell.hpp>
#include <spmv/gpu/sell_i16.hpp>

namespace spmv::gpu {
namespace {

[[noreturn]] void not_compiled(const char* what)
{
    SPMV_THROW(NotCompiled, std::string(what) +
                                ": SpMV Lab was built without CUDA (SPMV_ENABLE_CUDA=OFF or no "
                                "nvcc)");
}

}  // namespace

// ---- device.hpp
bool is_compiled() noexcept
{
    return false;
}

int device_count() noexcept
{
    return 0;
}

void set_device(int)
{
    not_compiled("set_device");
}
int current_device()
{
    not_compiled("current_device");
}

DeviceInfo device_info()
{
    not_compiled("device_info");
}

// ---- memory.hpp
namespace detail {

void* device_malloc(std::size_t, std::string_view)
{
    not_compiled("device memory");
}
void device_free(void*) noexcept {}
void* pinned_malloc(std::size_t)
{
    not_compiled("pinned host memory");
}
void pinned_free(void*) noexcept {}
bool host_register(const void*, std::size_t) noexcept
{
    return false;
}
void host_unregister(const void*) noexcept {}
void copy_bytes(void*, const void*, std::size_t, CopyKind)
{
    not_compiled("copy");
}
void copy_bytes_async(void*, const void*, std::size_t, CopyKind, StreamRef)
{
    not_compiled("copy");
}
void memset_bytes(void*, int, std::size_t, StreamRef)
{
    not_compiled("memset");
}

void read_bytes(const void*, std::size_t, StreamRef)
{
    not_compiled("memset");
}
void launch_gate(const int*, int, int*, double, StreamRef)
{
    not_compiled("launch gate");
}
CapturedWork::CapturedWork(CapturedWork&&) noexcept = default;
CapturedWork& CapturedWork::operator=(CapturedWork&&) noexcept = default;
CapturedWork::~CapturedWork() = default;
void CapturedWork::release() noexcept {}
CapturedWork CapturedWork::capture(StreamRef, const std::function<void()>&)
{
    not_compiled("graph capture");
}
void CapturedWork::launch(StreamRef) const
{
    not_compiled("graph launch");
}
void fill_elements(void*, const void*, std::size_t, std::size_t, StreamRef)
{
    not_compiled("fill");
}

}  // namespace detail

void synchronize()
{
    not_compiled("synchronize");
}
MemoryInfo memory_info()
{
    not_compiled("memory_info");
}
void ensure_device_memory(std::string_view, std::size_t)
{
    not_compiled("ensure_device_memory");
}

IpcHandle ipc_export(const void*)
{
    not_compiled("ipc_export");
}
IpcMapping::IpcMapping(const IpcHandle&)
{
    not_compiled("IpcMapping");
}
IpcMapping::~IpcMapping() = default;
IpcMapping::IpcMapping(IpcMapping&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)) {}
IpcMapping& IpcMapping::operator=(IpcMapping&& o) noexcept
{
    ptr_ = std::exchange(o.ptr_, nullptr);
    return *this;
}
bool can_access_peer(int)
{
    not_compiled("can_access_peer");
}

Stream::Stream(Priority)
{
    not_compiled("Stream");
}
Stream::~Stream() = default;
Stream& Stream::operator=(Stream&& o) noexcept
{
    handle_ = std::exchange(o.handle_, nullptr);
    return *this;
}
void Stream::synchronize() const
{
    not_compiled("Stream::synchronize");
}
void Stream::wait(const Event&) const
{
    not_compiled("Stream::wait");
}

Event::Event()
{
    not_compiled("Event");
}
Event::~Event() = default;
Event& Event::operator=(Event&& o) noexcept
{
    handle_ = std::exchange(o.handle_, nullptr);
    return *this;
}
void Event::record(StreamRef)
{
    not_compiled("Event::record");
}
void Event::synchronize() const
{
    not_compiled("Event::synchronize");
}
bool Event::query() const
{
    not_compiled("Event::query");
}
float Event::elapsed_ms(const Event&, const Event&)
{
    not_compiled("Event::elapsed_ms");
}

// ---- permutation.hpp
template <typename V>
void unpermute_rows(const std::int32_t*, const V*, V*, std::int32_t, StreamRef)
{
    not_compiled("unpermute_rows");
}
template <typename V>
void permute_rows(const std::int32_t*, const V*, V*, std::int32_t, StreamRef)
{
    not_compiled("permute_rows");
}
template void unpermute_rows<float>(const std::int32_t*, const float*, float*, std::int32_t,
                                    StreamRef);
template void unpermute_rows<double>(const std::int32_t*, const double*, double*, std::int32_t,
                                     StreamRef);
template void permute_rows<float>(const std::int32_t*, const float*, float*, std::int32_t,
                                  StreamRef);
template void permute_rows<double>(const std::int32_t*, const double*, double*, std::int32_t,
                                   StreamRef);

// ---- one line per device format: upload(const Host&) and spmv(const Device&, ...)
#define SPMV_STUB_FORMAT(Host, Device, name, ...)                                             \
    template <typename V>                                                                     \
    Device<V> upload(const Host<V, std::int32_t>&)                                            \
    {                                                                                         \
        not_compiled(name);                                                                   \
    }                                                                                         \
    template <typename V>                                                                     \
    void spmv(const Device<V>&, V, const V*, V, V*, __VA_ARGS__ __VA_OPT__(, ) StreamRef)     \
    {                                                                                         \
        not_compiled(name);                                                                   \
    }                                                                                         \
    template Device<float> upload<float>(const Host<float, std::int32_t>&);                   \
    template Device<double> upload<double>(const Host<double, std::int32_t>&);                \
    template void spmv<float>(const Device<float>&, float, const float*, float, float*,       \
                              __VA_ARGS__ __VA_OPT__(, ) StreamRef);                          \
    template void spmv<double>(const Device<double>&, double, const double*, double, double*, \
                               __VA_ARGS__ __VA_OPT__(, ) StreamRef);

SPMV_STUB_FORMAT(Csr, DeviceCsr, "csr", const CsrLaunch&)
SPMV_STUB_FORMAT(Ell, DeviceEll, "ell")
SPMV_STUB_FORMAT(EllR, DeviceEllR, "ellr")
SPMV_STUB_FORMAT(EllG, DeviceEllG, "ellg")
SPMV_STUB_FORMAT(Coo, DeviceCoo, "coo")
SPMV_STUB_FORMAT(Hyb, DeviceHyb, "hyb")
SPMV_STUB_FORMAT(Jds, DeviceJds, "jds", RowOrder)
SPMV_STUB_FORMAT(JdsCsr, DeviceJdsCsr, "jds_csr", RowOrder)
SPMV_STUB_FORMAT(Pjds, DevicePjds, "pjds", RowOrder)
SPMV_STUB_FORMAT(Pellr, DevicePellr, "pellr", RowOrder)
SPMV_STUB_FORMAT(BiEll, DeviceBiEll, "biell", RowOrder)
SPMV_STUB_FORMAT(BiJad, DeviceBiJad, "bijad", RowOrder)
SPMV_STUB_FORMAT(SellCSigma, DeviceSell, "sell", RowOrder)
// csr_merge runs the CSR host format with its own upload (the partition and carry scratch).
template <typename V>
DeviceCsrMerge<V> upload_csr_merge(const Csr<V, std::int32_t>&, const CsrMergeConfig&)
{
    not_compiled("csr_merge");
}
template <typename V>
void spmv(const DeviceCsrMerge<V>&, V, const V*, V, V*, StreamRef)
{
    not_compiled("csr_merge");
}
template DeviceCsrMerge<float> upload_csr_merge<float>(const Csr<float, std::int32_t>&,
                                                       const CsrMergeConfig&);
template DeviceCsrMerge<double> upload_csr_merge<double>(const Csr<double, std::int32_t>&,
                                                         const CsrMergeConfig&);
template void spmv<float>(const DeviceCsrMerge<float>&, float, const float*, float, float*,
                          StreamRef);
template void spmv<double>(const DeviceCsrMerge<double>&, double, const double*, double, double*,
                           StreamRef);
// csr_adaptive runs the CSR host format with its own upload (the row groups, piece scratch).
template <typename V>
DeviceCsrAdaptive<V> upload_csr_adaptive(const Csr<V, std::int32_t>&, const CsrAdaptiveConfig&)
{
    not_compiled("csr_adaptive");
}
template <typename V>
void spmv(const DeviceCsrAdaptive<V>&, V, const V*, V, V*, StreamRef, bool)
{
    not_compiled("csr_adaptive");
}
template DeviceCsrAdaptive<float> upload_csr_adaptive<float>(const Csr<float, std::int32_t>&,
                                                             const CsrAdaptiveConfig&);
template DeviceCsrAdaptive<double> upload_csr_adaptive<double>(const Csr<double, std::int32_t>&,
                                                               const CsrAdaptiveConfig&);
template void spmv<float>(const DeviceCsrAdaptive<float>&, float, const float*, float, float*,
                          StreamRef, bool);
template void spmv<double>(const DeviceCsrAdaptive<double>&, double, const double*, double,
                           double*, StreamRef, bool);
// sell_i16 runs the SELL host format with its own upload (16-bit column offsets).
template <typename V>
DeviceSellI16<V> upload_sell_i16(const SellCSigma<V, std::int32_t>&)
{
    not_compiled("sell_i16");
}
template <typename V>
void spmv(const DeviceSellI16<V>&, V, const V*, V, V*, RowOrder, StreamRef)
{
    not_compiled("sell_i16");
}
template DeviceSellI16<float> upload_sell_i16<float>(const SellCSigma<float, std::int32_t>&);
template DeviceSellI16<double> upload_sell_i16<double>(const SellCSigma<double, std::int32_t>&);
template void spmv<float>(const DeviceSellI16<float>&, float, const float*, float, float*, RowOrder,
                          StreamRef);
template void spmv<double>(const DeviceSellI16<double>&, double, const double*, double, double*,
                           RowOrder, StreamRef);
template <typename V>
DeviceMatrix<V> assemble_pjds_step(const Pjds<V, std::int32_t>&, int)
{
    not_compiled("pjds ladder");
}
template DeviceMatrix<float> assemble_pjds_step<float>(const Pjds<float, std::int32_t>&, int);
template DeviceMatrix<double> assemble_pjds_step<double>(const Pjds<double, std::int32_t>&, int);
// [gpu format stubs: keep this marker; add SPMV_STUB_FORMAT lines above it]

template <typename V>
DeviceCoo<V> upload_coo(std::int32_t, std::int32_t, std::span<const std::int32_t>,
                        std::span<const std::int32_t>, std::span<const V>, bool, std::string_view)
{
    not_compiled("coo");
}
template DeviceCoo<float> upload_coo<float>(std::int32_t, std::int32_t,
                                            std::span<const std::int32_t>,
                                            std::span<const std::int32_t>, std::span<const float>,
                                            bool, std::string_view);
template DeviceCoo<double> upload_coo<double>(std::int32_t, std::int32_t,
                                              std::span<const std::int32_t>,
                                              std::span<const std::int32_t>,
                                              std::span<const double>, bool, std::string_view);

}  // namespace spmv::gpu
