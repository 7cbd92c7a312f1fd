# SPDX-License-Identifier: Apache-2.0
# Runs cmake/git_revision.cmake (SCRIPT) on source trees without .git, as a
# tarball unpacks, and checks the revision it writes in each case.

function(revision_of source_dir revision_arg out_var)
  set(header "${WORK_DIR}/out.h")
  file(REMOVE "${header}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -DSOURCE_DIR=${source_dir} -DOUTPUT=${header}
            -DREVISION=${revision_arg} -P "${SCRIPT}"
    RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "git_revision.cmake failed for ${source_dir}: ${result}")
  endif()
  file(STRINGS "${header}" line REGEX "MEMSTORE_GIT_REVISION")
  string(REGEX REPLACE ".*MEMSTORE_GIT_REVISION \"([^\"]*)\".*" "\\1" value "${line}")
  set(${out_var} "${value}" PARENT_SCOPE)
endfunction()

function(expect what got want)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${what}: got '${got}', want '${want}'")
  endif()
  message(STATUS "${what}: ${got}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(tree "${WORK_DIR}/tree")
file(MAKE_DIRECTORY "${tree}/cmake")

# A tarball not made by git archive: the placeholder is not substituted.
file(WRITE "${tree}/cmake/git-archive-revision" "$Format:%h$\n")
revision_of("${tree}" "" got)
expect("no .git, placeholder" "${got}" "unknown")

# A tarball made by git archive: export-subst filled in the commit.
file(WRITE "${tree}/cmake/git-archive-revision" "0123456789ab\n")
revision_of("${tree}" "" got)
expect("no .git, archived revision" "${got}" "0123456789ab")

# A revision given at configure time wins over everything.
revision_of("${tree}" "feedface" got)
expect("given revision" "${got}" "feedface")

# No file at all.
file(REMOVE "${tree}/cmake/git-archive-revision")
revision_of("${tree}" "" got)
expect("no .git, no archive file" "${got}" "unknown")
