# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
# `make package` (the `package` target): a Debian package of what `cmake --install` puts in place, with the Debian
# packages of the shared libraries the binaries link as its dependencies (dpkg-shlibdeps), stripped binaries.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ptelens)
set(CPACK_PACKAGE_VENDOR "The ptelens authors")
set(CPACK_PACKAGE_CONTACT "The ptelens authors <ptelens@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Workbench and command-line tool for ExecuTorch programs")
set(CPACK_PACKAGE_DESCRIPTION
    "ptelens opens ExecuTorch .pte programs and torch.export graph dumps (.pt2 archives, exported-program JSON, \
ETRecords), checks programs the way the ExecuTorch runtime does, emits programs from dumps and shows methods, \
graphs, instructions, values, delegates and sizes. ptelens-cli does the same on the command line.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
include(CPack)
