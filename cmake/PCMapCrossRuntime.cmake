# The runtime cross-built for other targets (docs/Runtime.md, "AArch64"):
# rt/ configured as a project of its own, compiled by the clang pcmap is
# built for with --target=<triple>, its libraries in lib/pcmap/<triple>/,
# where the drivers look when given --target. With its unit tests, and a lit
# configuration (test/lit.cfg.py) that runs the programs under qemu-user.
# Not part of "all": build the target pcmap-rt-<triple>
# (scripts/build.sh 19 aarch64).
#
# PCMAP_CROSS_TARGETS: the triples; "auto" (the default) is aarch64-linux-gnu
# when clang can link a program for it (Debian: libc6-dev-arm64-cross,
# libgcc-12-dev-arm64-cross, libstdc++-12-dev-arm64-cross,
# binutils-aarch64-linux-gnu), in a build without sanitizers.

include(ExternalProject)

set(PCMAP_CROSS_TARGETS auto CACHE STRING
  "Triples to cross-build the runtime for (auto: aarch64-linux-gnu if clang can link for it)")

# Whether clang links a C program for Triple.
function(pcmap_can_link_for triple result)
  set(dir ${CMAKE_BINARY_DIR}/CMakeFiles/pcmap-cross-${triple})
  file(WRITE ${dir}/probe.c "int main(void) { return 0; }\n")
  execute_process(COMMAND ${PCMAP_CLANG} --target=${triple} ${dir}/probe.c
                          -o ${dir}/probe
                  RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
  if(status EQUAL 0)
    set(${result} ON PARENT_SCOPE)
  else()
    set(${result} OFF PARENT_SCOPE)
  endif()
endfunction()

set(pcmap_cross_targets ${PCMAP_CROSS_TARGETS})
if(pcmap_cross_targets STREQUAL "auto")
  set(pcmap_cross_targets)
  if(NOT PCMAP_SANITIZE AND NOT CMAKE_SYSTEM_PROCESSOR STREQUAL "aarch64")
    pcmap_can_link_for(aarch64-linux-gnu can_link)
    if(can_link)
      set(pcmap_cross_targets aarch64-linux-gnu)
    endif()
  endif()
endif()

# GoogleTest's sources, for the cross-built unit tests.
find_path(PCMAP_GTEST_SOURCE_DIR CMakeLists.txt
  PATHS /usr/src/googletest NO_DEFAULT_PATH)

set(PCMAP_CROSS_RUNTIME_TARGETS)
set(PCMAP_CROSS_TEST_TARGETS)
foreach(triple ${pcmap_cross_targets})
  string(REGEX REPLACE "-.*" "" arch ${triple})
  # Where the target's libraries are for qemu-user (-L): the directory of
  # the C library clang links with, one level up from its lib/.
  execute_process(COMMAND ${PCMAP_CLANG} --target=${triple}
                          -print-file-name=libc.so.6
                  OUTPUT_VARIABLE libc OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(libc ${libc} REALPATH)
  get_filename_component(sysroot ${libc} DIRECTORY)
  get_filename_component(sysroot ${sysroot} DIRECTORY)
  find_program(PCMAP_QEMU_${arch} qemu-${arch})
  set(run "")
  if(PCMAP_QEMU_${arch})
    set(run "${PCMAP_QEMU_${arch}} -L ${sysroot}")
  endif()
  message(STATUS "pcmap: runtime cross-built for ${triple}"
                 " (tests run with '${run}')")

  set(unit_tests)
  if(PCMAP_GTEST_SOURCE_DIR)
    set(unit_tests -DPCMAP_GTEST_SOURCE_DIR=${PCMAP_GTEST_SOURCE_DIR})
  endif()
  ExternalProject_Add(pcmap-rt-${triple}
    SOURCE_DIR ${PROJECT_SOURCE_DIR}/rt
    BINARY_DIR ${CMAKE_BINARY_DIR}/rt-${triple}
    CMAKE_ARGS
      -G Ninja
      -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
      -DCMAKE_SYSTEM_NAME=Linux
      -DCMAKE_SYSTEM_PROCESSOR=${arch}
      -DCMAKE_C_COMPILER=${PCMAP_CLANG}
      -DCMAKE_CXX_COMPILER=${PCMAP_CLANGXX}
      -DCMAKE_C_COMPILER_TARGET=${triple}
      -DCMAKE_CXX_COMPILER_TARGET=${triple}
      -DPCMAP_PLUGIN_DIR=${PCMAP_PLUGIN_DIR}/${triple}
      -DPCMAP_RT_DIR=${CMAKE_BINARY_DIR}/${PCMAP_PLUGIN_DIR}/${triple}
      -DLLVM_TOOLS_BINARY_DIR=${LLVM_TOOLS_BINARY_DIR}
      -DPCMAP_RUN=${run}
      ${unit_tests}
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    USES_TERMINAL_BUILD ON
    EXCLUDE_FROM_ALL ON)
  list(APPEND PCMAP_CROSS_RUNTIME_TARGETS pcmap-rt-${triple})
  install(DIRECTORY ${CMAKE_BINARY_DIR}/${PCMAP_PLUGIN_DIR}/${triple}
          DESTINATION ${PCMAP_PLUGIN_DIR} USE_SOURCE_PERMISSIONS OPTIONAL)

  # test/lit.cfg.py for this target: test/<triple>/ (rt and e2e).
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(PCMAP_TEST_TARGET ${triple})
  set(PCMAP_RUN ${run})
  configure_file(${PROJECT_SOURCE_DIR}/test/lit.site.cfg.py.in
                 ${CMAKE_BINARY_DIR}/test/${triple}/lit.site.cfg.py @ONLY)
endforeach()
set(PCMAP_TEST_TARGET "")
set(PCMAP_RUN "")
