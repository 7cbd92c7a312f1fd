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
# Debian's hardening, as dpkg-buildflags gives every package (lintian's
# hardening-no-fortify-functions and hardening-no-bindnow): a network daemon
# that hostile initiators talk to gets the stack protector, checked string
# and memory functions, and a read-only GOT resolved at start. Every build
# has it, so that the package's build (scripts/package) reuses the main
# build's objects; not the sanitizer and fuzzer builds, whose own checks
# _FORTIFY_SOURCE gets in the way of.
option(MEMSTORE_HARDENING "Build with Debian's hardening flags" ON)
if(MEMSTORE_HARDENING AND NOT MEMSTORE_FUZZ AND NOT MEMSTORE_SANITIZE AND NOT MEMSTORE_TSAN)
  target_compile_options(memstore_options INTERFACE -fstack-protector-strong
    # _FORTIFY_SOURCE needs the optimizer; a Debug build would only warn.
    $<$<NOT:$<CONFIG:Debug>>:-D_FORTIFY_SOURCE=2>)
  target_link_options(memstore_options INTERFACE LINKER:-z,relro LINKER:-z,now)
endif()
# Headers are included as "model/geometry.h" etc. from the repository root.
target_include_directories(memstore_options INTERFACE ${PROJECT_SOURCE_DIR})
