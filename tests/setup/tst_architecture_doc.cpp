// SPDX-License-Identifier: GPL-3.0-or-later
// docs/architecture.md names the files a newcomer opens: its map, its tour, its tables. Every
// path it names in backticks must exist in the tree, so that the document cannot quietly go
// stale when a file moves: a path is a backticked `folder/…` (a bare file name such as
// `config.json` says what a file is called, not where it is), read from the repository root (or
// from engine/ or ui/), and a header-and-source pair may be named without its extension
// (`ui/client/runs/run_data`). Claims the document makes about the whole tree are checked where a
// search of the sources can tell (every colour chosen in ui/theme/).

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QtTest>

namespace {

const QString kSource = QStringLiteral(DDPLAB_SOURCE_DIR);

QString readDoc()
{
    QFile file(kSource + QStringLiteral("/docs/architecture.md"));
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
};

QTEST_GUILESS_MAIN(TestArchitectureDoc)
#include "tst_architecture_doc.moc"
