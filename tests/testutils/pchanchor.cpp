// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The one source of the targets that build the tests' precompiled headers (tests/CMakeLists.txt); it has no code.
