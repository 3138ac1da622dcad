// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the lab's reading of a stored run folder, as the Runs list, Compare, the
// study results and --resume read it: meta.json, config.json and events.jsonl, whatever a crash,
// a disk or a hand left in them. No crash, no hang, bounded memory, and never a run taken for
// finished whose events lack their summary or some of its steps (issue 24: a file cut in half
// passed as finished).

#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/wire.hpp"
#include "core/protocol_names.hpp"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

void write(const QString& path, const char* data, size_t size)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(data, qint64(size));
}

// The input cut in three: two bytes each give the lengths of meta.json and config.json, the
// rest is events.jsonl.
size_t take(const uint8_t*& data, size_t& size)
{
    if (size < 2)
        return 0;
    const size_t length = (size_t(data[0]) << 8 | data[1]);
    data += 2;
    size -= 2;
    return std::min(length, size);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ddplab::ui;
    static QTemporaryDir root;
    static const QString folder = root.filePath(QStringLiteral("run"));
    QDir().mkpath(folder);
    const size_t metaBytes = take(data, size);
    const char* meta = reinterpret_cast<const char*>(data);
    data += metaBytes;
    size -= metaBytes;
    const size_t configBytes = take(data, size);
    write(folder + QStringLiteral("/meta.json"), meta, metaBytes);
    write(folder + QStringLiteral("/config.json"), reinterpret_cast<const char*>(data), configBytes);
    write(folder + QStringLiteral("/events.jsonl"), reinterpret_cast<const char*>(data + configBytes), size - configBytes);

    const RunStore store(root.path());
    for (const RunRecord& listed : store.listRuns()) {
        if (statusNamed(statusText(listed.status)) != listed.status)
            std::abort();  // a status meta.json could not hold
        const QSharedPointer<RunData> run = store.loadRun(listed);
        if (run->record().status != RunStatus::Finished)
            continue;
        const qint64 counted = run->summary().value(wire(field::kSteps)).toInteger(-1);
        if (!run->hasSummary() || (counted >= 0 && counted != run->stepCount()))
            std::abort();  // part of a run shown as the whole of it
    }
    return 0;
}
