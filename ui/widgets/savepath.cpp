// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/savepath.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace pte::ui {

QString proposedSavePath(const QStringList& inputs, const QString& suffix)
{
    if (inputs.isEmpty())
        return {};
    const QFileInfo first(inputs.front());
    const QString base = first.dir().filePath(first.completeBaseName());
    QString path = base + suffix;
    const auto isInput = [&inputs](const QString& p) {
        for (const auto& in : inputs)
            if (QFileInfo(in).absoluteFilePath() == QFileInfo(p).absoluteFilePath())
                return true;
        return false;
    };
    if (isInput(path))
        path = base + QStringLiteral(".rewritten") + suffix;
    return path;
}

QString askSavePath(QWidget* parent, const QString& title, const QString& nameFilter, const QString& defaultSuffix,
    const QString& proposal, const std::function<bool(const QString&)>& isInput)
{
    QFileDialog dialog(parent, title);
    dialog.setObjectName(QStringLiteral("saveFileDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    dialog.setNameFilter(nameFilter);
    dialog.setDefaultSuffix(defaultSuffix);
    // Replacing is asked below, after inputs are refused: the dialog asking first would contradict the refusal.
    dialog.setOption(QFileDialog::DontConfirmOverwrite);
    if (!proposal.isEmpty()) {
        dialog.setDirectory(QFileInfo(proposal).absolutePath());
        dialog.selectFile(QFileInfo(proposal).fileName());
    }
    while (dialog.exec() == QDialog::Accepted) {
        const QString path = dialog.selectedFiles().value(0);
        if (path.isEmpty())
            continue;
        if (isInput && isInput(path)) {
            QMessageBox::warning(&dialog, title,
                QStringLiteral("%1 is one of the opened files. ptelens never overwrites its inputs; choose another "
                               "name.")
                    .arg(QDir::toNativeSeparators(path)));
            continue;
        }
        if (QFileInfo::exists(path)
            && QMessageBox::question(&dialog, title,
                   QStringLiteral("%1 already exists. Replace it?").arg(QFileInfo(path).fileName()),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No)
                != QMessageBox::Yes)
            continue;
        return path;
    }
    return {};
}

} // namespace pte::ui
