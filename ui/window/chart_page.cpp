// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_page.hpp"

#include "charts/chart_grid.hpp"
#include "charts/run_legend.hpp"
#include "charts/run_model.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace ddplab::ui {

ChartPage::ChartPage(RunModel& model, QAction* resetViews, QWidget* parent)
    : QWidget(parent)
{
    m_grid = new ChartGrid(model);

    auto* xLabel = new QLabel(tr("&X axis"));
    m_xAxis = new QComboBox;
    for (XAxis axis : allXAxes())
        m_xAxis->addItem(xAxisTitle(axis), xAxisName(axis));
    m_xAxis->setToolTip(tr("What every chart counts along: optimizer steps, epochs, samples seen by all ranks, or "
                           "seconds since the first step. Runs of unlike batches compare by samples or epochs."));
    xLabel->setBuddy(m_xAxis);
    connect(m_xAxis, &QComboBox::currentIndexChanged, this, [this] { m_grid->setXAxis(xAxis()); });

    auto* smoothingLabel = new QLabel(tr("&Smoothing"));
    m_smoothing = new QSlider(Qt::Horizontal);
    m_smoothing->setRange(0, 99);
    m_smoothing->setMinimumWidth(80);
    m_smoothing->setMaximumWidth(160);
    m_smoothing->setToolTip(tr("A moving average over the x axis (the same span of it for every run, however densely "
                               "each logs); the raw curve stays faint beneath"));
    smoothingLabel->setBuddy(m_smoothing);
    m_smoothingValue = new QLabel;
    connect(m_smoothing, &QSlider::valueChanged, this, [this] {
        m_grid->setSmoothing(smoothing());
        showSmoothing();
    });

    auto* reset = new QToolButton;
    reset->setDefaultAction(resetViews);
    reset->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    reset->setAutoRaise(true);

    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(8, 6, 8, 0);
    controls->addWidget(xLabel);
    controls->addWidget(m_xAxis);
    controls->addSpacing(12);
    controls->addWidget(smoothingLabel);
    controls->addWidget(m_smoothing, 1);
    controls->addWidget(m_smoothingValue);
    controls->addStretch(1);
    controls->addWidget(reset);

    auto* scroll = new QScrollArea;
    scroll->setWidget(m_grid);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* legend = new RunLegend(model);
    legend->setContentsMargins(10, 2, 10, 0);

    // Predict first: the question, large, where the charts will be.
    auto* card = new QWidget;
    card->setObjectName(QStringLiteral("predictionCard"));
    m_question = new QLabel;
    m_question->setWordWrap(true);
    m_question->setAlignment(Qt::AlignCenter);
    m_question->setTextFormat(Qt::RichText);
    auto* reveal = new QPushButton(tr("Reveal the charts (F9)"));
    connect(reveal, &QPushButton::clicked, this, &ChartPage::revealRequested);
    auto* cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(40, 20, 40, 20);
    cardLayout->addStretch(1);
    cardLayout->addWidget(m_question);
    cardLayout->addSpacing(16);
    cardLayout->addWidget(reveal, 0, Qt::AlignHCenter);
    cardLayout->addStretch(2);
    m_stack = new QStackedWidget;
    m_stack->addWidget(scroll);
    m_stack->addWidget(card);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(legend);
    layout->addWidget(m_stack, 1);
    setSmoothing(ChartGrid::kDefaultSmoothing);
}

void ChartPage::setXAxis(XAxis axis)
{
    m_xAxis->setCurrentIndex(m_xAxis->findData(xAxisName(axis)));
    m_grid->setXAxis(axis);
}

XAxis ChartPage::xAxis() const
{
    return xAxisFromName(m_xAxis->currentData().toString()).value_or(XAxis::Step);
}

void ChartPage::setSmoothing(double weight)
{
    m_smoothing->setValue(int(weight * 100 + 0.5));
    m_grid->setSmoothing(smoothing());
    showSmoothing();
}

double ChartPage::smoothing() const
{
    return m_smoothing->value() / 100.0;
}

void ChartPage::cover(const QString& question)
{
    // Twice the page's font: read from the back of a room, as the charts' titles are.
    m_question->setText(QStringLiteral("<p style='font-size:large'><b>%1</b></p><p style='font-size:x-large'>%2</p>"
                                       "<p>%3</p>")
                            .arg(tr("Predict first").toHtmlEscaped(), question.toHtmlEscaped(),
                                 tr("The runs go on beneath; the charts show when the class has guessed.").toHtmlEscaped()));
    m_stack->setCurrentIndex(1);
}

void ChartPage::uncover()
{
    m_stack->setCurrentIndex(0);
}

bool ChartPage::isCovered() const
{
    return m_stack->currentIndex() == 1;
}

void ChartPage::showSmoothing()
{
    m_smoothingValue->setText(QString::number(smoothing(), 'f', 2));
}

}  // namespace ddplab::ui
