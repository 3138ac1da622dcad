// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_environment.hpp"

namespace ddplab::ui {

namespace {
const QString kTunables = QStringLiteral("GLIBC_TUNABLES");
const QString kHugePageHeap = QStringLiteral("glibc.malloc.hugetlb");
}  // namespace

QString withHugePageHeap(const QString& tunables)
{
    // Tunables are name=value pairs separated by colons (glibc's tunables(3)).
    for (const QString& pair : tunables.split(QLatin1Char(':'), Qt::SkipEmptyParts))
        if (pair.section(QLatin1Char('='), 0, 0) == kHugePageHeap)
            return tunables;
    const QString added = kHugePageHeap + QStringLiteral("=1");
    return tunables.isEmpty() ? added : tunables + QLatin1Char(':') + added;
}

QProcessEnvironment engineEnvironment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(kTunables, withHugePageHeap(environment.value(kTunables)));
    return environment;
}

}  // namespace ddplab::ui
