# SPDX-License-Identifier: Apache-2.0
# What `cmake --install` and the .deb (cmake/packaging.cmake) put where.
# Configure with -DCMAKE_INSTALL_PREFIX=/usr for a system install: the
# TCMU handler then lands in /usr/lib/<triplet>/tcmu-runner, where Debian's
# tcmu-runner looks, and the configuration in /etc/memstore.
include(GNUInstallDirs)

set(MEMSTORE_SYSTEMD_UNIT_DIR "lib/systemd/system" CACHE STRING
    "Where the systemd unit goes, relative to the prefix (bookworm: /usr/lib/systemd/system)")

# Programs: the daemon in sbin (its page is in section 8), the tools in bin.
install(TARGETS memstored RUNTIME DESTINATION "${CMAKE_INSTALL_SBINDIR}" COMPONENT runtime)
install(TARGETS memsctl memsim memstore-scan memstore-capsule memstore-crash
        RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
# The TCMU handler's rule is beside its target (target/tcmu/CMakeLists.txt).

# The host library: static archives (no ABI is promised yet, so no shared
# object), the C API header and a pkg-config file. The archives the host
# library needs below it come along.
install(TARGETS memstore_host memstore_modepages memstore_model
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev)
# Stripping (cmake --install --strip, and the .deb) leaves static archives
# alone; their debug information is most of their size, so it goes too, and
# their symbols stay.
foreach(archive memstore_host memstore_modepages memstore_model)
  install(CODE "
    if(CMAKE_INSTALL_DO_STRIP)
      execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug
        \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/lib${archive}.a\"
        COMMAND_ERROR_IS_FATAL ANY)
    endif()" COMPONENT dev)
endforeach()
install(FILES host/memstore_host.h DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/memstore"
        COMPONENT dev)
configure_file(host/memstore-host.pc.in "${PROJECT_BINARY_DIR}/memstore-host.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/memstore-host.pc"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT dev)

# The service, its configuration and the annotated example.
configure_file(systemd/memstored.service.in "${PROJECT_BINARY_DIR}/memstored.service" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/memstored.service"
        DESTINATION "${MEMSTORE_SYSTEMD_UNIT_DIR}" COMPONENT runtime)
install(FILES etc/memstored.toml DESTINATION "${CMAKE_INSTALL_FULL_SYSCONFDIR}/memstore"
        COMPONENT runtime)
install(FILES examples/memstored.toml examples/minimal.toml examples/g2-variant.toml
        DESTINATION "${CMAKE_INSTALL_DOCDIR}/examples" COMPONENT runtime)
# Debian policy §12.5 and §12.7: every package carries its copyright file
# and its changelog, the latter gzip -9n (reproducible, as the man pages).
install(FILES packaging/copyright DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime)
# (configure_file: an edited changelog reruns the configuration, and this.)
configure_file(packaging/changelog "${PROJECT_BINARY_DIR}/packaging/changelog" COPYONLY)
execute_process(COMMAND gzip -9nkf "${PROJECT_BINARY_DIR}/packaging/changelog"
                COMMAND_ERROR_IS_FATAL ANY)
install(FILES "${PROJECT_BINARY_DIR}/packaging/changelog.gz" DESTINATION "${CMAKE_INSTALL_DOCDIR}"
        COMPONENT runtime)
# The man pages' rules are in man/CMakeLists.txt.
