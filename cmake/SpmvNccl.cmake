# NCCL for the GPU ranks of spmv::dist (halo exchange through ncclSend / ncclRecv, CG's reductions
# through ncclAllReduce on device scalars: docs/distributed.md, "NCCL"). Optional like MPI: only
# looked for when CUDA and MPI are both in (the communicator's unique id travels over MPI), found
# beside the CUDA toolkit (nccl.h / libnccl, e.g. /usr/local/cuda/{include,lib64}) or in the
# system's directories (Debian's libnccl-dev). Included from distributed/CMakeLists.txt, after
# the kernels found the toolkit.
#
#   SPMV_ENABLE_NCCL  AUTO (default): use NCCL where it is found; ON: fail without it; OFF: never
#
# Sets SPMV_HAVE_NCCL (also in the parent scope, for the configure summary) and, when ON, the
# imported target SpMVLab::nccl. Only distributed/src/nccl_comm.cpp includes <nccl.h>; without
# NCCL distributed/src/nccl_none.cpp says "this build has no NCCL", and every .cu compiles the
# same either way (no NCCL types in any header a .cu includes).
set(SPMV_ENABLE_NCCL AUTO CACHE STRING "Use NCCL for the GPU ranks of spmv::dist: AUTO, ON or OFF")
set_property(CACHE SPMV_ENABLE_NCCL PROPERTY STRINGS AUTO ON OFF)

set(SPMV_HAVE_NCCL OFF)
set(spmv_nccl_why "")
if(SPMV_ENABLE_NCCL STREQUAL "OFF")
  set(spmv_nccl_why "SPMV_ENABLE_NCCL=OFF")
elseif(NOT SPMV_HAVE_CUDA)
  set(spmv_nccl_why "no CUDA")
elseif(NOT MPI_CXX_FOUND)
  set(spmv_nccl_why "no MPI (the communicator's id travels over MPI)")
else()
  find_package(CUDAToolkit QUIET)
  find_path(SPMV_NCCL_INCLUDE_DIR nccl.h
            HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/local/cuda/include /usr/include)
  find_library(SPMV_NCCL_LIBRARY nccl
               HINTS ${CUDAToolkit_LIBRARY_DIR} /usr/local/cuda/lib64 /usr/lib/x86_64-linux-gnu)
  if(SPMV_NCCL_INCLUDE_DIR AND SPMV_NCCL_LIBRARY AND CUDAToolkit_FOUND)
    file(STRINGS ${SPMV_NCCL_INCLUDE_DIR}/nccl.h spmv_nccl_version_lines
         REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) ")
    set(SPMV_NCCL_VERSION "")
    foreach(part IN ITEMS MAJOR MINOR PATCH)
      string(REGEX MATCH "NCCL_${part} ([0-9]+)" m "${spmv_nccl_version_lines}")
      list(APPEND SPMV_NCCL_VERSION ${CMAKE_MATCH_1})
    endforeach()
    list(JOIN SPMV_NCCL_VERSION "." SPMV_NCCL_VERSION)
    if(SPMV_NCCL_VERSION VERSION_LESS 2.7)
      # ncclSend / ncclRecv came with 2.7
      set(spmv_nccl_why "NCCL ${SPMV_NCCL_VERSION} at ${SPMV_NCCL_LIBRARY} is older than 2.7")
    else()
      set(SPMV_HAVE_NCCL ON)
      if(NOT TARGET SpMVLab::nccl)
        add_library(SpMVLab::nccl UNKNOWN IMPORTED GLOBAL)
        set_target_properties(SpMVLab::nccl PROPERTIES IMPORTED_LOCATION ${SPMV_NCCL_LIBRARY})
      endif()
    endif()
  else()
    string(CONCAT spmv_nccl_why "nccl.h / libnccl not found beside the CUDA toolkit "
                  "(set SPMV_NCCL_INCLUDE_DIR and SPMV_NCCL_LIBRARY)")
  endif()
endif()
if(SPMV_ENABLE_NCCL STREQUAL "ON" AND NOT SPMV_HAVE_NCCL)
  message(FATAL_ERROR "SpMV Lab: SPMV_ENABLE_NCCL=ON but NCCL cannot be used: ${spmv_nccl_why}")
endif()
if(SPMV_HAVE_NCCL)
  message(STATUS "SpMV Lab: NCCL ${SPMV_NCCL_VERSION} (${SPMV_NCCL_LIBRARY}) -> --exchange nccl")
else()
  message(STATUS "SpMV Lab: NCCL not used (${spmv_nccl_why}) -> --exchange nccl is an error")
endif()
