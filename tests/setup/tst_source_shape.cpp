// SPDX-License-Identifier: GPL-3.0-or-later
// Small files with one job. Files are split by what they do, not by a line count, yet a count
// shows where to look: no source file of ours is over 1,000 lines unless listed with its reason
// (that fails), and a source
// file of ui/ or app/ over 500 lines is named with the reason it is still one job, listed below,
// or as having none (a warning: several people's work lands on those files between two runs of
// this suite, and a prompt is not a reason to turn the whole suite red).
// Every source file of ours names its licence (SPDX), so a file copied out of the tree keeps it.

#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QSet>
#include <QtTest>

namespace {

constexpr int kMostWindowLines = 500;  // ui/ and app/: past this, a file says why it is one job (a warning)
constexpr int kMostLines = 1000;       // any source file of ours (a failure)

// The files of ui/ and app/ over kMostWindowLines, each with why it is still one job.
const QMap<QString, QString> kLongWindowFiles = {
    {QStringLiteral("ui/advisor/advise_page.cpp"),
     QStringLiteral("the Advise page's layout and wiring; its inputs, card and charts are already files of their own")},
    {QStringLiteral("ui/study/study_page.cpp"),
     QStringLiteral("the Study page's layout and wiring: choosing, estimating, running and reopening a study")},
};

// The files over kMostLines, each with why it is still one job.
const QMap<QString, QString> kLongFiles = {
    {QStringLiteral("engine/core/config_keys.cpp"),
     QStringLiteral("the key table, one entry per key (issue 44 §4 would give workloads such a table of their own)")},
};

const QStringList kOurFolders = {QStringLiteral("engine"),  QStringLiteral("ui"),       QStringLiteral("app"),
                                 QStringLiteral("tests"),   QStringLiteral("bench"),    QStringLiteral("scripts"),
                                 QStringLiteral("examples"), QStringLiteral("packaging"), QStringLiteral(".ci")};

const QLatin1String kLicenceTag("SPDX-License-Identifier: GPL-3.0-or-later");

// The third-party files we carry under their own licence (TensorBoard's protos, Apache-2.0).
const QLatin1String kThirdParty("tests/tools/tensorboard_proto/");

bool isSourceFile(const QString& path)
{
    static const QStringList endings = {QStringLiteral(".cpp"), QStringLiteral(".hpp"), QStringLiteral(".py"),
                                        QStringLiteral(".sh"), QStringLiteral(".cmake"), QStringLiteral("CMakeLists.txt")};
    for (const QString& ending : endings)
        if (path.endsWith(ending))
            return true;
    return false;
}

// The lines of the file at `path`; -1 when it cannot be read.
qsizetype lineCount(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().count('\n') : -1;
}

// Every source file of ours (not the third party's), as paths relative to the source root.
QStringList ourSourceFiles()
{
    const QString root = QStringLiteral(DDPLAB_SOURCE_DIR "/");
    QStringList files;
    for (const QString& folder : kOurFolders) {
        QDirIterator it(root + folder, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString relative = path.mid(root.size());
            if (isSourceFile(path) && !relative.startsWith(kThirdParty))
                files.append(relative);
        }
    }
    return files;
}

}  // namespace

class TestSourceShape : public QObject {
    Q_OBJECT

private slots:
    void longWindowSourcesSayWhy()
    {
        const QString root = QStringLiteral(DDPLAB_SOURCE_DIR "/");
        QStringList unexplained, listedButShort;
        int files = 0;
        QSet<QString> seen;
        for (const char* folder : {"ui", "app"}) {
            QDirIterator it(root + QLatin1String(folder), {QStringLiteral("*.cpp"), QStringLiteral("*.hpp")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString relative = it.next().mid(root.size());
                const qsizetype lines = lineCount(root + relative);
                QVERIFY2(lines >= 0, qPrintable(relative));
                ++files;
                if (!kLongWindowFiles.contains(relative)) {
                    if (lines > kMostWindowLines)
                        unexplained.append(QStringLiteral("%1 (%2 lines)").arg(relative).arg(lines));
                    continue;
                }
                seen.insert(relative);
                if (lines <= kMostWindowLines)
                    listedButShort.append(QStringLiteral("%1 (%2 lines)").arg(relative).arg(lines));
            }
        }
        QVERIFY(files > 50);
        for (const QString& file : unexplained)
            qWarning("over %d lines without a reason in kLongWindowFiles (split it, or say why it is one job): %s", kMostWindowLines,
                     qPrintable(file));
        for (const QString& file : listedButShort)
            qWarning("listed as long but no longer over %d lines (take it off kLongWindowFiles): %s", kMostWindowLines, qPrintable(file));
        for (const QString& listed : kLongWindowFiles.keys())
            if (!seen.contains(listed))
                qWarning("kLongWindowFiles names %s, which does not exist", qPrintable(listed));
    }

    void noSourceFileIsOverAThousandLines()
    {
        const QString root = QStringLiteral(DDPLAB_SOURCE_DIR "/");
        QStringList tooLong;
        const QStringList files = ourSourceFiles();
        for (const QString& relative : files) {
            const qsizetype lines = lineCount(root + relative);
            QVERIFY2(lines >= 0, qPrintable(relative));
            if (lines > kMostLines && !kLongFiles.contains(relative))
                tooLong.append(QStringLiteral("%1 (%2 lines)").arg(relative).arg(lines));
        }
        QVERIFY(files.size() > 500);
        QVERIFY2(tooLong.isEmpty(), qPrintable(QStringLiteral("over %1 lines: %2").arg(kMostLines).arg(tooLong.join(QStringLiteral(", ")))));
    }

    void everySourceFileNamesItsLicence()
    {
        const QString root = QStringLiteral(DDPLAB_SOURCE_DIR "/");
        QStringList unnamed;
        const QStringList files = ourSourceFiles();
        for (const QString& relative : files) {
            QFile file(root + relative);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(relative));
            // The tag is on the first line, or the second after a #! line.
            const QByteArray head = file.readLine() + file.readLine();
            if (!QString::fromUtf8(head).contains(kLicenceTag))
                unnamed.append(relative);
        }
        QVERIFY(files.size() > 500);
        QVERIFY2(unnamed.isEmpty(), qPrintable(QStringLiteral("no '%1' in the first lines of: %2").arg(kLicenceTag, unnamed.join(QStringLiteral(", ")))));
    }
};

QTEST_GUILESS_MAIN(TestSourceShape)
#include "tst_source_shape.moc"
