// SPDX-License-Identifier: GPL-3.0-or-later
// The event writer's batching of fast step events, and the flusher that sends held events
// on when rank 0 is told to stop; rank 0's TensorBoard file beside the stream when the disk
// refuses it. Windows are an hour or zero here, so no assertion depends on how fast the machine
// is.

#include "output/event_flusher.hpp"
#include "output/event_writer.hpp"
#include "output/tensorboard_file.hpp"
#include "tensorboard/tfrecord.hpp"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <csignal>
#include <fcntl.h>
#include <limits>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using ddplab::EventFlusher;
using ddplab::EventWriter;
using ddplab::Json;

namespace {

constexpr std::chrono::milliseconds kHour{3600 * 1000};

// A pipe whose read end never blocks: what has not been written reads as "".
struct Pipe {
    int read = -1, write = -1;
    Pipe()
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) == 0) {
            read = fds[0];
            write = fds[1];
            ::fcntl(read, F_SETFL, O_NONBLOCK);
        }
    }
    ~Pipe()
    {
        ::close(read);
        if (write >= 0)
            ::close(write);
    }
    QByteArray available() const
    {
        QByteArray all;
        char buffer[4096];
        ssize_t n;
        while ((n = ::read(read, buffer, sizeof buffer)) > 0)
            all.append(buffer, int(n));
        return all;
    }
};

Json step(int number)
{
    return Json{{"type", "step"}, {"step", number}};
}

QByteArray stepLine(int number)
{
    return QByteArray(R"({"type":"step","step":)") + QByteArray::number(number) + "}\n";
}

}  // namespace

class EventWriterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void heldStepsGoOutBeforeTheNextOtherEvent();
    void flushHeldSendsThem();
    void zeroWindowHoldsNothing();
    void destructionSendsHeldSteps();
    void concurrentFlushesKeepLinesWholeAndInOrder();
    void nonFiniteNumbersBecomeNull();
    void stopSignalFlushesThenKills();
    void refusedWriteLeavesWholeLines();
    void anAppendAfterATornLineStartsALineOfItsOwn();
    void refusedTensorBoardWriteLeavesWholeRecords();
    void streamNeverBlocks();
};

void EventWriterTest::heldStepsGoOutBeforeTheNextOtherEvent()
{
    Pipe pipe;
    EventWriter writer(kHour);
    writer.addFd(pipe.write);
    writer.emitBatched(step(1));
    writer.emitBatched(step(2));
    QCOMPARE(pipe.available(), QByteArray());
    writer.emit(Json{{"type", "epoch"}});
    QCOMPARE(pipe.available(), stepLine(1) + stepLine(2) + QByteArray("{\"type\":\"epoch\"}\n"));
}

void EventWriterTest::flushHeldSendsThem()
{
    Pipe pipe;
    EventWriter writer(kHour);
    writer.addFd(pipe.write);
    writer.emitBatched(step(7));
    writer.flushHeld();
    QCOMPARE(pipe.available(), stepLine(7));
    writer.flushHeld();  // nothing held: nothing written twice
    QCOMPARE(pipe.available(), QByteArray());
}

void EventWriterTest::zeroWindowHoldsNothing()
{
    Pipe pipe;
    EventWriter writer(std::chrono::milliseconds(0));
    writer.addFd(pipe.write);
    writer.emitBatched(step(1));
    QCOMPARE(pipe.available(), stepLine(1));
    writer.emitBatched(step(2));
    QCOMPARE(pipe.available(), stepLine(2));
}

void EventWriterTest::destructionSendsHeldSteps()
{
    Pipe pipe;
    {
        EventWriter writer(kHour);
        writer.addFd(pipe.write);
        writer.emitBatched(step(3));
    }
    QCOMPARE(pipe.available(), stepLine(3));
}

void EventWriterTest::concurrentFlushesKeepLinesWholeAndInOrder()
{
    // One thread emits, one flushes as fast as it can, one reads the pipe to its end (a writer
    // blocked on a full pipe would otherwise hold the lock forever).
    constexpr int kSteps = 20000;
    Pipe pipe;
    ::fcntl(pipe.read, F_SETFL, 0);
    QByteArray received;
    std::thread reader([&] {
        char buffer[4096];
        ssize_t n;
        while ((n = ::read(pipe.read, buffer, sizeof buffer)) > 0)
            received.append(buffer, int(n));
    });
    {
        EventWriter writer(kHour);
        writer.addFd(pipe.write);
        std::atomic<bool> done = false;
        std::thread flusher([&] {
            while (!done)
                writer.flushHeld();
        });
        for (int i = 1; i <= kSteps; ++i)
            writer.emitBatched(step(i));
        done = true;
        flusher.join();
    }  // the writer's destructor sends what is still held
    ::close(pipe.write);
    pipe.write = -1;
    reader.join();

    const QList<QByteArray> lines = received.split('\n');
    QCOMPARE(lines.size(), kSteps + 1);  // the last split is the empty tail
    for (int i = 0; i < kSteps; ++i)
        QCOMPARE(lines[i] + '\n', stepLine(i + 1));
}

void EventWriterTest::nonFiniteNumbersBecomeNull()
{
    Pipe pipe;
    EventWriter writer;
    writer.addFd(pipe.write);
    writer.emit(Json{{"loss", std::numeric_limits<double>::quiet_NaN()}});
    QCOMPARE(pipe.available(), QByteArray("{\"loss\":null}\n"));
}

void EventWriterTest::stopSignalFlushesThenKills()
{
    // A child holds three steps (an hour's window: only the signal can send them), says it is
    // ready, and waits; SIGTERM must deliver the steps and still end it by SIGTERM.
    Pipe events, ready;
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        EventWriter writer(kHour);
        writer.addFd(events.write);
        EventFlusher flusher(writer);
        for (int i = 1; i <= 3; ++i)
            writer.emitBatched(step(i));
        const char byte = 1;
        if (::write(ready.write, &byte, 1) != 1)
            ::_exit(3);
        for (;;)
            ::pause();
    }
    ::close(events.write);
    events.write = -1;
    ::fcntl(ready.read, F_SETFL, 0);  // wait for the child
    char byte = 0;
    QCOMPARE(::read(ready.read, &byte, 1), ssize_t(1));
    QCOMPARE(events.available(), QByteArray());  // held, not yet sent

    QCOMPARE(::kill(child, SIGTERM), 0);
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFSIGNALED(status));
    QCOMPARE(WTERMSIG(status), SIGTERM);
    QCOMPARE(events.available(), stepLine(1) + stepLine(2) + stepLine(3));
}

void EventWriterTest::refusedWriteLeavesWholeLines()
{
    // A child whose files may grow to 1000 bytes (a disk that fills up mid-line) writes events
    // until the file refuses one: the file must then end with a whole line, and say why.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.jsonl"));
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        ::signal(SIGXFSZ, SIG_IGN);  // the write then fails with EFBIG, as ENOSPC would
        const rlimit limit{1000, 1000};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        EventWriter writer;
        writer.appendToFile(path.toStdString());
        for (int i = 1; i <= 100 && writer.fileError().empty(); ++i)
            writer.emit(Json{{"type", "step"}, {"step", i}, {"padding", std::string(60, 'x')}});
        ::_exit(writer.fileError().find("File too large") != std::string::npos ? 0 : 1);
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray written = file.readAll();
    QVERIFY(written.size() > 0 && written.size() <= 1000);
    QVERIFY2(written.endsWith('\n'), written.right(40).constData());
    const QList<QByteArray> lines = written.trimmed().split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i)
        QCOMPARE(Json::parse(lines[i].toStdString())["step"].get<int>(), int(i + 1));
}

void EventWriterTest::anAppendAfterATornLineStartsALineOfItsOwn()
{
    // A run's process killed inside a write of several lines leaves the last one without its
    // end; the runs command then appends the error that says so. It must stay a line of its own.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.jsonl"));
    const QByteArray before = stepLine(1) + QByteArray(R"({"type":"step","st)");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(before), before.size());
    }
    {
        EventWriter writer;
        writer.appendToFile(path.toStdString());
        writer.emit(Json{{"type", "error"}, {"message", "killed by signal 9"}});
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.size(), 4);  // the step, the torn line, the error, and nothing after the last end
    QCOMPARE(lines[1], QByteArray(R"({"type":"step","st)"));
    QCOMPARE(Json::parse(lines[2].toStdString())["message"].get<std::string>(), std::string("killed by signal 9"));
    QVERIFY(lines[3].isEmpty());
    // A file that ends with a whole line gets no empty line from a second append.
    {
        EventWriter writer;
        writer.appendToFile(path.toStdString());
        writer.emit(Json{{"type", "summary"}});
    }
    QVERIFY(file.seek(0));
    QCOMPARE(file.readAll().count('\n'), 4);
}

void EventWriterTest::refusedTensorBoardWriteLeavesWholeRecords()
{
    // As above for rank 0's TensorBoard file (tensorboard_dir): the run stops naming the key,
    // and the file keeps whole records, every one with its CRCs.
    QTemporaryDir dir;
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{1000, 1000};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        EventWriter writer;
        writer.addTensorBoard(std::make_unique<ddplab::TensorBoardFile>(dir.path().toStdString()));
        for (int i = 1; i <= 100 && writer.fileError().empty(); ++i)
            writer.emit(Json{{"type", "step"}, {"step", i}, {"loss", 1.0 / i}, {"lr", 0.1}});
        ::_exit(writer.fileErrorKey() == "tensorboard_dir" && writer.fileError().find("File too large") != std::string::npos ? 0 : 1);
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
    QDirIterator files(dir.path(), {QStringLiteral("events.out.tfevents.*")}, QDir::Files, QDirIterator::Subdirectories);
    QVERIFY(files.hasNext());
    QFile file(files.next());
    QVERIFY(!files.hasNext());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::string written = file.readAll().toStdString();
    QVERIFY(written.size() > 100 && written.size() <= 1000);
    size_t at = 0, records = 0;
    while (at < written.size()) {
        QVERIFY2(written.size() - at >= 16, qPrintable(QString::number(at)));
        const uint64_t length = qFromLittleEndian<quint64>(written.data() + at);
        QVERIFY2(at + 16 + length <= written.size(), qPrintable(QString::number(at)));
        QCOMPARE(qFromLittleEndian<quint32>(written.data() + at + 8), ddplab::tensorboard::maskedCrc32c(written.substr(at, 8)));
        QCOMPARE(qFromLittleEndian<quint32>(written.data() + at + 12 + length),
                 ddplab::tensorboard::maskedCrc32c(written.substr(at + 12, length)));
        at += 16 + length;
        ++records;
    }
    QVERIFY(records >= 3);  // the header and some steps, each whole
}

void EventWriterTest::streamNeverBlocks()
{
    // The launcher's stdout: a reader that takes nothing must not stop the writer; what waits
    // comes out in order once the reader reads again.
    Pipe pipe;
    EventWriter writer;
    writer.addStream(pipe.write);
    constexpr int kSteps = 5000;  // far more than a pipe holds
    for (int i = 1; i <= kSteps; ++i)
        writer.emit(step(i));
    QVERIFY(writer.pendingStreamBytes() > 0);
    QByteArray received;
    for (int round = 0; round < 1000 && (writer.pendingStreamBytes() > 0 || received.isEmpty()); ++round) {
        received += pipe.available();
        writer.pumpStream();
    }
    received += pipe.available();
    QCOMPARE(writer.pendingStreamBytes(), size_t(0));
    const QList<QByteArray> lines = received.split('\n');
    QCOMPARE(lines.size(), kSteps + 1);
    QCOMPARE(lines[kSteps - 1] + '\n', stepLine(kSteps));
    QVERIFY(!writer.lostReader());
}

QTEST_GUILESS_MAIN(EventWriterTest)
#include "tst_event_writer.moc"
