// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/emitdialog.h"

#include "models/primgetters.h"
#include "models/text.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSet>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace pte::ui {

namespace {
QSpinBox* alignmentBox(QWidget* parent, int value, const QString& name)
{
    auto* box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(1, 1 << 20);
    box->setValue(value);
    box->setSuffix(QStringLiteral(" bytes"));
    return box;
}
} // namespace

EmitDialog::EmitDialog(const Snapshot& snapshot, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(QStringLiteral("Emit ExecuTorch program"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(QStringLiteral("Methods to emit (double-click a name to rename it):"), this));
    m_methods = new QTableWidget(int(snapshot.dumpMethods.size()), 3, this);
    m_methods->setObjectName(QStringLiteral("emitMethods"));
    m_methods->setHorizontalHeaderLabels(
        { QStringLiteral("Method name"), QStringLiteral("Dump program"), QStringLiteral("File") });
    m_methods->verticalHeader()->hide();
    m_methods->horizontalHeader()->setStretchLastSection(true);
    for (int i = 0; i < int(snapshot.dumpMethods.size()); ++i) {
        const auto& m = snapshot.dumpMethods[std::size_t(i)];
        auto* name = new QTableWidgetItem(toQString(m.name));
        name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable | Qt::ItemIsUserCheckable);
        name->setCheckState(Qt::Checked);
        m_methods->setItem(i, 0, name);
        auto* orig = new QTableWidgetItem(toQString(m.originalName));
        orig->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        m_methods->setItem(i, 1, orig);
        auto* file = new QTableWidgetItem(QFileInfo(toQString(m.sourceFile)).fileName());
        file->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        file->setToolTip(toQString(m.sourceFile));
        m_methods->setItem(i, 2, file);
    }
    m_methods->resizeColumnsToContents();
    layout->addWidget(m_methods, 1);

    auto* primLabel = new QLabel(
        QStringLiteral("&Prim getters (constant methods), one name=value per line: int, float, true/false or text:"),
        this);
    layout->addWidget(primLabel);
    m_primGetters = new QPlainTextEdit(this);
    m_primGetters->setObjectName(QStringLiteral("emitPrimGetters"));
    m_primGetters->setPlaceholderText(QStringLiteral("get_max_seq_len=128\nget_temperature=0.8\nuse_kv_cache=true\n"
                                                     "get_model_name=\"tiny\""));
    m_primGetters->setTabChangesFocus(true);
    m_primGetters->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_primGetters->setMaximumHeight(fontMetrics().lineSpacing() * 6);
    primLabel->setBuddy(m_primGetters);
    layout->addWidget(m_primGetters);
    m_primGettersError = new QLabel(this);
    m_primGettersError->setObjectName(QStringLiteral("emitPrimGettersError"));
    m_primGettersError->setWordWrap(true);
    {
        QPalette pal = m_primGettersError->palette();
        pal.setColor(QPalette::WindowText, QColor(0xb0, 0x1c, 0x1c));
        m_primGettersError->setPalette(pal);
    }
    m_primGettersError->hide();
    layout->addWidget(m_primGettersError);
    connect(m_primGetters, &QPlainTextEdit::textChanged, this, &EmitDialog::validate);

    auto* form = new QFormLayout;
    m_stacktrace = new QCheckBox(QStringLiteral("Emit stack traces into the program"), this);
    m_stacktrace->setObjectName(QStringLiteral("emitStacktrace"));
    form->addRow(m_stacktrace);
    m_initBuffers = new QCheckBox(QStringLiteral("Store mutable buffers' initial state (et_init_buffer)"), this);
    m_initBuffers->setObjectName(QStringLiteral("emitInitMutableBuffers"));
    m_initBuffers->setToolTip(QStringLiteral(
        "Off (ExecuTorch's default): mutable buffers are planned memory whose first contents are undefined. On: the "
        "dump's bytes of each mutable buffer go into the mutable data segment and are loaded with the method."));
    form->addRow(m_initBuffers);
    m_extractDelegates = new QCheckBox(QStringLiteral("Move delegate blobs into segments"), this);
    m_extractDelegates->setObjectName(QStringLiteral("emitExtractDelegates"));
    m_extractDelegates->setChecked(true);
    form->addRow(m_extractDelegates);
    const pte::WriteOptions defaults;
    m_segmentAlignment = alignmentBox(this, int(defaults.segmentAlignment), QStringLiteral("emitSegmentAlignment"));
    m_constantAlignment =
        alignmentBox(this, int(defaults.constantTensorAlignment), QStringLiteral("emitConstantAlignment"));
    m_delegateAlignment = alignmentBox(this, int(defaults.delegateAlignment), QStringLiteral("emitDelegateAlignment"));
    form->addRow(QStringLiteral("Segment alignment:"), m_segmentAlignment);
    form->addRow(QStringLiteral("Constant tensor alignment:"), m_constantAlignment);
    form->addRow(QStringLiteral("Delegate alignment:"), m_delegateAlignment);
    layout->addLayout(form);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Emit"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_methods, &QTableWidget::itemChanged, this, [this, buttons] {
        validate();
        Q_UNUSED(buttons)
    });
    const auto fm = fontMetrics();
    resize(fm.averageCharWidth() * 80, fm.lineSpacing() * 32);
}

void EmitDialog::validate()
{
    QSet<QString> names;
    bool any = false;
    bool namesOk = true;
    for (int i = 0; i < m_methods->rowCount(); ++i) {
        auto* item = m_methods->item(i, 0);
        if (item->checkState() != Qt::Checked)
            continue;
        const QString n = item->text().trimmed();
        const bool valid = !n.isEmpty() && !names.contains(n);
        item->setToolTip(valid ? QString() : QStringLiteral("Names must be non-empty and unique"));
        item->setForeground(valid ? palette().text() : QBrush(Qt::red));
        names.insert(n);
        any = true;
        namesOk = namesOk && valid;
    }
    const PrimGetterList prims = parsePrimGetters(m_primGetters->toPlainText());
    QStringList errors = prims.errors;
    for (const auto& [name, value] : prims.getters)
        if (names.contains(toQString(name)))
            errors << QStringLiteral("\"%1\" is also the name of a method").arg(toQString(name));
    m_primGettersError->setText(errors.join(QLatin1Char('\n')));
    m_primGettersError->setVisible(!errors.isEmpty());
    m_valid = any && namesOk && errors.isEmpty();
    if (auto* box = findChild<QDialogButtonBox*>())
        box->button(QDialogButtonBox::Ok)->setEnabled(m_valid);
}

EmitSettings EmitDialog::settings() const
{
    EmitSettings s;
    for (int i = 0; i < m_methods->rowCount(); ++i) {
        const auto* item = m_methods->item(i, 0);
        if (item->checkState() == Qt::Checked)
            s.methodNames.emplace_back(item->text().trimmed().toStdString());
        else
            s.methodNames.emplace_back(std::nullopt);
    }
    s.emitStacktrace = m_stacktrace->isChecked();
    s.initialiseMutableBuffers = m_initBuffers->isChecked();
    s.primGetters = parsePrimGetters(m_primGetters->toPlainText()).getters;
    s.serialize.extractDelegateSegments = m_extractDelegates->isChecked();
    s.serialize.write.segmentAlignment = std::uint64_t(m_segmentAlignment->value());
    s.serialize.write.constantTensorAlignment = std::uint32_t(m_constantAlignment->value());
    s.serialize.write.delegateAlignment = std::uint32_t(m_delegateAlignment->value());
    return s;
}

void EmitDialog::setSettings(const EmitSettings& s)
{
    m_stacktrace->setChecked(s.emitStacktrace);
    m_initBuffers->setChecked(s.initialiseMutableBuffers);
    m_primGetters->setPlainText(formatPrimGetters(s.primGetters));
    m_extractDelegates->setChecked(s.serialize.extractDelegateSegments);
    m_segmentAlignment->setValue(int(s.serialize.write.segmentAlignment));
    m_constantAlignment->setValue(int(s.serialize.write.constantTensorAlignment));
    m_delegateAlignment->setValue(int(s.serialize.write.delegateAlignment));
}

} // namespace pte::ui
