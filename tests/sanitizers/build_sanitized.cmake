# cmake -DSOURCE_DIR=... -DBUILD_DIR=... [-DGO_CACHE=...] [-DTEST_CACHE=...] -P build_sanitized.cmake
# Configures and builds the sanitized folder: clang, ASan, UBSan, the fuzz harnesses. A folder
# configured before keeps its compiler: naming it again, spelled otherwise, would make cmake
# empty the cache and build everything anew.
find_program(CLANG clang-14)
find_program(CLANGXX clang++-14)
if(NOT CLANG OR NOT CLANGXX)
  message(FATAL_ERROR "clang-14 is missing: packaging/install-deps.sh --tests installs it")
endif()
# The unit and CLI tests: the parsers and the binary on hostile input. The registry, engine and slow suites
# spend their time in services, builders and compilers, whose input the unit tests' scripted servers and the
# fuzz harnesses give the same code under the sanitizers; the normal folder runs them.
set(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BUILD_DIR} -DBUILD_TESTING=ON -DIMGAUDIT_SANITIZE=ON
    -DIMGAUDIT_TEST_LABELS=unit,cli)
if(GO_CACHE)
  list(APPEND configure -DIMGAUDIT_TEST_GO_CACHE=${GO_CACHE})  # the normal folder's: each Go program built once
endif()
if(TEST_CACHE)
  list(APPEND configure -DIMGAUDIT_TEST_CACHE_DIR=${TEST_CACHE})  # the normal folder's: one Debian 13 root
endif()
if(NOT EXISTS ${BUILD_DIR}/CMakeCache.txt)
  list(APPEND configure -DCMAKE_C_COMPILER=${CLANG} -DCMAKE_CXX_COMPILER=${CLANGXX} -DCMAKE_BUILD_TYPE=Debug)
endif()
include(ProcessorCount)
ProcessorCount(cores)
foreach(step "${configure}" "${CMAKE_COMMAND};--build;${BUILD_DIR};-j${cores}")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${step}")
  endif()
endforeach()
