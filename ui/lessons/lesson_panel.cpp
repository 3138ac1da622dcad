// SPDX-License-Identifier: GPL-3.0-or-later
#include "lesson_panel.hpp"

#include <QComboBox>
#include <QObject>
#include <QEvent>
#include <QPushButton>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QThread>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

// The markdown of a lesson's page: what it is, what to look for, its runs, the explanation;
// predicting first, its question and its runs only.
QString lessonMarkdown(const Lesson& lesson, bool outcomeHidden)
{
    QString text = QStringLiteral("## %1\n\n").arg(lesson.title);
    if (!lesson.source.isEmpty())
        text += QStringLiteral("*%1*\n\n").arg(lesson.source);
    // Ranks are processes on this computer's cores: where they outnumber them, what holds
    // instead, first, in sight on a 720p projector before anything promises a speed-up.
    if (const QString note = machineNote(lesson, QThread::idealThreadCount()); !note.isEmpty())
        text += QStringLiteral("> %1\n\n").arg(note);
    // Predicting, the summary waits too: it often says what happens ("without warmup SGD diverges").
    if (!outcomeHidden)
        text += lesson.summary + QStringLiteral("\n\n");
    if (outcomeHidden) {
        text += QObject::tr("> **Predict first:** %1\n\n> What to look for and the explanation come with the charts (F9).\n\n")
                    .arg(lesson.prediction.isEmpty() ? QObject::tr("what will the charts show?") : lesson.prediction);
    } else if (!lesson.lookFor.isEmpty()) {
        text += QStringLiteral("> **What to look for:** %1\n\n").arg(lesson.lookFor);
    }
    text += QStringLiteral("**Runs**, one after the other, overlaid:\n\n");
    for (qsizetype i = 0; i < lesson.runs.size(); ++i)
        text += QStringLiteral("%1. %2\n").arg(i + 1).arg(lesson.runs.at(i).label);
    if (!outcomeHidden)
        text += QStringLiteral("\n---\n\n") + lesson.explanationMarkdown;
    return text;
}

// Quotes ("What to look for") indented a little on the left only: markdown's 40 pixels on both
// sides left two or three words a line in a narrow pane, and in presentation mode's large font.
void narrowQuoteMargins(QTextDocument& document)
{
    constexpr int kIndentPerLevel = 10;
    QTextCursor cursor(&document);
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        const int level = format.intProperty(QTextFormat::BlockQuoteLevel);
        if (level <= 0)
            continue;
        format.setLeftMargin(kIndentPerLevel * level);
        format.setRightMargin(0);
        cursor.setPosition(block.position());
        cursor.setBlockFormat(format);
    }
}

// Inline code (`lr_rule`) at the size of the text around it: markdown's code spans come in the
// system's fixed font at its own size, which in presentation mode's 1.6x text reads as a
// footnote. The family stays fixed-pitch.
void codeAtTextSize(QTextDocument& document, double pointSize)
{
    QTextCursor cursor(&document);
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            QTextCharFormat format = fragment.charFormat();
            if (!format.fontFixedPitch() && !block.blockFormat().nonBreakableLines())
                continue;
            format.setFontPointSize(pointSize);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(format);
        }
    }
}

}  // namespace

LessonPanel::LessonPanel(const LessonLibrary& library, QWidget* parent)
    : QWidget(parent)
    , m_library(library)
{
    m_picker = new QComboBox(this);
    m_picker->addItem(tr("Choose a lesson…"), QString());
    for (const Lesson& lesson : library.lessons())
        m_picker->addItem(lessonMenuTitle(lesson), lesson.id);
    m_picker->setToolTip(tr("Lessons reproduce the seeds' experiments"));
    // Long lesson titles must not make the pane (and the window) wider than the screen.
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_picker->setMinimumContentsLength(16);

    m_runButton = new QPushButton(QIcon(QStringLiteral(":/icons/run.svg")), tr("Run the lesson"), this);
    m_runButton->setToolTip(tr("Run every run of the lesson in sequence and overlay them (Ctrl+L)"));
    connect(m_runButton, &QPushButton::clicked, this, [this] { emit runLessonRequested(currentLessonId()); });

    m_text = new QTextBrowser(this);
    m_text->setOpenExternalLinks(true);
    m_text->setFrameShape(QFrame::NoFrame);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(m_picker);
    layout->addWidget(m_runButton);
    layout->addWidget(m_text, 1);

    connect(m_picker, &QComboBox::currentIndexChanged, this, [this] {
        const QString id = currentLessonId();
        showLesson(m_library.find(id));
        emit lessonSelected(id);
    });
    showLesson(nullptr);
}

void LessonPanel::selectLesson(const QString& lessonId)
{
    const int index = m_picker->findData(lessonId);
    m_picker->setCurrentIndex(std::max(0, index));
}

QString LessonPanel::currentLessonId() const
{
    return m_picker->currentData().toString();
}

void LessonPanel::setDurations(const QHash<QString, QString>& durations)
{
    m_durations = durations;
    for (int i = 0; i < m_picker->count(); ++i) {
        const Lesson* lesson = m_library.find(m_picker->itemData(i).toString());
        if (!lesson)
            continue;
        QString text = lessonMenuTitle(*lesson);
        if (!durations.value(lesson->id).isEmpty())
            text += QStringLiteral(" (%1)").arg(durations.value(lesson->id));
        m_picker->setItemText(i, text);
    }
    showLesson(m_library.find(currentLessonId()));
}

QString LessonPanel::runButtonText() const
{
    return m_runButton->text();
}

QString LessonPanel::lessonTitle(const QString& lessonId) const
{
    const Lesson* lesson = m_library.find(lessonId);
    return lesson ? lesson->title : QString();
}

void LessonPanel::setOutcomeHidden(bool hidden)
{
    if (hidden == m_outcomeHidden)
        return;
    m_outcomeHidden = hidden;
    showLesson(m_library.find(currentLessonId()));
}

void LessonPanel::setRunning(bool running)
{
    m_runButton->setEnabled(!running && m_library.find(currentLessonId()));
}

void LessonPanel::showLesson(const Lesson* lesson)
{
    m_runButton->setVisible(lesson != nullptr);
    if (!lesson) {
        m_text->setMarkdown(tr("Each lesson reproduces an experiment from the seeds: it runs several "
                               "configurations one after another and overlays them, with an explanation "
                               "and what to look for.\n\nPick one above, or set up your own run on the left; the Presets menu "
                               "puts any single experiment of the seeds into Setup."));
        return;
    }
    QString run = lesson->runs.size() == 1 ? tr("Run the lesson") : tr("Run all %1 runs").arg(lesson->runs.size());
    const QString duration = m_durations.value(lesson->id);
    if (!duration.isEmpty())
        run += QStringLiteral(" · ") + duration;
    m_runButton->setText(run);
    m_runButton->setEnabled(true);
    m_text->setMarkdown(lessonMarkdown(*lesson, m_outcomeHidden));
    narrowQuoteMargins(*m_text->document());
    codeAtTextSize(*m_text->document(), m_text->font().pointSizeF());
}

void LessonPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // Presentation mode's larger font: the code spans follow the text.
    if (event->type() == QEvent::FontChange)
        showLesson(m_library.find(currentLessonId()));
}

}  // namespace ddplab::ui
