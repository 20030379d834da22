#pragma once
// ScopedStreamLoads: sets the process-wide load-kind setting (spmv/gpu/stream_loads.hpp) for one
// scope and puts the previous one back. For the test binaries that link spmv::kernels
// (test_kernels_host, test_gpu).
#include <spmv/gpu/stream_loads.hpp>

namespace spmv::test {

class ScopedStreamLoads {
public:
    explicit ScopedStreamLoads(gpu::StreamLoads mode) : before_(gpu::stream_loads())
    {
        gpu::set_stream_loads(mode);
    }
    ~ScopedStreamLoads() { gpu::set_stream_loads(before_); }
    ScopedStreamLoads(const ScopedStreamLoads&) = delete;
    ScopedStreamLoads& operator=(const ScopedStreamLoads&) = delete;

private:
    gpu::StreamLoads before_;
};

}  // namespace spmv::test
