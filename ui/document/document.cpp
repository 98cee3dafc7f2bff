// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/document.h"

#include "document/delegateinspection.h"
#include "models/text.h"
#include "pte/dumpreader.h"
#include "pte/emittedoutput.h"
#include "pte/etdump.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"

#include <QFile>
#include <QFileInfo>
#include <QPromise>
#include <QSaveFile>

#include <algorithm>
#include <set>

namespace pte::ui {

namespace {

/** A failure of the Document's own (no file or location): invalid input. */
pte::Error failure(const QString& message)
{
    return pte::makeError(pte::ErrorCode::InvalidInput, message.toStdString());
}

std::string uniqueName(const std::vector<DumpMethod>& existing, const std::string& wanted)
{
    auto taken = [&](const std::string& n) {
        for (const auto& m : existing)
            if (m.name == n)
                return true;
        return false;
    };
    if (!taken(wanted))
        return wanted;
    for (int i = 2;; ++i) {
        std::string candidate = wanted + "_" + std::to_string(i);
        if (!taken(candidate))
            return candidate;
    }
}

/** The debug buffer given with an ETDump: a file that is neither an archive, JSON, a program nor an ETDump. */
QString debugBufferAmong(const QStringList& paths)
{
    for (const auto& p : paths) {
        if (classifyInput(p) != InputKind::Dump || QFileInfo(p).suffix().toLower() != QLatin1String("bin"))
            continue;
        QFile f(p);
        QByteArray head;
        if (f.open(QIODevice::ReadOnly))
            head = f.read(4);
        if (!head.startsWith("PK") && !head.trimmed().startsWith('{'))
            return p;
    }
    return {};
}

struct LoadOutcome
{
    std::shared_ptr<Snapshot> snapshot;
    pte::Error error; ///< when nothing could be loaded
};

/** The loading job: reads every file, joins them into one snapshot. Runs on a worker. */
void loadJob(QPromise<LoadOutcome>& promise, QStringList paths, std::shared_ptr<const Snapshot> base)
{
    auto snap = base ? std::make_shared<Snapshot>(*base) : std::make_shared<Snapshot>();
    promise.setProgressRange(0, int(paths.size()) * 10);
    QString ptdPath;
    QString etdumpPath;
    for (const auto& p : paths) {
        const auto kind = classifyInput(p);
        if (kind == InputKind::Ptd)
            ptdPath = p;
        else if (kind == InputKind::Etdump)
            etdumpPath = p;
    }
    const QString debugBuffer = etdumpPath.isEmpty() ? QString() : debugBufferAmong(paths);
    if (!etdumpPath.isEmpty() && snap->profile) {
        // A new ETDump replaces the one open: its file and debug buffer leave the inputs (and the title).
        const auto& old = *snap->profile->dump;
        std::erase_if(snap->inputPaths, [&](const std::string& p) {
            return p == old.path || (!old.debugBufferPath.empty() && p == old.debugBufferPath);
        });
    }
    std::optional<pte::Error> firstError;
    int step = 0;
    for (const QString& path : paths) {
        if (promise.isCanceled())
            return;
        promise.setProgressValueAndText(step * 10, QFileInfo(path).fileName());
        ++step;
        const std::string p = path.toStdString();
        if (std::find(snap->inputPaths.begin(), snap->inputPaths.end(), p) == snap->inputPaths.end())
            snap->inputPaths.push_back(p);
        if (path == debugBuffer)
            continue; // read with the ETDump
        switch (classifyInput(path)) {
        case InputKind::Ptd:
            break; // used by the .pte reader
        case InputKind::Etdump:
            break; // joined below, once the program is known
        case InputKind::Pte: {
            pte::ReadOptions options;
            if (!ptdPath.isEmpty())
                options.externalDataPath = ptdPath.toStdString();
            auto r = pte::readPteFile(p, options);
            if (!r) {
                snap->diagnostics.push_back(pte::diagnosticOf(r.error(), p));
                if (!firstError)
                    firstError = r.error();
                break;
            }
            snap->pteFile = r.value();
            snap->program = snap->pteFile->program;
            for (auto d : snap->pteFile->diagnostics) {
                if (d.file.empty())
                    d.file = p;
                snap->diagnostics.push_back(std::move(d));
            }
            break;
        }
        case InputKind::Dump:
        case InputKind::Unknown: {
            auto r = pte::readDump(p);
            if (!r) {
                snap->diagnostics.push_back(pte::diagnosticOf(r.error(), p));
                if (!firstError)
                    firstError = r.error();
                break;
            }
            const auto& set = *r.value();
            for (const auto& [name, ep] : set.methods) {
                DumpMethod m;
                m.originalName = name;
                m.name = uniqueName(snap->dumpMethods, name);
                m.sourceFile = p;
                m.program = ep;
                if (set.etrecordMaps) {
                    const auto dm = set.etrecordMaps->delegateMap.find(name);
                    if (dm != set.etrecordMaps->delegateMap.end())
                        m.etrecordDelegateMap = dm->second;
                }
                snap->dumpMethods.push_back(std::move(m));
            }
            if (set.etrecordMaps)
                snap->etrecordMaps = std::make_shared<const pte::EtRecordMaps>(*set.etrecordMaps);
            for (auto d : set.diagnostics) {
                if (d.file.empty())
                    d.file = p;
                snap->diagnostics.push_back(std::move(d));
            }
            break;
        }
        }
    }
    // The delegates first: the profile aligns their events with their inner nodes.
    snap->delegates = inspectDelegates(delegateInputsOf(*snap));
    if (!etdumpPath.isEmpty() && !promise.isCanceled()) {
        promise.setProgressValueAndText(int(paths.size()) * 10 - 5, QFileInfo(etdumpPath).fileName());
        pte::EtdumpReadOptions options;
        if (!debugBuffer.isEmpty())
            options.debugBufferPath = debugBuffer.toStdString();
        auto r = pte::readEtdumpFile(etdumpPath.toStdString(), options);
        if (!r) {
            snap->diagnostics.push_back(pte::diagnosticOf(r.error(), etdumpPath.toStdString()));
            if (!firstError)
                firstError = r.error();
        } else {
            std::erase_if(snap->diagnostics,
                [&](const pte::Diagnostic& d) { return snap->profile && d.file == snap->profile->dump->path; });
            snap->profile = buildProfileData(*r, *snap);
            for (const auto& d : snap->profile->diagnostics)
                snap->diagnostics.push_back(d);
        }
    }
    // Added to an open document (dumps, an ETDump), a file that fails leaves the document as it was: its error is the
    // load's, not a diagnostic of the document.
    if (snap->isEmpty() || (base && firstError)) {
        promise.addResult(LoadOutcome { nullptr,
            firstError ? *firstError
                       : failure(QStringLiteral("Nothing to show in %1.").arg(paths.join(QStringLiteral(", ")))) });
        return;
    }
    snap->finalize();
    promise.setProgressValueAndText(int(paths.size()) * 10, QStringLiteral("Loaded"));
    promise.addResult(LoadOutcome { std::move(snap), {} });
}

struct EmitOutcome
{
    std::shared_ptr<const pte::EmitterOutput> output;
    pte::Error error; ///< when output is null
    std::shared_ptr<const ProfileData> profile; ///< the open ETDump joined with the new program
    std::shared_ptr<const DelegateInspection> delegates;
};

struct SaveOutcome
{
    std::optional<pte::Error> error;
};

} // namespace

InputKind classifyInput(const QString& path)
{
    QFile f(path);
    QByteArray head;
    if (f.open(QIODevice::ReadOnly))
        head = f.read(16);
    if (head.size() >= 8) {
        const QByteArray id = head.mid(4, 4);
        if (id.startsWith("ET") && id.at(2) >= '0' && id.at(2) <= '9')
            return InputKind::Pte;
        if (id == "FT01")
            return InputKind::Ptd;
        if (id == "BP08")
            return InputKind::Pte;
        if (pte::looksLikeEtdump(
                std::span(reinterpret_cast<const std::uint8_t*>(head.constData()), std::size_t(head.size()))))
            return InputKind::Etdump;
        if (head.startsWith("PK"))
            return InputKind::Dump;
    }
    const QString trimmed = QString::fromLatin1(head).trimmed();
    if (trimmed.startsWith(QLatin1Char('{')))
        return InputKind::Dump;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pte"))
        return InputKind::Pte;
    if (suffix == QLatin1String("ptd"))
        return InputKind::Ptd;
    if (suffix == QLatin1String("etdp") || suffix == QLatin1String("etdump"))
        return InputKind::Etdump;
    if (suffix == QLatin1String("bpte"))
        return InputKind::Pte;
    if (suffix == QLatin1String("pt2") || suffix == QLatin1String("ep") || suffix == QLatin1String("json")
        || suffix == QLatin1String("bin") || suffix == QLatin1String("etrecord"))
        return InputKind::Dump;
    return InputKind::Unknown;
}

Document::Document(QObject* parent)
    : BackgroundJobs(parent)
{ }

Document::~Document()
{
    cancelAndWait(); // before the members the jobs' callbacks use are gone
}

void Document::publish(std::shared_ptr<Snapshot> snapshot)
{
    snapshot->finalize();
    m_snapshot = std::move(snapshot);
    Q_EMIT snapshotChanged();
}

bool isEtdumpOnly(const QStringList& paths)
{
    const auto isEtdump = [](const QString& p) { return classifyInput(p) == InputKind::Etdump; };
    if (paths.isEmpty())
        return false;
    return std::all_of(paths.begin(), paths.end(), isEtdump)
        || (paths.size() == 2 && !debugBufferAmong(paths).isEmpty()
            && std::any_of(paths.begin(), paths.end(), isEtdump));
}

void Document::open(const QStringList& paths, bool append)
{
    if (paths.isEmpty())
        return;
    // ETDumps (and their debug buffer) alone join the program already open.
    const bool onlyEtdump = isEtdumpOnly(paths);
    QStringList files = paths;
    if (!append && !onlyEtdump && m_snapshot && m_snapshot->profile && !m_snapshot->program
        && m_snapshot->dumpMethods.empty() && std::none_of(paths.begin(), paths.end(), [](const QString& p) {
               return classifyInput(p) == InputKind::Etdump;
           })) {
        // The ETDump open alone waits for its program (its hint says so): the program opened now is joined with it.
        const auto& dump = *m_snapshot->profile->dump;
        files << toQString(dump.path);
        for (const auto& in : m_snapshot->inputPaths)
            if (!dump.debugBufferPath.empty() && in == dump.debugBufferPath)
                files << toQString(in);
    }
    std::shared_ptr<const Snapshot> base = append || (onlyEtdump && m_snapshot) ? m_snapshot : nullptr;
    if (base && !onlyEtdump) {
        // A new emission is needed after adding methods; keep the dumps, drop the old output.
        auto copy = std::make_shared<Snapshot>(*base);
        if (copy->emitted) {
            copy->emitted.reset();
            copy->program = copy->pteFile ? copy->pteFile->program : nullptr;
        }
        base = copy;
    }
    runJob<LoadOutcome>(
        QStringLiteral("Loading"),
        [files, base](QPromise<LoadOutcome>& promise, std::atomic<bool>&) { loadJob(promise, files, base); },
        [this](const LoadOutcome& outcome) {
            if (!outcome.snapshot) {
                Q_EMIT loadFailed(outcome.error);
                return;
            }
            publish(outcome.snapshot);
            Q_EMIT loadFinished();
        });
}

void Document::emitProgram(const EmitSettings& settings)
{
    if (!m_snapshot || m_snapshot->dumpMethods.empty()) {
        Q_EMIT emitFailed(failure(QStringLiteral("There are no graph-dump methods to emit.")));
        return;
    }
    auto snap = std::make_shared<Snapshot>(*m_snapshot);
    std::vector<std::pair<std::string, std::shared_ptr<const pte::ExportedProgram>>> methods;
    std::map<std::string, std::map<std::int64_t, pte::DelegateMapEntry>> etrecordDelegateMap;
    std::set<std::string> names;
    for (std::size_t i = 0; i < snap->dumpMethods.size(); ++i) {
        auto& dm = snap->dumpMethods[i];
        if (i < settings.methodNames.size()) {
            if (!settings.methodNames[i])
                continue;
            dm.name = *settings.methodNames[i];
        }
        if (dm.name.empty() || !names.insert(dm.name).second) {
            Q_EMIT emitFailed(
                failure(QStringLiteral("Method name \"%1\" is empty or used twice.").arg(toQString(dm.name))));
            return;
        }
        methods.emplace_back(dm.name, dm.program);
        if (!dm.etrecordDelegateMap.empty())
            etrecordDelegateMap[dm.name] = dm.etrecordDelegateMap;
    }
    if (methods.empty()) {
        Q_EMIT emitFailed(failure(QStringLiteral("No method is selected for emission.")));
        return;
    }
    for (const auto& [name, value] : settings.primGetters)
        if (names.count(name)) {
            Q_EMIT emitFailed(failure(
                QStringLiteral("\"%1\" is both a method and a prim getter.").arg(QString::fromStdString(name))));
            return;
        }
    const bool stack = settings.emitStacktrace;
    const bool initBuffers = settings.initialiseMutableBuffers;
    const pte::SerializeOptions serialize = settings.serialize;
    const auto primGetters = settings.primGetters;
    const std::shared_ptr<const Snapshot> before = snap;
    runJob<EmitOutcome>(
        QStringLiteral("Emitting"),
        [methods, stack, initBuffers, serialize, etrecordDelegateMap, primGetters, before,
            inputs = delegateInputsOf(*snap)](QPromise<EmitOutcome>& promise, std::atomic<bool>& flag) {
            pte::EmitOptions options;
            options.etrecordDelegateMap = etrecordDelegateMap;
            options.primGetters = primGetters;
            options.emitStacktrace = stack;
            options.initialiseMutableBuffers = initBuffers;
            options.serialize = serialize;
            options.cancel = &flag;
            promise.setProgressRange(0, 1000);
            options.progress = [&promise, &flag](std::uint64_t done, std::uint64_t total) {
                if (promise.isCanceled())
                    flag.store(true);
                if (total > 0)
                    promise.setProgressValue(int(std::min<std::uint64_t>(done, total) * 1000 / total));
            };
            auto r = pte::emitProgram(methods, options);
            if (!r) {
                if (r.error().code == pte::ErrorCode::Cancelled)
                    return;
                promise.addResult(EmitOutcome { nullptr, r.error() });
                return;
            }
            auto output = std::make_shared<const pte::EmitterOutput>(std::move(r).value());
            DelegateInputs emittedInputs = inputs;
            emittedInputs.emitted = output;
            emittedInputs.program = std::shared_ptr<const pte::Program>(output, &output->program);
            emittedInputs.pteFile.reset();
            auto delegates = inspectDelegates(std::move(emittedInputs));
            std::shared_ptr<const ProfileData> profile;
            if (before->profile) {
                Snapshot after = *before;
                after.emitted = output;
                after.program = std::shared_ptr<const pte::Program>(output, &output->program);
                after.delegates = delegates;
                profile = buildProfileData(before->profile->dump, after, before->profile->reference);
            }
            promise.addResult(EmitOutcome { std::move(output), {}, std::move(profile), std::move(delegates) });
        },
        [this, snap](const EmitOutcome& outcome) {
            if (!outcome.output) {
                Q_EMIT emitFailed(outcome.error);
                return;
            }
            snap->emitted = outcome.output;
            snap->program = std::shared_ptr<const pte::Program>(outcome.output, &outcome.output->program);
            snap->pteFile.reset();
            snap->delegates = outcome.delegates;
            std::erase_if(snap->diagnostics, [&](const pte::Diagnostic& d) {
                return d.file == "emitter" || (snap->profile && d.file == snap->profile->dump->path);
            });
            if (outcome.profile) {
                snap->profile = outcome.profile;
                for (const auto& d : snap->profile->diagnostics)
                    snap->diagnostics.push_back(d);
            }
            for (auto d : outcome.output->warnings) {
                if (d.file.empty())
                    d.file = "emitter";
                snap->diagnostics.push_back(std::move(d));
            }
            publish(snap);
            Q_EMIT emitFinished();
        });
}

void Document::setReferenceInputs(const pte::ReferenceInputSpec& spec)
{
    if (!m_snapshot || !m_snapshot->profile)
        return;
    const std::shared_ptr<const Snapshot> before = m_snapshot;
    runJob<std::shared_ptr<const ProfileData>>(
        QStringLiteral("Computing expected values"),
        [before, spec](QPromise<std::shared_ptr<const ProfileData>>& promise, std::atomic<bool>&) {
            promise.addResult(buildProfileData(before->profile->dump, *before, spec));
        },
        [this, before](const std::shared_ptr<const ProfileData>& profile) {
            auto snap = std::make_shared<Snapshot>(*before);
            std::erase_if(snap->diagnostics, [&](const pte::Diagnostic& d) { return d.file == profile->dump->path; });
            snap->profile = profile;
            for (const auto& d : profile->diagnostics)
                snap->diagnostics.push_back(d);
            publish(snap);
        });
}

void Document::runMethod(const RunSettings& settings)
{
    if (!m_snapshot || !m_snapshot->program) {
        Q_EMIT runFailed(failure(QStringLiteral("There is no program to run; open a .pte or emit first.")));
        return;
    }
    const std::shared_ptr<const Snapshot> before = m_snapshot;
    struct Outcome
    {
        std::shared_ptr<const RunResult> result;
        std::optional<pte::Error> error; ///< the inputs could not be had
    };
    runJob<Outcome>(
        QStringLiteral("Running %1").arg(toQString(settings.method)),
        [before, settings](QPromise<Outcome>& promise, std::atomic<bool>& cancelFlag) {
            std::uint64_t shown = 0;
            bool ranged = false;
            auto progress = [&](std::uint64_t done, std::uint64_t total) {
                if (cancelFlag.load() || promise.isCanceled())
                    return false;
                if (!ranged) {
                    promise.setProgressRange(0, 1000);
                    ranged = true;
                }
                // At most a thousand steps reach the GUI thread.
                const std::uint64_t step = total > 0 ? std::min<std::uint64_t>(done * 1000 / total, 1000) : 0;
                if (step != shown) {
                    shown = step;
                    promise.setProgressValueAndText(
                        int(step), QStringLiteral("instruction %1 of %2").arg(done).arg(total));
                }
                return true;
            };
            auto result = runProgram(*before, settings, progress);
            if (cancelFlag.load() || promise.isCanceled())
                return; // no result: cancelled
            promise.addResult(result ? Outcome { *result, std::nullopt } : Outcome { nullptr, result.error() });
        },
        [this, before](const Outcome& outcome) {
            if (outcome.error) {
                Q_EMIT runFailed(*outcome.error);
                return;
            }
            auto snap = std::make_shared<Snapshot>(*(m_snapshot ? m_snapshot : before));
            snap->run = outcome.result;
            publish(snap);
            Q_EMIT runFinished();
        });
}

bool Document::isInputFile(const QString& path) const
{
    if (!m_snapshot)
        return false;
    const QFileInfo target(path);
    const QString canonical = target.canonicalFilePath();
    for (const auto& in : m_snapshot->inputPaths) {
        const QFileInfo info(toQString(in));
        if (info.absoluteFilePath() == target.absoluteFilePath()
            || (!canonical.isEmpty() && info.canonicalFilePath() == canonical))
            return true;
    }
    return false;
}

void Document::save(const QString& path, const pte::WriteOptions& options)
{
    if (!m_snapshot || !m_snapshot->program) {
        Q_EMIT saveFailed(failure(QStringLiteral("There is no program to save; emit first.")));
        return;
    }
    if (isInputFile(path)) {
        Q_EMIT saveFailed(
            failure(QStringLiteral("%1 is an input file; ptelens never overwrites its inputs.").arg(path)));
        return;
    }
    auto snap = m_snapshot;
    const std::string target = path.toStdString();
    runJob<SaveOutcome>(
        QStringLiteral("Saving"),
        [snap, target, options](QPromise<SaveOutcome>& promise, std::atomic<bool>&) {
            promise.setProgressRange(0, 2);
            if (snap->emitted) {
                // Laid out with the serialize options of the emission (the Emit dialog's), not `options`.
                auto laid = pte::layoutEmitted(snap->emitted->program, *snap->emitted);
                if (!laid) {
                    promise.addResult(SaveOutcome { laid.error() });
                    return;
                }
                promise.setProgressValue(1);
                if (promise.isCanceled())
                    return;
                pte::WriteOptions write = snap->emitted->serialize.write;
                write.sync = options.sync;
                auto w = pte::writePte(laid.value(), target, write);
                promise.addResult(SaveOutcome { w ? std::nullopt : std::optional(w.error()) });
                return;
            }
            auto w = pte::writePte(*snap->program, target, options);
            promise.addResult(SaveOutcome { w ? std::nullopt : std::optional(w.error()) });
        },
        [this, path, snap](const SaveOutcome& outcome) {
            if (outcome.error) {
                Q_EMIT saveFailed(*outcome.error);
                return;
            }
            m_savedProgram = snap->program;
            m_savedPath = path;
            Q_EMIT saveFinished(path);
        });
}

bool Document::hasUnsavedProgram() const
{
    return m_snapshot && m_snapshot->emitted && m_savedProgram.lock() != m_snapshot->program;
}

QString Document::savedPath() const
{
    return m_snapshot && m_snapshot->program && m_savedProgram.lock() == m_snapshot->program ? m_savedPath : QString();
}

bool Document::hasDebugMaps() const { return m_snapshot && (m_snapshot->emitted || m_snapshot->etrecordMaps); }

bool Document::exportDebugMaps(const QString& path, QString* error)
{
    auto setError = [error](const QString& e) {
        if (error)
            *error = e;
        return false;
    };
    if (!hasDebugMaps())
        return setError(
            QStringLiteral("There are no debug maps: emit the program or add its ETRecord (File > Add Graph Dump…)."));
    if (isInputFile(path))
        return setError(QStringLiteral("%1 is an input file; ptelens never overwrites its inputs.").arg(path));
    const std::string json =
        m_snapshot->emitted ? pte::debugMapsJson(*m_snapshot->emitted) : pte::debugMapsJson(*m_snapshot->etrecordMaps);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return setError(QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()));
    file.write(json.data(), qint64(json.size()));
    if (!file.commit())
        return setError(QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

bool Document::renameMethod(int dumpIndex, const QString& name)
{
    if (isBusy() || !m_snapshot || dumpIndex < 0 || dumpIndex >= int(m_snapshot->dumpMethods.size()))
        return false;
    const std::string n = name.trimmed().toStdString();
    if (n.empty())
        return false;
    for (std::size_t i = 0; i < m_snapshot->dumpMethods.size(); ++i)
        if (int(i) != dumpIndex && m_snapshot->dumpMethods[i].name == n)
            return false;
    auto snap = std::make_shared<Snapshot>(*m_snapshot);
    snap->dumpMethods[std::size_t(dumpIndex)].name = n;
    publish(snap);
    return true;
}

bool Document::removeMethod(int dumpIndex)
{
    if (isBusy() || !m_snapshot || dumpIndex < 0 || dumpIndex >= int(m_snapshot->dumpMethods.size()))
        return false;
    auto snap = std::make_shared<Snapshot>(*m_snapshot);
    snap->dumpMethods.erase(snap->dumpMethods.begin() + dumpIndex);
    publish(snap);
    return true;
}

} // namespace pte::ui
