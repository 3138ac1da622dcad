// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch's alert where deterministic true meets an operation without a deterministic kernel,
// read in-process (train/no_deterministic_kernel) in each form a rank meets it: thrown by an
// operation itself (a GPU's backward, caught by the trainer at a step), and at the end of the
// TorchScript interpreter's traceback of one's own model. The forms are LibTorch's own texts;
// tst_own_model_hostile runs a model that raises the second on CPU.

#include "train/no_deterministic_kernel.hpp"

#include <QtTest>

using namespace ddplab;

namespace {

const std::string kAlertTail =
    " does not have a deterministic implementation, but you set 'torch.use_deterministic_algorithms(True)'. You can turn off "
    "determinism just for this operation, or you can use the 'warn_only=True' option, if that's acceptable for your application.";

}  // namespace

class TestNoDeterministicKernel : public QObject {
    Q_OBJECT

private slots:
    void theOperationIsReadFromEachForm_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("operation");
        QTest::newRow("a CUDA backward, at a step") << QString::fromStdString("adaptive_avg_pool2d_backward_cuda" + kAlertTail)
                                                    << QStringLiteral("adaptive_avg_pool2d_backward_cuda");
        QTest::newRow("the interpreter's traceback")
            << QString::fromStdString("The following operation failed in the TorchScript interpreter.\nTraceback of TorchScript, serialized code "
                                      "(most recent call last):\n  File \"code/__torch__.py\", line 12, in forward\n    _0 = torch.put_(marker, "
                                      "idx, ones)\nRuntimeError: put_" + kAlertTail)
            << QStringLiteral("put_");
        QTest::newRow("another error") << QStringLiteral("CUDA out of memory. Tried to allocate 2.00 GiB") << QString();
        QTest::newRow("the words alone, no operation") << QString::fromStdString(kAlertTail) << QString();
    }

    void theOperationIsReadFromEachForm()
    {
        QFETCH(QString, message);
        QFETCH(QString, operation);
        QCOMPARE(QString::fromStdString(operationWithoutDeterministicKernel(message.toStdString())), operation);
    }

    void theSentenceSaysWhereWhatAndWhatToDo()
    {
        const std::string sentence = noDeterministicKernelSentence("at step 3,", "put_");
        QCOMPARE(QString::fromStdString(sentence),
                 QStringLiteral("at step 3, the operation put_ has no deterministic kernel in LibTorch, and deterministic true allows "
                                "deterministic kernels only: set deterministic false, or change that operation in your model"));
    }
};

QTEST_GUILESS_MAIN(TestNoDeterministicKernel)
#include "tst_no_deterministic_kernel.moc"
