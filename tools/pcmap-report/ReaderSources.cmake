# The sources of readBinary() (Report.h): the reader, the section decoder and
# the call-site analysis. pcmap-report and the ELF fuzzer (fuzz/) build them.
set(pcmap_report_reader_sources
  CallSites.cpp
  Decoder.cpp
  Reader.cpp
  ReaderELF.cpp
  ReaderFragments.cpp
  ReaderLines.cpp
  ReaderMetadata.cpp
  ReaderRelocations.cpp
  ReaderStackMaps.cpp
  ReaderSymbols.cpp
  Report.cpp)
list(TRANSFORM pcmap_report_reader_sources PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
