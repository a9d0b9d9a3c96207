# Whether the compiler can build libFuzzer harnesses: clang, with the fuzzer
# runtime (libclang-rt-<version>-dev) and the address and undefined-behaviour
# sanitizers. Sets PCMAP_HAVE_LIBFUZZER.
include(CheckCXXSourceCompiles)
set(PCMAP_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined
    -fno-sanitize-recover=all -fno-omit-frame-pointer)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer,address,undefined")
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer,address,undefined")
  check_cxx_source_compiles([[
#include <stddef.h>
#include <stdint.h>
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) { return 0; }
]] PCMAP_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
else()
  set(PCMAP_HAVE_LIBFUZZER OFF)
endif()
