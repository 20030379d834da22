// Device memory, streams, events: the CUDA side of spmv/gpu/memory.hpp.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#include <string>
#include <utility>

#include <spmv/gpu/memory.hpp>

#include "cuda_check.cuh"
#include "launch.cuh"

namespace spmv::gpu {
namespace detail {
namespace {

constexpr int fill_block_size = 256;

cudaMemcpyKind to_cuda(CopyKind k)
{
    switch (k) {
        case CopyKind::host_to_device:
            return cudaMemcpyHostToDevice;
        case CopyKind::device_to_host:
            return cudaMemcpyDeviceToHost;
        case CopyKind::device_to_device:
            return cudaMemcpyDeviceToDevice;
    }
    return cudaMemcpyDefault;
}

// One thread per element (grid-stride so that any count fits in the grid limits).
template <typename Word>
__global__ void __launch_bounds__(fill_block_size)
    fill_kernel(Word* __restrict__ dst, Word value, std::size_t count)
{
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
         i += stride) {
        dst[i] = value;
    }
}

template <typename Word>
void launch_fill(void* dst, const void* value, std::size_t count, StreamRef stream)
{
    Word w;
    std::memcpy(&w, value, sizeof(Word));
    const auto blocks = static_cast<unsigned>(std::min<std::size_t>(
        ceil_div<std::size_t>(count, fill_block_size), 32u * multiprocessor_count()));
    fill_kernel<Word>
        <<<blocks, fill_block_size, 0, native(stream)>>>(static_cast<Word*>(dst), w, count);
    SPMV_CUDA_CHECK(cudaGetLastError());
}

/// One attribute of the current device (cudaDeviceGetAttribute).
int current_device_attribute(cudaDeviceAttr attribute)
{
    int dev = 0;
    int n = 0;
    SPMV_CUDA_CHECK(cudaGetDevice(&dev));
    SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&n, attribute, dev));
    return n;
}

}  // namespace

int multiprocessor_count()
{
    static const int count = current_device_attribute(cudaDevAttrMultiProcessorCount);
    return count;
}

int threads_per_multiprocessor()
{
    static const int count = current_device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
    return count;
}

void* device_malloc(std::size_t bytes, std::string_view what)
{
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();  // not sticky: clear it so that later calls do not report it
        std::size_t free_b = 0;
        std::size_t total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        throw OutOfDeviceMemory(__FILE__, __LINE__, std::string(what), bytes, free_b);
    }
    SPMV_CUDA_CHECK(e);
    return p;
}

void device_free(void* p) noexcept
{
    if (p != nullptr) {
        cudaFree(p);  // errors ignored: destructors never throw (STYLE.md 5.4)
    }
}

void* pinned_malloc(std::size_t bytes)
{
    void* p = nullptr;
    SPMV_CUDA_CHECK(cudaMallocHost(&p, bytes));
    return p;
}

void pinned_free(void* p) noexcept
{
    if (p != nullptr) {
        cudaFreeHost(p);
    }
}

bool host_register(const void* p, std::size_t bytes) noexcept
{
    // Registration changes no byte of the memory: the const_cast only meets the C API.
    if (cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterDefault) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky-free error so the next check does not see it
        return false;
    }
    return true;
}

void host_unregister(const void* p) noexcept
{
    if (cudaHostUnregister(const_cast<void*>(p)) != cudaSuccess) {
        cudaGetLastError();
    }
}

void copy_bytes(void* dst, const void* src, std::size_t bytes, CopyKind kind)
{
    SPMV_CUDA_CHECK(cudaMemcpy(dst, src, bytes, to_cuda(kind)));
}

void copy_bytes_async(void* dst, const void* src, std::size_t bytes, CopyKind kind,
                      StreamRef stream)
{
    SPMV_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, to_cuda(kind), native(stream)));
}

void memset_bytes(void* dst, int value, std::size_t bytes, StreamRef stream)
{
    SPMV_CUDA_CHECK(cudaMemsetAsync(dst, value, bytes, native(stream)));
}

namespace {

// One pass over the buffer; the sum is stored only if it hits an impossible value, so the
// compiler keeps the loads and nothing is written in practice.
__global__ void read_bytes_kernel(const uint4* __restrict__ src, std::size_t n, unsigned* sink)
{
    unsigned acc = 0;
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
         i += std::size_t{gridDim.x} * blockDim.x) {
        const uint4 v = __ldcs(src + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u && sink != nullptr) {
        *sink = acc;
    }
}

// One thread polls the host's flag (a volatile load from pinned memory each time) with a short
// sleep between polls; %globaltimer bounds the wait.
__global__ void launch_gate_kernel(const volatile int* flag, int token, volatile int* timed_out,
                                   unsigned long long timeout_ns)
{
    unsigned long long start = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    while (*flag < token) {
        unsigned long long now = 0;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (now - start > timeout_ns) {
            *timed_out = 1;
            return;
        }
        __nanosleep(500);
    }
}

}  // namespace

void launch_gate(const int* flag, int token, int* timed_out, double timeout_ms, StreamRef stream)
{
    launch_gate_kernel<<<1, 1, 0, native(stream)>>>(
        flag, token, timed_out, static_cast<unsigned long long>(timeout_ms * 1e6));
    SPMV_CUDA_CHECK(cudaGetLastError());
}

CapturedWork::CapturedWork(CapturedWork&& o) noexcept
    : graph_(std::exchange(o.graph_, nullptr)),
      exec_(std::exchange(o.exec_, nullptr)),
      nodes_(std::exchange(o.nodes_, 0)),
      error_(std::move(o.error_))
{}

CapturedWork& CapturedWork::operator=(CapturedWork&& o) noexcept
{
    if (this != &o) {
        release();
        graph_ = std::exchange(o.graph_, nullptr);
        exec_ = std::exchange(o.exec_, nullptr);
        nodes_ = std::exchange(o.nodes_, 0);
        error_ = std::move(o.error_);
    }
    return *this;
}

CapturedWork::~CapturedWork()
{
    release();
}

void CapturedWork::release() noexcept
{
    if (exec_ != nullptr) {
        cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(exec_));
        exec_ = nullptr;
    }
    if (graph_ != nullptr) {
        cudaGraphDestroy(static_cast<cudaGraph_t>(graph_));
        graph_ = nullptr;
    }
    nodes_ = 0;
}

CapturedWork CapturedWork::capture(StreamRef stream, const std::function<void()>& record)
{
    CapturedWork w;
    const cudaStream_t s = native(stream);
    if (s == nullptr) {
        w.error_ = "the legacy default stream cannot be captured";
        return w;
    }
    SPMV_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    std::string failure;
    try {
        record();
    } catch (const std::exception& e) {
        failure = e.what();
    }
    cudaGraph_t graph = nullptr;
    const cudaError_t end = cudaStreamEndCapture(s, &graph);
    (void)cudaGetLastError();  // a refused call inside the capture is not sticky: clear it
    if (failure.empty() && end != cudaSuccess) {
        failure = std::string("cudaStreamEndCapture: ") + cudaGetErrorString(end);
    }
    if (!failure.empty()) {
        if (graph != nullptr) {
            cudaGraphDestroy(graph);
        }
        w.error_ = "not capturable: " + failure;
        return w;
    }
    w.graph_ = graph;
    std::size_t n = 0;
    SPMV_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &n));
    w.nodes_ = n;
    cudaGraphExec_t exec = nullptr;
    const cudaError_t inst = cudaGraphInstantiate(&exec, graph, 0);
    if (inst != cudaSuccess) {
        (void)cudaGetLastError();
        w.release();
        w.error_ = std::string("cudaGraphInstantiate: ") + cudaGetErrorString(inst);
        return w;
    }
    w.exec_ = exec;
    return w;
}

void CapturedWork::launch(StreamRef stream) const
{
    SPMV_EXPECTS(exec_ != nullptr, "CapturedWork::launch: nothing captured");
    SPMV_CUDA_CHECK(cudaGraphLaunch(static_cast<cudaGraphExec_t>(exec_), native(stream)));
}

void read_bytes(const void* src, std::size_t bytes, StreamRef stream)
{
    const std::size_t n = bytes / sizeof(uint4);
    if (n == 0) {
        return;
    }
    int sms = 0;
    int dev = 0;
    SPMV_CUDA_CHECK(cudaGetDevice(&dev));
    SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    read_bytes_kernel<<<4 * sms, 512, 0, native(stream)>>>(static_cast<const uint4*>(src), n,
                                                           nullptr);
    SPMV_CUDA_CHECK(cudaGetLastError());
}

void fill_elements(void* dst, const void* value, std::size_t elem_size, std::size_t count,
                   StreamRef stream)
{
    if (count == 0) {
        return;
    }
    switch (elem_size) {
        case 1:
            launch_fill<std::uint8_t>(dst, value, count, stream);
            break;
        case 2:
            launch_fill<std::uint16_t>(dst, value, count, stream);
            break;
        case 4:
            launch_fill<std::uint32_t>(dst, value, count, stream);
            break;
        case 8:
            launch_fill<std::uint64_t>(dst, value, count, stream);
            break;
        default:
            SPMV_THROW(InvalidArgument, "fill_elements: element size must be 1, 2, 4 or 8 bytes");
    }
}

}  // namespace detail

void synchronize()
{
    SPMV_CUDA_CHECK(cudaDeviceSynchronize());
}

MemoryInfo memory_info()
{
    MemoryInfo m;
    SPMV_CUDA_CHECK(cudaMemGetInfo(&m.free_bytes, &m.total_bytes));
    return m;
}

void ensure_device_memory(std::string_view what, std::size_t bytes)
{
    const auto info = memory_info();
    if (bytes > info.free_bytes) {
        throw OutOfDeviceMemory(__FILE__, __LINE__, std::string(what), bytes, info.free_bytes);
    }
}

Stream::Stream(Priority priority)
{
    cudaStream_t s = nullptr;
    if (priority == Priority::high) {
        int least = 0;
        int greatest = 0;
        SPMV_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
        SPMV_CUDA_CHECK(cudaStreamCreateWithPriority(&s, cudaStreamDefault, greatest));
    } else {
        SPMV_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamDefault));
    }
    handle_ = s;
}

Stream::~Stream()
{
    if (handle_ != nullptr) {
        cudaStreamDestroy(static_cast<cudaStream_t>(handle_));
    }
}

Stream& Stream::operator=(Stream&& o) noexcept
{
    if (this != &o) {
        if (handle_ != nullptr) {
            cudaStreamDestroy(static_cast<cudaStream_t>(handle_));
        }
        handle_ = std::exchange(o.handle_, nullptr);
    }
    return *this;
}

void Stream::synchronize() const
{
    SPMV_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(handle_)));
}

void Stream::wait(const Event& e) const
{
    SPMV_CUDA_CHECK(cudaStreamWaitEvent(static_cast<cudaStream_t>(handle_),
                                        static_cast<cudaEvent_t>(e.native_handle()), 0));
}

Event::Event()
{
    cudaEvent_t e = nullptr;
    SPMV_CUDA_CHECK(cudaEventCreate(&e));
    handle_ = e;
}

Event::~Event()
{
    if (handle_ != nullptr) {
        cudaEventDestroy(static_cast<cudaEvent_t>(handle_));
    }
}

Event& Event::operator=(Event&& o) noexcept
{
    if (this != &o) {
        if (handle_ != nullptr) {
            cudaEventDestroy(static_cast<cudaEvent_t>(handle_));
        }
        handle_ = std::exchange(o.handle_, nullptr);
    }
    return *this;
}

void Event::record(StreamRef stream)
{
    SPMV_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(handle_), detail::native(stream)));
}

void Event::synchronize() const
{
    SPMV_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(handle_)));
}

bool Event::query() const
{
    const cudaError_t e = cudaEventQuery(static_cast<cudaEvent_t>(handle_));
    if (e == cudaErrorNotReady) {
        return false;
    }
    SPMV_CUDA_CHECK(e);
    return true;
}

float Event::elapsed_ms(const Event& start, const Event& stop)
{
    float ms = 0.0f;
    SPMV_CUDA_CHECK(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start.handle_),
                                         static_cast<cudaEvent_t>(stop.handle_)));
    return ms;
}

}  // namespace spmv::gpu
