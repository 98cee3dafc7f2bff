// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/backgroundjobs.h"
#include "document/snapshot.h"
#include "pte/referenceinputs.h"
#include "pte/serializeoptions.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pte::ui {

/** What the Emit dialog asks for. */
struct EmitSettings
{
    /** One entry per Snapshot::dumpMethods: the method name to emit it as, or nullopt to leave it out. */
    std::vector<std::optional<std::string>> methodNames;
    bool emitStacktrace = false;
    /** EmitOptions::initialiseMutableBuffers: store mutable buffers' initial state (ExecuTorch's et_init_buffer). */
    bool initialiseMutableBuffers = false;
    pte::SerializeOptions serialize;
    /** Constant methods to add (EmitOptions::primGetters): name -> Int, Double, Bool or String. */
    std::map<std::string, pte::EValue> primGetters;
};

/** Kinds of input file, decided from the first bytes (then the extension). */
enum class InputKind
{
    Unknown,
    Pte,
    Ptd,
    Dump, ///< .pt2 / legacy zip / exported-program JSON / ETRecord
    Etdump, ///< an ETDump (.etdp): joined with the program of the same open, or the one already open
};
[[nodiscard]] InputKind classifyInput(const QString& path);
/** True when the files are only an ETDump (with, optionally, its debug buffer): opening them keeps the open program. */
[[nodiscard]] bool isEtdumpOnly(const QStringList& paths);

/**
 * One open workspace: a .pte (plus ETRecord / .ptd given alongside) or a set of graph dumps. Owns the
 * current Snapshot and runs loading, emission and saving in QtConcurrent with progress and cancel.
 * Only one job runs at a time; starting one supersedes (cancels) the previous, whose result is dropped
 * (generation id). The destructor cancels and waits. Lives on the GUI thread.
 */
class Document : public BackgroundJobs
{
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);
    ~Document() override;

    /**
     * Opens files (replacing the current content, or adding graph dumps when append is set). ETDumps among them are
     * joined with the program opened with them; ETDumps alone (with their debug buffer, a .bin) are joined with the
     * program already open, which stays, and replace the ETDump open before. A program opened while an ETDump is
     * open alone is joined with that ETDump. On failure (loadFailed) the document stays as it was.
     */
    void open(const QStringList& paths, bool append = false);
    /** Emits the dump methods (background); emitFinished/emitFailed. */
    void emitProgram(const EmitSettings& settings);
    /** Serializes the current program to path (background, atomic); saveFinished/saveFailed. An emitted program is
     *  laid out with the serialize options it was emitted with (EmitSettings::serialize); `options` lay out a loaded
     *  program, and their `sync` applies to both. */
    void save(const QString& path, const pte::WriteOptions& options = {});
    /** Writes the debug maps (ETRecord JSON layout); returns false and sets *error on failure. */
    bool exportDebugMaps(const QString& path, QString* error = nullptr);
    /** Recomputes the open ETDump's expected values with these reference inputs (background); snapshotChanged. */
    void setReferenceInputs(const pte::ReferenceInputSpec& spec);

    /**
     * Runs a method of the program on the reference interpreter (background, progress per instruction, Cancel stops
     * it between two instructions and drops it); runFinished, or runFailed when the inputs cannot be had. The result
     * is Snapshot::run (docs/gui-run.md).
     */
    void runMethod(const RunSettings& settings);

    /** Renames a dump method (before emitting). False when the name is empty or taken. */
    bool renameMethod(int dumpIndex, const QString& name);
    /** Removes a dump method. */
    bool removeMethod(int dumpIndex);

    [[nodiscard]] std::shared_ptr<const Snapshot> snapshot() const { return m_snapshot; }
    [[nodiscard]] bool canEmit() const { return !isBusy() && m_snapshot && !m_snapshot->dumpMethods.empty(); }
    [[nodiscard]] bool canRun() const { return !isBusy() && m_snapshot && m_snapshot->program; }
    [[nodiscard]] bool canSave() const { return !isBusy() && m_snapshot && m_snapshot->program; }
    [[nodiscard]] bool hasDebugMaps() const;
    /** True when path names one of the opened input files. */
    [[nodiscard]] bool isInputFile(const QString& path) const;
    /**
     * An emitted program that has not been saved since it was emitted. It stays unsaved through everything added to
     * the document (an ETDump joined, other reference inputs, a failed open); it goes with the emission (opening
     * other files, adding dumps) or with a save.
     */
    [[nodiscard]] bool hasUnsavedProgram() const;
    /** Where the open program was last saved ("" when it was not: a new emission, or nothing saved yet). */
    [[nodiscard]] QString savedPath() const;

Q_SIGNALS:
    void snapshotChanged();
    /** Failures carry the core's pte::Error whole: message, file offset, field path and Error::location (the
     *  method and node an emission failed on), so views can show and navigate to it. */
    void loadFinished();
    void loadFailed(const pte::Error& error);
    void emitFinished();
    void emitFailed(const pte::Error& error);
    void saveFinished(const QString& path);
    void runFinished();
    void runFailed(const pte::Error& error);
    void saveFailed(const pte::Error& error);

private:
    void publish(std::shared_ptr<Snapshot> snapshot);

    std::shared_ptr<const Snapshot> m_snapshot;
    /** The program last saved and where: the save belongs to that program (an emission), not to the snapshot, so
     *  snapshots built on it (an ETDump joined) keep it; weak, not to keep a program of a closed file alive. */
    std::weak_ptr<const pte::Program> m_savedProgram;
    QString m_savedPath;
};

} // namespace pte::ui

Q_DECLARE_METATYPE(pte::Error)
