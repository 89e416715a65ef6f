# Unity builds that a compiler cache can share between clones, and that never mix two folders.
#
# arena_unity(target) compiles the target's .cc files in batches of ARENA_UNITY_BATCH_SIZE, one
# folder's files per batch (a model's edit recompiles only batches of that model), so that the
# headers are parsed and the Eigen templates a batch uses are instantiated once per batch
# (docs/build.md). CMake's own unity build writes batch files that include each source by its
# absolute path, which makes every batch differ between two clones; these batches include the
# sources by their path in the repository (found through the project's include root), so with
# CCACHE_BASEDIR set to the clone a fresh clone compiles from the cache. A source with
# SKIP_UNITY_BUILD_INCLUSION (one that carries its own compile definitions) is compiled alone.
set(ARENA_UNITY_BATCH_SIZE 8 CACHE STRING "Source files per unity batch")

function(arena_unity target)
  if(NOT ARENA_UNITY_BUILD)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  set(folders "")
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\.cc$")
      continue()
    endif()
    get_filename_component(path "${source}" ABSOLUTE)
    get_source_file_property(alone "${path}" SKIP_UNITY_BUILD_INCLUSION)
    if(alone)
      continue()
    endif()
    file(RELATIVE_PATH relative "${PROJECT_SOURCE_DIR}" "${path}")
    get_filename_component(folder "${relative}" DIRECTORY)
    string(MAKE_C_IDENTIFIER "${folder}" key)
    list(APPEND folders ${key})
    list(APPEND files_${key} "${relative}")
    set_source_files_properties("${path}" PROPERTIES HEADER_FILE_ONLY ON)
  endforeach()
  list(REMOVE_DUPLICATES folders)
  set(batches "")
  foreach(key IN LISTS folders)
    set(index 0)
    set(count 0)
    set(text "")
    list(LENGTH files_${key} total)
    foreach(relative IN LISTS files_${key})
      string(APPEND text "#include \"${relative}\"\n")
      math(EXPR count "${count} + 1")
      math(EXPR total "${total} - 1")
      if(count EQUAL ARENA_UNITY_BATCH_SIZE OR total EQUAL 0)
        set(batch "${CMAKE_CURRENT_BINARY_DIR}/unity/${target}/${key}_${index}.cc")
        file(CONFIGURE OUTPUT "${batch}" CONTENT "${text}" @ONLY)
        list(APPEND batches "${batch}")
        math(EXPR index "${index} + 1")
        set(count 0)
        set(text "")
      endif()
    endforeach()
  endforeach()
  target_sources(${target} PRIVATE ${batches})
endfunction()
