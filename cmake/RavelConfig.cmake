# RavelConfig.cmake - find_package(Ravel) for an installed ravel.
#
# Gives ravel_instrument(<target>) and ravel_add_tests(<target> ...)
# (RavelInstrument.cmake, beside this file), the variables RAVEL_ROOT
# (the installation prefix), RAVEL_EXECUTABLE (bin/ravel) and
# RAVEL_CC (bin/ravel-cc), and the imported target Ravel::rt (the runtime
# library with its include directory).
get_filename_component(_ravel_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT RAVEL_ROOT)
  set(RAVEL_ROOT ${_ravel_prefix})
endif()
set(RAVEL_EXECUTABLE ${RAVEL_ROOT}/bin/ravel)
set(RAVEL_CC ${RAVEL_ROOT}/bin/ravel-cc)
if(NOT TARGET Ravel::rt)
  add_library(Ravel::rt SHARED IMPORTED)
  set_target_properties(Ravel::rt PROPERTIES
    IMPORTED_LOCATION ${RAVEL_ROOT}/lib/libravel_rt.so
    INTERFACE_INCLUDE_DIRECTORIES ${RAVEL_ROOT}/include)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/RavelInstrument.cmake)
set(Ravel_FOUND TRUE)
