# The Debian package: `cpack -G DEB` in a build tree (or `cpack -G DEB
# --config <build>/CPackConfig.cmake -B <dir>`) makes pcmap-llvm-<major>,
# which holds what `cmake --install` installs, under /usr. The install tree
# is relocatable (the drivers find the plugin, the runtimes and the headers
# from their own location; pcmapConfig.cmake from its own), so the package
# also works unpacked anywhere with `dpkg-deb -x`.
#
# One package per LLVM: pcmap-llvm-19 and pcmap-llvm-22 install the same
# files (/usr/bin/pcmap-clang, ...), so they conflict with each other.

#
# It follows Debian's policy as lintian checks it (test/install/lintian.test
# runs `lintian --fail-on error`): /usr/share/doc/<package>/ holds the
# documentation (CMAKE_INSTALL_DOCDIR, top-level CMakeLists.txt), copyright
# (packaging/debian/copyright.in, with the LICENSE file at the source root)
# and changelog.Debian.gz (packaging/debian/changelog, gzip -9n, whose
# latest entry gives the package's version); the binaries are stripped
# (no debug symbols in the package); Depends has versioned libc6,
# libstdc++6, ... from dpkg-shlibdeps.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ${PCMAP_PACKAGE_NAME})
set(CPACK_PACKAGE_VENDOR pcmap)
set(PCMAP_PACKAGE_CONTACT
  "pcmap maintainers <maintainers@pcmap.example>"
  CACHE STRING "The Maintainer field of the Debian package")
# Build trees configured before kept the old default, whose host lintian
# rejects (bogus-mail-host).
if(PCMAP_PACKAGE_CONTACT STREQUAL "pcmap maintainers <pcmap@localhost>")
  set_property(CACHE PCMAP_PACKAGE_CONTACT PROPERTY VALUE
    "pcmap maintainers <maintainers@pcmap.example>")
endif()
set(CPACK_PACKAGE_CONTACT "${PCMAP_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "PC metadata for atomics and functions (LLVM ${LLVM_VERSION_MAJOR})")
set(CPACK_PACKAGE_DESCRIPTION
"pcmap tells a running program, from inside a signal handler, whether a
program counter is an atomic operation, which one, and in which function.
This package holds the compiler drivers pcmap-clang and pcmap-clang++, the
LLVM pass plugin for clang ${LLVM_VERSION_MAJOR}, the runtime (static and
shared), its headers, the CMake package (find_package(pcmap),
pcmap_instrument()), pcmap-report and the documentation.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# install(TARGETS) strips executables, shared libraries and the plugin with
# CMAKE_INSTALL_DO_STRIP; the cross runtimes' own install does the same
# (cmake/PCMapCrossRuntime.cmake).
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # <name>_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SOURCE pcmap)

# The Debian revision is the changelog's: its latest entry is
# "pcmap (<upstream>-<revision>) ...", and <upstream> must be the project's
# version.
set(pcmap_changelog ${PROJECT_SOURCE_DIR}/packaging/debian/changelog)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${pcmap_changelog})
file(STRINGS ${pcmap_changelog} pcmap_changelog_top LIMIT_COUNT 1)
if(NOT pcmap_changelog_top MATCHES "^pcmap \\(([^-)]+)-([^)]+)\\) ")
  message(FATAL_ERROR "${pcmap_changelog}: the first line is not "
                      "'pcmap (<version>-<revision>) ...': ${pcmap_changelog_top}")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "${pcmap_changelog}: the latest entry is for ${CMAKE_MATCH_1}, "
                      "the project is ${PROJECT_VERSION}: add an entry")
endif()
set(CPACK_DEBIAN_PACKAGE_RELEASE ${CMAKE_MATCH_2})

# /usr/share/doc/<package>/changelog.Debian.gz, compressed as policy asks
# (gzip -9n: no name or time stamp, so the same bytes every build).
find_program(PCMAP_GZIP gzip)
if(PCMAP_GZIP)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/packaging/changelog.Debian.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/packaging
    COMMAND ${PCMAP_GZIP} -9n -c ${pcmap_changelog}
            > ${CMAKE_BINARY_DIR}/packaging/changelog.Debian.gz
    DEPENDS ${pcmap_changelog}
    COMMENT "Compressing the Debian changelog" VERBATIM)
  add_custom_target(pcmap-debian-changelog ALL
    DEPENDS ${CMAKE_BINARY_DIR}/packaging/changelog.Debian.gz)
  install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.Debian.gz
          DESTINATION ${CMAKE_INSTALL_DOCDIR})
else()
  message(STATUS "pcmap: no gzip: the package has no changelog.Debian.gz")
endif()

# /usr/share/doc/<package>/copyright: the LICENSE file at the source root.
if(EXISTS ${PROJECT_SOURCE_DIR}/LICENSE)
  file(READ ${PROJECT_SOURCE_DIR}/LICENSE PCMAP_LICENSE_TEXT)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${PROJECT_SOURCE_DIR}/LICENSE)
else()
  message(STATUS "pcmap: no LICENSE file at the source root: the package's "
                 "copyright file says that no license has been granted")
  set(PCMAP_LICENSE_TEXT
"The source tree has no LICENSE file: its authors have granted no license
yet. Until they do, all rights are reserved.
")
endif()
# The years: those of the changelog's entries (" -- Name <address>  Thu, 26
# Nov 2026 ...").
file(STRINGS ${pcmap_changelog} pcmap_signoffs REGEX "^ -- ")
set(pcmap_years)
foreach(line ${pcmap_signoffs})
  if(line MATCHES " ([12][0-9][0-9][0-9]) [0-9][0-9]:")
    list(APPEND pcmap_years ${CMAKE_MATCH_1})
  endif()
endforeach()
if(NOT pcmap_years)
  message(FATAL_ERROR "${pcmap_changelog}: no dated entry")
endif()
list(SORT pcmap_years COMPARE NATURAL)
list(GET pcmap_years 0 pcmap_first_year)
list(GET pcmap_years -1 pcmap_last_year)
set(PCMAP_COPYRIGHT_YEARS ${pcmap_first_year})
if(NOT pcmap_first_year STREQUAL pcmap_last_year)
  set(PCMAP_COPYRIGHT_YEARS ${pcmap_first_year}-${pcmap_last_year})
endif()
configure_file(${PROJECT_SOURCE_DIR}/packaging/debian/copyright.in
               ${CMAKE_BINARY_DIR}/packaging/copyright @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/packaging/copyright
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The architecture is dpkg's (CPack asks dpkg --print-architecture).
#
# The drivers run clang-<major> (PCMAP_CLANG_PATH), the plugin is loaded by
# it, the runtime's symbolizer is that LLVM's llvm-symbolizer, and -flto
# links with its lld. The libraries the binaries link (libc6, libstdc++6,
# libgcc-s1, libllvm<major>, ...) come from dpkg-shlibdeps when it is there
# (dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "clang-${LLVM_VERSION_MAJOR}, llvm-${LLVM_VERSION_MAJOR}, lld-${LLVM_VERSION_MAJOR}")
# CPack's own CPACK_DEBIAN_PACKAGE_SHLIBDEPS cannot be used: it gives
# dpkg-shlibdeps every ELF file of the package, the cross-built runtimes
# (lib/pcmap/<triple>/, cmake/PCMapCrossRuntime.cmake) too, whose libc is
# the foreign architecture's (libc6:arm64), which an amd64 package cannot
# depend on. cmake/PCMapDebPrepare.cmake, run by cpack once the files are
# staged, gives it the package's native binaries only and adds what it
# finds (libc6 (>= ...), libstdc++6 (>= ...), ...) to Depends; it also
# strips the static libraries' debug information. The cross runtimes'
# libraries are suggested, as the packages that let clang link programs for
# the target.
find_program(PCMAP_DPKG_SHLIBDEPS dpkg-shlibdeps)
set(CPACK_PCMAP_DPKG_SHLIBDEPS ${PCMAP_DPKG_SHLIBDEPS})
set(CPACK_PCMAP_STRIP ${LLVM_TOOLS_BINARY_DIR}/llvm-strip)
set(CPACK_PCMAP_FOREIGN_DIRS)
foreach(triple ${pcmap_cross_targets})
  list(APPEND CPACK_PCMAP_FOREIGN_DIRS ${PCMAP_PLUGIN_DIR}/${triple})
endforeach()
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/PCMapDebPrepare.cmake)
if(NOT PCMAP_DPKG_SHLIBDEPS)
  message(STATUS "pcmap: no dpkg-shlibdeps (dpkg-dev): the package's "
                 "Depends lists the usual shared libraries without versions")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "${CPACK_DEBIAN_PACKAGE_DEPENDS}, libc6, libstdc++6, libgcc-s1")
endif()
if(PCMAP_CROSS_RUNTIME_TARGETS)
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "libc6-dev-arm64-cross, libgcc-12-dev-arm64-cross, libstdc++-12-dev-arm64-cross, qemu-user")
endif()
# The cross-built runtimes are another architecture's ELF files on purpose
# (what --target=<triple> links): lintian's binary-from-other-architecture,
# an error, is overridden for them alone, with the reason.
if(pcmap_cross_targets)
  string(REGEX REPLACE "^/" "" pcmap_deb_prefix "${CPACK_PACKAGING_INSTALL_PREFIX}")
  set(pcmap_overrides "")
  foreach(triple ${pcmap_cross_targets})
    string(APPEND pcmap_overrides
      "# The runtime cross-built for ${triple}, which pcmap-clang --target=${triple}\n"
      "# links into the programs it builds for that target: not this architecture's.\n"
      "${CPACK_PACKAGE_NAME}: binary-from-other-architecture "
      "[${pcmap_deb_prefix}/${PCMAP_PLUGIN_DIR}/${triple}/*]\n")
  endforeach()
  file(WRITE ${CMAKE_BINARY_DIR}/packaging/lintian-overrides "${pcmap_overrides}")
  install(FILES ${CMAKE_BINARY_DIR}/packaging/lintian-overrides
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides
          RENAME ${CPACK_PACKAGE_NAME})
endif()

# The usual way for packages that replace each other: each provides and
# conflicts with the virtual package "pcmap" (never with itself).
set(CPACK_DEBIAN_PACKAGE_PROVIDES pcmap)
set(CPACK_DEBIAN_PACKAGE_CONFLICTS pcmap)
set(CPACK_DEBIAN_PACKAGE_REPLACES pcmap)

include(CPack)
