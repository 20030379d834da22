# Warnings for our own targets (never for third-party code).
add_library(spmv_warnings INTERFACE)
add_library(spmv::warnings ALIAS spmv_warnings)
target_compile_options(spmv_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  # GCC 12 reports -Wrestrict false positives inside std::string concatenation (GCC PR 105329)
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-restrict>)

# The commit and date end up in every benchmark record. The commit is read at build time
# (not configure time) so that a stale configure never stamps results with an old commit.
set(SPMV_BUILD_INFO_IN ${CMAKE_CURRENT_LIST_DIR}/build_info.cmake)

# Precompiled headers for the targets whose every file includes the same heavy headers (CLI11
# and nlohmann/json in the command line, Qt Widgets and Charts in the explorer): about half of
# each file's compile time on GCC 12, which is what the quick start waits for. Off for tools
# that dislike them (include-what-you-use, some clang-tidy setups): -DSPMV_PRECOMPILED_HEADERS=OFF.
option(SPMV_PRECOMPILED_HEADERS "Precompile the heavy third-party headers of the CLI and the explorer" ON)
function(spmv_precompile_headers target)
  if(SPMV_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
