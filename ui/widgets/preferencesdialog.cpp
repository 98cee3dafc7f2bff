// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/preferencesdialog.h"

#include "document/devicerun.h"
#include "pte/runnertemplate.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace pte::ui {

namespace {

/** Example paths for the preview under the field. */
pte::RunnerPaths examplePaths()
{
    return pte::RunnerPaths { "/tmp/ptelens-run-X/program.pte", "/tmp/ptelens-run-X/run.etdp",
        "/tmp/ptelens-run-X/debug.bin", "/tmp/ptelens-run-X/inputs.json" };
}

} // namespace

PreferencesDialog::PreferencesDialog(QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(QStringLiteral("Preferences"));
    auto* layout = new QVBoxLayout(this);

    auto* runBox = new QWidget(this);
    auto* run = new QVBoxLayout(runBox);
    run->setContentsMargins(0, 0, 0, 0);
    auto* heading = new QLabel(QStringLiteral("<b>Run on Device</b>"), runBox);
    run->addWidget(heading);
    auto* intro = new QLabel(QStringLiteral("The command Program \u203a Run on Device runs, with <tt>sh -c</tt> in a "
                                            "temporary folder. ptelens writes the program there, runs the command, "
                                            "then opens the ETDump it left over the program."),
        runBox);
    intro->setWordWrap(true);
    run->addWidget(intro);

    m_template = new QPlainTextEdit(runBox);
    m_template->setObjectName(QStringLiteral("runnerTemplate"));
    m_template->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_template->setPlaceholderText(QStringLiteral("executor_runner --model_path {pte} --etdump_path {etdump}"));
    m_template->setTabChangesFocus(true);
    m_template->setFixedHeight(m_template->fontMetrics().lineSpacing() * 4 + 12);
    run->addWidget(m_template);

    m_check = new QLabel(runBox);
    m_check->setObjectName(QStringLiteral("runnerTemplateCheck"));
    m_check->setWordWrap(true);
    m_check->setTextInteractionFlags(Qt::TextSelectableByMouse);
    run->addWidget(m_check);

    QString rows;
    for (const auto& p : pte::runnerPlaceholders())
        rows += QStringLiteral("<tr><td style='padding-right:12px'><tt>{%1}</tt></td><td>%2</td></tr>")
                    .arg(QLatin1String(p.name), QString::fromUtf8(p.meaning).toHtmlEscaped());
    auto* placeholders = new QLabel(
        QStringLiteral("<b>Placeholders</b> (each becomes a shell-quoted path; <tt>{{</tt> and <tt>}}</tt> are "
                       "literal braces, <tt>${VAR}</tt> is the shell's):<table style='margin-top:4px'>%1</table>")
            .arg(rows),
        runBox);
    placeholders->setObjectName(QStringLiteral("runnerPlaceholders"));
    placeholders->setWordWrap(true);
    run->addWidget(placeholders);

    auto* examples = new QLabel(QStringLiteral(
        "<b>Examples</b><br>This machine: <tt>etrt_runner --etdump {etdump} --debug-buffer {debug_buffer} "
        "--debug-level intermediates --inputs {inputs} {pte}</tt><br>A phone: <tt>adb push {pte} /data/local/tmp/m.pte "
        "&amp;&amp; adb shell /data/local/tmp/executor_runner --model_path /data/local/tmp/m.pte --etdump_path "
        "/data/local/tmp/m.etdp &amp;&amp; adb pull /data/local/tmp/m.etdp {etdump}</tt>"));
    examples->setWordWrap(true);
    examples->setTextInteractionFlags(Qt::TextSelectableByMouse);
    run->addWidget(examples);

    auto* hint = new QLabel(QStringLiteral("<b>Test it:</b> open a small program and choose Program \u203a Run on "
                                           "Device\u2026; the command's output shows "
                                           "as it comes, and Cancel ends it with everything it started."));
    hint->setObjectName(QStringLiteral("runnerTestHint"));
    hint->setWordWrap(true);
    run->addWidget(hint);
    layout->addWidget(runBox);
    layout->addStretch(1); // room left over goes under the text, not between its lines

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    connect(m_template, &QPlainTextEdit::textChanged, this, &PreferencesDialog::validate);
    setRunnerTemplate(DeviceRun::savedTemplate());
    resize(760, sizeHint().height());
}

QString PreferencesDialog::runnerTemplate() const { return m_template->toPlainText().trimmed(); }

void PreferencesDialog::setRunnerTemplate(const QString& templ)
{
    m_template->setPlainText(templ);
    validate();
}

void PreferencesDialog::validate()
{
    const QString templ = runnerTemplate();
    if (templ.isEmpty()) {
        m_valid = true;
        m_check->setText(QStringLiteral("No run target: Run on Device asks for one."));
        m_check->setStyleSheet(QString());
    } else if (auto command = pte::expandRunnerTemplate(templ.toStdString(), examplePaths())) {
        m_valid = true;
        m_check->setText(QStringLiteral("Runs: <tt>%1</tt>").arg(QString::fromStdString(*command).toHtmlEscaped()));
        m_check->setStyleSheet(QString());
    } else {
        m_valid = false;
        m_check->setText(QString::fromStdString(command.error().message).toHtmlEscaped());
        m_check->setStyleSheet(QStringLiteral("color: #b00020;"));
    }
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_valid);
}

void PreferencesDialog::accept()
{
    if (!m_valid)
        return;
    DeviceRun::setSavedTemplate(runnerTemplate());
    QDialog::accept();
}

} // namespace pte::ui
