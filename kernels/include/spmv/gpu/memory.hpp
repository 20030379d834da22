#pragma once
/// RAII device memory, streams, events and timers (STYLE.md 5.5). Plain C++: CUDA handles are
/// held as opaque pointers and every CUDA call lives in kernels/src/memory.cu (or throws
/// spmv::NotCompiled from kernels/src/stubs.cpp in a build without CUDA).
///
/// Ownership rules, as in the cutlass shape minus its flaws: buffers are move-only (copies are
/// explicit: clone()), no destructor throws or exits (a failing cudaFree in a destructor is
/// ignored, because the context is already broken and the error resurfaces at the next call).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/gpu/error.hpp>

namespace spmv::gpu {

/// Non-owning reference to a CUDA stream; the default (nullptr) is the legacy default stream.
struct StreamRef {
    void* handle = nullptr;
};

namespace detail {

enum class CopyKind { host_to_device, device_to_host, device_to_device };

/// cudaMalloc with a readable out-of-memory error (OutOfDeviceMemory naming `what`).
void* device_malloc(std::size_t bytes, std::string_view what = "buffer");
void device_free(void* p) noexcept;
void* pinned_malloc(std::size_t bytes);  ///< page-locked host memory (cudaMallocHost)
void pinned_free(void* p) noexcept;
/// Page-locks existing host memory (cudaHostRegister); false when the system refuses (the
/// memory then stays pageable and copies still work, staged by the driver).
bool host_register(const void* p, std::size_t bytes) noexcept;
void host_unregister(const void* p) noexcept;
/// Synchronous copy (legacy default stream semantics).
void copy_bytes(void* dst, const void* src, std::size_t bytes, CopyKind kind);
/// Asynchronous copy on `stream` (pinned host memory for real overlap).
void copy_bytes_async(void* dst, const void* src, std::size_t bytes, CopyKind kind,
                      StreamRef stream);
void memset_bytes(void* dst, int value, std::size_t bytes, StreamRef stream = {});
/// Reads `bytes` (a multiple of 16) of device memory with 16-byte loads and discards the result:
/// evicts other data from L2 while leaving only clean lines behind (unlike a memset, whose dirty
/// lines would be written back during the next, timed kernel).
void read_bytes(const void* src, std::size_t bytes, StreamRef stream = {});
/// The launch gate of the timing harness (nvbench's "blocking kernel"): one thread that waits
/// on `stream` until the host has written a value >= `token` into *flag (pinned host memory,
/// read through unified addressing), so that the work queued behind it starts only once the host
/// has queued all of it. After `timeout_ms` it stops waiting and writes 1 into *timed_out
/// (pinned host memory too), which the caller must check.
void launch_gate(const int* flag, int token, int* timed_out, double timeout_ms,
                 StreamRef stream = {});
/// The work that `record` queues on `stream`, captured once into a CUDA graph (stream capture
/// in thread-local mode: nothing runs while recording) and instantiated: the timing harness
/// counts a body's launches with it, and launches a body of thousands of kernels in one call
/// (its nodes still take their places in the device's launch queue).
/// Work that cannot be captured (a synchronous call, another stream, the legacy default stream)
/// leaves the object empty with error() saying why; the stream and the context stay usable.
/// Move-only.
class CapturedWork {
public:
    CapturedWork() = default;
    CapturedWork(CapturedWork&& o) noexcept;
    CapturedWork& operator=(CapturedWork&& o) noexcept;
    CapturedWork(const CapturedWork&) = delete;
    CapturedWork& operator=(const CapturedWork&) = delete;
    ~CapturedWork();

    static CapturedWork capture(StreamRef stream, const std::function<void()>& record);
    explicit operator bool() const noexcept { return exec_ != nullptr; }
    /// Nodes of the captured graph: the kernel launches, copies and memsets of one `record`.
    std::size_t nodes() const noexcept { return nodes_; }
    const std::string& error() const noexcept { return error_; }
    /// Queues the whole graph on `stream` (one cudaGraphLaunch).
    void launch(StreamRef stream) const;

private:
    void release() noexcept;
    [[maybe_unused]] void* graph_ = nullptr;  // cudaGraph_t (unused by the no-CUDA stubs)
    void* exec_ = nullptr;   // cudaGraphExec_t
    std::size_t nodes_ = 0;
    std::string error_;
};
/// Sets `count` elements of `elem_size` bytes (1, 2, 4 or 8) to the bit pattern at `value`.
void fill_elements(void* dst, const void* value, std::size_t elem_size, std::size_t count,
                   StreamRef stream = {});

struct CudaFree {
    void operator()(void* p) const noexcept { device_free(p); }
};
struct PinnedFree {
    void operator()(void* p) const noexcept { pinned_free(p); }
};

inline std::size_t checked_bytes(std::size_t n, std::size_t elem)
{
    if (elem != 0 && n > std::numeric_limits<std::size_t>::max() / elem) {
        SPMV_THROW(InvalidArgument, "a buffer of " + std::to_string(n) + " elements of " +
                                        std::to_string(elem) + " bytes overflows size_t");
    }
    return n * elem;
}

}  // namespace detail

/// Page-locks a caller's host memory for the object's lifetime (cudaHostRegister, undone by the
/// destructor), so that copies between it and the device are direct DMA transfers instead of
/// going through the driver's pageable staging buffer (measured on the H100 of the benchmarks:
/// ~4-6 GB/s pageable). Registering costs time of its own (it pins every page), so it belongs
/// in a setup step, e.g. before a solve whose b and x cross PCIe. If the system refuses,
/// pinned() is false and nothing else changes. Move-only.
class HostPin {
public:
    HostPin() = default;
    HostPin(const void* p, std::size_t bytes)
        : ptr_(bytes > 0 && detail::host_register(p, bytes) ? p : nullptr)
    {}
    HostPin(HostPin&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)) {}
    HostPin& operator=(HostPin&& o) noexcept
    {
        if (this != &o) {
            release();
            ptr_ = std::exchange(o.ptr_, nullptr);
        }
        return *this;
    }
    HostPin(const HostPin&) = delete;
    HostPin& operator=(const HostPin&) = delete;
    ~HostPin() { release(); }

    bool pinned() const noexcept { return ptr_ != nullptr; }

private:
    void release() noexcept
    {
        if (ptr_ != nullptr) {
            detail::host_unregister(ptr_);
            ptr_ = nullptr;
        }
    }
    const void* ptr_ = nullptr;
};

/// Blocks the host until all device work has finished (cudaDeviceSynchronize); throws CudaError
/// for an error raised by an earlier asynchronous launch.
void synchronize();

struct MemoryInfo {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
};
/// cudaMemGetInfo.
MemoryInfo memory_info();

/// Throws OutOfDeviceMemory ("<what> needs 12.3 GiB on the device, 9.1 GiB free") when `bytes`
/// exceeds the free device memory. Called before a matrix is allocated, so a too-large format
/// fails with a sentence rather than inside the third of five cudaMalloc calls.
void ensure_device_memory(std::string_view what, std::size_t bytes);

/// Owning, move-only array in device memory.
template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    /// Uninitialised storage for n elements; `what` names the owner in an out-of-memory error.
    explicit DeviceBuffer(std::size_t n, std::string_view what = "buffer")
        : ptr_(n == 0 ? nullptr
                      : static_cast<T*>(
                            detail::device_malloc(detail::checked_bytes(n, sizeof(T)), what))),
          size_(n)
    {}

    static DeviceBuffer from_host(std::span<const T> host, std::string_view what = "buffer")
    {
        DeviceBuffer b(host.size(), what);
        b.upload(host);
        return b;
    }

    DeviceBuffer(DeviceBuffer&& o) noexcept
        : ptr_(std::move(o.ptr_)), size_(std::exchange(o.size_, 0))
    {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept
    {
        ptr_ = std::move(o.ptr_);
        size_ = std::exchange(o.size_, 0);
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() = default;  // CudaFree is noexcept

    T* data() noexcept { return ptr_.get(); }
    const T* data() const noexcept { return ptr_.get(); }
    std::size_t size() const noexcept { return size_; }
    std::size_t bytes() const noexcept { return size_ * sizeof(T); }
    bool empty() const noexcept { return size_ == 0; }

    /// Copies host.size() elements to the front of the buffer (host.size() <= size()).
    void upload(std::span<const T> host)
    {
        SPMV_EXPECTS(host.size() <= size_, "DeviceBuffer::upload: host span larger than buffer");
        if (!host.empty()) {
            detail::copy_bytes(data(), host.data(), host.size_bytes(),
                               detail::CopyKind::host_to_device);
        }
    }
    /// Copies the first host.size() elements into host (host.size() <= size()).
    void download(std::span<T> host) const
    {
        SPMV_EXPECTS(host.size() <= size_, "DeviceBuffer::download: host span larger than buffer");
        if (!host.empty()) {
            detail::copy_bytes(host.data(), data(), host.size_bytes(),
                               detail::CopyKind::device_to_host);
        }
    }
    std::vector<T> to_host() const
    {
        std::vector<T> h(size_);
        download(h);
        return h;
    }
    /// Sets every element to `value` (a device-side fill, no host transfer).
    void fill(const T& value, StreamRef stream = {})
    {
        static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
        if (size_ > 0) {
            detail::fill_elements(data(), &value, sizeof(T), size_, stream);
        }
    }
    /// Explicit deep copy (device to device).
    DeviceBuffer clone() const
    {
        DeviceBuffer c(size_);
        if (size_ > 0) {
            detail::copy_bytes(c.data(), data(), bytes(), detail::CopyKind::device_to_device);
        }
        return c;
    }

private:
    std::unique_ptr<T, detail::CudaFree> ptr_;
    std::size_t size_ = 0;
};

/// Owning, move-only page-locked host array (for transfers that run at full PCIe speed and can
/// be asynchronous: the "xGPU" timings of Barbieri Tables 2-5).
template <typename T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    explicit PinnedBuffer(std::size_t n)
        : ptr_(n == 0
                   ? nullptr
                   : static_cast<T*>(detail::pinned_malloc(detail::checked_bytes(n, sizeof(T))))),
          size_(n)
    {}
    PinnedBuffer(PinnedBuffer&& o) noexcept
        : ptr_(std::move(o.ptr_)), size_(std::exchange(o.size_, 0))
    {}
    PinnedBuffer& operator=(PinnedBuffer&& o) noexcept
    {
        ptr_ = std::move(o.ptr_);
        size_ = std::exchange(o.size_, 0);
        return *this;
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    T* data() noexcept { return ptr_.get(); }
    const T* data() const noexcept { return ptr_.get(); }
    std::size_t size() const noexcept { return size_; }
    std::span<T> span() noexcept { return {data(), size_}; }

private:
    std::unique_ptr<T, detail::PinnedFree> ptr_;
    std::size_t size_ = 0;
};

class Event;

/// Owning CUDA stream. Created as a blocking stream, so work on it stays ordered with the
/// synchronous copies of DeviceBuffer/DeviceVector (legacy default stream semantics).
class Stream {
public:
    enum class Priority { normal, high };
    /// `high`: the device's greatest stream priority (cudaStreamCreateWithPriority): the block
    /// scheduler starts its pending blocks before those of normal streams, so a small kernel
    /// (a halo gather) is not queued behind a large one that fills the GPU.
    explicit Stream(Priority priority = Priority::normal);
    ~Stream();  // never throws
    Stream(Stream&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
    Stream& operator=(Stream&& o) noexcept;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    StreamRef ref() const noexcept { return {handle_}; }
    operator StreamRef() const noexcept { return ref(); }  // NOLINT: implicit by design
    void synchronize() const;
    /// Work queued on this stream after the call waits for `e` (recorded on another stream)
    /// without blocking the host (cudaStreamWaitEvent).
    void wait(const Event& e) const;

private:
    void* handle_ = nullptr;
};

/// Owning CUDA event with timing enabled.
class Event {
public:
    Event();
    ~Event();  // never throws
    Event(Event&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
    Event& operator=(Event&& o) noexcept;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    void record(StreamRef stream = {});
    void synchronize() const;
    /// True when the work before the recorded event has completed (does not wait).
    bool query() const;
    /// Milliseconds between two recorded events (both must have completed: synchronize first).
    static float elapsed_ms(const Event& start, const Event& stop);
    void* native_handle() const noexcept { return handle_; }

private:
    void* handle_ = nullptr;
};

/// start() / stop() / elapsed_ms() with CUDA events: the cutlass GpuTimer shape, but its
/// destructor cannot throw (the events' destructors ignore errors).
class GpuTimer {
public:
    void start(StreamRef stream = {}) { start_.record(stream); }
    void stop(StreamRef stream = {}) { stop_.record(stream); }
    /// Waits for the stop event, then returns the time between start and stop.
    float elapsed_ms() const
    {
        stop_.synchronize();
        return Event::elapsed_ms(start_, stop_);
    }

private:
    Event start_;
    Event stop_;
};

}  // namespace spmv::gpu
