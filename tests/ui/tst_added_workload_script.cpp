// SPDX-License-Identifier: GPL-3.0-or-later
// The script generator and a workload it has no code for: the "mean" workload that only a test
// has (tests/support/added_workload.hpp, trained by tests/engine/tst_added_workload) is a
// workload the window's settings accept, and no script is written of it, with a sentence that
// names it and the file its code would go in; the built-in ones are still written.

#include "client/script/pytorch_script.hpp"
#include "client/wire.hpp"
#include "support/added_workload.hpp"

#include <QJsonObject>
#include <QtTest>

using namespace ddplab;
using namespace ddplab::ui;

class TestAddedWorkloadScript : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Before anything reads a setting: the key table is built from the rows once.
        addWorkloadRow(added_workload::meanRow());
    }

    void noScriptIsWrittenOfAWorkloadWithoutScriptCode()
    {
        const PyTorchScript script = pytorchScriptOf(
            QJsonObject{{wire(key::kWorkload), QLatin1String(added_workload::kName)}, {QLatin1String(added_workload::kPoints), 32}},
            QStringLiteral("a test's workload"));
        QVERIFY(!script.isWritten());
        QVERIFY(script.text.isEmpty());
        QCOMPARE(script.error, QStringLiteral("The script generator has no PyTorch code for workload mean "
                                              "(ui/client/script/script_workloads.cpp), so it writes no script of it."));
    }

    void theBuiltInOnesAreStillWritten()
    {
        const PyTorchScript script =
            pytorchScriptOf(QJsonObject{{wire(key::kWorkload), wire(choice::workload::kLinreg)}}, QStringLiteral("linreg"));
        QVERIFY2(script.isWritten(), qPrintable(script.error));
        QVERIFY(script.text.contains(QStringLiteral("def make_data():")));
    }
};

QTEST_GUILESS_MAIN(TestAddedWorkloadScript)
#include "tst_added_workload_script.moc"
