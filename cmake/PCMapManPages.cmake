# The manual pages: pcmap-clang(1), with pcmap-clang++(1) a link to it,
# pcmap-report(1) and pcmap(7). docs/man/gen-man.py writes each at build
# time from the one definition of what it documents, so that none can drift
# from the code: the drivers' --help, pcmap-report's --help and that of each
# of its subcommands, and rt/core/options.inc; the prose around them is
# docs/man/<page>.in. The pages go to share/man/man<section> in the build
# tree, as once installed (`man -l <build>/share/man/man1/pcmap-clang.1`),
# and `cmake --install` installs them there. The Debian package has them
# compressed (gzip -9n), as Debian's policy asks: cmake/PCMapDebPrepare.cmake
# compresses the staged pages (CPACK_PCMAP_MANDIR, CPACK_PCMAP_GZIP).
#
# Included once the drivers and pcmap-report are defined: without
# PCMAP_BUILD_TOOLS there is no pcmap-report(1).

find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "pcmap: no Python 3: no manual pages")
  return()
endif()

set(pcmap_man_generator ${PROJECT_SOURCE_DIR}/docs/man/gen-man.py)
set(pcmap_man_changelog ${PROJECT_SOURCE_DIR}/packaging/debian/changelog)
set(pcmap_man_pages)

# pcmap_man_page(<name> <section> [ARGS <argument>...]
#                [DEPENDS <file or target>...])
# Generates <name>.<section> from docs/man/<name>.<section>.in with
# gen-man.py <name>.<section> <argument>..., and installs it.
function(pcmap_man_page name section)
  cmake_parse_arguments(ARG "" "" "ARGS;DEPENDS" ${ARGN})
  set(page ${CMAKE_BINARY_DIR}/${CMAKE_INSTALL_MANDIR}/man${section}/${name}.${section})
  add_custom_command(OUTPUT ${page}
    COMMAND ${Python3_EXECUTABLE} ${pcmap_man_generator} ${name}.${section}
            ${ARG_ARGS} --version ${PROJECT_VERSION}
            --changelog ${pcmap_man_changelog}
            --docdir ${CMAKE_INSTALL_DOCDIR} -o ${page}
    DEPENDS ${pcmap_man_generator}
            ${PROJECT_SOURCE_DIR}/docs/man/${name}.${section}.in
            ${pcmap_man_changelog} ${ARG_DEPENDS}
    COMMENT "Generating the manual page ${name}(${section})" VERBATIM)
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
  set(pcmap_man_pages ${pcmap_man_pages} ${page} PARENT_SCOPE)
endfunction()

# pcmap-clang(1), from `pcmap-clang --help`: pcmap's options, before clang's.
pcmap_man_page(pcmap-clang 1
  ARGS --driver $<TARGET_FILE:pcmap-clang>
  DEPENDS pcmap-clang)
# pcmap-clang++(1) is the same page, by a link (policy prefers links to .so
# pages), in the build tree as installed.
set(pcmap_man1_dir ${CMAKE_BINARY_DIR}/${CMAKE_INSTALL_MANDIR}/man1)
add_custom_command(OUTPUT ${pcmap_man1_dir}/pcmap-clang++.1
  COMMAND ${CMAKE_COMMAND} -E create_symlink pcmap-clang.1
          ${pcmap_man1_dir}/pcmap-clang++.1
  DEPENDS ${pcmap_man1_dir}/pcmap-clang.1 VERBATIM)
list(APPEND pcmap_man_pages ${pcmap_man1_dir}/pcmap-clang++.1)
install(CODE "execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink pcmap-clang.1
  \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man1/pcmap-clang++.1)")

# pcmap-report(1), from `pcmap-report --help` and `pcmap-report <subcommand>
# --help`.
if(TARGET pcmap-report)
  pcmap_man_page(pcmap-report 1
    ARGS --report $<TARGET_FILE:pcmap-report>
    DEPENDS pcmap-report)
endif()

# pcmap(7), the runtime's options, from their declarations and from the
# defaults the drivers link.
pcmap_man_page(pcmap 7
  ARGS --options-inc ${PROJECT_SOURCE_DIR}/rt/core/options.inc
       --driver-options ${PROJECT_SOURCE_DIR}/rt/optional/driver_options.cpp
  DEPENDS ${PROJECT_SOURCE_DIR}/rt/core/options.inc
          ${PROJECT_SOURCE_DIR}/rt/optional/driver_options.cpp)

add_custom_target(pcmap-man-pages ALL DEPENDS ${pcmap_man_pages})

# For cmake/PCMapDebPrepare.cmake, which compresses the staged pages.
find_program(PCMAP_GZIP gzip)
set(CPACK_PCMAP_GZIP ${PCMAP_GZIP})
set(CPACK_PCMAP_MANDIR ${CMAKE_INSTALL_MANDIR})
