# Run by cpack (CPACK_PRE_BUILD_SCRIPTS, cmake/PCMapPackaging.cmake) once the
# package's files are staged, before the .deb is made:
# - the manual pages are compressed with gzip -9n (no name or time stamp),
#   as Debian's policy asks and dh_compress does, and a link to a page then
#   names the compressed page (cmake/PCMapManPages.cmake);
# - the static libraries lose their debug information, as dh_strip does
#   (install(TARGETS) strips executables and shared objects, not archives);
# - dpkg-shlibdeps on the package's native executables and shared objects,
#   whose result (versioned libc6, libstdc++6, libgcc-s1, ...) goes first in
#   Depends. The cross-built runtimes (CPACK_PCMAP_FOREIGN_DIRS,
#   lib/pcmap/<triple>) are left out: their libraries are the foreign
#   architecture's.

set(stage "${CPACK_TEMPORARY_DIRECTORY}")
if(NOT stage OR NOT IS_DIRECTORY "${stage}")
  set(stage "${CPACK_TEMPORARY_INSTALL_DIRECTORY}")
endif()
if(NOT IS_DIRECTORY "${stage}")
  message(FATAL_ERROR "pcmap: no staged package files ('${stage}')")
endif()

if(CPACK_PCMAP_GZIP AND CPACK_PCMAP_MANDIR)
  file(GLOB_RECURSE pages LIST_DIRECTORIES false
       "${stage}/*/${CPACK_PCMAP_MANDIR}/man*/*")
  foreach(page ${pages})
    if(NOT page MATCHES "/man[1-9]/[^/]+\\.[1-9][^/.]*$")
      continue()
    endif()
    if(IS_SYMLINK "${page}")
      file(READ_SYMLINK "${page}" target)
      file(REMOVE "${page}")
      file(CREATE_LINK "${target}.gz" "${page}.gz" SYMBOLIC)
      continue()
    endif()
    execute_process(COMMAND "${CPACK_PCMAP_GZIP}" -9nf "${page}"
                    RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "pcmap: ${CPACK_PCMAP_GZIP} -9nf ${page} failed")
    endif()
  endforeach()
endif()

file(GLOB_RECURSE files LIST_DIRECTORIES false "${stage}/*")
set(binaries)
foreach(file ${files})
  if(IS_SYMLINK "${file}")
    continue()
  endif()
  if(file MATCHES "\\.a$" AND CPACK_PCMAP_STRIP)
    execute_process(COMMAND "${CPACK_PCMAP_STRIP}" --strip-debug "${file}"
                    RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "pcmap: ${CPACK_PCMAP_STRIP} --strip-debug ${file} failed")
    endif()
  endif()
  file(RELATIVE_PATH rel "${stage}" "${file}")
  set(foreign OFF)
  foreach(dir ${CPACK_PCMAP_FOREIGN_DIRS})
    if(rel MATCHES "(^|/)${dir}/")
      set(foreign ON)
    endif()
  endforeach()
  if(foreign)
    continue()
  endif()
  # An ELF executable (e_type 2) or shared object (3), little-endian:
  # the magic, then e_type at byte 16.
  file(READ "${file}" head LIMIT 18 HEX)
  if(head MATCHES "^7f454c46" AND head MATCHES "(0200|0300)$")
    list(APPEND binaries "${file}")
  endif()
endforeach()
if(NOT CPACK_PCMAP_DPKG_SHLIBDEPS)
  return()
endif()
if(NOT binaries)
  message(FATAL_ERROR "pcmap: no native executable or shared object in ${stage}")
endif()

# dpkg-shlibdeps wants debian/control in its working directory, and a
# DEBIAN directory above the files to resolve $ORIGIN.
set(work "${stage}/../pcmap-shlibdeps")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}/debian")
file(WRITE "${work}/debian/control" "")
file(MAKE_DIRECTORY "${stage}/DEBIAN")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C
          "${CPACK_PCMAP_DPKG_SHLIBDEPS}" --ignore-missing-info -O ${binaries}
  WORKING_DIRECTORY "${work}"
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status
  OUTPUT_STRIP_TRAILING_WHITESPACE)
file(REMOVE_RECURSE "${work}" "${stage}/DEBIAN")
if(NOT status EQUAL 0 OR NOT out MATCHES "shlibs:Depends=([^\n]+)")
  message(FATAL_ERROR "pcmap: dpkg-shlibdeps failed (${status}): ${err}")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "${CMAKE_MATCH_1}, ${CPACK_DEBIAN_PACKAGE_DEPENDS}")
message(STATUS "pcmap: Depends: ${CPACK_DEBIAN_PACKAGE_DEPENDS}")
