// SPDX-License-Identifier: GPL-3.0-or-later
// Your own model in Setup (workload torchscript), offscreen against the real engine: files
// chosen for the path fields are inspected at once, without the window waiting, and "What the
// engine will do" shows the model (its parameter count), the data, the output against the loss
// and the memory per rank, with the steps computed from the samples the engine read; a file
// that is no model gets the engine's own sentence under Model file, and a good one clears it;
// the paths travel in a preset and come back; the folders chosen are remembered.
// The models and data come from tests/tools/make_own_model_case.py.

#include "client/engine/engine_query.hpp"
#include "client/engine/model_inspector.hpp"
#include "client/library/preset_file.hpp"
#include "setup/derived_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "setup/path_field.hpp"
#include "support/forked_python.hpp"
#include "support/test_data.hpp"
#include "support/window_launch.hpp"
#include "ui_test_main.hpp"
#include "window/main_window.hpp"

#include <QJsonDocument>
#include <QLabel>
#include <QSettings>

using namespace ddplab::ui;
using ddplab::test::jsonObject;
using ddplab::test::withEngine;

namespace {

constexpr int kInspectMs = 90000;  // a safety net only: LibTorch's start-up on a loaded machine
const QString kSource = QStringLiteral(DDPLAB_SOURCE_DIR);

}  // namespace

class TestOwnModelSetup : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // One python3 imports torch and numpy (or says what installs them) and forks the tool
        // (tests/support/forked_python.hpp): one `import torch`, not a check and the tool's own.
        ddplab::test::ForkedPython python;
        const QString missing = python.start(kSource + QStringLiteral("/tests/tools/forked_python.py"));
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        const ddplab::test::PythonExit made = python.run({kSource + QStringLiteral("/tests/tools/make_own_model_case.py"), m_dir.path()}, 120);
        QVERIFY2(made.code == 0, qPrintable(made.err));
    }

    void chosenFilesAreInspected()
    {
        MainWindow window(withEngine());
        window.show();
        ParameterPanel& panel = *window.parameterPanel();
        panel.setValues(jsonObject(R"({"workload": "torchscript", "loss": "cross_entropy", "world_size": 2, "batch_size": 16})"));
        QVERIFY(panel.isFieldShown(QStringLiteral("model_file")));
        QVERIFY(window.derivedPanel()->rowShown(QStringLiteral("own_model")));
        QVERIFY(!window.modelInspector()->applies());  // nothing to inspect without a model and data

        panel.choosePath(QStringLiteral("model_file"), file(QStringLiteral("bn_cnn.pt")));
        panel.choosePath(QStringLiteral("train_data"), file(QStringLiteral("train.pt")));
        panel.choosePath(QStringLiteral("val_data"), file(QStringLiteral("val.pt")));
        // Asynchronous: the window goes on while the engine loads model and data.
        QVERIFY(window.modelInspector()->isRunning());
        QVERIFY(!window.modelInspector()->inspection());
        QTRY_VERIFY_WITH_TIMEOUT(window.modelInspector()->inspection().has_value(), kInspectMs);

        const DerivedPanel& derived = *window.derivedPanel();
        // conv1 6x1x3x3+6, bn1 6+6, conv2 8x6x3x3+8, bn2 8+8, fc 4x288+4 = 1,684 in 10 tensors; 6 buffers;
        // bn1 and bn2 are BatchNorm, and the model drops a quarter of its features (one Dropout).
        QCOMPARE(derived.valueText(QStringLiteral("own_model")),
                 QStringLiteral("1,684 parameters in 10 tensors · 6 buffers (broadcast from rank 0) · 2 BatchNorm, 1 Dropout"));
        QVERIFY2(derived.valueText(QStringLiteral("own_data")).startsWith(QStringLiteral("100 samples of [1, 12, 12] float32 → scalar int64 · validation 40")),
                 qPrintable(derived.valueText(QStringLiteral("own_data"))));
        QVERIFY2(derived.valueText(QStringLiteral("own_output")).startsWith(QStringLiteral("[16, 4] float32: 4 class scores per sample")),
                 qPrintable(derived.valueText(QStringLiteral("own_output"))));
        const QString memory = derived.valueText(QStringLiteral("own_memory"));
        // The parameters' 1,684 float32s: 6,736 bytes.
        QVERIFY2(memory.startsWith(QStringLiteral("≈ ")) && memory.contains(QStringLiteral("parameters 6.6 KiB, buffers")), qPrintable(memory));
        for (const char* row : {"own_model", "own_data", "own_output", "own_memory"})
            QVERIFY(derived.rowShown(QString::fromLatin1(row)));
        // The sampler's figures from the 100 samples the engine read: 2 ranks x 16.
        QCOMPARE(derived.valueText(QStringLiteral("effective_batch")), QStringLiteral("32 = 2 ranks × 16"));
        QCOMPARE(derived.valueText(QStringLiteral("per_rank")), QStringLiteral("50 of 100 examples an epoch"));
        QVERIFY(panel.isValid());

        // The folders chosen open the next dialog.
        QCOMPARE(browseFolder(QStringLiteral("model_file")), m_dir.path());
        QCOMPARE(browseFolder(QStringLiteral("val_data")), m_dir.path());

        // A NumPy folder is chosen through its inputs.npy.
        panel.choosePath(QStringLiteral("train_data"), file(QStringLiteral("train_npy/inputs.npy")));
        QCOMPARE(panel.fieldText(QStringLiteral("train_data")), file(QStringLiteral("train_npy")));
        QTRY_VERIFY_WITH_TIMEOUT(!window.modelInspector()->isRunning(), kInspectMs);
        QVERIFY(window.modelInspector()->inspection().has_value());
        QVERIFY(derived.valueText(QStringLiteral("own_data")).startsWith(QStringLiteral("100 samples")));
    }

    void aBadModelFileShowsTheEnginesSentence()
    {
        MainWindow window(withEngine());
        window.show();
        ParameterPanel& panel = *window.parameterPanel();
        panel.setValues(jsonObject(R"({"workload": "torchscript", "loss": "cross_entropy", "batch_size": 16})"));
        panel.choosePath(QStringLiteral("train_data"), file(QStringLiteral("train.pt")));
        panel.choosePath(QStringLiteral("model_file"), file(QStringLiteral("state_dict.pt")));
        QTRY_VERIFY_WITH_TIMEOUT(window.modelInspector()->problem().has_value() && !window.modelInspector()->isRunning(), kInspectMs);

        // What the engine itself says of the same files.
        const QueryResult direct = EngineQuery::runBlocking(
            ddplab::test::enginePath(), {QStringLiteral("inspect"), QStringLiteral("--workload"), QStringLiteral("torchscript"),
                                         QStringLiteral("--model-file"), file(QStringLiteral("state_dict.pt")),
                                         QStringLiteral("--train-data"), file(QStringLiteral("train.pt")),
                                         QStringLiteral("--batch-size"), QStringLiteral("16")});
        QVERIFY(!direct.ok);
        const QString sentence = direct.object.value(QStringLiteral("message")).toString();
        QVERIFY(sentence.contains(file(QStringLiteral("state_dict.pt"))));
        QCOMPARE(window.modelInspector()->problem()->key, QStringLiteral("model_file"));
        QCOMPARE(panel.problems().value(QStringLiteral("model_file")), sentence);
        QVERIFY(!panel.isValid());
        // Under the field, in the panel's words (the key named by its label).
        bool shownUnderField = false;
        for (const QLabel* label : panel.findChildren<QLabel*>()) {
            if (label->isVisible() && label->text().contains(file(QStringLiteral("state_dict.pt"))))
                shownUnderField = true;
        }
        QVERIFY(shownUnderField);
        QVERIFY(!window.derivedPanel()->rowShown(QStringLiteral("own_memory")));

        panel.choosePath(QStringLiteral("model_file"), file(QStringLiteral("bn_cnn.pt")));
        QTRY_VERIFY_WITH_TIMEOUT(window.modelInspector()->inspection().has_value(), kInspectMs);
        QVERIFY(!panel.problems().contains(QStringLiteral("model_file")));
        QVERIFY(panel.isValid());
    }

    void thePathsTravelInAPreset()
    {
        ParameterPanel panel;
        panel.setValues(jsonObject(R"({"workload": "torchscript", "loss": "mse"})"));
        panel.setFieldText(QStringLiteral("model_file"), file(QStringLiteral("mlp.pt")));
        panel.setFieldText(QStringLiteral("train_data"), file(QStringLiteral("train_npy")));
        panel.setFieldText(QStringLiteral("val_data"), file(QStringLiteral("val.pt")));
        const QString path = m_dir.filePath(QStringLiteral("preset.json"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(presetFileContents(panel.values()));
        out.close();

        const PresetReadResult read = readPresetFile(path);
        ParameterPanel again;
        QVERIFY(again.setValues(read.config).isEmpty());
        for (const char* name : {"workload", "loss", "model_file", "train_data", "val_data"})
            QCOMPARE(again.fieldText(QString::fromLatin1(name)), panel.fieldText(QString::fromLatin1(name)));
        QCOMPARE(again.fieldText(QStringLiteral("train_data")), file(QStringLiteral("train_npy")));
    }

private:
    QString file(const QString& name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
};

DDPLAB_UI_TEST_MAIN(TestOwnModelSetup)
#include "tst_own_model_setup.moc"
