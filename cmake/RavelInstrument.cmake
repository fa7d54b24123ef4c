# ravel_instrument(<target>)
#
# Builds <target> for testing under ravel without source changes: its
# sources are compiled with the compiler's ThreadSanitizer instrumentation
# (which reports every atomic operation, plain memory access and function
# entry to hooks) and it is linked against ravel's runtime instead of
# libtsan. Works with gcc and clang. Debug info (-g) is added so that
# reports carry file:line.
#
# Inside ravel's own build the runtime is the target `ravel_rt`; outside it
# set RAVEL_ROOT to an installation (the directory holding lib/ and include/).
function(ravel_instrument target)
  target_compile_options(${target} PRIVATE -fsanitize=thread -g
    $<$<C_COMPILER_ID:GNU>:-Wno-tsan>)
  if(TARGET ravel_rt)
    target_link_libraries(${target} PRIVATE ravel_rt)
    target_include_directories(${target} PRIVATE ${PROJECT_BINARY_DIR}/include)
  else()
    if(NOT RAVEL_ROOT)
      get_filename_component(RAVEL_ROOT "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../.." ABSOLUTE)
    endif()
    target_include_directories(${target} PRIVATE ${RAVEL_ROOT}/include)
    target_link_libraries(${target} PRIVATE ${RAVEL_ROOT}/lib/libravel_rt.so)
    set_property(TARGET ${target} APPEND PROPERTY BUILD_RPATH ${RAVEL_ROOT}/lib)
    set_property(TARGET ${target} APPEND PROPERTY INSTALL_RPATH ${RAVEL_ROOT}/lib)
  endif()
  # The runtime must precede libc in the dynamic dependencies so that its
  # interceptors win; the compiler driver always appends libc last.
  target_link_options(${target} PRIVATE -Wl,--no-as-needed)
endfunction()
