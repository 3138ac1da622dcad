// SPDX-License-Identifier: GPL-3.0-or-later
// Who may include whom: docs/architecture.md's table is the rule, read here, and every
// `#include "…"` of engine/, ui/ and app/ is checked against it. A folder's own headers are
// always allowed; `engine/core/ (light)` allows only the core headers that do not bring in
// nlohmann/json. A folder with sources and no row, or a row whose folder is gone, fails too.
// ui/client/'s topic folders are rows of their own, in order from the bottom step up: a row may
// name only the ui/client/ rows above it in the table, so no include in ui/client runs back up.

#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

namespace {

const QString kSource = QStringLiteral(DDPLAB_SOURCE_DIR);
const QString kLightCore = QStringLiteral("engine/core/ (light)");
const QString kCore = QStringLiteral("engine/core/");

// The one file of the window that may parse the engine's JSON (the doc says why).
const QSet<QString> kJsonBridge{QStringLiteral("ui/client/library/preset_file.cpp")};

struct Rule {
    QString folder;         // "ui/client/"
    QStringList mayInclude; // folders, or kLightCore
};

QString readText(const QString& relative)
{
    QFile file(kSource + QLatin1Char('/') + relative);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QList<Rule> rulesFromTheDoc()
{
    const QString doc = readText(QStringLiteral("docs/architecture.md"));
    const qsizetype start = doc.indexOf(QStringLiteral("## Who may include whom"));
    const qsizetype end = doc.indexOf(QStringLiteral("\n## "), start + 1);
    static const QRegularExpression kTick(QStringLiteral("`([^`]+)`( \\(light\\))?"));
    QList<Rule> rules;
    for (const QString& line : doc.mid(start, end - start).split(QLatin1Char('\n'))) {
        if (!line.startsWith(QStringLiteral("| `")))
            continue;
        const QStringList cells = line.split(QLatin1Char('|'));
        Rule rule;
        rule.folder = kTick.match(cells.at(1)).captured(1);
        for (auto match = kTick.globalMatch(cells.at(cells.size() - 2)); match.hasNext();) {
            const QRegularExpressionMatch entry = match.next();
            rule.mayInclude.append(entry.captured(1) + entry.captured(2));
        }
        rules.append(rule);
    }
    return rules;
}

// Core headers that bring in nlohmann/json, directly or through another core header.
QSet<QString> heavyCoreHeaders()
{
    QHash<QString, QStringList> includes;
    QDirIterator files(kSource + QStringLiteral("/engine/core"), {QStringLiteral("*.hpp")}, QDir::Files);
    static const QRegularExpression kInclude(QStringLiteral("#include [\"<]([^\">]+)[\">]"));
    while (files.hasNext()) {
        const QString path = files.next();
        const QString name = QFileInfo(path).fileName();
        const QString text = readText(QStringLiteral("engine/core/") + name);
        for (auto match = kInclude.globalMatch(text); match.hasNext();)
            includes[name].append(match.next().captured(1));
    }
    QSet<QString> heavy;
    for (bool grew = true; grew;) {
        grew = false;
        for (auto header = includes.begin(); header != includes.end(); ++header) {
            if (heavy.contains(header.key()))
                continue;
            for (const QString& included : header.value()) {
                if (included == QLatin1String("nlohmann/json.hpp") || heavy.contains(included)) {
                    heavy.insert(header.key());
                    grew = true;
                    break;
                }
            }
        }
    }
    return heavy;
}

// Where `#include "path"` of a file in `folder` lands: the folder itself, else ui/, engine/, or
// the repository root (as the build's include paths resolve it).
QString resolve(const QString& folder, const QString& path)
{
    for (const QString& base : {folder, QStringLiteral("ui/"), QStringLiteral("engine/"), QString()}) {
        if (QFile::exists(kSource + QLatin1Char('/') + base + path))
            return QDir::cleanPath(base + path);
    }
    return QString();
}

}  // namespace

class TestIncludeRules : public QObject {
    Q_OBJECT

private slots:
    void theTableIsRead()
    {
        const QList<Rule> rules = rulesFromTheDoc();
        QVERIFY2(rules.size() > 15, qPrintable(QString::number(rules.size())));
        const auto client = std::find_if(rules.begin(), rules.end(), [](const Rule& rule) { return rule.folder == QLatin1String("ui/client/"); });
        QVERIFY(client != rules.end());
        QCOMPARE(client->mayInclude, QStringList{kLightCore});
        const QSet<QString> heavy = heavyCoreHeaders();
        QVERIFY(heavy.contains(QStringLiteral("json.hpp")) && heavy.contains(QStringLiteral("protocol.hpp")));
        QVERIFY(!heavy.contains(QStringLiteral("config_keys.hpp")) && !heavy.contains(QStringLiteral("key_names.hpp")));
    }

    void clientFoldersFormAStaircase()
    {
        const QList<Rule> rules = rulesFromTheDoc();
        const QString client = QStringLiteral("ui/client/");
        QStringList below;  // the ui/client/ rows read so far: the steps under the next one
        int steps = 0;
        for (const Rule& rule : rules) {
            if (!rule.folder.startsWith(client) || rule.folder == client)
                continue;
            ++steps;
            for (const QString& entry : rule.mayInclude) {
                if (!entry.startsWith(client) || entry == QLatin1String("ui/client/wire.hpp"))
                    continue;
                QVERIFY2(below.contains(entry), qPrintable(QStringLiteral("%1 may include %2, which is not a step below it").arg(rule.folder, entry)));
            }
            below.append(rule.folder);
        }
        QVERIFY2(steps >= 9, qPrintable(QString::number(steps)));  // io … study
        QVERIFY(below.contains(QStringLiteral("ui/client/study/")));
    }

    void everyIncludeIsAllowed()
    {
        const QList<Rule> rules = rulesFromTheDoc();
        const QSet<QString> heavy = heavyCoreHeaders();
        static const QRegularExpression kInclude(QStringLiteral("^#include \"([^\"]+)\""), QRegularExpression::MultilineOption);
        QStringList offences;
        QSet<QString> foldersSeen;
        for (const char* top : {"engine", "ui", "app"}) {
            QDirIterator files(kSource + QLatin1Char('/') + QLatin1String(top), {QStringLiteral("*.cpp"), QStringLiteral("*.hpp")},
                               QDir::Files, QDirIterator::Subdirectories);
            while (files.hasNext()) {
                const QString relative = files.next().mid(kSource.size() + 1);
                const QString folder = relative.left(relative.lastIndexOf(QLatin1Char('/')) + 1);
                // The deepest row that holds the file (ui/client/ for ui/client/runs/run_data.cpp).
                const Rule* rule = nullptr;
                for (const Rule& candidate : rules) {
                    if (relative.startsWith(candidate.folder) && (!rule || candidate.folder.size() > rule->folder.size()))
                        rule = &candidate;
                }
                if (!rule) {
                    offences.append(QStringLiteral("%1: its folder has no row in the table").arg(relative));
                    continue;
                }
                foldersSeen.insert(rule->folder);
                const QString text = readText(relative);
                for (auto match = kInclude.globalMatch(text); match.hasNext();) {
                    const QString path = match.next().captured(1);
                    const QString target = resolve(folder, path);
                    if (target.isEmpty() || target.startsWith(rule->folder))
                        continue;  // not ours (a generated file), or the folder's own
                    bool allowed = false;
                    for (const QString& entry : rule->mayInclude) {
                        if (entry == kLightCore)
                            allowed = allowed || (target.startsWith(kCore) && (!heavy.contains(QFileInfo(target).fileName()) || kJsonBridge.contains(relative)));
                        else
                            allowed = allowed || target.startsWith(entry);
                    }
                    if (!allowed)
                        offences.append(QStringLiteral("%1 includes %2").arg(relative, target));
                }
            }
        }
        QVERIFY2(offences.isEmpty(), qPrintable(QStringLiteral("not allowed by docs/architecture.md's table:\n") + offences.join(QLatin1Char('\n'))));
        for (const Rule& rule : rules)
            QVERIFY2(foldersSeen.contains(rule.folder), qPrintable(rule.folder + QStringLiteral(" has a row but no sources")));
    }
};

QTEST_GUILESS_MAIN(TestIncludeRules)
#include "tst_include_rules.moc"
