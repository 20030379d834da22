# Invoked with cmake -P at build time: writes build_info.hpp only when the commit changed.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  # a copy of the tree without .git (e.g. on a remote GPU machine): take SPMV_COMMIT from the env
  if(DEFINED ENV{SPMV_COMMIT} AND NOT "$ENV{SPMV_COMMIT}" STREQUAL "")
    set(commit "$ENV{SPMV_COMMIT}")
  else()
    set(commit "unknown")
  endif()
endif()
execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT dirty STREQUAL "")
  set(commit "${commit}-dirty")
endif()
set(content "#pragma once\n#define SPMV_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL content)
  file(WRITE ${OUT} "${content}")
endif()
