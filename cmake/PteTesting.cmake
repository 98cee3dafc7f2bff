# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
# pte_add_qtest(NAME SOURCES ... LIBS ... LABELS ...): one QtTest executable, registered with CTest.
find_package(Qt6 6.4 REQUIRED COMPONENTS Test)

# The corpus ($PTELENS_CORPUS) is read from the environment ctest runs in, not fixed at configure time, so one build
# runs its tests with the corpus (`make test` exports ../shared/fixtures when it exists) and without it
# (`PTELENS_CORPUS= make test`): the corpus cases then skip with a message.

# ExecuTorch's runtime for the `runtime` tests: $PTELENS_ET_RUNNER, else ../shared/tools/etrt_runner (no delegate
# backends), and the same runtime with its XNNPACK backend for programs with XNNPACK delegates:
# $PTELENS_ET_RUNNER_XNNPACK, else ../shared/tools/etrt_runner_xnnpack.
function(pte_find_runner var env file)
    set(path "")
    if(DEFINED ENV{${env}})
        set(path "$ENV{${env}}")
    elseif(EXISTS "${PROJECT_SOURCE_DIR}/../shared/tools/${file}")
        get_filename_component(path "${PROJECT_SOURCE_DIR}/../shared/tools/${file}" ABSOLUTE)
    endif()
    set(${var} "${path}" PARENT_SCOPE)
endfunction()
pte_find_runner(PTELENS_ET_RUNNER_DEFAULT PTELENS_ET_RUNNER etrt_runner)
pte_find_runner(PTELENS_ET_RUNNER_XNNPACK_DEFAULT PTELENS_ET_RUNNER_XNNPACK etrt_runner_xnnpack)

# A test's own code is compiled with line tables only (-g1: file and line in backtraces and sanitizer reports) and,
# in the optimized build, at -O1: full debug information and -O2 made most of a test's compile time, for code
# that runs for milliseconds (docs/building.md). The libraries under test keep the build type's flags.
function(pte_set_test_codegen target)
    target_compile_options(${target} PRIVATE -g1 $<$<CONFIG:RelWithDebInfo,Release>:-O1>)
endfunction()

# A test that runs longer than its timeout fails as hung. 300 s is eight times the slowest test in `build/`; under the
# sanitizers (build-asan/, a Debug build: no optimisation, every access checked) the interpreter-heavy tests run
# 4 to 7 times slower, tst_xnnpack_interpreter 151 s on an idle 2-core machine, 225 to 261 s on a loaded
# machine, and past 300 s with a build running beside it (docs/testing.md, "Timeouts").
if(PTELENS_SANITIZE)
    set(PTE_TEST_TIMEOUT 900)
else()
    set(PTE_TEST_TIMEOUT 300)
endif()

function(pte_add_qtest name)
    cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE pte_testutils Qt6::Test ${ARG_LIBS})
    pte_set_warnings(${name})
    pte_set_test_codegen(${name})
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${PTE_TEST_TIMEOUT}
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;PTELENS_ET_RUNNER=${PTELENS_ET_RUNNER_DEFAULT};PTELENS_ET_RUNNER_XNNPACK=${PTELENS_ET_RUNNER_XNNPACK_DEFAULT};PTELENS_TEST_DATA=${PROJECT_SOURCE_DIR}/tests/data;PTELENS_CLI=$<TARGET_FILE:ptelens-cli>;PTELENS_BENCH=$<TARGET_FILE:ptelens-bench>;PTELENS_BUILD_DIR=${PROJECT_BINARY_DIR}")
endfunction()
