// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_export_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace ddplab::ui {
namespace {
constexpr QSize kSizePresets[] = {{800, 600}, {1200, 800}, {1600, 1000}, {1920, 1080}, {2400, 1600}, {3840, 2160}};
}  // namespace

ImageExportDialog::ImageExportDialog(Target target, const QString& suggestedPath, QSize size, QWidget* parent)
    : QDialog(parent)
    , m_target(target)
{
    setWindowTitle(target == Target::File ? tr("Export Chart") : tr("Export Charts and CSVs to a Folder"));
    m_path = new QLineEdit(suggestedPath, this);
    m_path->setMinimumWidth(360);
    auto* browseButton = new QPushButton(tr("Browse…"), this);
    connect(browseButton, &QPushButton::clicked, this, &ImageExportDialog::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browseButton);

    m_sizePreset = new QComboBox(this);
    for (const QSize preset : kSizePresets)
        m_sizePreset->addItem(QStringLiteral("%1 × %2").arg(preset.width()).arg(preset.height()), preset);
    m_sizePreset->addItem(tr("Custom"));
    m_width = new QSpinBox(this);
    m_height = new QSpinBox(this);
    for (QSpinBox* side : {m_width, m_height}) {
        side->setRange(16, 16384);
        side->setSuffix(tr(" px"));
    }
    m_width->setValue(size.width());
    m_height->setValue(size.height());
    const auto matchPreset = [this] {
        const int index = m_sizePreset->findData(QSize(m_width->value(), m_height->value()));
        const QSignalBlocker blocker(m_sizePreset);
        m_sizePreset->setCurrentIndex(index >= 0 ? index : m_sizePreset->count() - 1);
    };
    matchPreset();
    connect(m_width, &QSpinBox::valueChanged, this, matchPreset);
    connect(m_height, &QSpinBox::valueChanged, this, matchPreset);
    connect(m_sizePreset, &QComboBox::currentIndexChanged, this, [this] {
        const QSize preset = m_sizePreset->currentData().toSize();
        if (preset.isValid()) {
            m_width->setValue(preset.width());
            m_height->setValue(preset.height());
        }
    });
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_sizePreset);
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(m_height);
    m_forSlides = new QCheckBox(tr("For slides: 1920 × 1080, words readable from the back (%1 px at 1080), the title and the runs' settings")
                                    .arg(int(ExportService::kSlideTextPixels)),
                                this);
    connect(m_forSlides, &QCheckBox::toggled, this, [this](bool on) {
        if (on) {
            m_width->setValue(ExportService::slideFormat().size.width());
            m_height->setValue(ExportService::slideFormat().size.height());
        }
    });

    auto* form = new QFormLayout;
    form->addRow(target == Target::File ? tr("File") : tr("Folder"), pathRow);
    if (target == Target::File) {
        m_format = new QComboBox(this);
        m_format->addItem(tr("PNG image"), QStringLiteral("png"));
        m_format->addItem(tr("SVG drawing"), QStringLiteral("svg"));
        m_format->addItem(tr("CSV data (every point of every line)"), QStringLiteral("csv"));
        connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
            const QFileInfo file(m_path->text());
            const QString wanted = m_format->currentData().toString();
            if (file.suffix().toLower() != wanted)
                m_path->setText(file.path() + QLatin1Char('/') + file.completeBaseName() + QLatin1Char('.') + wanted);
            enableSizeForImages();
        });
        connect(m_path, &QLineEdit::textEdited, this, &ImageExportDialog::syncFormatWithPath);
        syncFormatWithPath();
        form->addRow(tr("Format"), m_format);
    }
    form->addRow(tr("Size"), sizeRow);
    form->addRow(QString(), m_forSlides);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QString ImageExportDialog::path() const
{
    return m_path->text().trimmed();
}

bool ImageExportDialog::isData() const
{
    return QFileInfo(path()).suffix().compare(QStringLiteral("csv"), Qt::CaseInsensitive) == 0;
}

// Data has no size or fonts.
void ImageExportDialog::enableSizeForImages()
{
    for (QWidget* control : std::initializer_list<QWidget*>{m_sizePreset, m_width, m_height, m_forSlides})
        control->setEnabled(!isData());
}

QSize ImageExportDialog::imageSize() const
{
    return QSize(m_width->value(), m_height->value());
}

ImageFormat ImageExportDialog::format() const
{
    if (!m_forSlides->isChecked())
        return {imageSize(), 1.0};
    ImageFormat slide = ExportService::slideFormat();
    slide.size = imageSize();  // the words follow the height chosen
    return slide;
}

void ImageExportDialog::syncFormatWithPath()
{
    const int index = m_format->findData(QFileInfo(m_path->text()).suffix().toLower());
    if (index >= 0) {
        const QSignalBlocker blocker(m_format);
        m_format->setCurrentIndex(index);
    }
    enableSizeForImages();
}

void ImageExportDialog::browse()
{
    QString chosen;
    if (m_target == Target::Folder) {
        chosen = QFileDialog::getExistingDirectory(this, tr("Export to Folder"), path());
    } else {
        chosen = QFileDialog::getSaveFileName(this, tr("Export Chart"), path(),
                                              tr("PNG image (*.png);;SVG drawing (*.svg);;CSV data (*.csv)"));
    }
    if (!chosen.isEmpty()) {
        m_path->setText(chosen);
        if (m_format)
            syncFormatWithPath();
    }
}

}  // namespace ddplab::ui
