# PCMAP_PYTHON: the Python interpreter the tests run (lit's %python).
#
# The tests start Python hundreds of times. Where the python3 on the PATH
# is a launcher (pyenv's shims are a shell script: 0.5 s a start against
# 0.1 s), they run the interpreter it starts instead.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
execute_process(
  COMMAND ${Python3_EXECUTABLE} -c "import sys; print(sys.executable)"
  OUTPUT_VARIABLE PCMAP_PYTHON OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE pcmap_python_status ERROR_QUIET)
if(NOT pcmap_python_status EQUAL 0 OR NOT IS_ABSOLUTE "${PCMAP_PYTHON}" OR
   NOT EXISTS "${PCMAP_PYTHON}")
  set(PCMAP_PYTHON ${Python3_EXECUTABLE})
endif()
