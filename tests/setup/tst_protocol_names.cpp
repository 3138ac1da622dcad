// SPDX-License-Identifier: GPL-3.0-or-later
// One spelling of every name that crosses the process boundary: the event types and fields,
// the `devices`, `shard` and `keys` reports (engine/core/protocol_names.hpp), the config keys and
// the values of choice keys (key_names.hpp). A string literal elsewhere in engine/, ui/ or app/ that equals one of them is
// a second spelling that a rename would miss. The few literals that only look like one (an
// English word in a message, a file of the lab's own) are listed below with the reason.

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

namespace {

const QString kSource = QStringLiteral(DDPLAB_SOURCE_DIR);

// Where the names are defined, and the key table that gives each key its meaning.
const QStringList kDefinitions{QStringLiteral("engine/core/protocol_names.hpp"), QStringLiteral("engine/core/key_names.hpp"),
                               QStringLiteral("engine/core/config_keys.cpp")};

struct Allowed {
    const char* file;
    const char* literal;
    const char* why;
};
const Allowed kAllowed[] = {
    {"engine/cli/main.cpp", "ranks", "the --world-size help text"},
    {"engine/cli/main.cpp", "worker", "the subcommand's name (its hello says role::kWorker)"},
    {"engine/cli/run_command.cpp", "worker", "the subcommand's name (its hello says role::kWorker)"},
    {"engine/cli/launch_template.cpp", "engine", "a placeholder of the launch templates ({engine})"},
    {"engine/cli/launch_template.cpp", "config", "a placeholder of the launch templates ({config})"},
    {"engine/cli/launch_template.cpp", "ranks", "a placeholder of the launch templates ({ranks})"},
    {"engine/comm/backend_choice.cpp", "rank", "a word in a message (countOf)"},
    {"engine/core/config_validate.cpp", "rank", "a word in a message (countOf)"},
    {"engine/core/config_validate.cpp", "epoch", "a word in a message (countOf)"},
    {"engine/core/config_validate.cpp", "step", "a word in a message (countOf)"},
    {"engine/train/resume_checks.cpp", "rank", "a word in a message (countOf)"},
    {"engine/launch/launcher.cpp", "rank", "a word in a message (countOf)"},
    {"engine/launch/worker.cpp", "rank", "a word in a message (countOf)"},
    {"engine/data/npy_file.cpp", "shape", "a field of NumPy's .npy header"},
    {"engine/launch/thread_share.cpp", "cpu", "the first word of /proc/stat's total line"},
    {"ui/client/series/chart_catalog.cpp", "lr", "a line's label in a chart's legend"},
    {"ui/client/script/script_growth.cpp", "lr", "PyTorch's param_groups key, in the Python a script holds"},
    {"app/command_line.cpp", "help", "ddplab's own command-line options"},
    {"app/command_line.cpp", "version", "ddplab's own command-line options"},
    {"app/command_line.cpp", "engine", "ddplab's own command-line options"},
    {"ui/client/library/lesson_library.cpp", "summary", "a field of the lab's lesson files"},
    {"ui/client/library/lesson_library.cpp", "config", "a field of the lab's lesson files"},
    {"ui/client/library/lesson_library.cpp", "runs", "a field of the lab's lesson files"},
    {"ui/client/session/preset_resolver.cpp", "runs", "a field of the lab's lesson files"},
    {"ui/client/runs/run_comparison.cpp", "optimizer", "a column title of the Compare table"},
    {"ui/client/runs/run_names.cpp", "default", "a word in a run's name"},
    {"ui/client/runs/run_record.cpp", "name", "a field of the lab's own meta.json"},
    {"ui/client/runs/run_record.cpp", "exit_code", "a field of the lab's own meta.json"},
    {"ui/client/runs/run_record.cpp", "error", "a field of the lab's own meta.json"},
    {"ui/client/runs/run_record.cpp", "steps", "a field of the lab's own meta.json"},
    {"ui/client/series/x_axis.cpp", "step", "a CSV column, named like the field on purpose"},
    {"ui/client/series/x_axis.cpp", "epoch", "a CSV column, named like the field on purpose"},
    {"ui/client/series/x_axis.cpp", "wall_s", "a CSV column, named like the field on purpose"},
    {"ui/client/series/x_axis.cpp", "samples_seen", "a CSV column (the checkpoint's entry of that name is another file's)"},
    {"ui/client/runs/run_status.cpp", "diverged", "a run's status (the range test's stop reason of that name is the engine's)"},
    {"ui/plots/study_heatmap.cpp", "diverged", "a heatmap cell's word for a run that diverged"},
    {"ui/setup/derived_panel.cpp", "steps", "the id of one of the panel's rows"},
    {"ui/client/study/study_fields.hpp", "summary", "a field of the lab's study files"},
    {"ui/client/study/study_fields.hpp", "key", "a field of the lab's study files"},
    {"ui/client/study/study_fields.hpp", "step", "a field of the lab's study files"},
    {"ui/client/study/study_fields.hpp", "stop", "a field of the lab's study files"},
    {"ui/client/study/study_file.cpp", "linear", "a value of the study files' own \"scale\" field"},
    {"ui/client/study/study_library.cpp", "none", "a word in a message (no built-in study)"},
    {"ui/plots/study_heatmap.cpp", "linear", "the label of the linear rule's line on a heatmap"},
    {"ui/window/lab_actions.cpp", "stop", "the name of the Stop action's icon in the icon theme"},
    {"ui/client/study/study_plan.cpp", "config", "a field of the lab's own plan.json"},
};

QSet<QString> protocolNames()
{
    QSet<QString> names;
    static const QRegularExpression kDefinition(QStringLiteral("inline constexpr char k\\w+\\[\\] = \"([^\"]+)\";"));
    for (const QString& relative : kDefinitions.mid(0, 2)) {
        QFile file(kSource + QLatin1Char('/') + relative);
        if (!file.open(QIODevice::ReadOnly))
            return {};
        const QString text = QString::fromUtf8(file.readAll());
        for (auto match = kDefinition.globalMatch(text); match.hasNext();)
            names.insert(match.next().captured(1));
    }
    return names;
}

// The string literals of one line of C++, comments and tr("...") texts left out.
QStringList literalsOf(QString line)
{
    const qsizetype comment = line.indexOf(QLatin1String("//"));
    if (comment >= 0 && line.left(comment).count(QLatin1Char('"')) % 2 == 0)
        line.truncate(comment);
    static const QRegularExpression kLiteral(QStringLiteral("(tr\\(\\s*)?\"((?:[^\"\\\\]|\\\\.)*)\""));
    QStringList literals;
    for (auto match = kLiteral.globalMatch(line); match.hasNext();) {
        const QRegularExpressionMatch literal = match.next();
        if (literal.captured(1).isEmpty())
            literals.append(literal.captured(2));
    }
    return literals;
}

}  // namespace

class TestProtocolNames : public QObject {
    Q_OBJECT

private slots:
    void theNamesAreRead()
    {
        const QSet<QString> names = protocolNames();
        QVERIFY2(names.size() > 100, qPrintable(QString::number(names.size())));
        for (const char* name : {"hello", "update_var", "world_size", "max_local_ranks", "padding", "fashion_mnist", "sqrt", "cuda"})
            QVERIFY2(names.contains(QLatin1String(name)), name);
    }

    void noSourceSpellsAProtocolNameItself()
    {
        const QSet<QString> names = protocolNames();
        QSet<QString> allowed;
        for (const Allowed& entry : kAllowed)
            allowed.insert(QLatin1String(entry.file) + QLatin1Char(':') + QLatin1String(entry.literal));
        QSet<QString> allowedAndSeen;
        QStringList offences;
        for (const char* folder : {"engine", "ui", "app"}) {
            QDirIterator files(kSource + QLatin1Char('/') + QLatin1String(folder), {QStringLiteral("*.cpp"), QStringLiteral("*.hpp")},
                               QDir::Files, QDirIterator::Subdirectories);
            while (files.hasNext()) {
                const QString path = files.next();
                const QString relative = path.mid(kSource.size() + 1);
                if (kDefinitions.contains(relative))
                    continue;
                QFile file(path);
                QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
                int lineNumber = 0;
                while (!file.atEnd()) {
                    ++lineNumber;
                    for (const QString& literal : literalsOf(QString::fromUtf8(file.readLine()))) {
                        if (!names.contains(literal))
                            continue;
                        const QString where = relative + QLatin1Char(':') + literal;
                        if (allowed.contains(where))
                            allowedAndSeen.insert(where);
                        else
                            offences.append(QStringLiteral("%1:%2 spells \"%3\"").arg(relative).arg(lineNumber).arg(literal));
                    }
                }
            }
        }
        QVERIFY2(offences.isEmpty(), qPrintable(QStringLiteral("use the constant from protocol_names.hpp or key_names.hpp:\n") +
                                                offences.join(QLatin1Char('\n'))));
        // An entry whose literal is gone is an exception nobody needs any more.
        const QSet<QString> stale = allowed - allowedAndSeen;
        QVERIFY2(stale.isEmpty(), qPrintable(QStringList(stale.begin(), stale.end()).join(QStringLiteral(", "))));
    }
};

QTEST_GUILESS_MAIN(TestProtocolNames)
#include "tst_protocol_names.moc"
