// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Helpers of the tests that emit programs and run them on the reference runtime (tst_execution,
// tst_lowering_execution): emit + write + read back, hand-built exported-program JSON, value comparisons.

#include "dumpbuilder.h"
#include "pte/emitter.h"
#include "pte/interpreterrun.h"
#include "pte/ptereader.h"
#include "pte/referenceinterpreter.h"
#include "pte/result.h"

#include <QTest>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace pte::test {

struct Emitted
{
    EmitterOutput output;
    std::shared_ptr<const PteFile> file;
};

/** Emits, writes to a temporary .pte laid out as `options.serialize` says, reads it back; a runtime-check error
 *  fails. */
Result<Emitted> emitAndReload(
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods, const std::string& name,
    const EmitOptions& options = {});

/** Builds `dump`'s "forward", emits it (emitAndReload, named `name`) and runs it on the reference interpreter. */
Result<MethodRun> emitAndRunForward(Dump& dump, const std::vector<HostTensor>& inputs, const std::string& name);

/**
 * What the delegates of a method emitted from `program` compute, for ReferenceInterpreter::setDelegateHandler: the
 * i-th delegate of the method (emission numbers them in graph order) is the i-th `executorch_call_delegate` node of
 * `program`'s graph, and computes what its lowered module's original program (the graph before lowering, aten ops)
 * computes, emitted without delegates and run on the reference interpreter with the call's first arguments as
 * its inputs. Fails for a delegate without an original program.
 */
ReferenceInterpreter::DelegateHandler originalModuleDelegates(std::shared_ptr<const ExportedProgram> program);

/** Element-wise equality within a relative tolerance (absolute below 1). */
bool nearlyEqual(const std::vector<double>& a, const std::vector<double>& b, double tol = 1e-5);
/** "[1.000000, 2.000000]" for failure messages. */
std::string showValues(const std::vector<double>& v);
/** aten's layer norm over consecutive rows of `width` values: (x - mean) / sqrt(var + 1e-5) with the biased
 *  variance, times weight[k] plus bias[k] when they are given, each result rounded to float32. */
std::vector<double> layerNormRows(const std::vector<double>& x, std::size_t width,
    const std::vector<double>& weight = {}, const std::vector<double>& bias = {});

/** torch.export's serialized TensorMeta of a contiguous CPU tensor (dtype: torch serde code, 7 = float32). */
nlohmann::json tensorMetaJson(std::vector<std::int64_t> sizes, int dtype = 7);
/** {"as_tensor": {"name": name}} */
nlohmann::json tensorArgJson(const std::string& name);

} // namespace pte::test

#define COMPARE_VALUES(actual, expected)                                                                               \
    do {                                                                                                               \
        const auto a_ = (actual);                                                                                      \
        const auto e_ = (expected);                                                                                    \
        if (!::pte::test::nearlyEqual(a_, e_))                                                                         \
            QFAIL(("values differ: got " + ::pte::test::showValues(a_) + ", expected " + ::pte::test::showValues(e_))  \
                      .c_str());                                                                                       \
    } while (false)
