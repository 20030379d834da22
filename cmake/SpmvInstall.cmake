# cmake --install: the libraries, their headers and an exported CMake package, so that a
# downstream project writes find_package(SpMVLab [COMPONENTS core kernels dist]) and links
# SpMVLab::core / SpMVLab::kernels / SpMVLab::dist (docs/install.md); plus the programs and
# the documentation. Included at the end of the top-level CMakeLists.txt.
#
# What keeps the package free of this machine's build tree:
# - include directories are BUILD_INTERFACE in the targets; the installed ones come from
#   INCLUDES DESTINATION below. The generated spmv/version.hpp is installed; build_info.hpp
#   (the git commit, rewritten on every build) is used by the programs only and is not.
# - build-only dependencies (spmv::warnings, nlohmann_json: header-only, used in .cpp files)
#   are linked as $<BUILD_INTERFACE:...> in lib/, kernels/ and distributed/.
# - the static libraries' link-only dependencies are found again by the config file
#   (cmake/SpMVLabConfig.cmake.in): Threads, METIS (the imported target SpMVLab::metis),
#   libarchive (LibArchive::LibArchive), CUDAToolkit (CUDA::cudart_static, CUDA::cusparse)
#   MPI (MPI::MPI_CXX) and NCCL (the imported target SpMVLab::nccl), each only when this build
#   used it. Boost.Graph is header-only and
#   private: nothing to find. A new imported dependency without an entry here is warned about.
# One export set per component, so that find_package(SpMVLab COMPONENTS core) needs neither
# CUDA nor MPI.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(spmv_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/SpMVLab)

set_target_properties(spmv_core PROPERTIES EXPORT_NAME core)
set_target_properties(spmv_kernels PROPERTIES EXPORT_NAME kernels)
set_target_properties(spmv_dist PROPERTIES EXPORT_NAME dist)
foreach(component IN ITEMS core kernels dist)
  string(SUBSTRING ${component} 0 1 first)
  string(TOUPPER ${first} first)
  string(SUBSTRING ${component} 1 -1 rest)
  install(TARGETS spmv_${component} EXPORT SpMVLab${first}${rest}Targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT SpMVLab${first}${rest}Targets NAMESPACE SpMVLab::
          DESTINATION ${spmv_cmake_dir})
endforeach()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/ ${PROJECT_SOURCE_DIR}/kernels/include/
                  ${PROJECT_SOURCE_DIR}/distributed/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/lib/generated/spmv/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/spmv)

# values the config file needs
set(SPMV_PKG_HAVE_METIS ${SPMV_HAVE_METIS})
set(SPMV_PKG_METIS_DIR "")
if(SPMV_HAVE_METIS)
  get_filename_component(SPMV_PKG_METIS_DIR ${SPMV_METIS_LIBRARY} DIRECTORY)
endif()
if(SPMV_HAVE_LIBARCHIVE)
  set(SPMV_PKG_HAVE_LIBARCHIVE ON)
else()
  set(SPMV_PKG_HAVE_LIBARCHIVE OFF)
endif()
# Every imported target the libraries link must be found again by the config file: warn when
# one appears that cmake/SpMVLabConfig.cmake.in does not know (the package test would fail).
set(spmv_pkg_known_deps Threads::Threads SpMVLab::metis LibArchive::LibArchive ZLIB::ZLIB
    CUDA::cudart_static CUDA::cusparse MPI::MPI_CXX SpMVLab::nccl)
foreach(lib IN ITEMS spmv_core spmv_kernels spmv_dist)
  get_target_property(deps ${lib} LINK_LIBRARIES)
  foreach(dep IN LISTS deps)
    # namespaced names other than our own aliases (spmv::core, ...); imported targets made in
    # a subdirectory are not visible here, so the name decides
    set(own OFF)
    if(TARGET "${dep}")
      get_target_property(own "${dep}" ALIASED_TARGET)
    endif()
    if(dep MATCHES "^[A-Za-z0-9_]+::" AND NOT own AND NOT dep IN_LIST spmv_pkg_known_deps)
        message(WARNING "SpMV Lab: ${lib} links ${dep}, which the installed package does not "
                        "find: add it to cmake/SpMVLabConfig.cmake.in (find_dependency) and to "
                        "spmv_pkg_known_deps in cmake/SpmvInstall.cmake, or link it as "
                        "$<BUILD_INTERFACE:${dep}> if it is header-only")
    endif()
  endforeach()
endforeach()
set(SPMV_PKG_HAVE_NCCL OFF)
set(SPMV_PKG_NCCL_DIR "")
if(SPMV_HAVE_NCCL)
  set(SPMV_PKG_HAVE_NCCL ON)
  get_filename_component(SPMV_PKG_NCCL_DIR ${SPMV_NCCL_LIBRARY} DIRECTORY)
endif()
if(TARGET MPI::MPI_CXX AND MPI_CXX_FOUND)
  set(SPMV_PKG_HAVE_MPI ON)
else()
  set(SPMV_PKG_HAVE_MPI OFF)
endif()
# the JSON Schemas of spmvlab's outputs (docs/output-schema.md), for validating records
set(SPMV_PKG_SCHEMA_DIR ${CMAKE_INSTALL_DATADIR}/spmvlab/schemas)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/SpMVLabConfig.cmake.in
  ${PROJECT_BINARY_DIR}/SpMVLabConfig.cmake
  INSTALL_DESTINATION ${spmv_cmake_dir}
  PATH_VARS SPMV_PKG_SCHEMA_DIR)
# 0.x: a new minor version may break the API, so only the same MAJOR.MINOR satisfies a request
# (find_package(SpMVLab 0.1) takes 0.1.z, not 0.2); from 1.0 on this becomes SameMajorVersion.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(spmv_compat SameMinorVersion)
else()
  set(spmv_compat SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/SpMVLabConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${spmv_compat})
install(FILES ${PROJECT_BINARY_DIR}/SpMVLabConfig.cmake
              ${PROJECT_BINARY_DIR}/SpMVLabConfigVersion.cmake
        DESTINATION ${spmv_cmake_dir})

# the programs, where built (keeping the rpath to libraries outside the system's, e.g. CUDA's)
foreach(program IN ITEMS spmvlab spmv_gui)
  if(TARGET ${program})
    set_target_properties(${program} PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# the output schemas (schemas/*.schema.json, draft 2020-12): SpMVLab_SCHEMA_DIR in the config
install(DIRECTORY ${PROJECT_SOURCE_DIR}/schemas/
        DESTINATION ${SPMV_PKG_SCHEMA_DIR}
        FILES_MATCHING PATTERN "*.schema.json")

# licence, citation and the user documentation (not the benchmark records: 30 MB)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CITATION.cff
              ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
        DESTINATION ${CMAKE_INSTALL_DOCDIR}
        PATTERN "benchmarks" EXCLUDE
        PATTERN "CONTRIBUTING-helpers.md" EXCLUDE)
# the example downstream project (docs/install.md), to copy from
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/consumer
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
