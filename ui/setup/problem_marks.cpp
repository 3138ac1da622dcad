// SPDX-License-Identifier: GPL-3.0-or-later
#include "problem_marks.hpp"

#include "core/config_keys.hpp"
#include "theme/message_colors.hpp"

#include <QLabel>
#include <QObject>
#include <QPalette>
#include <QRegularExpression>

#include <algorithm>

namespace ddplab::ui {
namespace {

bool hasField(const SettingFields& fields, const QString& key)
{
    return std::any_of(fields.begin(), fields.end(), [&](const auto& field) { return field->name == key; });
}

}  // namespace

QString inPanelWords(QString message, const QString& ownKey)
{
    for (const ConfigKey& key : configKeys()) {
        if (key.label.empty())
            continue;
        const QString name = QString::fromStdString(key.name);
        // A key spelt like no English word (batch_size, beta1, lr) is the key wherever it stands;
        // a plain word (model, seed, threads) is the key only where the message is about that
        // key and begins with it ("threads must be ..."): elsewhere it is the engine's English
        // ("your model must be a file" stays so).
        const bool unmistakable = name.contains(QLatin1Char('_')) || std::any_of(name.begin(), name.end(), [](QChar c) { return c.isDigit(); }) ||
                                  name == QLatin1String(key::kLr);
        if (!unmistakable) {
            if (name == ownKey && message.startsWith(name + QLatin1Char(' ')))
                message.replace(0, name.size(), QString::fromStdString(key.label));
            continue;
        }
        // The first mention only: "batch_size must be ...; a smaller batch_size" reads right.
        // A word of its own only: not part of a path, a file name or code ("docs/own-model.md",
        // "torch.jit.script(model)"), which the engine's messages quote.
        const QRegularExpression pattern(QStringLiteral("(?<![\\w./(-])%1(?![\\w./)-])").arg(name));
        const QRegularExpressionMatch match = pattern.match(message);
        if (match.hasMatch())
            message.replace(match.capturedStart(), match.capturedLength(), QString::fromStdString(key.label));
    }
    return message;
}

void fitHeightToText(QLabel& label)
{
    const int needed = label.heightForWidth(label.width());
    if (needed > 0 && needed != label.minimumHeight())
        label.setMinimumHeight(needed);
}

void markProblems(const SettingFields& fields, const QHash<QString, QString>& problems, QLabel& summary, const QPalette& palette)
{
    const QColor color = problemTextColor(palette);
    QStringList elsewhere;
    for (auto it = problems.constBegin(); it != problems.constEnd(); ++it) {
        if (!hasField(fields, it.key()))
            elsewhere.append(inPanelWords(it.value(), it.key()));
    }
    for (const auto& field : fields) {
        const QString problem = problems.value(field->name);
        const bool bad = !problem.isEmpty();
        field->message->setText(inPanelWords(problem, field->name));
        fitHeightToText(*field->message);
        field->message->setVisible(bad);
        QPalette labelPalette = field->label->palette();
        labelPalette.setColor(QPalette::WindowText, bad ? color : palette.color(QPalette::WindowText));
        field->label->setPalette(labelPalette);
        QPalette messagePalette = field->message->palette();
        messagePalette.setColor(QPalette::WindowText, color);
        field->message->setPalette(messagePalette);
        QPalette editorPalette = palette;
        if (bad) {
            QColor tint = editorPalette.color(QPalette::Base);
            tint = QColor::fromRgbF(tint.redF() * 0.75 + color.redF() * 0.25, tint.greenF() * 0.75 + color.greenF() * 0.25,
                                    tint.blueF() * 0.75 + color.blueF() * 0.25);
            editorPalette.setColor(QPalette::Base, tint);
            editorPalette.setColor(QPalette::Button, tint);
        }
        field->editor->setPalette(editorPalette);
    }
    const qsizetype count = problems.size();
    summary.setVisible(count > 0);
    if (count > 0) {
        QString text = count == 1 ? QObject::tr("1 setting needs attention before Run (marked below).")
                                  : QObject::tr("%1 settings need attention before Run (marked below).").arg(count);
        for (const QString& problem : elsewhere)
            text += QStringLiteral("\n• ") + problem;
        summary.setText(text);
        QPalette summaryPalette = summary.palette();
        summaryPalette.setColor(QPalette::WindowText, color);
        summary.setPalette(summaryPalette);
    }
}

QStringList problemSentences(const SettingFields& fields, const QHash<QString, QString>& problems)
{
    QStringList sentences;
    for (const auto& field : fields) {
        if (problems.contains(field->name))
            sentences.append(inPanelWords(problems.value(field->name), field->name));
    }
    for (auto it = problems.constBegin(); it != problems.constEnd(); ++it) {
        if (!hasField(fields, it.key()))
            sentences.append(inPanelWords(it.value(), it.key()));
    }
    return sentences;
}

}  // namespace ddplab::ui
