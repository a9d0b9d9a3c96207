# Writes the list of the runtime's symbols that an executable exports to the
# shared objects it loads (their module constructors call the runtime, and
# their signal calls go to its interceptors): the linker's --dynamic-list.
#
# Run as a script after the static runtime is built:
#   cmake -DREADELF=<readelf> -DARCHIVE=<libpcmap_rt.a> -DOUTPUT=<file>
#         -DSTATIC=<0|1> -P PCMapExportList.cmake
#
# The list names each symbol: it holds the runtime's global definitions of
# default visibility whose names are the interface (below), and nothing
# else. A pattern such as "__pcmap_*" would also match local symbols (the
# program's own module constructors, the runtime's hidden ones), which gold
# reports, one warning each ("Cannot export local symbol"). A static
# executable exports neither dlopen nor dlclose: with them the linker warns
# as for any static program that uses dlopen.
cmake_minimum_required(VERSION 3.20)

foreach(var READELF ARCHIVE OUTPUT STATIC)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "PCMapExportList.cmake: ${var} is not set")
  endif()
endforeach()

set(interface_regex "^(pcmap_|__pcmap_|__sanitizer_metadata_)")
set(interceptors sigaction signal sigaltstack sigprocmask pthread_sigmask
  sigwait sigwaitinfo sigtimedwait signalfd)
if(NOT STATIC)
  list(APPEND interceptors dlopen dlclose)
endif()

execute_process(COMMAND ${READELF} -s -W ${ARCHIVE}
  OUTPUT_VARIABLE symbols RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${READELF} -s ${ARCHIVE} failed: ${errors}")
endif()

# "  Num:    Value          Size Type    Bind   Vis      Ndx Name"
string(REPLACE "\n" ";" lines "${symbols}")
set(names)
foreach(line IN LISTS lines)
  if(NOT line MATCHES
     "^ *[0-9]+: +[0-9a-f]+ +[0-9]+ +[A-Z_]+ +(GLOBAL|WEAK) +DEFAULT +([A-Z0-9]+) +([^ ]+)$")
    continue()
  endif()
  set(section "${CMAKE_MATCH_2}")
  set(name "${CMAKE_MATCH_3}")
  if(section STREQUAL "UND")
    continue()
  endif()
  if(name MATCHES "${interface_regex}" OR name IN_LIST interceptors)
    list(APPEND names "${name}")
  endif()
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)

foreach(required pcmap_lookup_function __pcmap_sections_add sigaction)
  if(NOT required IN_LIST names)
    message(FATAL_ERROR
      "PCMapExportList.cmake: ${ARCHIVE} defines no '${required}'")
  endif()
endforeach()

set(text "{\n")
foreach(name IN LISTS names)
  string(APPEND text "  ${name};\n")
endforeach()
string(APPEND text "};\n")
# Written only when it changes, so that nothing that depends on it rebuilds.
file(CONFIGURE OUTPUT ${OUTPUT} CONTENT "${text}" @ONLY)
