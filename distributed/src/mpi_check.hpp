#pragma once
/// SPMV_MPI_CHECK(call): an MPI error code becomes spmv::Error with the call, the MPI error
/// string and where (MPI_ERRORS_RETURN is set on MPI_COMM_WORLD by Environment).
#include <mpi.h>

#include <string>

#include <spmv/error.hpp>

namespace spmv::dist::detail {

inline std::string mpi_error_string(int code)
{
    char buf[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, buf, &len) != MPI_SUCCESS) {
        return "MPI error " + std::to_string(code);
    }
    return std::string(buf, static_cast<std::size_t>(len));
}

}  // namespace spmv::dist::detail

#define SPMV_MPI_CHECK(call)                                                               \
    do {                                                                                   \
        const int spmv_mpi_rc_ = (call);                                                   \
        if (spmv_mpi_rc_ != MPI_SUCCESS) {                                                 \
            SPMV_THROW(::spmv::Error, std::string(#call) + " failed: " +                   \
                                          ::spmv::dist::detail::mpi_error_string(spmv_mpi_rc_)); \
        }                                                                                  \
    } while (false)
