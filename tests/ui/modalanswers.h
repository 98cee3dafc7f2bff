// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Answering the modal dialogs the code under test opens (message boxes, file dialogs, the Emit dialog) without
// timing: an application event filter sees each modal window being shown, and its answer runs once the dialog's
// own exec() loop turns.

#include <QApplication>
#include <QDialog>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <deque>
#include <functional>

namespace pte::ui::fixtures {

/**
 * Answers the modal windows shown while it lives, in the order given by then(): each answer acts on the next modal
 * window, which must be of the answer's type, and must close it. A modal window nothing expects (one too many, or
 * of another type), or one its answer left open, is rejected and recorded: the test fails naming it, instead of
 * hanging in that window's exec() until ctest's timeout. Check problems() after the code under test returned.
 */
class ModalAnswers : public QObject
{
public:
    ModalAnswers() { qApp->installEventFilter(this); }
    ~ModalAnswers() override { qApp->removeEventFilter(this); }

    /** The next modal window is a T; `act` answers (and closes) it. */
    template <typename T> ModalAnswers& then(std::function<void(T*)> act)
    {
        m_answers.push_back({ T::staticMetaObject.className(), [act](QWidget* w) {
                                 if (auto* t = qobject_cast<T*>(w)) {
                                     act(t);
                                     return true;
                                 }
                                 return false;
                             } });
        return *this;
    }

    /** What went otherwise than answered, empty when nothing did: the modal windows nothing answered (type, title
     *  and text; each was closed by rejecting it), then the answers not used (their window never showed). */
    [[nodiscard]] QString problems() const
    {
        QStringList all = m_unexpected;
        for (const auto& answer : m_answers)
            all << QStringLiteral("no %1 was shown").arg(QString::fromLatin1(answer.type));
        return all.join(QStringLiteral("; "));
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() != QEvent::Show || !watched->isWidgetType())
            return false;
        auto* w = static_cast<QWidget*>(watched);
        if (!w->isWindow() || !w->isModal())
            return false;
        // Answered from the dialog's own event loop, once exec() turns it (shown is not yet running).
        std::function<bool(QWidget*)> act;
        QString expected;
        if (!m_answers.empty()) {
            expected = QString::fromLatin1(m_answers.front().type);
            act = std::move(m_answers.front().act);
            m_answers.pop_front();
        }
        QTimer::singleShot(0, this, [this, window = QPointer<QWidget>(w), act, expected] {
            if (!window)
                return;
            QString why = QStringLiteral("no answer left");
            if (act) {
                if (!act(window))
                    why = QStringLiteral("expected a %1").arg(expected);
                else if (!window || !window->isVisible())
                    return; // answered and closed
                else
                    why = QStringLiteral("its answer left it open");
            }
            m_unexpected << QStringLiteral("%1 (%2)").arg(describe(window), why);
            if (auto* dialog = qobject_cast<QDialog*>(window.data()))
                dialog->reject();
            else
                window->close();
        });
        return false;
    }

private:
    static QString describe(QWidget* w)
    {
        QString text = QString::fromLatin1(w->metaObject()->className()) + QStringLiteral(" \"") + w->windowTitle()
            + QLatin1Char('"');
        if (auto* box = qobject_cast<QMessageBox*>(w))
            text += QStringLiteral(": ") + box->text();
        return text;
    }

    struct Answer
    {
        const char* type;
        std::function<bool(QWidget*)> act;
    };
    std::deque<Answer> m_answers;
    QStringList m_unexpected;
};

/**
 * Chooses `path` in a file dialog as a user typing it into the name box does, and accepts. Whatever has the focus:
 * QFileDialog returns the file selected in its list rather than the typed name when the name box does not have the
 * focus (in a dialog shown again, the previous choice is still selected there), so the selection goes first.
 */
inline void chooseFile(QFileDialog* dialog, const QString& path)
{
    dialog->selectFile(path); // clears the list's selection (and fills the name box when it has no focus)
    dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"))->setText(path); // as typed, when it has
    static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept is protected
}

} // namespace pte::ui::fixtures
