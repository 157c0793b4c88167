# SPDX-License-Identifier: BSD-3-Clause
# `cmake --install`: the libraries as the CMake package `ptosim` (find_package(ptosim) gives
# ptosim::platform and the libraries under it), their headers under include/ptosim by their
# source-tree paths, the shipped configurations, and the ptosim program when it is built.
include(CMakePackageConfigHelpers)

set(PTOSIM_LIBRARIES ptosim_model ptosim_interconnect ptosim_traces ptosim_engines ptosim_platform ptosim_systemc)
foreach(lib ${PTOSIM_LIBRARIES})
  string(REPLACE "ptosim_" "" name ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${name})  # ptosim::model, as the aliases
endforeach()
install(TARGETS ${PTOSIM_LIBRARIES} EXPORT ptosimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET ptosim)
  install(TARGETS ptosim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# The libraries' headers: not the program's commands.h, nor an empty folder for the configurations.
install(DIRECTORY model interconnect traces engines platforms DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptosim
        FILES_MATCHING PATTERN "*.h" PATTERN "commands.h" EXCLUDE PATTERN "configs" EXCLUDE)
install(DIRECTORY platforms/configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ptosim/configs)

set(PTOSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ptosim)
install(EXPORT ptosimTargets NAMESPACE ptosim:: DESTINATION ${PTOSIM_CMAKE_DIR})
configure_package_config_file(cmake/ptosimConfig.cmake.in ${PROJECT_BINARY_DIR}/ptosimConfig.cmake
                              INSTALL_DESTINATION ${PTOSIM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ptosimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ptosimConfig.cmake ${PROJECT_BINARY_DIR}/ptosimConfigVersion.cmake
        DESTINATION ${PTOSIM_CMAKE_DIR})
