#include "lesson_panel.hpp"

#include <QComboBox>
#include <QFrame>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace ddplab::ui {

LessonPanel::LessonPanel(const LessonLibrary& library, QWidget* parent)
    : QWidget(parent)
    , m_library(library)
{
    m_picker = new QComboBox(this);
    m_picker->addItem(tr("Choose a lesson…"), QString());
    for (const Lesson& lesson : library.lessons()) {
        const QString source = lesson.source.section(QLatin1Char(' '), 0, 1);
        m_picker->addItem(source.isEmpty() ? lesson.title : QStringLiteral("%1 · %2").arg(source, lesson.title), lesson.id);
    }
    m_picker->setToolTip(tr("Lessons reproduce the seeds' experiments"));
    // Long lesson titles must not make the pane (and the window) wider than the screen.
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_picker->setMinimumContentsLength(16);

    m_title = new QLabel(this);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);

    m_lookFor = new QLabel(this);
    m_lookFor->setWordWrap(true);
    m_lookFor->setFrameShape(QFrame::StyledPanel);
    m_lookFor->setMargin(6);
    m_lookFor->setBackgroundRole(QPalette::AlternateBase);
    m_lookFor->setAutoFillBackground(true);

    m_runs = new QListWidget(this);
    m_runs->setToolTip(tr("Double-click a run to load its settings into the parameter panel"));
    m_runs->setMaximumHeight(m_runs->fontMetrics().height() * 6);
    connect(m_runs, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* item) {
        emit loadRunSettingsRequested(currentLessonId(), m_runs->row(item));
    });

    m_runButton = new QPushButton(QIcon(QStringLiteral(":/icons/run.svg")), tr("Run the lesson"), this);
    m_runButton->setToolTip(tr("Run every run of the lesson in sequence and overlay them"));
    connect(m_runButton, &QPushButton::clicked, this, [this] { emit runLessonRequested(currentLessonId()); });

    m_explanation = new QTextBrowser(this);
    m_explanation->setOpenExternalLinks(true);
    m_explanation->setFrameShape(QFrame::NoFrame);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->addWidget(m_picker);
    layout->addWidget(m_title);
    layout->addWidget(m_summary);
    layout->addWidget(m_lookFor);
    layout->addWidget(m_runs);
    layout->addWidget(m_runButton);
    layout->addWidget(m_explanation, 1);

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

void LessonPanel::setRunning(bool running)
{
    m_runButton->setEnabled(!running && m_library.find(currentLessonId()));
}

void LessonPanel::showLesson(const Lesson* lesson)
{
    const bool shown = lesson != nullptr;
    for (QWidget* widget : {static_cast<QWidget*>(m_title), static_cast<QWidget*>(m_summary),
                            static_cast<QWidget*>(m_lookFor), static_cast<QWidget*>(m_runs),
                            static_cast<QWidget*>(m_runButton)})
        widget->setVisible(shown);
    m_runs->clear();
    if (!lesson) {
        m_explanation->setMarkdown(tr("Each lesson reproduces an experiment from the seeds: it runs several "
                                      "configurations one after another and overlays them, with an explanation "
                                      "and what to look for.\n\nPick one above, or set up your own run on the left."));
        return;
    }
    m_title->setText(lesson->title);
    m_summary->setText(lesson->source.isEmpty() ? lesson->summary : QStringLiteral("%1 — %2").arg(lesson->source, lesson->summary));
    m_lookFor->setText(tr("<b>What to look for:</b> %1").arg(lesson->lookFor.toHtmlEscaped()));
    m_lookFor->setVisible(!lesson->lookFor.isEmpty());
    for (const LessonRun& run : lesson->runs)
        m_runs->addItem(run.label);
    m_runButton->setText(lesson->runs.size() == 1 ? tr("Run the lesson") : tr("Run all %1 runs").arg(lesson->runs.size()));
    m_runButton->setEnabled(true);
    m_explanation->setMarkdown(lesson->explanationMarkdown);
}

}  // namespace ddplab::ui
