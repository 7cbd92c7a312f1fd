# SPDX-License-Identifier: Apache-2.0
# `cpack -G DEB` in the build directory makes one .deb of everything
# cmake/install.cmake installs. Configure with -DCMAKE_INSTALL_PREFIX=/usr
# (scripts/package does) so that the paths are Debian's.
set(CPACK_PACKAGE_NAME "memstore")
set(CPACK_PACKAGE_VENDOR "memstore")
set(CPACK_PACKAGE_CONTACT "memstore maintainers <memstore@localhost>")
# Debian's limits (lintian): a synopsis under 80 characters, description
# lines under 80 (CPack indents each line of the description).
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "iSCSI target emulating a MEMS-based storage device, and tools")
set(CPACK_PACKAGE_DESCRIPTION
    "memstored serves an emulated MEMStore (a MEMS-based storage device) as an
iSCSI target, every READ and WRITE completing at the time the device model
predicts. The package also has memsim (the offline simulator), memsctl (the
host tool), the thesis' applications, the tcmu-runner handler, the host
library and the systemd unit.")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "net")
# The build keeps debug information (RelWithDebInfo); the package does not.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# Library dependencies come from dpkg-shlibdeps; libiscsi-dev is what the
# pkg-config file's Requires needs, so it is only suggested.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "tcmu-runner, open-iscsi, libiscsi-dev")
# The configuration is the operator's: dpkg keeps their changes on upgrade.
# The maintainer scripts tell systemd about the unit, and stop and disable
# it on removal; they never start it (packaging/postinst says why).
configure_file("${PROJECT_SOURCE_DIR}/packaging/conffiles.in"
               "${PROJECT_BINARY_DIR}/packaging/conffiles" @ONLY)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    "${PROJECT_BINARY_DIR}/packaging/conffiles"
    "${PROJECT_SOURCE_DIR}/packaging/postinst"
    "${PROJECT_SOURCE_DIR}/packaging/prerm"
    "${PROJECT_SOURCE_DIR}/packaging/postrm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
