# Project-wide compile options applied through an interface target, so every
# layer gets the same warnings and sanitizer flags.
add_library(memstore_options INTERFACE)
target_compile_options(memstore_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual)
if(MEMSTORE_WERROR)
  target_compile_options(memstore_options INTERFACE -Werror)
endif()
if(MEMSTORE_SANITIZE)
  target_compile_options(memstore_options INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(memstore_options INTERFACE -fsanitize=address,undefined)
endif()
# Headers are included as "model/geometry.h" etc. from the repository root.
target_include_directories(memstore_options INTERFACE ${PROJECT_SOURCE_DIR})
