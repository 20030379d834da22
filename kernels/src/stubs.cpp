// Host-only build of spmv::kernels: the device runtime (device.hpp, memory.hpp, ipc.hpp: devices,
// memory, streams, events) reports that CUDA was not compiled in (spmv::NotCompiled). The kernels'
// templated entry points (upload, spmv, ... of every format) need no line here: their headers
// declare them with SPMV_GPU_DECLARE_TEMPLATE (spmv/gpu/declare.hpp), which without CUDA is the
// throwing stub itself. The plain C++ parts (DeviceVector, DeviceMatrix, the variant registry,
// verify, bench) are built as usual and fail at their first device call.
#include <string>
#include <utility>

#include <spmv/error.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/ipc.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

using detail::not_compiled;

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

}  // namespace spmv::gpu
