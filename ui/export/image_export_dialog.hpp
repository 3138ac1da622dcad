// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where and how big: the file (PNG or SVG, by its extension; for one chart also its data as
// CSV) or folder to export to, the image size in pixels, and whether it is for slides (the large
// fonts and lines of presentation mode).

#include "export/export_service.hpp"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace ddplab::ui {

class ImageExportDialog : public QDialog {
    Q_OBJECT

public:
    enum class Target { File, Folder };

    ImageExportDialog(Target target, const QString& suggestedPath, QSize size, QWidget* parent = nullptr);

    QString path() const;
    QSize imageSize() const;
    ImageFormat format() const;
    // The chart's data rather than its picture (a .csv file).
    bool isData() const;

private:
    void browse();
    void syncFormatWithPath();
    void enableSizeForImages();

    Target m_target;
    QLineEdit* m_path = nullptr;
    QComboBox* m_format = nullptr;
    QComboBox* m_sizePreset = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QCheckBox* m_forSlides = nullptr;
};

}  // namespace ddplab::ui
