# ravel_instrument(<target>)
#
# Builds <target> for testing under ravel without source changes: its
# sources are compiled with the compiler's ThreadSanitizer instrumentation
# (which reports every atomic operation, plain and volatile memory
# access and function entry to hooks) and it is linked against ravel's
# runtime instead of libtsan. Works with gcc and clang. Debug info (-g) is added so that
# reports carry file:line.
#
# Inside ravel's own build the runtime is the target `ravel_rt`; outside it
# set RAVEL_ROOT to an installation (the directory holding lib/ and include/).
# The installation in use: RAVEL_ROOT, else the prefix this file was
# installed under (PREFIX/lib/cmake/Ravel/RavelInstrument.cmake).
function(_ravel_root out)
  if(RAVEL_ROOT)
    set(${out} ${RAVEL_ROOT} PARENT_SCOPE)
  else()
    get_filename_component(_r "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../.." ABSOLUTE)
    set(${out} ${_r} PARENT_SCOPE)
  endif()
endfunction()

function(ravel_instrument target)
  target_compile_options(${target} PRIVATE -fsanitize=thread -g
    $<$<COMPILE_LANG_AND_ID:C,GNU>:-Wno-tsan>
    $<$<COMPILE_LANG_AND_ID:CXX,GNU>:-Wno-tsan>
    # Volatile accesses get hooks of their own (visible operations, so
    # spin-waits on volatile flags end).
    "$<$<COMPILE_LANG_AND_ID:C,GNU>:SHELL:--param tsan-distinguish-volatile=1>"
    "$<$<COMPILE_LANG_AND_ID:CXX,GNU>:SHELL:--param tsan-distinguish-volatile=1>"
    "$<$<COMPILE_LANG_AND_ID:C,Clang>:SHELL:-mllvm -tsan-distinguish-volatile=1>"
    "$<$<COMPILE_LANG_AND_ID:CXX,Clang>:SHELL:-mllvm -tsan-distinguish-volatile=1>"
    # gcc instruments at link time under -flto, and the link has no
    # -fsanitize=thread (it would bring libtsan): no LTO for the target.
    $<$<COMPILE_LANG_AND_ID:C,GNU>:-fno-lto>
    $<$<COMPILE_LANG_AND_ID:CXX,GNU>:-fno-lto>)
  set_property(TARGET ${target} PROPERTY INTERPROCEDURAL_OPTIMIZATION OFF)
  set_property(TARGET ${target} PROPERTY RAVEL_INSTRUMENTED TRUE)
  if(TARGET ravel_rt)
    target_link_libraries(${target} PRIVATE ravel_rt)
    target_include_directories(${target} PRIVATE ${PROJECT_BINARY_DIR}/include)
    set(_hooks $<TARGET_FILE:ravel_hooks>)
    add_dependencies(${target} ravel_hooks)
  else()
    _ravel_root(_root)
    target_include_directories(${target} PRIVATE ${_root}/include)
    target_link_libraries(${target} PRIVATE ${_root}/lib/libravel_rt.so)
    set_property(TARGET ${target} APPEND PROPERTY BUILD_RPATH ${_root}/lib)
    set_property(TARGET ${target} APPEND PROPERTY INSTALL_RPATH ${_root}/lib)
    set(_hooks ${_root}/lib/libravel_hooks.a)
  endif()
  # An executable calls the hottest access hooks in itself (as ravel-cc
  # links it: src/rt/intercept/tsan_local.c); whole, since the runtime
  # already defines every name they would be pulled in for.
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "EXECUTABLE")
    target_link_options(${target} PRIVATE
      "SHELL:-Wl,--whole-archive \"${_hooks}\" -Wl,--no-whole-archive")
    # (a link option is no dependency: relink when the hooks change)
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${_hooks})
  endif()
  # The runtime must precede libc in the dynamic dependencies so that its
  # interceptors win; the compiler driver always appends libc last.
  target_link_options(${target} PRIVATE -Wl,--no-as-needed
    $<$<LINK_LANG_AND_ID:C,GNU>:-fno-lto> $<$<LINK_LANG_AND_ID:CXX,GNU>:-fno-lto>)
endfunction()

# ravel_add_tests(<target> [TEST_PREFIX <prefix>] [EXTRA_ARGS <args>...]
#                 [WORKING_DIRECTORY <dir>] [PROPERTIES <name> <value>...])
#
# For a target of RAVEL_TEST tests (docs/tests.md): instruments it (as
# ravel_instrument does), links the default main of test programs when it
# has none, and registers every RAVEL_TEST as a CTest test of its own,
# named <prefix>SUITE/NAME, which runs `<target> --filter SUITE/NAME
# <args>`. As gtest_discover_tests does, the names are read after each
# build by running `<target> --list`, so adding a test needs no CMake
# change; until the target is built, ctest shows one <target>_NOT_BUILT
# test. PROPERTIES are set on every test (LABELS, TIMEOUT ...).
function(ravel_add_tests target)
  cmake_parse_arguments(RAVEL_AT "" "TEST_PREFIX;WORKING_DIRECTORY"
    "EXTRA_ARGS;PROPERTIES" ${ARGN})
  get_target_property(_already ${target} RAVEL_INSTRUMENTED)
  if(NOT _already)
    ravel_instrument(${target})
  endif()
  if(TARGET ravel_test_main)
    target_link_libraries(${target} PRIVATE ravel_test_main)
  else()
    _ravel_root(_root)
    target_link_libraries(${target} PRIVATE ${_root}/lib/libravel_test_main.a)
  endif()
  if(NOT RAVEL_AT_WORKING_DIRECTORY)
    set(RAVEL_AT_WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(_base ${CMAKE_CURRENT_BINARY_DIR}/${target}_ravel_tests)
  # What the discovery script needs, written now (lists survive intact).
  file(WRITE ${_base}_params.cmake
    "set(TEST_PREFIX [==[${RAVEL_AT_TEST_PREFIX}]==])\n"
    "set(WORKING_DIRECTORY [==[${RAVEL_AT_WORKING_DIRECTORY}]==])\n"
    "set(EXTRA_ARGS [==[${RAVEL_AT_EXTRA_ARGS}]==])\n"
    "set(PROPERTIES [==[${RAVEL_AT_PROPERTIES}]==])\n")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D TEST_EXECUTABLE=$<TARGET_FILE:${target}>
      -D TARGET=${target} -D PARAMS=${_base}_params.cmake
      -D CTEST_FILE=${_base}.cmake
      -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/RavelDiscoverTests.cmake
    BYPRODUCTS ${_base}.cmake
    VERBATIM)
  file(WRITE ${_base}_include.cmake
    "if(EXISTS [==[${_base}.cmake]==])\n"
    "  include([==[${_base}.cmake]==])\n"
    "else()\n"
    "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES
    ${_base}_include.cmake)
endfunction()
