// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_editor.hpp"

#include "client/study/study_axis_text.hpp"
#include "client/study/study_fields.hpp"

#include "client/wire.hpp"
#include "setup/wheel_guard.hpp"

#include "core/config_keys.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ddplab::ui {
namespace {

enum Column { kKeyColumn, kValuesColumn, kWhenColumn, kTogetherColumn };

// Every key an axis can sweep: the effective batch, then the engine's keys (none it sets itself).
QStringList sweepableKeys()
{
    QStringList keys{kEffectiveBatchAxis};
    for (const ConfigKey& key : configKeys()) {
        if (!key.hidden)
            keys.append(QString::fromStdString(key.name));
    }
    return keys;
}

// Keys by the labels the Setup pane gives them ("GPUs (ranks)"), the key's name in the item's
// tooltip and data.
QComboBox* keyChooser(const QString& key)
{
    auto* chooser = new QComboBox;
    for (const QString& sweepable : sweepableKeys()) {
        chooser->addItem(axisLabel(sweepable), sweepable);
        chooser->setItemData(chooser->count() - 1, sweepable, Qt::ToolTipRole);
    }
    if (chooser->findData(key) < 0)  // a file's key the list does not offer: kept, for the reader to judge
        chooser->addItem(key, key);
    chooser->setCurrentIndex(chooser->findData(key));
    chooser->setToolTip(QObject::tr("The setting this axis sweeps (effective batch: ranks × batch per GPU, split by the rule below)"));
    guardAgainstStrayWheel(chooser);
    return chooser;
}

// The width that shows a chooser's current text whole, its arrow beside it.
int wholeChooserWidth(const QComboBox& chooser)
{
    QStyleOptionComboBox option;
    option.initFrom(&chooser);
    option.currentText = chooser.currentText();
    const QSize text(chooser.fontMetrics().horizontalAdvance(option.currentText), chooser.fontMetrics().height());
    return chooser.style()->sizeFromContents(QStyle::CT_ComboBox, &option, text, &chooser).width();
}

QString keyOf(const QTableWidget& axes, int row)
{
    const auto* chooser = qobject_cast<QComboBox*>(axes.cellWidget(row, kKeyColumn));
    return chooser ? chooser->currentData().toString() : QString();
}

}  // namespace

StudyEditor::StudyEditor(QWidget* parent) : QWidget(parent)
{
    m_baseLabel = new QLabel;
    m_baseLabel->setWordWrap(true);
    m_baseLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_axes = new QTableWidget(0, 4);
    m_axes->setObjectName(QStringLiteral("studyAxes"));
    // Two of the headers on two lines: on one, the four need about 590 px in presentation mode,
    // and beside the results and the Lesson pane that made the window 1,329 px wide on a 1280 one.
    m_axes->setHorizontalHeaderLabels({tr("Axis"), tr("Values or\nrange"), tr("Only\nwhen"), tr("Together")});
    m_axes->horizontalHeaderItem(kValuesColumn)
        ->setToolTip(tr("A list (16, 32, 64 or none, linear, sqrt) or a range: 16 .. 1024 x2 (a factor), 0.1 .. 0.5 +0.1 (a step)"));
    m_axes->horizontalHeaderItem(kWhenColumn)
        ->setToolTip(tr("Where this axis applies, like \"optimizer = sgd\" (momentum only for SGD): elsewhere it keeps the base's "
                        "value and makes no runs of its own. Empty: everywhere"));
    m_axes->horizontalHeaderItem(kTogetherColumn)
        ->setToolTip(tr("Ticked axes advance together (their first values, their second values, ...) instead of combining"));
    // The values take what is left after the key, the condition and the tick, each as wide as its
    // header and chooser (fitAxesColumns), and wrap onto more lines rather than end in "…": at
    // the builder's least width in presentation mode the optimizers read "adam, …". (At 1280 x 720
    // a fixed 140 px key column and 110 px condition had left the values about 40 px.)
    m_axes->horizontalHeader()->setSectionResizeMode(kKeyColumn, QHeaderView::Fixed);
    m_axes->horizontalHeader()->setSectionResizeMode(kValuesColumn, QHeaderView::Stretch);
    m_axes->horizontalHeader()->setSectionResizeMode(kWhenColumn, QHeaderView::Interactive);
    m_axes->horizontalHeader()->setSectionResizeMode(kTogetherColumn, QHeaderView::ResizeToContents);
    m_axes->verticalHeader()->hide();
    m_axes->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);  // a row as tall as its values
    m_axes->setWordWrap(true);
    m_axes->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_axes->setMinimumHeight(120);
    m_axes->horizontalHeader()->setMinimumSectionSize(40);
    m_axes->installEventFilter(this);
    connect(m_axes, &QTableWidget::itemChanged, this, &StudyEditor::changed);

    auto* add = new QPushButton(tr("Add axis"));
    auto* remove = new QPushButton(tr("Remove"));
    connect(add, &QPushButton::clicked, this, [this] { addAxis(wire(key::kLr), QStringLiteral("0.001, 0.01, 0.1")); });
    connect(remove, &QPushButton::clicked, this, &StudyEditor::removeSelectedAxes);
    auto* axisButtons = new QHBoxLayout;
    axisButtons->addWidget(add);
    axisButtons->addWidget(remove);
    axisButtons->addStretch(1);

    m_split = new QComboBox;
    m_split->addItem(tr("ranks first"), kSplitNames[0]);
    m_split->addItem(tr("batch per GPU first"), kSplitNames[1]);
    m_split->addItem(tr("the base's ranks"), kSplitNames[2]);
    m_maxRanks = new QSpinBox;
    m_maxRanks->setRange(1, 128);
    m_maxRanks->setValue(8);
    m_maxRanks->setPrefix(tr("up to "));
    m_maxRanks->setSuffix(tr(" ranks"));
    m_splitRow = new QWidget;
    auto* splitLayout = new QFormLayout(m_splitRow);
    splitLayout->setContentsMargins(0, 0, 0, 0);
    splitLayout->addRow(tr("Batch split:"), m_split);
    splitLayout->addRow(QString(), m_maxRanks);

    m_repeats = new QSpinBox;
    m_repeats->setRange(1, studyLimits::kMaxRepeats);
    m_repeats->setToolTip(tr("Every point runs this many times, with seeds seed, seed + 1, ..."));
    m_targetMetric = new QComboBox;
    m_targetMetric->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_targetMetric->setMinimumContentsLength(12);
    m_targetMetric->addItem(tr("none"), QString());
    for (const TargetMeasure& measure : targetMeasures())
        m_targetMetric->addItem(tr("%1 %2").arg(measure.title, measure.loss ? tr("at most") : tr("at least")), measure.name);
    m_targetMetric->setToolTip(tr("What \"reached\" means for the steps-to-target charts (Shallue et al. 2018), and what it is "
                                  "judged on: the training set's figures are free of mini-batch noise; a step's mini-batch "
                                  "figure meets a target by chance at small batches"));
    m_targetValue = new QDoubleSpinBox;
    m_targetValue->setDecimals(4);
    m_targetValue->setRange(0.0, 1e9);
    m_targetValue->setValue(0.5);
    m_stopAtTarget = new QCheckBox(tr("End each run there"));
    m_stopAtTarget->setToolTip(tr("Stops a run at the first step whose loss, judged as the target is, meets it (loss targets only)"));
    auto* target = new QHBoxLayout;
    target->addWidget(m_targetMetric, 1);
    target->addWidget(m_targetValue);

    auto* form = new QFormLayout;
    form->addRow(tr("Repeats:"), m_repeats);
    form->addRow(tr("Target:"), target);
    form->addRow(QString(), m_stopAtTarget);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_baseLabel);
    layout->addWidget(m_axes, 1);
    layout->addLayout(axisButtons);
    layout->addWidget(m_splitRow);
    layout->addLayout(form);

    const auto emitChanged = [this] {
        const TargetMeasure* measure = findTargetMeasure(m_targetMetric->currentData().toString());
        m_stopAtTarget->setEnabled(measure && !measure->stopMeasure.isEmpty());
        m_targetValue->setEnabled(!m_targetMetric->currentData().toString().isEmpty());
        emit changed();
    };
    for (QWidget* chooser : std::initializer_list<QWidget*>{m_split, m_maxRanks, m_repeats, m_targetMetric, m_targetValue})
        guardAgainstStrayWheel(chooser);
    connect(m_split, &QComboBox::currentIndexChanged, this, emitChanged);
    connect(m_maxRanks, &QSpinBox::valueChanged, this, emitChanged);
    connect(m_repeats, &QSpinBox::valueChanged, this, emitChanged);
    connect(m_targetMetric, &QComboBox::currentIndexChanged, this, emitChanged);
    connect(m_targetValue, &QDoubleSpinBox::valueChanged, this, emitChanged);
    connect(m_stopAtTarget, &QCheckBox::toggled, this, emitChanged);
    emitChanged();
    updateBatchSplitRow();
    fitAxesColumns();
}

bool StudyEditor::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_axes && (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange))
        fitAxesColumnsLater();
    return QWidget::eventFilter(watched, event);
}

void StudyEditor::fitAxesColumnsLater()
{
    if (m_fitPending)
        return;
    m_fitPending = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_fitPending = false;
            fitAxesColumns();
        },
        Qt::QueuedConnection);
}

void StudyEditor::fitAxesColumns()
{
    // A section narrower than its header's text shows the text centred and cut at both ends
    // ("/alues or range", "nly whe" in presentation mode, the builder at its least width): each
    // section is at least its header's width, the key's as wide as its widest chooser's text, and
    // the table never narrower than them together, so the builder's column widens to hold them.
    QHeaderView* header = m_axes->horizontalHeader();
    int key = header->sectionSizeHint(kKeyColumn);
    for (int row = 0; row < m_axes->rowCount(); ++row) {
        if (const auto* chooser = qobject_cast<QComboBox*>(m_axes->cellWidget(row, kKeyColumn)))
            key = std::max(key, wholeChooserWidth(*chooser));
    }
    const int when = std::max(header->sectionSizeHint(kWhenColumn), header->minimumSectionSize());
    header->resizeSection(kKeyColumn, key);
    header->resizeSection(kWhenColumn, when);
    const int frame = 2 * m_axes->frameWidth() + m_axes->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_axes);
    m_axes->setMinimumWidth(key + header->sectionSizeHint(kValuesColumn) + when + header->sectionSizeHint(kTogetherColumn) + frame);
    // The editor's least width changed with the table's: said here to every container up to the
    // window, since a hidden page's layouts pass nothing on until it is shown (after presentation
    // mode, the Study page nobody had opened kept asking the window for its enlarged width, and
    // the window could not take its old one back: tst_window_layout).
    for (QWidget* widget = this; widget && !widget->isWindow(); widget = widget->parentWidget())
        widget->updateGeometry();
}

void StudyEditor::setStudy(const StudySpec& spec, const QString& folder)
{
    QSignalBlocker blocker(this);
    m_folder = folder;
    m_about = QJsonObject();
    const QJsonObject file = spec.toJson();
    for (const QString& field : {studyField::kId, studyField::kTitle, studyField::kSource, studyField::kSummary, studyField::kLookFor,
                                 studyField::kExplanation, studyField::kShow}) {
        if (file.contains(field))
            m_about.insert(field, file.value(field));
    }
    // A stored study's folder has no explanation file beside it: the text is not needed to run.
    if (!QFileInfo::exists(QDir(folder).filePath(m_about.value(studyField::kExplanation).toString())))
        m_about.remove(studyField::kExplanation);
    m_base = spec.base;
    m_baseLabel->setText(tr("Base: %1").arg(spec.title.isEmpty() ? spec.id : spec.title));
    m_axes->setRowCount(0);
    const QStringList together = spec.zips.isEmpty() ? QStringList() : spec.zips.first();
    for (const StudyAxis& axis : spec.axes) {
        addAxis(axis.key, axisValuesText(axis.values), together.contains(axis.key), conditionText(conditionsJson(axis.when)));
        if (axis.key == kEffectiveBatchAxis) {
            m_split->setCurrentIndex(int(axis.split));
            m_maxRanks->setValue(axis.maxRanks);
        }
    }
    m_repeats->setValue(spec.repeats);
    const int metric = m_targetMetric->findData(spec.target.metric);
    m_targetMetric->setCurrentIndex(spec.target.isSet() && metric >= 0 ? metric : 0);
    if (spec.target.isSet())
        m_targetValue->setValue(spec.target.value);
    m_stopAtTarget->setChecked(spec.target.stop);
    m_loadedTarget = spec.target;
    updateBatchSplitRow();
    blocker.unblock();
    emit changed();
}

void StudyEditor::setBase(const QJsonObject& base, const QString& describedAs)
{
    m_base = base;
    // A study of other settings is a new study: its own name, no built-in's explanation.
    m_about = QJsonObject{{studyField::kId, QStringLiteral("study")}, {studyField::kTitle, tr("A study of %1").arg(describedAs)}};
    m_folder.clear();
    m_baseLabel->setText(tr("Base: %1").arg(describedAs));
    emit changed();
}

void StudyEditor::addAxis(const QString& key, const QString& valuesText, bool together, const QString& whenText)
{
    const QSignalBlocker blocker(m_axes);
    const int row = m_axes->rowCount();
    m_axes->insertRow(row);
    QComboBox* chooser = keyChooser(key);
    connect(chooser, &QComboBox::currentIndexChanged, this, [this] {
        updateBatchSplitRow();
        fitAxesColumnsLater();
        emit changed();
    });
    m_axes->setCellWidget(row, kKeyColumn, chooser);
    m_axes->setItem(row, kValuesColumn, new QTableWidgetItem(valuesText));
    m_axes->setItem(row, kWhenColumn, new QTableWidgetItem(whenText));
    auto* tick = new QTableWidgetItem;
    tick->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    tick->setCheckState(together ? Qt::Checked : Qt::Unchecked);
    m_axes->setItem(row, kTogetherColumn, tick);
    updateBatchSplitRow();
    fitAxesColumnsLater();
    emit changed();
}

int StudyEditor::axisCount() const
{
    return m_axes->rowCount();
}

void StudyEditor::removeSelectedAxes()
{
    QList<int> rows;
    for (const QModelIndex& index : m_axes->selectionModel()->selectedRows())
        rows.append(index.row());
    if (rows.isEmpty() && m_axes->currentRow() >= 0)
        rows.append(m_axes->currentRow());
    std::sort(rows.begin(), rows.end(), std::greater<int>());
    for (int row : rows)
        m_axes->removeRow(row);
    updateBatchSplitRow();
    emit changed();
}

void StudyEditor::updateBatchSplitRow()
{
    bool batchAxis = false;
    for (int row = 0; row < m_axes->rowCount(); ++row)
        batchAxis = batchAxis || keyOf(*m_axes, row) == kEffectiveBatchAxis;
    m_splitRow->setVisible(batchAxis);
}

QJsonObject StudyEditor::studyJson() const
{
    QJsonObject study = m_about;
    study.insert(studyField::kBase, m_base);
    QJsonArray axes;
    QJsonArray together;
    for (int row = 0; row < m_axes->rowCount(); ++row) {
        const QString key = keyOf(*m_axes, row);
        QString error;
        QJsonObject axis = axisFromText(key, m_axes->item(row, kValuesColumn)->text(), &error);
        if (axis.isEmpty())  // the reader names what is wrong
            axis = QJsonObject{{studyField::kKey, key}, {studyField::kValues, QJsonArray()}};
        if (key == kEffectiveBatchAxis) {
            axis.insert(studyField::kSplit, m_split->currentData().toString());
            axis.insert(studyField::kMaxRanks, m_maxRanks->value());
        }
        const QJsonObject when = conditionFromText(m_axes->item(row, kWhenColumn)->text(), &error);
        if (!when.isEmpty())
            axis.insert(studyField::kWhen, when);
        axes.append(axis);
        if (m_axes->item(row, kTogetherColumn)->checkState() == Qt::Checked)
            together.append(key);
    }
    study.insert(studyField::kAxes, axes);
    if (together.size() > 1)
        study.insert(studyField::kZip, QJsonArray{together});
    study.insert(studyField::kRepeats, m_repeats->value());
    const QString metric = m_targetMetric->currentData().toString();
    if (!metric.isEmpty()) {
        const TargetMeasure* measure = findTargetMeasure(metric);
        const bool lowerIsBetter = !measure || measure->loss;
        QJsonObject target{{studyField::kMetric, metric},
                           {lowerIsBetter ? studyField::kAtMost : studyField::kAtLeast, m_targetValue->value()}};
        if (m_stopAtTarget->isEnabled() && m_stopAtTarget->isChecked()) {
            target.insert(studyField::kStop, true);
            // The share of their steps its runs train was measured for this target, not another.
            if (m_loadedTarget.trainedShare > 0.0 && metric == m_loadedTarget.metric &&
                qFuzzyCompare(m_targetValue->value(), m_loadedTarget.value))
                target.insert(studyField::kTrainedShare, m_loadedTarget.trainedShare);
        }
        study.insert(studyField::kTarget, target);
    }
    return study;
}

StudyReadResult StudyEditor::read() const
{
    // A row whose text is not a list or a range is named before the reader sees it.
    for (int row = 0; row < m_axes->rowCount(); ++row) {
        QString error;
        if (axisFromText(keyOf(*m_axes, row), m_axes->item(row, kValuesColumn)->text(), &error).isEmpty())
            return {std::nullopt, tr("Axis %1: %2").arg(row + 1).arg(error)};
        const QString when = m_axes->item(row, kWhenColumn)->text();
        if (conditionFromText(when, &error).isEmpty() && !when.trimmed().isEmpty())
            return {std::nullopt, tr("Axis %1: only when %2").arg(row + 1).arg(error)};
    }
    return parseStudy(studyJson(), tr("the study"), m_folder);
}

}  // namespace ddplab::ui
