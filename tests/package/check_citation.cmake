# cmake -DFILE=CITATION.cff -DVERSION=x.y.z -P check_citation.cmake: the top-level `version:`
# and `cff-version: 1.2.0` are there, and the version is project(VERSION).
file(STRINGS ${FILE} version_line REGEX "^version:")
file(STRINGS ${FILE} cff_line REGEX "^cff-version:")
if(NOT cff_line MATCHES "^cff-version: *\"?1\\.2\\.0\"?$")
  message(FATAL_ERROR "${FILE}: expected cff-version: 1.2.0, found '${cff_line}'")
endif()
if(NOT version_line MATCHES "^version: *\"?([^\"]+)\"?$")
  message(FATAL_ERROR "${FILE}: no top-level version")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
  message(FATAL_ERROR "${FILE}: version ${CMAKE_MATCH_1}, but project(VERSION) is ${VERSION}")
endif()
message("CITATION.cff version ${CMAKE_MATCH_1} = project(VERSION)")
