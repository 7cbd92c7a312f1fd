// SPDX-License-Identifier: Apache-2.0
// The project's version and the git revision it was built from, for every
// program's --version (captured by CMake: version/CMakeLists.txt).
#pragma once

#include <string>
#include <string_view>

namespace memstore {

// The project version of CMakeLists.txt, e.g. "0.1.0".
std::string_view version();

// The abbreviated commit, with "-dirty" when the tree had uncommitted
// changes; "unknown" when built from a tarball without .git or a recorded
// revision (cmake/git_revision.cmake).
std::string_view git_revision();

// The one line every program prints for --version:
// "<program> <version> (git <revision>)".
std::string version_line(std::string_view program);

}  // namespace memstore
