# SPDX-License-Identifier: Apache-2.0
# Project-wide compile options applied through an interface target, so every
# layer gets the same warnings and sanitizer flags.
add_library(memstore_options INTERFACE)
target_compile_options(memstore_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  # C++ only (the TCMU handler's C shell gets the rest)
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual>)
if(MEMSTORE_WERROR)
  target_compile_options(memstore_options INTERFACE -Werror)
endif()
option(MEMSTORE_FUZZ "Build the libFuzzer targets (clang only)" OFF)
if(MEMSTORE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "MEMSTORE_FUZZ needs clang: configure with CXX=clang++")
  endif()
  # Every library carries coverage instrumentation and the sanitizers, so the
  # fuzzers see into the code they drive.
  target_compile_options(memstore_options INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  target_link_options(memstore_options INTERFACE -fsanitize=address,undefined)
endif()
if(MEMSTORE_SANITIZE)
  target_compile_options(memstore_options INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(memstore_options INTERFACE -fsanitize=address,undefined)
endif()
# Headers are included as "model/geometry.h" etc. from the repository root.
target_include_directories(memstore_options INTERFACE ${PROJECT_SOURCE_DIR})
