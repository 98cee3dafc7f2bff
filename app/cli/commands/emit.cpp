// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli emit DUMP... -o OUT.pte [--method NAME=DUMP] [--emit-stacktrace] [--debug-maps OUT.json]
// [--coverage] [--zero-fill-missing-weights] [--init-mutable-buffers]`: graph dumps -> an ExecuTorch program, written
// atomically. ETRecords are emitted from their edge-dialect program(s) and their delegate_map is carried over.
#include "command.h"
#include "printederror.h"
#include "pte/dumpreader.h"
#include "pte/emittedoutput.h"
#include "pte/emitter.h"
#include "pte/mappedfile.h"
#include "pte/ptewriter.h"

#include <QCommandLineParser>
#include <QFileInfo>

#include <cstdio>
#include <set>

namespace pte::cli {

namespace {

int exitFor(const pte::Error& e)
{
    switch (e.code) {
    case pte::ErrorCode::Internal:
    case pte::ErrorCode::Io:
        return ExitInternal;
    default:
        return ExitInvalidInput;
    }
}

int runEmit(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Emits an ExecuTorch program (.pte) from graph dumps (PT2 archives, torch.export zips, ETRecords,\n"
        "exported-program JSON). Each dump contributes its methods; --method names a single-program dump.\n"
        "A single program in total becomes the method 'forward'."));
    parser.addHelpOption();
    parser.addPositionalArgument(
        QStringLiteral("DUMP"), QStringLiteral("Graph dumps to emit."), QStringLiteral("DUMP..."));
    const QCommandLineOption outOpt(QStringList { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("The .pte to write."), QStringLiteral("OUT.pte"));
    const QCommandLineOption methodOpt(QStringLiteral("method"),
        QStringLiteral("Emit the (single) program of DUMP as method NAME. Repeatable."), QStringLiteral("NAME=DUMP"));
    const QCommandLineOption stackOpt(
        QStringLiteral("emit-stacktrace"), QStringLiteral("Store each kernel call's stack trace."));
    const QCommandLineOption mapsOpt(QStringLiteral("debug-maps"),
        QStringLiteral("Write the debug handle, delegate and num-outs maps (ETRecord layout) as JSON."),
        QStringLiteral("OUT.json"));
    const QCommandLineOption coverageOpt(QStringLiteral("coverage"),
        QStringLiteral("Print every operator and whether the portable kernels implement it."));
    const QCommandLineOption zeroOpt(QStringLiteral("zero-fill-missing-weights"),
        QStringLiteral("Emit weights the dump lacks (bare JSON) as zeros instead of failing."));
    const QCommandLineOption initOpt(QStringLiteral("init-mutable-buffers"),
        QStringLiteral("Store the dump's bytes of mutable buffers as their initial state (mutable data segment), "
                       "as ExecuTorch's et_init_buffer does; by default they start uninitialised."));
    parser.addOptions({ outOpt, methodOpt, stackOpt, mapsOpt, coverageOpt, zeroOpt, initOpt, syncOption() });
    if (const auto done = parseArguments(parser, args, "emit"))
        return *done;
    const QStringList dumps = parser.positionalArguments();
    const QStringList named = parser.values(methodOpt);
    if ((dumps.isEmpty() && named.isEmpty()) || !parser.isSet(outOpt)) {
        std::fprintf(stderr, "ptelens-cli emit: expected at least one DUMP and -o OUT.pte\n%s",
            qPrintable(helpText(parser, "emit")));
        return ExitUsage;
    }
    const QString out = parser.value(outOpt);
    const QString outCanonical = QFileInfo(out).absoluteFilePath();
    std::vector<std::pair<QString, QString>> inputs; // method name (empty = from the dump), path
    for (const auto& d : dumps)
        inputs.emplace_back(QString(), d);
    for (const auto& m : named) {
        const auto eq = m.indexOf(QLatin1Char('='));
        if (eq <= 0 || eq == m.size() - 1) {
            std::fprintf(stderr, "ptelens-cli emit: --method expects NAME=DUMP, got '%s'\n", qPrintable(m));
            return ExitUsage;
        }
        inputs.emplace_back(m.left(eq), m.mid(eq + 1));
    }
    for (const auto& [name, path] : inputs) {
        const QFileInfo fi(path);
        if (fi.absoluteFilePath() == outCanonical
            || (fi.exists() && QFileInfo(out).exists()
                && fi.canonicalFilePath() == QFileInfo(out).canonicalFilePath())) {
            std::fprintf(stderr, "ptelens-cli emit: refusing to overwrite the input %s\n", qPrintable(path));
            return ExitUsage;
        }
    }

    std::vector<std::pair<std::string, std::shared_ptr<const pte::ExportedProgram>>> methods;
    std::map<std::string, std::string> sourceOf;
    pte::EmitOptions options;
    options.emitStacktrace = parser.isSet(stackOpt);
    options.zeroFillMissingWeights = parser.isSet(zeroOpt);
    options.initialiseMutableBuffers = parser.isSet(initOpt);
    options.serialize.write.sync = syncPolicy(parser);
    std::vector<std::shared_ptr<const pte::DumpSet>> keep;
    for (const auto& [name, path] : inputs) {
        auto set = pte::readDump(path.toStdString());
        if (printedError(set))
            return ExitInvalidInput;
        const auto& ds = **set;
        keep.push_back(*set);
        for (const auto& d : ds.diagnostics)
            printDiagnostic(d);
        if (ds.methods.empty()) {
            std::fprintf(stderr, "ptelens-cli emit: %s holds no program to emit\n", qPrintable(path));
            return ExitInvalidInput;
        }
        if (!name.isEmpty() && ds.methods.size() != 1) {
            std::fprintf(stderr, "ptelens-cli emit: --method %s: %s holds %zu programs; name them without --method\n",
                qPrintable(name), qPrintable(path), ds.methods.size());
            return ExitUsage;
        }
        for (const auto& [mname, ep] : ds.methods) {
            const std::string methodName = name.isEmpty() ? mname : name.toStdString();
            const auto [it, fresh] = sourceOf.emplace(methodName, path.toStdString());
            if (!fresh) {
                std::fprintf(stderr,
                    "ptelens-cli emit: method '%s' comes from both %s and %s; use --method NAME=DUMP\n",
                    methodName.c_str(), it->second.c_str(), qPrintable(path));
                return ExitUsage;
            }
            methods.emplace_back(methodName, ep);
            if (ds.etrecordMaps) {
                const auto dm = ds.etrecordMaps->delegateMap.find(mname);
                if (dm != ds.etrecordMaps->delegateMap.end())
                    options.etrecordDelegateMap[methodName] = dm->second;
            }
        }
    }

    // A single program is the method `forward` (emit_program's rule), whatever the dump called it.
    if (methods.size() == 1 && named.isEmpty() && methods[0].first != "forward") {
        const auto old = methods[0].first;
        methods[0].first = "forward";
        const auto dm = options.etrecordDelegateMap.find(old);
        if (dm != options.etrecordDelegateMap.end()) {
            auto entry = dm->second;
            options.etrecordDelegateMap.erase(dm);
            options.etrecordDelegateMap["forward"] = std::move(entry);
        }
    }
    auto emitted = pte::emitProgram(methods, options);
    if (!emitted) {
        printError(emitted.error());
        return exitFor(emitted.error());
    }
    for (const auto& w : emitted->warnings)
        printDiagnostic(w);
    // The summary is taken before the program moves into its serialized layout (no copy of 100k instructions).
    const std::size_t plans = emitted->program.executionPlan.size();
    const std::size_t constants = std::max<std::size_t>(emitted->program.constantBuffer.size(), 1) - 1;
    std::size_t instructions = 0;
    for (const auto& p : emitted->program.executionPlan)
        for (const auto& c : p.chains)
            instructions += c.instructions.size();
    auto laid = pte::layoutEmitted(std::move(emitted->program), *emitted);
    if (!laid) {
        printError(laid.error());
        return exitFor(laid.error());
    }
    if (auto w = pte::writePte(*laid, out.toStdString(), emitted->serialize.write); !w) {
        printError(w.error());
        return ExitInternal;
    }
    if (parser.isSet(mapsOpt)) {
        const auto text = pte::debugMapsJson(*emitted) + "\n";
        const auto bytes =
            std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
        if (auto w = pte::writeFileAtomically(parser.value(mapsOpt).toStdString(), bytes, syncPolicy(parser)); !w) {
            printError(w.error());
            return ExitInternal;
        }
    }
    if (parser.isSet(coverageOpt)) {
        std::string report = "kernel coverage (ExecuTorch portable kernels):\n";
        std::size_t missing = 0;
        for (const auto& [method, info] : emitted->methods) {
            report += "  " + method + ":\n";
            for (const auto& [op, ok] : info.kernelCoverage) {
                report += "    " + op + std::string(ok ? "  portable\n" : "  MISSING\n");
                missing += ok ? 0 : 1;
            }
        }
        report += missing ? "  " + std::to_string(missing) + " operator(s) not in the portable library\n"
                          : "  every operator is in the portable library\n";
        printOut(report);
    }
    printOut("wrote " + out.toStdString() + ": " + std::to_string(plans) + " plan(s), " + std::to_string(instructions)
        + " instruction(s), " + std::to_string(constants) + " constant(s)\n");
    return ExitOk;
}

} // namespace

PTELENS_REGISTER_COMMAND(emit, "emit", "Emit an ExecuTorch program (.pte) from graph dumps", runEmit);

} // namespace pte::cli
