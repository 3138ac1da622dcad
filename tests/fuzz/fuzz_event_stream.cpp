// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the window's reading of an engine's stdout, from bytes in arbitrary chunks
// to the series a chart draws. Whatever the engine (or something pretending to be it) prints,
// the window keeps running: no crash, no hang, bounded memory, no non-finite value plotted.

#include "client/engine/event_stream_parser.hpp"
#include "client/runs/run_data.hpp"

#include <QByteArray>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    // A small line cap so that the over-long-line path is reached by small inputs.
    ddplab::ui::EventStreamParser parser(4096);
    ddplab::ui::RunData run;
    // The first byte decides the chunk size: reads arrive cut anywhere.
    const size_t chunk = size > 0 ? 1 + data[0] % 64 : 1;
    for (size_t at = size > 0 ? 1 : 0; at < size; at += chunk) {
        const QByteArray piece(reinterpret_cast<const char*>(data + at), int(std::min(chunk, size - at)));
        run.appendEvents(parser.feed(piece).events);
    }
    run.appendEvents(parser.finish().events);
    for (const QString& metric : run.metricNames()) {
        for (const QPointF& point : run.series(metric)) {
            if (!std::isfinite(point.x()) || !std::isfinite(point.y()))
                std::abort();  // a chart would draw it
        }
    }
    return 0;
}
