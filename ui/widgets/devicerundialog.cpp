// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/devicerundialog.h"

#include "document/devicerun.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QVBoxLayout>

namespace pte::ui {

DeviceRunDialog::DeviceRunDialog(DeviceRun* run, QWidget* parent)
    : QDialog(parent)
    , m_run(run)
{
    setObjectName(QStringLiteral("runDialog"));
    setWindowTitle(QStringLiteral("Run on Device"));
    setModal(false);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto* layout = new QVBoxLayout(this);

    m_command = new QLabel(this);
    m_command->setObjectName(QStringLiteral("runCommand"));
    m_command->setWordWrap(true);
    m_command->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_command);
    m_folder = new QLabel(this);
    m_folder->setObjectName(QStringLiteral("runFolder"));
    m_folder->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_folder);

    m_output = new QPlainTextEdit(this);
    m_output->setObjectName(QStringLiteral("runOutput"));
    m_output->setReadOnly(true);
    m_output->setFont(fixed);
    m_output->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_output->setMaximumBlockCount(20000);
    layout->addWidget(m_output, 1);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("runStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_tail = new QLabel(this);
    m_tail->setObjectName(QStringLiteral("runTail"));
    m_tail->setFont(fixed);
    m_tail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tail->setFrameShape(QFrame::StyledPanel);
    m_tail->setMargin(4);
    m_tail->hide();
    layout->addWidget(m_tail);

    auto* buttons = new QDialogButtonBox(this);
    m_cancel = buttons->addButton(QStringLiteral("Cancel Run"), QDialogButtonBox::RejectRole);
    m_cancel->setObjectName(QStringLiteral("runCancel"));
    m_cancel->setToolTip(QStringLiteral("End the command and everything it started (SIGTERM to its process group, "
                                        "SIGKILL to what does not stop)"));
    m_again = buttons->addButton(QStringLiteral("Run Again"), QDialogButtonBox::ActionRole);
    m_again->setObjectName(QStringLiteral("runAgain"));
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    close->setObjectName(QStringLiteral("runClose"));
    // The buttons' roles only place them: the dialog never closes by itself.
    disconnect(buttons, nullptr, this, nullptr);
    connect(m_cancel, &QPushButton::clicked, m_run, &DeviceRun::cancel);
    connect(m_again, &QPushButton::clicked, this, &DeviceRunDialog::runAgainRequested);
    connect(close, &QPushButton::clicked, this, &QDialog::hide);
    layout->addWidget(buttons);

    connect(m_run, &DeviceRun::commandStarted, this, [this] { m_status->setText(QStringLiteral("Running…")); });
    connect(m_run, &DeviceRun::output, this, &DeviceRunDialog::appendOutput);
    connect(m_run, &DeviceRun::finished, this, &DeviceRunDialog::runFinished);
    resize(900, 560);
}

void DeviceRunDialog::beginRun(const QString& command, const QString& folder)
{
    m_command->setText(QStringLiteral("<b>Command:</b> <tt>%1</tt>").arg(command.toHtmlEscaped()));
    m_folder->setText(QStringLiteral("<b>Folder:</b> <tt>%1</tt>").arg(folder.toHtmlEscaped()));
    m_output->clear();
    m_status->setText(QStringLiteral("Writing the program…"));
    m_status->setStyleSheet(QString());
    m_tail->hide();
    m_tail->clear();
    m_cancel->setEnabled(true);
    m_again->setEnabled(false);
}

QString DeviceRunDialog::outputText() const { return m_output->toPlainText(); }

QString DeviceRunDialog::statusText() const { return m_status->text(); }

void DeviceRunDialog::appendOutput(const QString& text, bool isStderr)
{
    QScrollBar* bar = m_output->verticalScrollBar();
    const bool atEnd = bar->value() == bar->maximum();
    QTextCursor cursor(m_output->document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat format;
    if (isStderr)
        format.setForeground(QColor(0xb0, 0x00, 0x20));
    cursor.insertText(text, format);
    if (atEnd)
        bar->setValue(bar->maximum()); // follow the output unless the user scrolled up
}

void DeviceRunDialog::runFinished(const pte::process::RunnerOutcome& outcome)
{
    using Result = pte::process::RunnerOutcome::Result;
    m_cancel->setEnabled(false);
    m_again->setEnabled(true);
    QString text = outcome.message.toHtmlEscaped();
    if (outcome.result == Result::Ok)
        text += QStringLiteral(" Opening it over the program (Profile view).");
    m_status->setText(text);
    m_status->setStyleSheet(outcome.result == Result::Ok || outcome.result == Result::Cancelled
            ? QString()
            : QStringLiteral("color: #b00020;"));
    if (outcome.result == Result::CommandFailed && !outcome.lastLines.isEmpty()) {
        m_tail->setText(QStringLiteral("Last output lines:\n") + outcome.lastLines.join(QLatin1Char('\n')));
        m_tail->show();
    }
}

} // namespace pte::ui
