// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/signatureview.h"

#include "models/sampleinputmodel.h"
#include "models/signaturemodel.h"
#include "views/viewparts.h"
#include "widgets/tableview.h"

#include <QLabel>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace pte::ui {

SignatureView::SignatureView(QWidget* parent)
    : DockView(QStringLiteral("Signature"), QStringLiteral("signatureDock"), Qt::LeftDockWidgetArea, parent)
    , m_inputModel(new SignatureModel(SignatureModel::Side::Inputs, this))
    , m_outputModel(new SignatureModel(SignatureModel::Side::Outputs, this))
    , m_sampleInputModel(new SampleInputModel(this))
{
    m_inputsView = makeTable(this, QStringLiteral("inputsView"), m_inputModel, QStringLiteral("No inputs"), false);
    m_outputsView = makeTable(this, QStringLiteral("outputsView"), m_outputModel, QStringLiteral("No outputs"), false);
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->addWidget(captioned(m_split, QStringLiteral("Inputs"), m_inputsView));
    m_split->addWidget(captioned(m_split, QStringLiteral("Outputs"), m_outputsView));
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
    setContent(m_split);
}

QWidget* SignatureView::focusTarget() const { return m_outputsView; }

void SignatureView::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    m_inputModel->setMethod(snapshot, method);
    m_outputModel->setMethod(snapshot, method);
    m_sampleInputModel->setMethod(snapshot, method);
    for (auto* v : { m_inputsView, m_outputsView, m_sampleInputsView })
        autoSize(v);
    fitPanes();
    // Again once the docks have their final size (the first snapshot arrives before the first layout).
    QTimer::singleShot(0, this, &SignatureView::fitPanes);
}

void SignatureView::fitPanes()
{
    // The sample table only shows when there are samples; the note says why otherwise.
    m_sampleInputsView->setVisible(m_sampleInputModel->rowCount() > 0);
    // Split the dock by what each pane needs (rows, header, caption), so short tables do not leave empty
    // space while a longer one scrolls. QSplitter scales the sizes to the space there is.
    const int caption = captionHeight(this);
    for (auto* v : { m_inputsView, m_outputsView, m_sampleInputsView })
        keepOneRowVisible(v);
    const int noteHeight = m_sampleInputsNote->text().isEmpty()
        ? 0
        : m_sampleInputsNote->heightForWidth(std::max(m_split->width(), fontMetrics().averageCharWidth() * 40));
    int samples = caption + noteHeight;
    if (m_sampleInputModel->rowCount() > 0)
        samples += tableHeight(m_sampleInputsView);
    m_split->setSizes({ caption + tableHeight(m_inputsView), caption + tableHeight(m_outputsView), samples });
}

} // namespace pte::ui
