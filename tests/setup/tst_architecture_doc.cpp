// SPDX-License-Identifier: GPL-3.0-or-later
// docs/architecture.md names the files a newcomer opens: its map, its tour, its tables (and
// docs/tour.md walks one Run click through them). Every path they name in backticks must exist
// in the tree, so that the documents cannot quietly go stale when a file moves: a path is a backticked `folder/…` (a bare file name such as
// `config.json` says what a file is called, not where it is), read from the repository root (or
// from engine/ or ui/), and a header-and-source pair may be named without its extension
// (`ui/client/runs/run_data`). Claims the document makes about the whole tree are checked where a
// search of the sources can tell (every colour chosen in ui/theme/; the settings become JSON once
// on the Run path; what neither shows nor paints lives in ui/client/).

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

namespace {

const QString kSource = QStringLiteral(DDPLAB_SOURCE_DIR);

QString readDoc(const QString& name = QStringLiteral("architecture.md"))
{
    QFile file(kSource + QStringLiteral("/docs/") + name);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// `engine/core/ (light)` names engine/core/; `wire(field::kLoss)` or `--preset NAME` name no path.
QStringList namedPaths(const QString& doc)
{
    static const QRegularExpression kTick(QStringLiteral("`([^`\\s]+)`"));
    static const QRegularExpression kPath(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.*/-]*$"));
    QStringList paths;
    for (auto match = kTick.globalMatch(doc); match.hasNext();) {
        const QString token = match.next().captured(1);
        if (!kPath.match(token).hasMatch() || token.contains(QLatin1Char('*')))
            continue;
        if (token.contains(QLatin1Char('/')))
            paths.append(token);
    }
    paths.removeDuplicates();
    return paths;
}

bool existsInTree(const QString& path)
{
    for (const QString& base : {QString(), QStringLiteral("engine/"), QStringLiteral("ui/")}) {
        for (const QString& ending : {QString(), QStringLiteral(".hpp"), QStringLiteral(".cpp")}) {
            if (QFileInfo::exists(kSource + QLatin1Char('/') + base + path + ending))
                return true;
        }
    }
    return false;
}

// Our sources under `folder`, each with its path from the repository root.
QStringList sourcesUnder(const QString& folder)
{
    QStringList files;
    QDirIterator it(kSource + QLatin1Char('/') + folder, {QStringLiteral("*.cpp"), QStringLiteral("*.hpp")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(it.next().mid(kSource.size() + 1));
    return files;
}

QString readSource(const QString& path)
{
    QFile file(kSource + QLatin1Char('/') + path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

}  // namespace

class TestArchitectureDoc : public QObject {
    Q_OBJECT

private slots:
    void theDocumentHasAMapAndATour()
    {
        const QString doc = readDoc();
        QVERIFY(doc.contains(QStringLiteral("\n## The map\n")));
        QVERIFY(doc.contains(QStringLiteral("\n## A newcomer's tour\n")));
        // Every section the document points to is there.
        static const QRegularExpression kPointer(QStringLiteral("see \"([^\"]+)\""));
        for (auto match = kPointer.globalMatch(doc); match.hasNext();) {
            const QString section = match.next().captured(1);
            QVERIFY2(doc.contains(QStringLiteral("\n## ") + section + QLatin1Char('\n')), qPrintable(section));
        }
    }

    void everyNamedPathExists()
    {
        const QStringList paths = namedPaths(readDoc());
        QVERIFY2(paths.size() > 80, qPrintable(QString::number(paths.size())));  // the map and the tour are read
        QVERIFY(paths.contains(QStringLiteral("engine/core/derived.cpp")));
        QVERIFY(paths.contains(QStringLiteral("ui/client/series/chart_catalog.cpp")));
        QStringList missing;
        for (const QString& path : paths) {
            if (!existsInTree(path))
                missing.append(path);
        }
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("docs/architecture.md names what the tree does not hold:\n") +
                                               missing.join(QLatin1Char('\n'))));
    }

    // docs/tour.md walks one Run click from Setup to the optimizer step and back to a chart's
    // point, file by file: every file it names exists, and the walk reaches each of those places.
    void theTourOfARunClickNamesFilesThatExist()
    {
        QVERIFY(readDoc().contains(QStringLiteral("`docs/tour.md`")));
        const QStringList paths = namedPaths(readDoc(QStringLiteral("tour.md")));
        QVERIFY2(paths.size() > 30, qPrintable(QString::number(paths.size())));
        for (const QString& stop : {QStringLiteral("ui/setup/parameter_panel.cpp"), QStringLiteral("ui/window/run_starter.cpp"),
                                    QStringLiteral("ui/client/runs/run_store.cpp"), QStringLiteral("engine/train/trainer.cpp"),
                                    QStringLiteral("engine/optim/optimizer_factory.cpp"), QStringLiteral("ui/client/runs/run_data.cpp"),
                                    QStringLiteral("ui/charts/chart_line.cpp")})
            QVERIFY2(paths.contains(stop), qPrintable(stop));
        QStringList missing;
        for (const QString& path : paths) {
            if (!existsInTree(path))
                missing.append(path);
        }
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("docs/tour.md names what the tree does not hold:\n") + missing.join(QLatin1Char('\n'))));
    }

    void everyUiFolderIsOnTheMap()
    {
        const QString doc = readDoc();
        const QDir ui(kSource + QStringLiteral("/ui"));
        for (const QString& folder : ui.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QVERIFY2(doc.contains(QStringLiteral("| `ui/%1/` |").arg(folder)), qPrintable(folder));
        const QDir client(kSource + QStringLiteral("/ui/client"));
        for (const QString& folder : client.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QVERIFY2(doc.contains(QStringLiteral("| `ui/client/%1/` |").arg(folder)), qPrintable(folder));
        const QDir engine(kSource + QStringLiteral("/engine"));
        for (const QString& folder : engine.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            if (folder != QLatin1String("cmake"))
                QVERIFY2(doc.contains(QStringLiteral("| `engine/%1/` |").arg(folder)), qPrintable(folder));
        }
    }

    // The map says ui/theme/ holds "every colour the lab chooses": a colour written anywhere
    // else (a named Qt colour, a hex or numeric QColor) makes that sentence false. Transparent
    // chooses no colour.
    void everyColourIsChosenInTheTheme()
    {
        QVERIFY(readDoc().contains(QStringLiteral("every colour the lab chooses")));
        static const QRegularExpression kColourLiteral(QStringLiteral(
            "Qt::(black|white|red|green|blue|cyan|magenta|yellow|gray|darkGray|lightGray|darkRed|darkGreen|darkBlue|"
            "darkCyan|darkMagenta|darkYellow)\\b|QColor\\(\\s*(\"#|0x|[0-9])|QColor::fromRgbF?\\(\\s*[0-9]"));
        QStringList sources = sourcesUnder(QStringLiteral("ui")) + sourcesUnder(QStringLiteral("app"));
        QVERIFY2(sources.size() > 100, qPrintable(QString::number(sources.size())));
        QStringList outside;
        for (const QString& path : sources) {
            if (path.startsWith(QLatin1String("ui/theme/")))
                continue;
            const QString text = readSource(path);
            for (auto match = kColourLiteral.globalMatch(text); match.hasNext();) {
                const auto found = match.next();
                outside.append(QStringLiteral("%1:%2: %3").arg(path).arg(text.left(found.capturedStart()).count(QLatin1Char('\n')) + 1)
                                   .arg(found.captured()));
            }
        }
        QVERIFY2(outside.isEmpty(), qPrintable(QStringLiteral("colours chosen outside ui/theme/:\n") + outside.join(QLatin1Char('\n'))));
    }

    // "ui/client: everything of the lab that neither shows nor paints": a source of a folder
    // above it that, with its own header, includes no Qt header beyond Qt Core (Gui, Widgets,
    // Charts, Svg) and no header of another folder above ui/client/ (those show or paint) is
    // logic without widgets in a widget folder, and makes that sentence false. ui/headless/ is
    // the commands without a window: it holds no widgets by design.
    void whatNeitherShowsNorPaintsIsInTheClient()
    {
        QVERIFY(readDoc().contains(QStringLiteral("everything of the lab that neither shows nor paints")));
        const QString qtCore = QLibraryInfo::path(QLibraryInfo::HeadersPath) + QStringLiteral("/QtCore/");
        QVERIFY2(QFileInfo::exists(qtCore + QStringLiteral("QString")), qPrintable(qtCore));
        static const QRegularExpression kInclude(QStringLiteral("#include [\"<]([^\">]+)[\">]"));
        QStringList logic;
        int read = 0;
        for (const QString& path : sourcesUnder(QStringLiteral("ui"))) {
            const QString folder = path.section(QLatin1Char('/'), 1, 1);
            if (!path.endsWith(QLatin1String(".cpp")) || folder == QLatin1String("client") || folder == QLatin1String("headless"))
                continue;
            ++read;
            const QString ownHeader = path.mid(3).chopped(4) + QStringLiteral(".hpp");  // "study/study_page.hpp"
            const QString text = readSource(path) + readSource(QStringLiteral("ui/") + ownHeader);
            bool showsOrPaints = false;
            for (auto match = kInclude.globalMatch(text); match.hasNext() && !showsOrPaints;) {
                const QString included = match.next().captured(1);
                if (!included.contains(QLatin1Char('/')))
                    showsOrPaints = included.startsWith(QLatin1Char('Q')) && !QFileInfo::exists(qtCore + included);
                else
                    showsOrPaints = !included.startsWith(QLatin1String("client/")) && included != ownHeader &&
                                    QFileInfo::exists(kSource + QStringLiteral("/ui/") + included);
            }
            if (!showsOrPaints)
                logic.append(path);
        }
        QVERIFY2(read > 50, qPrintable(QString::number(read)));
        QVERIFY2(logic.isEmpty(), qPrintable(QStringLiteral("sources that neither show nor paint, outside ui/client/:\n") + logic.join(QLatin1Char('\n'))));
    }

    // "They become JSON once": on the Run path (Setup's Run through the session to the store),
    // the typed settings are turned into JSON by one call, RunStore::createRun's; the engine reads
    // that file and the session holds its text. A second conversion on the way (Setup's values()
    // for a name, presetFromCoreConfig for RunData, Qt's JSON back to nlohmann's for the file)
    // makes the sentence false.
    void settingsBecomeJsonOnceOnTheRunPath()
    {
        QVERIFY(readDoc().contains(QStringLiteral("they become JSON once")));
        static const QRegularExpression kConversion(QStringLiteral(
            "\\b(presetFromCoreConfig|configToJson|toQJson|toCoreJson|presetFileContents|runConfigFileText|coreConfigValue)\\(|\\.values\\(\\)"));
        QStringList conversions;
        for (const QString& path : {QStringLiteral("ui/window/run_starter.cpp"), QStringLiteral("ui/client/session/lab_session.cpp"),
                                    QStringLiteral("ui/client/runs/run_store.cpp")}) {
            const QString text = readSource(path);
            QVERIFY2(!text.isEmpty(), qPrintable(path));
            for (auto match = kConversion.globalMatch(text); match.hasNext();) {
                const auto found = match.next();
                conversions.append(QStringLiteral("%1:%2: %3").arg(path).arg(text.left(found.capturedStart()).count(QLatin1Char('\n')) + 1)
                                       .arg(found.captured()));
            }
        }
        QVERIFY2(conversions.size() == 1 && conversions.first().startsWith(QLatin1String("ui/client/runs/run_store.cpp:")) &&
                     conversions.first().endsWith(QLatin1String("runConfigFileText(")),
                 qPrintable(QStringLiteral("settings change shape on the Run path %1 times, not once:\n").arg(conversions.size()) +
                            conversions.join(QLatin1Char('\n'))));
    }

    // docs/architecture.md's "Adding a workload" says how many times, in how many files, code
    // still switches on a workload instead of asking its row in engine/core/workload_table.cpp;
    // a new `WorkloadKind::` anywhere fails here until the doc says so (or the table answers it).
    void theWorkloadSwitchesThatRemainAreCounted()
    {
        const QString doc = readDoc();
        static const QRegularExpression kClaim(QStringLiteral("`WorkloadKind::` is still named (\\d+) times in (\\d+) files"));
        const QRegularExpressionMatch claim = kClaim.match(doc);
        QVERIFY2(claim.hasMatch(), "docs/architecture.md no longer counts the workload switches");
        const QSet<QString> described{QStringLiteral("engine/core/workload_table.cpp"), QStringLiteral("engine/core/config.hpp")};
        int named = 0;
        QStringList files;
        for (const QString& path : sourcesUnder(QStringLiteral("engine")) + sourcesUnder(QStringLiteral("ui")) + sourcesUnder(QStringLiteral("app"))) {
            if (described.contains(path))
                continue;
            const int here = int(readSource(path).count(QStringLiteral("WorkloadKind::")));
            if (here > 0) {
                named += here;
                files.append(QStringLiteral("%1 (%2)").arg(path).arg(here));
            }
        }
        files.sort();
        QVERIFY2(named == claim.captured(1).toInt() && files.size() == claim.captured(2).toInt(),
                 qPrintable(QStringLiteral("the doc says %1 times in %2 files; the sources say %3 in %4:\n")
                                .arg(claim.captured(1), claim.captured(2)).arg(named).arg(files.size()) + files.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestArchitectureDoc)
#include "tst_architecture_doc.moc"
