# The runtime cross-built for other targets (docs/design/Runtime.md, "AArch64"):
# rt/ configured as a project of its own, compiled by the clang pcmap is
# built for with --target=<triple>, its libraries in lib/pcmap/<triple>/,
# where the drivers look when given --target, and a lit configuration
# (test/lit.cfg.py) that runs the programs under qemu-user.
#
# Part of "all": the default build (cmake, ninja) builds the runtime for each
# triple (target pcmap-rt-<triple>) and `cmake --install` (and the Debian
# package) installs it into lib/pcmap/<triple>/, with the sub-build's own
# install rules (rt/CMakeLists.txt). Its unit tests (GoogleTest, built for
# the target) are built only when asked: the target
# pcmap-rt-<triple>-unittests (scripts/build.sh 19 aarch64), or
# -DPCMAP_CROSS_UNIT_TESTS=ON to build them with "all".
#
# PCMAP_CROSS_TARGETS: the triples; "auto" (the default) is aarch64-linux-gnu
# when clang can link a program for it (Debian: libc6-dev-arm64-cross,
# libgcc-12-dev-arm64-cross, libstdc++-12-dev-arm64-cross,
# binutils-aarch64-linux-gnu), in a build without sanitizers; "none" (or
# empty) builds no cross runtime.

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

option(PCMAP_CROSS_UNIT_TESTS
  "Build the cross-built runtimes' unit tests with \"all\" (else: target pcmap-rt-<triple>-unittests)"
  OFF)

set(pcmap_cross_targets ${PCMAP_CROSS_TARGETS})
if(pcmap_cross_targets STREQUAL "none")
  set(pcmap_cross_targets)
elseif(pcmap_cross_targets STREQUAL "auto")
  set(pcmap_cross_targets)
  if(NOT PCMAP_SANITIZE AND NOT CMAKE_SYSTEM_PROCESSOR STREQUAL "aarch64")
    pcmap_can_link_for(aarch64-linux-gnu can_link)
    if(can_link)
      set(pcmap_cross_targets aarch64-linux-gnu)
    endif()
  endif()
endif()

if(NOT pcmap_cross_targets)
  message(STATUS "pcmap: no runtime cross-built (PCMAP_CROSS_TARGETS="
                 "${PCMAP_CROSS_TARGETS}; auto builds aarch64-linux-gnu when "
                 "clang links for it: scripts/install-deps.sh)")
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
  set(unit_tests)
  if(PCMAP_GTEST_SOURCE_DIR)
    set(unit_tests -DPCMAP_GTEST_SOURCE_DIR=${PCMAP_GTEST_SOURCE_DIR})
  endif()
  # What "all" builds in the sub-build: the libraries rt/ installs (its
  # install rules are what `cmake --install` runs below), or everything,
  # unit tests included.
  set(libraries pcmap_rt pcmap_rt_shared pcmap_rt_driver)
  if(arch STREQUAL "aarch64")
    list(APPEND libraries pcmap_rt_outline)
  endif()
  if(PCMAP_CROSS_UNIT_TESTS AND PCMAP_GTEST_SOURCE_DIR)
    set(build ${CMAKE_COMMAND} --build <BINARY_DIR>)
    set(what "with its unit tests")
  else()
    set(build ${CMAKE_COMMAND} --build <BINARY_DIR> --target ${libraries})
    set(what "unit tests: target pcmap-rt-${triple}-unittests")
    if(NOT PCMAP_GTEST_SOURCE_DIR)
      set(what "no unit tests: no GoogleTest sources (libgtest-dev)")
    endif()
  endif()
  message(STATUS "pcmap: building the runtime for ${triple} too, installed "
                 "into ${PCMAP_PLUGIN_DIR}/${triple} (${what}; tests run with "
                 "'${run}'); -DPCMAP_CROSS_TARGETS=none turns it off")

  # Stripped by the sub-build's own install (--strip, as the Debian package
  # asks) with LLVM's strip, which knows every target.
  set(strip)
  if(EXISTS ${LLVM_TOOLS_BINARY_DIR}/llvm-strip)
    set(strip -DCMAKE_STRIP=${LLVM_TOOLS_BINARY_DIR}/llvm-strip)
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
      ${strip}
      ${unit_tests}
    BUILD_COMMAND ${build}
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    USES_TERMINAL_BUILD ON)
  if(PCMAP_GTEST_SOURCE_DIR)
    ExternalProject_Add_Step(pcmap-rt-${triple} unittests
      COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR>
      COMMENT "Building the ${triple} runtime's unit tests"
      DEPENDEES build
      ALWAYS ON
      EXCLUDE_FROM_MAIN ON
      USES_TERMINAL ON)
    ExternalProject_Add_StepTargets(pcmap-rt-${triple} unittests)
  endif()
  list(APPEND PCMAP_CROSS_RUNTIME_TARGETS pcmap-rt-${triple})
  # The sub-build's install rules put its libraries in
  # <prefix>/lib/pcmap/<triple> (its PCMAP_PLUGIN_DIR); DESTDIR, from the
  # environment, and stripping (CMAKE_INSTALL_DO_STRIP: cmake --install
  # --strip, cpack with CPACK_STRIP_FILES) carry over.
  set(sub_build ${CMAKE_BINARY_DIR}/rt-${triple})
  install(CODE "
    set(pcmap_strip)
    if(CMAKE_INSTALL_DO_STRIP)
      set(pcmap_strip --strip)
    endif()
    execute_process(COMMAND \"${CMAKE_COMMAND}\" --install \"${sub_build}\"
                            --prefix \"\${CMAKE_INSTALL_PREFIX}\" \${pcmap_strip}
                    RESULT_VARIABLE pcmap_status)
    if(NOT pcmap_status EQUAL 0)
      message(FATAL_ERROR \"pcmap: installing the ${triple} runtime failed \"
                          \"(is it built? ninja pcmap-rt-${triple})\")
    endif()")

  # test/lit.cfg.py for this target: test/<triple>/ (rt and e2e).
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(PCMAP_TEST_TARGET ${triple})
  set(PCMAP_RUN ${run})
  configure_file(${PROJECT_SOURCE_DIR}/test/lit.site.cfg.py.in
                 ${CMAKE_BINARY_DIR}/test/${triple}/lit.site.cfg.py @ONLY)
endforeach()
set(PCMAP_TEST_TARGET "")
set(PCMAP_RUN "")
# test/lit.site.cfg.py: the cross-runtime-<triple> features.
string(REPLACE ";" " " PCMAP_CROSS_TRIPLES "${pcmap_cross_targets}")
