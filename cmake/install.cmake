# SPDX-License-Identifier: BSD-3-Clause
# `cmake --install`: the libraries as the CMake package `ptosim` (find_package(ptosim) gives
# ptosim::platform and the libraries under it), their headers under include/ptosim by their
# source-tree paths, the shipped configurations, and the ptosim program at the top level.
include(CMakePackageConfigHelpers)

set(libraries ptosim_model ptosim_interconnect ptosim_traces ptosim_engines ptosim_platform ptosim_systemc)
foreach(lib ${libraries})
  string(REPLACE "ptosim_" "" name ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${name})  # ptosim::model, as the aliases
endforeach()
install(TARGETS ${libraries} EXPORT ptosimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(PTOSIM_TOP_LEVEL)  # a design's own program may be called ptosim
  install(TARGETS ptosim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# The libraries' headers: not the program's commands.h, nor an empty folder for the configurations.
install(DIRECTORY model interconnect traces engines platforms DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptosim
        FILES_MATCHING PATTERN "*.h" PATTERN "commands.h" EXCLUDE PATTERN "configs" EXCLUDE)
install(DIRECTORY platforms/configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ptosim/configs)

# The package finds the SystemC ptosim was built against as the build did (ptosim_systemc's link):
# the design's SystemC::systemc target, or the same version through pkg-config (a package that
# cannot have it is not found, rather than failing the design's configuration).
get_target_property(systemc_link ptosim_systemc INTERFACE_LINK_LIBRARIES)
if(systemc_link STREQUAL "SystemC::systemc")
  set(PTOSIM_FIND_SYSTEMC "if(NOT TARGET SystemC::systemc)\n  find_dependency(SystemCLanguage)\nendif()")
else()
  set(systemc "systemc=${PTOSIM_SYSTEMC_systemc_VERSION}")
  set(PTOSIM_FIND_SYSTEMC "if(NOT TARGET PkgConfig::PTOSIM_SYSTEMC)
  find_dependency(PkgConfig)
  pkg_check_modules(PTOSIM_SYSTEMC QUIET IMPORTED_TARGET ${systemc} tlm)
  if(NOT PTOSIM_SYSTEMC_FOUND)
    set(ptosim_FOUND FALSE)
    set(ptosim_NOT_FOUND_MESSAGE \"ptosim needs SystemC ${PTOSIM_SYSTEMC_systemc_VERSION} with TLM through pkg-config (${systemc} tlm)\")
    return()
  endif()
endif()")
endif()
set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/ptosim)
install(EXPORT ptosimTargets NAMESPACE ptosim:: DESTINATION ${cmake_dir})
configure_package_config_file(cmake/ptosimConfig.cmake.in ${PROJECT_BINARY_DIR}/ptosimConfig.cmake
                              INSTALL_DESTINATION ${cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ptosimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ptosimConfig.cmake ${PROJECT_BINARY_DIR}/ptosimConfigVersion.cmake
        DESTINATION ${cmake_dir})
