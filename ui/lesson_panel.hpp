#pragma once
// The Lesson pane beside the charts: pick a lesson, read what it shows and what to look for,
// and run all of its runs in sequence (they are overlaid with a legend).

#include "lesson_library.hpp"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;
QT_END_NAMESPACE

namespace ddplab::ui {

class LessonPanel : public QWidget {
    Q_OBJECT

public:
    explicit LessonPanel(const LessonLibrary& library, QWidget* parent = nullptr);

    void selectLesson(const QString& lessonId);
    QString currentLessonId() const;
    void setRunning(bool running);

signals:
    void lessonSelected(const QString& lessonId);
    void runLessonRequested(const QString& lessonId);
    void loadRunSettingsRequested(const QString& lessonId, int runIndex);

private:
    void showLesson(const Lesson* lesson);

    const LessonLibrary& m_library;
    QComboBox* m_picker = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_lookFor = nullptr;
    QListWidget* m_runs = nullptr;
    QTextBrowser* m_explanation = nullptr;
    QPushButton* m_runButton = nullptr;
};

}  // namespace ddplab::ui
