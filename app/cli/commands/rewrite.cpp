// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli rewrite IN OUT`: decodes a .pte and writes it back with ptelens' writer (same decode). A bundled
// program (.bpte) is written back as a bundled program with the same test cases around the rewritten program.
#include "command.h"
#include "jsonoutput.h"
#include "printederror.h"
#include "pte/bundledprogram.h"
#include "pte/programequality.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"

#include <QCommandLineParser>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

namespace pte::cli {

namespace {

bool parseAlignment(const QCommandLineParser& parser, const QCommandLineOption& opt, std::uint64_t* out)
{
    if (!parser.isSet(opt))
        return true;
    bool ok = false;
    const qulonglong v = parser.value(opt).toULongLong(&ok);
    if (!ok || v == 0 || (v & (v - 1)) != 0) {
        std::fprintf(stderr, "ptelens-cli rewrite: --%s must be a power of two, not '%s'\n",
            qPrintable(opt.names().front()), qPrintable(parser.value(opt)));
        return false;
    }
    *out = v;
    return true;
}

int runRewrite(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Reads a .pte and writes it again with ptelens' writer. The decoded program is preserved "
                       "(segments in the same order, inline data stays inline); the layout follows the given "
                       "alignments. OUT is replaced atomically and must not be IN."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("IN"), QStringLiteral("The .pte file to read."));
    parser.addPositionalArgument(QStringLiteral("OUT"), QStringLiteral("The .pte file to write."));
    const QCommandLineOption segmentOpt(QStringLiteral("segment-alignment"),
        QStringLiteral("Alignment of the segment base and of each segment (default 128)."), QStringLiteral("N"));
    const QCommandLineOption constantOpt(QStringLiteral("constant-alignment"),
        QStringLiteral("Alignment of legacy constant_buffer storage (default 16)."), QStringLiteral("N"));
    const QCommandLineOption delegateOpt(QStringLiteral("delegate-alignment"),
        QStringLiteral("Alignment of inline delegate blobs (default 16)."), QStringLiteral("N"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Print what was written as JSON."));
    const QCommandLineOption verifyOpt(QStringLiteral("verify"),
        QStringLiteral("Read OUT back and check that it decodes to the same program (exit 3 otherwise)."));
    parser.addOptions({ segmentOpt, constantOpt, delegateOpt, jsonOpt, verifyOpt, syncOption() });
    if (const auto done = parseArguments(parser, args, "rewrite", 2, "IN and OUT"))
        return *done;
    const QStringList pos = parser.positionalArguments();
    pte::WriteOptions options;
    std::uint64_t constantAlign = options.constantTensorAlignment;
    std::uint64_t delegateAlign = options.delegateAlignment;
    if (!parseAlignment(parser, segmentOpt, &options.segmentAlignment)
        || !parseAlignment(parser, constantOpt, &constantAlign) || !parseAlignment(parser, delegateOpt, &delegateAlign))
        return ExitUsage;
    if (constantAlign > 1024 || delegateAlign > 1024 || options.segmentAlignment > (1ULL << 30)) {
        std::fprintf(stderr,
            "ptelens-cli rewrite: alignments are limited to 1024 (constant, delegate) and 1073741824 (segment)\n");
        return ExitUsage;
    }
    options.constantTensorAlignment = std::uint32_t(constantAlign);
    options.delegateAlignment = std::uint32_t(delegateAlign);

    const std::string in = pos.at(0).toStdString();
    const std::string out = pos.at(1).toStdString();
    struct stat inStat
    { };
    struct stat outStat
    { };
    if (::stat(in.c_str(), &inStat) == 0 && ::stat(out.c_str(), &outStat) == 0 && inStat.st_dev == outStat.st_dev
        && inStat.st_ino == outStat.st_ino) {
        std::fprintf(stderr, "ptelens-cli rewrite: refusing to overwrite the input file %s (OUT %s is the same file)\n",
            in.c_str(), out.c_str());
        return ExitUsage;
    }

    pte::ReadOptions readOptions;
    readOptions.findExternalDataNextToFile = false;
    auto file = pte::readPteFile(in, readOptions);
    if (!file) {
        printError(file.error());
        return file.error().code == pte::ErrorCode::Internal ? ExitInternal : ExitInvalidInput;
    }
    const auto& program = *(*file)->program;
    auto serialized = pte::serializePte(program, options);
    if (!serialized) {
        auto e = serialized.error();
        e.message = "cannot rewrite " + in + ": " + e.message;
        printError(e);
        return e.code == pte::ErrorCode::Internal ? ExitInternal : ExitInvalidInput;
    }
    const auto& bundled = (*file)->bundled;
    std::uint64_t fileSize = serialized->totalSize;
    if (bundled) {
        // A bundled program keeps its test cases: the rewritten program goes back inside the same wrapper.
        auto wrapped = pte::serializeBundledProgram(*bundled, pte::concatenate(*serialized));
        if (!wrapped) {
            auto e = wrapped.error();
            e.message = "cannot rewrite " + in + ": " + e.message;
            printError(e);
            return ExitInvalidInput;
        }
        fileSize = wrapped->size();
        if (auto w = pte::writeFileAtomically(out, *wrapped, syncPolicy(parser)); !w) {
            printError(w.error());
            return ExitInternal;
        }
    } else if (auto w = pte::writeSerializedPte(*serialized, out, syncPolicy(parser)); !w) {
        printError(w.error());
        return ExitInternal;
    }
    if (parser.isSet(verifyOpt)) {
        auto again = pte::readPteFile(out, readOptions);
        if (printedError(again))
            return ExitInternal;
        // Segment offsets are layout (they follow the alignment options); everything else must match.
        if (const auto diff = pte::programDifference(program, *(*again)->program, false)) {
            std::fprintf(stderr, "ptelens-cli rewrite: %s does not decode like %s: %s\n", out.c_str(), in.c_str(),
                diff->c_str());
            return ExitInternal;
        }
        if (bundled) {
            const auto& again2 = (*again)->bundled;
            const auto diff2 = again2 ? pte::bundledTestSuitesDifference(*bundled, *again2)
                                      : std::optional<std::string>("it is no longer a bundled program");
            if (diff2) {
                std::fprintf(stderr, "ptelens-cli rewrite: the test cases of %s differ from those of %s: %s\n",
                    out.c_str(), in.c_str(), diff2->c_str());
                return ExitInternal;
            }
        }
    }
    if (parser.isSet(jsonOpt)) {
        nlohmann::ordered_json j;
        j["input"] = in;
        j["output"] = out;
        j["file_size"] = fileSize;
        j["bundled_test_suites"] = bundled ? bundled->testSuites.size() : 0;
        j["program_size"] = serialized->programSize;
        j["segment_base_offset"] = serialized->segmentBaseOffset;
        j["segments"] = program.segments.size();
        j["verified"] = parser.isSet(verifyOpt);
        printJson(j);
    }
    return ExitOk;
}

} // namespace

PTELENS_REGISTER_COMMAND(rewrite, "rewrite", "Decode a .pte and write it again (same program, new layout)", runRewrite);

} // namespace pte::cli
