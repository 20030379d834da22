# Invoked with cmake -P at build time: writes build_info.hpp only when the commit changed.
# SPMV_COMMIT in the environment wins: a copy of the tree on a remote GPU machine may carry no
# .git, or a stale one (its HEAD is not the commit the files came from).
if(DEFINED ENV{SPMV_COMMIT} AND NOT "$ENV{SPMV_COMMIT}" STREQUAL "")
  set(commit "$ENV{SPMV_COMMIT}")
else()
  execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SRC}
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR commit STREQUAL "")
    set(commit "unknown")
  else()
    execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SRC}
                    OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT dirty STREQUAL "")
      set(commit "${commit}-dirty")
    endif()
  endif()
endif()
set(content "#pragma once\n#define SPMV_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL content)
  file(WRITE ${OUT} "${content}")
endif()
