// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/signatureview.h"

#include "models/bundledcasemodel.h"
#include "models/methodmodel.h"
#include "models/sampleinputmodel.h"
#include "models/signaturemodel.h"
#include "models/text.h"
#include "views/viewparts.h"
#include "widgets/tableview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace pte::ui {

namespace {
const QString kSplitKey = QStringLiteral("views/signatureSplit");
}

SignatureView::SignatureView(QWidget* parent)
    : DockView(QStringLiteral("Signature"), QStringLiteral("signatureDock"), Qt::LeftDockWidgetArea, parent)
    , m_inputModel(new SignatureModel(SignatureModel::Side::Inputs, this))
    , m_outputModel(new SignatureModel(SignatureModel::Side::Outputs, this))
    , m_otherInputModel(new SignatureModel(SignatureModel::Side::Inputs, this))
    , m_otherOutputModel(new SignatureModel(SignatureModel::Side::Outputs, this))
    , m_sampleInputModel(new SampleInputModel(this))
    , m_caseModel(new BundledCaseModel(this))
{
    m_inputsView = makeTable(this, QStringLiteral("inputsView"), m_inputModel, QStringLiteral("No inputs"), false);
    m_outputsView = makeTable(this, QStringLiteral("outputsView"), m_outputModel, QStringLiteral("No outputs"), false);
    m_otherInputsView =
        makeTable(this, QStringLiteral("comparedInputsView"), m_otherInputModel, QStringLiteral("No inputs"), false);
    m_otherOutputsView =
        makeTable(this, QStringLiteral("comparedOutputsView"), m_otherOutputModel, QStringLiteral("No outputs"), false);

    m_split = new QSplitter(Qt::Vertical, this);
    m_split->setObjectName(QStringLiteral("signatureSplit"));
    m_inputsSplit = new QSplitter(Qt::Horizontal, m_split);
    m_inputsSplit->addWidget(captioned(m_inputsSplit, QStringLiteral("Inputs"), m_inputsView, &m_inputsCaption));
    m_inputsSplit->addWidget(
        captioned(m_inputsSplit, QStringLiteral("Inputs"), m_otherInputsView, &m_otherInputsCaption));
    m_outputsSplit = new QSplitter(Qt::Horizontal, m_split);
    m_outputsSplit->addWidget(captioned(m_outputsSplit, QStringLiteral("Outputs"), m_outputsView, &m_outputsCaption));
    m_outputsSplit->addWidget(
        captioned(m_outputsSplit, QStringLiteral("Outputs"), m_otherOutputsView, &m_otherOutputsCaption));
    m_split->addWidget(m_inputsSplit);
    m_split->addWidget(m_outputsSplit);
    // Sample inputs: a note (source, or why there are none) above the table.
    m_sampleInputsView = makeTable(
        this, QStringLiteral("sampleInputsView"), m_sampleInputModel, QStringLiteral("No sample inputs"), false);
    m_sampleInputsNote = new QLabel(this);
    m_sampleInputsNote->setObjectName(QStringLiteral("sampleInputsNote"));
    m_sampleInputsNote->setWordWrap(true);
    m_sampleInputsNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sampleInputsNote->setContentsMargins(4, 0, 4, 0);
    connect(m_sampleInputModel, &SampleInputModel::noteChanged, m_sampleInputsNote, &QLabel::setText);
    auto* samples = new QWidget(this);
    auto* samplesLayout = new QVBoxLayout(samples);
    samplesLayout->setContentsMargins(0, 0, 0, 0);
    samplesLayout->setSpacing(2);
    samplesLayout->addWidget(m_sampleInputsNote);
    samplesLayout->addWidget(m_sampleInputsView, 1);
    m_split->addWidget(captioned(m_split, QStringLiteral("Sample inputs"), samples));
    m_casesView = makeTable(this, QStringLiteral("testCasesView"), m_caseModel, QStringLiteral("No test cases"), false);
    m_casesPane = captioned(m_split, QStringLiteral("Bundled test cases"), m_casesView);
    m_split->addWidget(m_casesPane);
    m_casesPane->hide();
    for (int i = 0; i < m_split->count(); ++i)
        m_split->setCollapsible(i, false);

    // Compare: another method's signature beside this one.
    m_compare = new QComboBox(this);
    m_compare->setObjectName(QStringLiteral("signatureCompare"));
    m_compare->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_compare->setToolTip(QStringLiteral("Show another method's inputs and outputs beside this one's"));
    connect(m_compare, &QComboBox::currentIndexChanged, this,
        [this] { compareWith(m_compare->currentIndex() > 0 ? m_compare->currentText() : QString()); });
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    auto* compareLabel = new QLabel(QStringLiteral("Compare with"), this);
    compareLabel->setBuddy(m_compare);
    bar->addWidget(compareLabel);
    bar->addWidget(m_compare);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_split, 1);

    // Sizes the user drags stay, here and in the next session.
    const QByteArray saved = QSettings().value(kSplitKey).toByteArray();
    if (!saved.isEmpty() && m_split->restoreState(saved))
        m_userSizes = true;
    connect(m_split, &QSplitter::splitterMoved, this, [this] {
        if (m_fitting)
            return;
        m_userSizes = true;
        QSettings().setValue(kSplitKey, m_split->saveState());
    });
    updateComparison();
}

QWidget* SignatureView::focusTarget() const { return m_outputsView; }

void SignatureView::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    const QString compared = m_compared;
    const QSignalBlocker block(m_compare);
    m_compare->clear();
    m_compare->addItem(QStringLiteral("(none)"));
    if (m_snapshot)
        for (const auto& m : m_snapshot->methods)
            m_compare->addItem(toQString(m.name));
    const int again = compared.isEmpty() ? -1 : m_compare->findText(compared);
    m_compare->setCurrentIndex(std::max(again, 0));
    m_compared = again > 0 ? compared : QString();
    m_compare->setEnabled(m_compare->count() > 2);
}

void SignatureView::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    m_snapshot = snapshot;
    m_method = method;
    m_inputModel->setMethod(snapshot, method);
    m_outputModel->setMethod(snapshot, method);
    m_sampleInputModel->setMethod(snapshot, method);
    m_caseModel->setMethod(snapshot, method);
    for (auto* v : { m_inputsView, m_outputsView, m_sampleInputsView, m_casesView })
        autoSize(v);
    updateComparison();
    updateCaptions();
    fitPanes();
    // Again once the docks have their final size (the first snapshot arrives before the first layout).
    QTimer::singleShot(0, this, &SignatureView::fitPanes);
}

void SignatureView::compareWith(const QString& method)
{
    m_compared = method;
    {
        const QSignalBlocker block(m_compare);
        m_compare->setCurrentIndex(std::max(method.isEmpty() ? 0 : m_compare->findText(method), 0));
    }
    updateComparison();
    updateCaptions();
    fitPanes();
}

void SignatureView::updateComparison()
{
    const bool on = !m_compared.isEmpty();
    m_otherInputModel->setMethod(on ? m_snapshot : nullptr, m_compared);
    m_otherOutputModel->setMethod(on ? m_snapshot : nullptr, m_compared);
    // The cells that differ are marked on both sides; the columns that are compared (kind, name, dtype, shape) keep
    // the narrow halves' width, the others wait until the comparison ends.
    m_inputModel->setCounterpart(on ? m_otherInputModel : nullptr);
    m_otherInputModel->setCounterpart(on ? m_inputModel : nullptr);
    m_outputModel->setCounterpart(on ? m_otherOutputModel : nullptr);
    m_otherOutputModel->setCounterpart(on ? m_outputModel : nullptr);
    for (auto* v : { m_inputsView, m_outputsView, m_otherInputsView, m_otherOutputsView }) {
        for (const int c : { int(SignatureModel::IndexColumn), int(SignatureModel::TargetColumn),
                 int(SignatureModel::ValueColumn), int(SignatureModel::ReasonColumn) })
            v->setColumnHidden(c, on);
        // The name (which differs between methods anyway) goes last, after the kind, dtype and shape compared.
        auto* header = v->horizontalHeader();
        header->moveSection(header->visualIndex(SignatureModel::NameColumn),
            on ? SignatureModel::ColumnCount - 1 : int(SignatureModel::NameColumn));
    }
    m_inputsSplit->widget(1)->setVisible(on);
    m_outputsSplit->widget(1)->setVisible(on);
    if (on) {
        autoSize(m_otherInputsView);
        autoSize(m_otherOutputsView);
        const int half = std::max(1, m_inputsSplit->width() / 2);
        m_inputsSplit->setSizes({ half, half });
        m_outputsSplit->setSizes({ half, half });
    }
}

void SignatureView::updateCaptions()
{
    // The captions count by the Methods view's rule: what the caller passes, what the method returns.
    auto texts = [this](const QString& method, QLabel* inputs, QLabel* outputs, SignatureModel* in, SignatureModel* out,
                     bool named) {
        const MethodEntry* entry = m_snapshot ? m_snapshot->method(method.toStdString()) : nullptr;
        const QString of = named ? QStringLiteral(" of %1").arg(method) : QString();
        if (!entry) {
            inputs->setText(QStringLiteral("Inputs") + of);
            outputs->setText(QStringLiteral("Outputs") + of);
            return;
        }
        const int caller = callerInputCount(*entry);
        const int returned = returnedOutputCount(*entry);
        const int stored = in->rowCount() - std::max(caller, 0);
        const int writtenBack = out->rowCount() - std::max(returned, 0);
        QString inText = QStringLiteral("Inputs%1: %2 from the caller").arg(of).arg(std::max(caller, 0));
        if (stored > 0)
            inText += QStringLiteral(", %1 stored in the program").arg(stored);
        QString outText = QStringLiteral("Outputs%1: %2 returned").arg(of).arg(std::max(returned, 0));
        if (writtenBack > 0)
            outText += QStringLiteral(", %1 not returned").arg(writtenBack);
        inputs->setText(inText);
        outputs->setText(outText);
        inputs->setToolTip(QStringLiteral("Parameters, buffers and constants are stored in the program; the caller "
                                          "passes the user inputs"));
        outputs->setToolTip(QStringLiteral("Buffer and parameter mutations are written back, not returned (the Reason "
                                           "column says why)"));
    };
    const bool comparing = !m_compared.isEmpty();
    texts(m_method, m_inputsCaption, m_outputsCaption, m_inputModel, m_outputModel, comparing);
    if (comparing)
        texts(m_compared, m_otherInputsCaption, m_otherOutputsCaption, m_otherInputModel, m_otherOutputModel, true);
}

void SignatureView::fitPanes()
{
    // The sample table only shows when there are samples; the note says why otherwise.
    m_sampleInputsView->setVisible(m_sampleInputModel->rowCount() > 0);
    // The test cases pane only shows for a bundled program with cases for this method.
    const bool cases = m_caseModel->rowCount() > 0;
    m_casesPane->setVisible(cases);
    for (auto* v :
        { m_inputsView, m_outputsView, m_sampleInputsView, m_otherInputsView, m_otherOutputsView, m_casesView })
        keepOneRowVisible(v);
    if (m_userSizes) {
        // The user's sizes stay; a test cases pane that had no room in them (hidden then) gets a quarter.
        QList<int> sizes = m_split->sizes();
        if (cases && sizes.size() == 4 && sizes[3] == 0) {
            const int total = std::accumulate(sizes.begin(), sizes.end(), 0);
            sizes[3] = total / 4;
            sizes[0] = std::max(sizes[0] - total / 8, 0);
            sizes[1] = std::max(sizes[1] - total / 8, 0);
            m_fitting = true;
            m_split->setSizes(sizes);
            m_fitting = false;
        }
        return;
    }
    // Split the dock by what each pane needs (rows, header, caption), so short tables do not leave empty
    // space while a longer one scrolls. QSplitter scales the sizes to the space there is; inputs and outputs
    // get at least four rows each when they have them, the samples what is left.
    const int caption = captionHeight(this);
    const bool comparing = !m_compared.isEmpty();
    auto need = [&](TableView* mine, TableView* other) {
        return caption + std::max(tableHeight(mine), comparing ? tableHeight(other) : 0);
    };
    const int noteHeight = m_sampleInputsNote->text().isEmpty()
        ? 0
        : m_sampleInputsNote->heightForWidth(std::max(m_split->width(), fontMetrics().averageCharWidth() * 40));
    int samples = caption + noteHeight;
    if (m_sampleInputModel->rowCount() > 0)
        samples += std::min(tableHeight(m_sampleInputsView), m_split->height() / 4);
    // Test cases, like the samples, take what they need up to a quarter of the dock.
    const int caseRows = cases ? caption + std::min(tableHeight(m_casesView), m_split->height() / 4) : 0;
    const int inputs = need(m_inputsView, m_otherInputsView);
    const int outputs = need(m_outputsView, m_otherOutputsView);
    const int room = std::max(m_split->height() - samples - caseRows, 0);
    int in = inputs;
    int out = outputs;
    if (inputs + outputs > room && room > 0 && std::min(inputs, outputs) <= room / 2) {
        // Not enough room for both, but the shorter table fits in half of it: it shows all its rows, the longer one
        // scrolls in the rest.
        in = inputs <= outputs ? inputs : room - outputs;
        out = room - in;
    } else if (inputs + outputs > room && room > 0) {
        // Neither fits in half: each gets its share, but never less than it needs for four rows (or all of its
        // rows), taken from the larger one.
        const int row = m_inputsView->verticalHeader()->defaultSectionSize();
        const int minIn = std::min(inputs, caption + m_inputsView->horizontalHeader()->sizeHint().height() + 4 * row);
        const int minOut =
            std::min(outputs, caption + m_outputsView->horizontalHeader()->sizeHint().height() + 4 * row);
        in = std::max(minIn, room * inputs / (inputs + outputs));
        out = std::max(minOut, room - in);
        in = std::max(minIn, room - out);
    } else if (room > inputs + outputs) {
        // Room to spare goes to the inputs and outputs, not to the sample note.
        in = inputs + (room - inputs - outputs) * inputs / std::max(inputs + outputs, 1);
        out = room - in;
    }
    m_fitting = true;
    m_split->setSizes({ in, out, samples, caseRows });
    m_fitting = false;
}

} // namespace pte::ui
