# Installs the build tree BUILD_DIR into a fresh prefix under WORK_DIR, then configures, builds
# and runs SOURCE_DIR/examples/consumer against that prefix alone; any failing step fails the
# test (FATAL_ERROR). Also: the installed export files name no path of the build or source
# tree, build_info.hpp is not installed, COMPONENTS core loads core alone, an unknown component
# is refused, and the installed programs print the version. Prints "package test passed".
# Each run works in its own directory (several build trees, ctest -j), removed on success.
string(RANDOM LENGTH 8 ALPHABET abcdefghijklmnopqrstuvwxyz0123456789 tag)
string(TIMESTAMP stamp "%Y%m%d%H%M%S")
set(work ${WORK_DIR}/run-${stamp}-${tag})
set(prefix ${work}/prefix)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("== ${what} (exit ${rc})\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package test: ${what} failed (exit ${rc}); files kept in ${work}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

step("cmake --install ${BUILD_DIR} --prefix ${prefix}"
     ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# what was installed
file(GLOB config_dir ${prefix}/lib*/cmake/SpMVLab)
foreach(f SpMVLabConfig.cmake SpMVLabConfigVersion.cmake SpMVLabCoreTargets.cmake
          SpMVLabKernelsTargets.cmake SpMVLabDistTargets.cmake)
  if(NOT config_dir OR NOT EXISTS ${config_dir}/${f})
    message(FATAL_ERROR "package test: ${f} not installed under ${prefix}/lib*/cmake/SpMVLab")
  endif()
endforeach()
foreach(f include/spmv/version.hpp include/spmv/registry.hpp include/spmv/gpu/device.hpp
          include/spmv/dist/comm.hpp share/doc/spmvlab/LICENSE share/doc/spmvlab/CITATION.cff
          share/spmvlab/schemas/meta.schema.json share/spmvlab/schemas/info.schema.json
          share/spmvlab/schemas/bench-csv-meta.schema.json)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "package test: ${f} not installed")
  endif()
endforeach()
if(EXISTS ${prefix}/include/spmv/build_info.hpp)
  message(FATAL_ERROR "package test: build_info.hpp (the build tree's commit) was installed")
endif()
file(READ ${prefix}/include/spmv/version.hpp version_hpp)
if(NOT version_hpp MATCHES "#define SPMV_VERSION_STRING \"${VERSION}\"")
  message(FATAL_ERROR "package test: include/spmv/version.hpp does not say ${VERSION}")
endif()
# relocatable: the exported targets name no file of this build or source tree (the config
# file may: its METIS hint is where this build found the library, e.g. under .deps/)
file(GLOB export_files ${config_dir}/SpMVLab*Targets*.cmake)
foreach(f ${export_files})
  file(READ ${f} text)
  foreach(tree ${BUILD_DIR} ${SOURCE_DIR})
    string(FIND "${text}" "${tree}/" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "package test: ${f} names a path inside ${tree}")
    endif()
  endforeach()
endforeach()

# the consumer, configured against the prefix only
set(configure_args -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_CXX_COMPILER=${CXX})
if(MAKE_PROGRAM)
  list(APPEND configure_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(BUILD_TYPE)
  list(APPEND configure_args -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
endif()
if(CUDA_ROOT)
  list(APPEND configure_args -DCUDAToolkit_ROOT=${CUDA_ROOT})
endif()
list(APPEND configure_args "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")

step("configure examples/consumer"
     ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/consumer -B ${work}/consumer ${configure_args})
step("build examples/consumer" ${CMAKE_COMMAND} --build ${work}/consumer)
step("run spmv_consumer" ${work}/consumer/spmv_consumer)
if(NOT step_output MATCHES "SpMV Lab ${VERSION} " OR NOT step_output MATCHES "agree with CSR")
  message(FATAL_ERROR "package test: spmv_consumer did not report version ${VERSION} and agreement")
endif()
step("run spmv_consumer on a file, one format"
     ${work}/consumer/spmv_consumer ${SOURCE_DIR}/sample_matrices/canonical4.mtx pjds)

# components: core alone needs neither CUDA nor MPI and gives no other target; a component
# that does not exist is refused
file(WRITE ${work}/components/CMakeLists.txt [=[
cmake_minimum_required(VERSION 3.25)
project(spmv_components LANGUAGES CXX)
find_package(SpMVLab REQUIRED COMPONENTS core)
if(NOT TARGET SpMVLab::core OR TARGET SpMVLab::kernels OR TARGET SpMVLab::dist)
  message(FATAL_ERROR "COMPONENTS core loaded the wrong targets")
endif()
find_package(SpMVLab QUIET COMPONENTS core nope)
if(SpMVLab_FOUND)
  message(FATAL_ERROR "COMPONENTS nope was accepted")
endif()
find_package(SpMVLab 99 QUIET)
if(SpMVLab_FOUND)
  message(FATAL_ERROR "version 99 was accepted")
endif()
if(NOT EXISTS "${SpMVLab_SCHEMA_DIR}/info.schema.json")
  message(FATAL_ERROR "SpMVLab_SCHEMA_DIR (${SpMVLab_SCHEMA_DIR}) holds no info.schema.json")
endif()
message(STATUS "components checked")
]=])
step("configure a project asking for COMPONENTS core"
     ${CMAKE_COMMAND} -S ${work}/components -B ${work}/components/build ${configure_args})

# the installed programs, where built, run from the prefix and print the version
if(EXISTS ${prefix}/bin/spmvlab)
  step("installed spmvlab --version" ${prefix}/bin/spmvlab --version)
  if(NOT step_output MATCHES "spmvlab ${VERSION} ")
    message(FATAL_ERROR "package test: installed spmvlab --version does not say ${VERSION}")
  endif()
  # its JSON against the installed schemas (where python3-jsonschema is: Debian's at /usr/bin)
  execute_process(COMMAND /usr/bin/python3 -c "import jsonschema" RESULT_VARIABLE no_jsonschema
                  OUTPUT_QUIET ERROR_QUIET)
  if(no_jsonschema EQUAL 0)
    execute_process(COMMAND ${prefix}/bin/spmvlab info ${SOURCE_DIR}/sample_matrices/canonical4.mtx
                            --json OUTPUT_FILE ${work}/info.json RESULT_VARIABLE rc)
    step("installed spmvlab info --json against the installed schema"
         /usr/bin/python3 ${SOURCE_DIR}/tests/cli/validate_json.py --closed
         ${prefix}/share/spmvlab/schemas info.schema.json ${work}/info.json)
  endif()
endif()
if(EXISTS ${prefix}/bin/spmvlab-gui)
  step("installed spmvlab-gui --version (no display)" ${CMAKE_COMMAND} -E env --unset=DISPLAY
       --unset=WAYLAND_DISPLAY --unset=QT_QPA_PLATFORM ${prefix}/bin/spmvlab-gui --version)
  if(NOT step_output MATCHES "spmvlab-gui ${VERSION} ")
    message(FATAL_ERROR "package test: installed spmvlab-gui --version does not say ${VERSION}")
  endif()
endif()

file(REMOVE_RECURSE ${work})
message("package test passed")
