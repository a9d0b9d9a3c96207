# The Debian package: `cpack -G DEB` in a build tree (or `cpack -G DEB
# --config <build>/CPackConfig.cmake -B <dir>`) makes pcmap-llvm-<major>,
# which holds what `cmake --install` installs, under /usr. The install tree
# is relocatable (the drivers find the plugin, the runtimes and the headers
# from their own location; pcmapConfig.cmake from its own), so the package
# also works unpacked anywhere with `dpkg-deb -x`.
#
# One package per LLVM: pcmap-llvm-19 and pcmap-llvm-22 install the same
# files (/usr/bin/pcmap-clang, ...), so they conflict with each other.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pcmap-llvm-${LLVM_VERSION_MAJOR})
set(CPACK_PACKAGE_VENDOR pcmap)
set(PCMAP_PACKAGE_CONTACT "pcmap maintainers <pcmap@localhost>" CACHE STRING
  "The Maintainer field of the Debian package")
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
set(CPACK_STRIP_FILES OFF)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # <name>_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
# The architecture is dpkg's (CPack asks dpkg --print-architecture).
#
# The drivers run clang-<major> (PCMAP_CLANG_PATH), the plugin is loaded by
# it, the runtime's symbolizer is that LLVM's llvm-symbolizer, and -flto
# links with its lld. The libraries the binaries link (libc6, libstdc++6,
# libgcc-s1, libllvm<major>, ...) come from dpkg-shlibdeps when it is there
# (dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "clang-${LLVM_VERSION_MAJOR}, llvm-${LLVM_VERSION_MAJOR}, lld-${LLVM_VERSION_MAJOR}")
# dpkg-shlibdeps cannot be used when the package holds a cross-built
# runtime (lib/pcmap/<triple>/, cmake/PCMapCrossRuntime.cmake): it would
# resolve that runtime's libc to the foreign architecture's package
# (libc6:arm64), which an amd64 package cannot depend on. The cross
# runtimes' libraries are then suggested, as the packages that let clang
# link programs for the target.
find_program(PCMAP_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(PCMAP_DPKG_SHLIBDEPS AND NOT PCMAP_CROSS_RUNTIME_TARGETS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  if(NOT PCMAP_DPKG_SHLIBDEPS)
    message(STATUS "pcmap: no dpkg-shlibdeps (dpkg-dev): the package's "
                   "Depends lists the usual shared libraries by name")
  endif()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "${CPACK_DEBIAN_PACKAGE_DEPENDS}, libc6, libstdc++6, libgcc-s1")
endif()
if(PCMAP_CROSS_RUNTIME_TARGETS)
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "libc6-dev-arm64-cross, libgcc-12-dev-arm64-cross, libstdc++-12-dev-arm64-cross, qemu-user")
endif()
# The usual way for packages that replace each other: each provides and
# conflicts with the virtual package "pcmap" (never with itself).
set(CPACK_DEBIAN_PACKAGE_PROVIDES pcmap)
set(CPACK_DEBIAN_PACKAGE_CONFLICTS pcmap)
set(CPACK_DEBIAN_PACKAGE_REPLACES pcmap)

include(CPack)
