// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// gen-test-payloads [--check] DUMPS_DIR: writes the XNNPACK payload (delegateEdgePayload(), built with the flatbuffers
// builder of the tests) into the lowered module of the delegate dumps of tests/data/dumps, in place of the base64
// `processed_bytes` they hold, leaving the rest of each file as it is. `make test-data` runs it; with --check it
// changes nothing and exits 1 when a dump's payload differs. tst_delegatepayload_link checks the committed dumps carry
// it.
#include "../core/delegatetestutils.h"

#include <QByteArray>
#include <QFile>

#include <cstdio>
#include <cstring>

namespace {

constexpr const char* kDumps[] = { "delegate_edge.json", "delegate_named_data.json" };

/** Replaces the one processed_bytes value of the lowered module's JSON string (quotes escaped there). */
bool replacePayload(QByteArray& text, const QByteArray& base64)
{
    const QByteArray key = R"(\"processed_bytes\": \")";
    const qsizetype at = text.indexOf(key);
    if (at < 0 || text.indexOf(key, at + 1) >= 0)
        return false;
    const qsizetype from = at + key.size();
    const qsizetype to = text.indexOf(R"(\")", from);
    if (to < 0)
        return false;
    text.replace(from, to - from, base64);
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    const bool check = argc == 3 && std::strcmp(argv[1], "--check") == 0;
    if (argc != 2 && !check) {
        std::fprintf(stderr, "usage: gen-test-payloads [--check] DUMPS_DIR\n");
        return 2;
    }
    const QString dir = QString::fromLocal8Bit(argv[argc - 1]);
    const auto payload = pte::test::delegateEdgePayload();
    const QByteArray base64 = pte::test::base64Of(payload);
    int status = 0;
    for (const char* name : kDumps) {
        QFile f(dir + QLatin1Char('/') + QLatin1String(name));
        if (!f.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "gen-test-payloads: cannot read %s\n", qPrintable(f.fileName()));
            return 1;
        }
        const QByteArray before = f.readAll();
        f.close();
        QByteArray after = before;
        if (!replacePayload(after, base64)) {
            std::fprintf(stderr, "gen-test-payloads: %s has not exactly one processed_bytes\n", name);
            return 1;
        }
        if (after == before) {
            std::printf("%s: up to date\n", name);
            continue;
        }
        if (check) {
            std::printf("%s: payload differs (run make test-data)\n", name);
            status = 1;
            continue;
        }
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(after) != after.size()) {
            std::fprintf(stderr, "gen-test-payloads: cannot write %s\n", qPrintable(f.fileName()));
            return 1;
        }
        std::printf("%s: payload written (%zu bytes)\n", name, payload.size());
    }
    return status;
}
