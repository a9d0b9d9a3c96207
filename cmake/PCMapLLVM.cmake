# Locates the LLVM tools that match the LLVM the project builds against, and
# sets the flags an out-of-tree LLVM plugin needs.

set(PCMAP_LLVM_BIN ${LLVM_TOOLS_BINARY_DIR})
foreach(tool clang clang++ opt llc FileCheck not count llvm-readobj llvm-readelf
        llvm-objdump llvm-nm llvm-dwarfdump llvm-mc llvm-objcopy ld.lld)
  string(TOUPPER "${tool}" var)
  string(REPLACE "+" "X" var "${var}")
  string(REPLACE "-" "_" var "${var}")
  string(REPLACE "." "_" var "${var}")
  find_program(PCMAP_${var} ${tool} PATHS ${PCMAP_LLVM_BIN} NO_DEFAULT_PATH)
endforeach()
if(NOT PCMAP_CLANG OR NOT PCMAP_CLANGXX)
  message(FATAL_ERROR "clang ${LLVM_VERSION_MAJOR} not found in ${PCMAP_LLVM_BIN}; "
                      "install clang-${LLVM_VERSION_MAJOR}")
endif()

# lit ships in the LLVM build tree on Debian (llvm-NN-tools).
# Debian ships lit as build/utils/lit/lit.py (LLVM 19) or bin/lit (LLVM 22).
find_program(PCMAP_LIT NAMES lit.py lit
  PATHS ${LLVM_LIBRARY_DIR}/../build/utils/lit ${LLVM_TOOLS_BINARY_DIR}
  NO_DEFAULT_PATH)
find_program(PCMAP_LIT NAMES lit llvm-lit)

# Compile flags for code that includes LLVM headers.
function(pcmap_use_llvm target)
  target_include_directories(${target} SYSTEM PRIVATE ${LLVM_INCLUDE_DIRS})
  separate_arguments(defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_definitions(${target} PRIVATE ${defs})
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${target} PRIVATE -fno-rtti)
  endif()
endfunction()
