# Fails (FATAL_ERROR) when a file of cpp/<folder>/ includes a header of a cpp/
# folder that cmake/layers.cmake does not list below <folder>, or when a folder
# is not declared there. Run as a build step of accelsim_core:
#   cmake -DROOT=<source dir> [-DSTAMP=<file>] -P cmake/check_layers.cmake
if(NOT ROOT)
  message(FATAL_ERROR "check_layers: pass -DROOT=<source dir>")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/layers.cmake)

set(_errors "")
file(GLOB _folders LIST_DIRECTORIES true RELATIVE ${ROOT}/cpp ${ROOT}/cpp/*)
foreach(_folder IN LISTS _folders)
  if(NOT IS_DIRECTORY ${ROOT}/cpp/${_folder} OR _folder STREQUAL "tests")
    continue()
  endif()
  if(NOT _folder IN_LIST ACCELSIM_LAYER_FOLDERS)
    string(APPEND _errors "\n  cpp/${_folder}/: folder has no layer; declare it in cmake/layers.cmake")
    continue()
  endif()
  set(_allowed ${ACCELSIM_LAYER_${_folder}} ${_folder})
  file(GLOB_RECURSE _files RELATIVE ${ROOT} ${ROOT}/cpp/${_folder}/*.h ${ROOT}/cpp/${_folder}/*.cpp
       ${ROOT}/cpp/${_folder}/*.def)
  foreach(_file IN LISTS _files)
    file(STRINGS ${ROOT}/${_file} _lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"[A-Za-z0-9_]+/")
    foreach(_line IN LISTS _lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([A-Za-z0-9_]+)/.*" "\\1" _target "${_line}")
      if(_target IN_LIST ACCELSIM_LAYER_FOLDERS AND NOT _target IN_LIST _allowed)
        string(STRIP "${_line}" _line)
        string(APPEND _errors "\n  ${_file}: ${_line}  (${_folder} may include: ${_allowed})")
      endif()
    endforeach()
  endforeach()
endforeach()

if(_errors)
  message(FATAL_ERROR "layering: includes against the layer order (cmake/layers.cmake, "
                      "docs/design.md):${_errors}")
endif()
if(STAMP)
  file(TOUCH ${STAMP})
endif()
