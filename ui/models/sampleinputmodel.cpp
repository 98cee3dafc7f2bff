// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/sampleinputmodel.h"

#include "models/roles.h"
#include "models/text.h"
#include "pte/graphtext.h"
#include "pte/referenceinputs.h"

#include <optional>

namespace pte::ui {

namespace {

/** Elements read to show the first few of a longer tensor; beyond this only the count is shown. */
constexpr std::size_t kMaxReadElements = 1 << 16;

std::optional<std::uint64_t> elementCount(const pte::TensorMeta& meta)
{
    std::uint64_t n = 1;
    for (const auto& s : meta.sizes) {
        if (!s.value || *s.value < 0)
            return std::nullopt;
        n *= std::uint64_t(*s.value);
    }
    return n;
}

QString userInputName(const pte::InputSpec& spec)
{
    if (!spec.arg.names.empty())
        return toQString(spec.arg.names.front());
    if (!spec.arg.syms.empty() && !spec.arg.syms.front().value)
        return toQString(spec.arg.syms.front().expr);
    return {};
}

/** "/dir/model.pt2:entry" -> "model.pt2:entry": the file name without its folder. */
QString shortSource(const std::string& source)
{
    const QString s = toQString(source);
    const qsizetype colon = s.indexOf(QLatin1Char(':'), 2); // past a Windows drive letter
    const qsizetype slash = s.lastIndexOf(QLatin1Char('/'), colon < 0 ? -1 : colon);
    return slash < 0 ? s : s.mid(slash + 1);
}

} // namespace

QString formatTensorValues(const pte::WeightTensor& tensor, std::size_t maxShown)
{
    const auto count = elementCount(tensor.meta);
    if (!count)
        return QStringLiteral("(symbolic shape)");
    if (tensor.fake || tensor.data.empty())
        return *count == 0 ? QString() : QStringLiteral("(no data)");
    if (*count > kMaxReadElements)
        return QStringLiteral("(%1 elements)").arg(*count);
    const auto elements = pte::tensorElements(tensor, std::size_t(*count));
    if (!elements)
        return QStringLiteral("(not readable as numbers)");
    return toQString(pte::elementsText(*elements, tensor.meta.dtype, maxShown));
}

void SampleInputModel::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_rows.clear();
    const MethodEntry* m = m_snapshot ? m_snapshot->method(method.toStdString()) : nullptr;
    QString note;
    if (!m) {
        note.clear();
    } else if (!m->exported) {
        note = QStringLiteral("No graph dump for this method: sample inputs come from a dump.");
    } else if (!m->exported->sampleInputs) {
        note = QStringLiteral("The dump has no sample inputs.");
    } else {
        const auto& sample = *m->exported->sampleInputs;
        const auto& leaves = sample.leaves;
        std::vector<bool> used(leaves.size(), false);
        const auto matched = pte::sampleInputLeaves(*m->exported); // one per user input
        auto describe = [&](Row& row, const pte::SampleInput& leaf) {
            row.path = toQString(leaf.path);
            switch (leaf.kind) {
            case pte::SampleInput::Kind::Tensor:
                row.kind = QStringLiteral("tensor");
                row.dtype = dtypeName(leaf.tensor.meta.dtype);
                row.shape = formatShape(leaf.tensor.meta.sizes);
                row.values = formatTensorValues(leaf.tensor, kMaxShownElements);
                row.tooltip = toQString(leaf.tensor.source);
                break;
            case pte::SampleInput::Kind::None:
                row.kind = QStringLiteral("None");
                break;
            case pte::SampleInput::Kind::Bool:
                row.kind = QStringLiteral("bool");
                row.values = toQString(pte::elementText(leaf.boolValue, pte::ScalarType::Bool));
                break;
            case pte::SampleInput::Kind::Int:
                row.kind = QStringLiteral("int");
                row.values = QString::number(leaf.intValue);
                break;
            case pte::SampleInput::Kind::Float:
                row.kind = QStringLiteral("float");
                row.values = toQString(pte::elementText(leaf.floatValue, pte::ScalarType::Double));
                break;
            case pte::SampleInput::Kind::String:
                row.kind = QStringLiteral("str");
                row.values = toQString(leaf.text);
                break;
            case pte::SampleInput::Kind::Unsupported:
                row.kind = QStringLiteral("unsupported");
                row.values = toQString(leaf.text);
                break;
            }
        };
        std::size_t user = 0;
        for (const auto& spec : m->exported->signature.inputSpecs) {
            if (spec.kind != pte::InputKind::UserInput)
                continue;
            Row row;
            row.input = userInputName(spec);
            const std::optional<std::size_t> leaf = user < matched.size() ? matched[user] : std::nullopt;
            ++user;
            if (leaf) {
                used[*leaf] = true;
                describe(row, leaves[*leaf]);
            } else {
                row.kind = QStringLiteral("(no sample)");
            }
            m_rows.push_back(std::move(row));
        }
        for (std::size_t i = 0; i < leaves.size(); ++i) {
            if (used[i])
                continue;
            Row row;
            describe(row, leaves[i]);
            row.tooltip = QStringLiteral("No user input of the signature takes this leaf");
            m_rows.push_back(std::move(row));
        }
        note = leaves.empty()
            ? QStringLiteral("The dump's sample inputs are empty (%1).").arg(shortSource(sample.source))
            : QStringLiteral("Sample inputs from %1").arg(shortSource(sample.source));
    }
    endResetModel();
    if (note != m_note) {
        m_note = note;
        Q_EMIT noteChanged(m_note);
    }
}

QVariant SampleInputModel::cell(int row, int column, int role) const
{
    const Row& r = m_rows[std::size_t(row)];
    if (role == Qt::ToolTipRole)
        return column == ValuesColumn && !r.values.isEmpty() ? r.values : r.tooltip;
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (column) {
    case InputColumn:
        return r.input;
    case PathColumn:
        return r.path;
    case KindColumn:
        return r.kind;
    case DTypeColumn:
        return r.dtype;
    case ShapeColumn:
        return r.shape;
    case ValuesColumn:
        return r.values;
    default:
        return {};
    }
}

QVariant SampleInputModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Input", "Sample", "Kind", "DType", "Shape", "Values" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
