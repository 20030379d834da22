#pragma once
// Error checks for CUDA and cuSPARSE calls (STYLE.md 5.4), shaped like Ginkgo's
// GKO_ASSERT_NO_CUDA_ERRORS. Every kernel launch is followed by
// SPMV_CUDA_CHECK(cudaGetLastError()).
#include <cuda_runtime.h>
#include <cusparse.h>

#include <spmv/gpu/error.hpp>

#define SPMV_CUDA_CHECK(expr)                                                                \
    do {                                                                                     \
        const cudaError_t spmv_cuda_status_ = (expr);                                        \
        if (spmv_cuda_status_ != cudaSuccess) {                                              \
            throw ::spmv::gpu::CudaError(                                                    \
                __FILE__, __LINE__, #expr, static_cast<int>(spmv_cuda_status_),              \
                cudaGetErrorName(spmv_cuda_status_), cudaGetErrorString(spmv_cuda_status_)); \
        }                                                                                    \
    } while (false)

#define SPMV_CUSPARSE_CHECK(expr)                                                            \
    do {                                                                                     \
        const cusparseStatus_t spmv_cusparse_status_ = (expr);                               \
        if (spmv_cusparse_status_ != CUSPARSE_STATUS_SUCCESS) {                              \
            throw ::spmv::gpu::CusparseError(__FILE__, __LINE__, #expr,                      \
                                             static_cast<int>(spmv_cusparse_status_),        \
                                             cusparseGetErrorName(spmv_cusparse_status_),    \
                                             cusparseGetErrorString(spmv_cusparse_status_)); \
        }                                                                                    \
    } while (false)
