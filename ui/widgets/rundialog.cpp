// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/rundialog.h"

#include "models/text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace pte::ui {

RunDialog::RunDialog(std::shared_ptr<const Snapshot> snapshot, const QString& method, QWidget* parent)
    : QDialog(parent)
    , m_snapshot(std::move(snapshot))
{
    setWindowTitle(QStringLiteral("Run on the Reference Interpreter"));
    setObjectName(QStringLiteral("runDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(QStringLiteral("Runs a method on ptelens' reference interpreter (portable kernels, no "
                                            "delegates) and records every value each instruction writes."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* form = new QFormLayout;
    m_method = new QComboBox(this);
    m_method->setObjectName(QStringLiteral("runMethod"));
    if (m_snapshot && m_snapshot->program)
        for (const auto& plan : m_snapshot->program->executionPlan)
            m_method->addItem(toQString(plan.name));
    const int current = m_method->findText(method);
    if (current >= 0)
        m_method->setCurrentIndex(current);
    form->addRow(QStringLiteral("&Method:"), m_method);
    layout->addLayout(form);

    auto* box = new QGroupBox(QStringLiteral("Inputs"), this);
    auto* grid = new QGridLayout(box);
    m_fill = new QRadioButton(QStringLiteral("&Fill rule"), box);
    m_fill->setObjectName(QStringLiteral("runFill"));
    m_fillRule = new QComboBox(box);
    m_fillRule->setObjectName(QStringLiteral("runFillRule"));
    for (const auto fill : { pte::RunnerFill::Pattern, pte::RunnerFill::Ones, pte::RunnerFill::Zeros })
        m_fillRule->addItem(QLatin1String(pte::runnerFillName(fill)), int(fill));
    m_fillRule->setToolTip(QStringLiteral("etrt_runner's --fill: pattern (element i of input k is 0.1*((i+k)%7)+0.5 "
                                          "if floating, (i+k)%5 if integer), ones or zeros"));
    grid->addWidget(m_fill, 0, 0);
    grid->addWidget(m_fillRule, 0, 1, 1, 2);
    m_sample = new QRadioButton(QStringLiteral("&Sample inputs of the graph dump"), box);
    m_sample->setObjectName(QStringLiteral("runSample"));
    grid->addWidget(m_sample, 1, 0, 1, 3);
    m_bundled = new QRadioButton(QStringLiteral("&Bundled test case"), box);
    m_bundled->setObjectName(QStringLiteral("runBundled"));
    m_testCase = new QSpinBox(box);
    m_testCase->setObjectName(QStringLiteral("runTestCase"));
    grid->addWidget(m_bundled, 2, 0);
    grid->addWidget(m_testCase, 2, 1, 1, 2);
    m_json = new QRadioButton(QStringLiteral("&JSON inputs file"), box);
    m_json->setObjectName(QStringLiteral("runJson"));
    m_jsonPath = new QLineEdit(box);
    m_jsonPath->setObjectName(QStringLiteral("runJsonPath"));
    m_jsonPath->setPlaceholderText(QStringLiteral("{\"method\": [values of input 0, null, ...]}"));
    auto* jsonBrowse = new QToolButton(box);
    jsonBrowse->setText(QStringLiteral("…"));
    grid->addWidget(m_json, 3, 0);
    grid->addWidget(m_jsonPath, 3, 1);
    grid->addWidget(jsonBrowse, 3, 2);
    m_raw = new QRadioButton(QStringLiteral("&Raw files"), box);
    m_raw->setObjectName(QStringLiteral("runRaw"));
    m_rawPaths = new QLineEdit(box);
    m_rawPaths->setObjectName(QStringLiteral("runRawPaths"));
    m_rawPaths->setPlaceholderText(QStringLiteral("a.bin,b.bin: one little-endian file per tensor input"));
    auto* rawBrowse = new QToolButton(box);
    rawBrowse->setText(QStringLiteral("…"));
    grid->addWidget(m_raw, 4, 0);
    grid->addWidget(m_rawPaths, 4, 1);
    grid->addWidget(rawBrowse, 4, 2);
    grid->setColumnStretch(1, 1);
    layout->addWidget(box);

    m_inputs = new QLabel(this);
    m_inputs->setObjectName(QStringLiteral("runInputs"));
    m_inputs->setWordWrap(true);
    m_inputs->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_inputs);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("&Run"));
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    connect(m_method, &QComboBox::currentIndexChanged, this, &RunDialog::updateChoices);
    for (auto* r : { m_fill, m_sample, m_bundled, m_json, m_raw })
        connect(r, &QRadioButton::toggled, this, [this](bool on) {
            if (on)
                validate();
        });
    connect(m_fillRule, &QComboBox::currentIndexChanged, this, &RunDialog::validate);
    connect(m_testCase, &QSpinBox::valueChanged, this, &RunDialog::validate);
    connect(m_jsonPath, &QLineEdit::textChanged, this, [this] {
        m_json->setChecked(true);
        validate();
    });
    connect(m_rawPaths, &QLineEdit::textChanged, this, [this] {
        m_raw->setChecked(true);
        validate();
    });
    connect(jsonBrowse, &QToolButton::clicked, this, [this] {
        const QString p = QFileDialog::getOpenFileName(
            this, QStringLiteral("JSON inputs"), QString(), QStringLiteral("JSON (*.json);;All files (*)"));
        if (!p.isEmpty())
            m_jsonPath->setText(p);
    });
    connect(rawBrowse, &QToolButton::clicked, this, [this] {
        const QStringList p = QFileDialog::getOpenFileNames(this, QStringLiteral("Raw input files, in input order"));
        if (!p.isEmpty())
            m_rawPaths->setText(p.join(QLatin1Char(',')));
    });
    updateChoices();
    // The richest inputs the document has: a bundled case, else the dump's sample inputs, else the pattern.
    if (m_bundled->isEnabled())
        m_bundled->setChecked(true);
    else if (m_sample->isEnabled())
        m_sample->setChecked(true);
    else
        m_fill->setChecked(true);
    validate();
    resize(sizeHint().expandedTo(QSize(fontMetrics().averageCharWidth() * 70, 0)));
}

void RunDialog::updateChoices()
{
    const std::string method = m_method->currentText().toStdString();
    const MethodEntry* entry = m_snapshot ? m_snapshot->method(method) : nullptr;
    m_sample->setEnabled(entry && entry->exported && entry->exported->sampleInputs);
    m_sample->setToolTip(m_sample->isEnabled() ? toQString(entry->exported->sampleInputs->source)
                                               : QStringLiteral("The method's graph dump kept no sample inputs"));
    const auto* bundled = m_snapshot && m_snapshot->pteFile ? m_snapshot->pteFile->bundled.get() : nullptr;
    const auto* suite = bundled ? bundled->suite(method) : nullptr;
    const int cases = suite ? int(suite->testCases.size()) : 0;
    m_bundled->setEnabled(cases > 0);
    m_testCase->setEnabled(cases > 0);
    m_testCase->setRange(0, std::max(cases - 1, 0));
    m_testCase->setSuffix(cases > 0 ? QStringLiteral(" of %1").arg(cases) : QString());
    m_bundled->setToolTip(cases > 0 ? QStringLiteral("Run one of the method's %1 test cases and compare the outputs "
                                                     "with the expected ones (verify_method_outputs)")
                                          .arg(cases)
                                    : QStringLiteral("Not a bundled program, or no test case for this method"));
    for (auto* r : { m_sample, m_bundled })
        if (r->isChecked() && !r->isEnabled())
            m_fill->setChecked(true);
    validate();
}

RunSettings RunDialog::settings() const
{
    RunSettings s;
    s.method = m_method->currentText().toStdString();
    s.fill = pte::RunnerFill(m_fillRule->currentData().toInt());
    if (m_sample->isChecked())
        s.inputs = RunSettings::Inputs::Sample;
    else if (m_bundled->isChecked())
        s.inputs = RunSettings::Inputs::Bundled;
    else if (m_json->isChecked())
        s.inputs = RunSettings::Inputs::JsonFile;
    else if (m_raw->isChecked())
        s.inputs = RunSettings::Inputs::RawFiles;
    s.testCase = std::size_t(std::max(m_testCase->value(), 0));
    s.jsonPath = m_jsonPath->text().trimmed().toStdString();
    for (const auto& p : m_rawPaths->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        s.rawPaths.push_back(p.trimmed().toStdString());
    return s;
}

void RunDialog::setSettings(const RunSettings& s)
{
    const int m = m_method->findText(toQString(s.method));
    if (m < 0)
        return;
    m_method->setCurrentIndex(m);
    m_fillRule->setCurrentIndex(m_fillRule->findData(int(s.fill)));
    m_testCase->setValue(int(s.testCase));
    {
        const QSignalBlocker b1(m_jsonPath);
        const QSignalBlocker b2(m_rawPaths);
        m_jsonPath->setText(toQString(s.jsonPath));
        QStringList raw;
        for (const auto& p : s.rawPaths)
            raw << toQString(p);
        m_rawPaths->setText(raw.join(QLatin1Char(',')));
    }
    QRadioButton* choice = s.inputs == RunSettings::Inputs::Sample ? m_sample
        : s.inputs == RunSettings::Inputs::Bundled                 ? m_bundled
        : s.inputs == RunSettings::Inputs::JsonFile                ? m_json
        : s.inputs == RunSettings::Inputs::RawFiles                ? m_raw
                                                                   : m_fill;
    if (choice->isEnabled())
        choice->setChecked(true);
    validate();
}

QString RunDialog::inputsText() const { return m_inputs->text(); }

void RunDialog::validate()
{
    const RunSettings s = settings();
    auto inputs = m_snapshot ? runInputs(*m_snapshot, s)
                             : pte::Result<pte::ReferenceInputs>(pte::fail(pte::ErrorCode::InvalidInput, "no program"));
    m_valid = bool(inputs);
    if (inputs) {
        m_inputs->setText(QStringLiteral("Inputs: %1 (%2)")
                              .arg(toQString(inputs->source))
                              .arg(counted(qint64(inputs->values.size()), QStringLiteral("value"))));
        m_inputs->setStyleSheet({});
    } else {
        m_inputs->setText(QStringLiteral("Cannot run: %1").arg(toQString(inputs.error().message)));
        m_inputs->setStyleSheet(QStringLiteral("color: #b00020"));
    }
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_valid);
}

} // namespace pte::ui
