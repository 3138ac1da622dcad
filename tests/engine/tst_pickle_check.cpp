// SPDX-License-Identifier: GPL-3.0-or-later
// The look over a pickle before LibTorch's unpickler reads it (engine/core/pickle_check.hpp),
// and over a TorchScript model's code before its compiler does (engine/core/code_nesting.hpp),
// on pickles written here byte by byte: what Python's pickler writes for a list or dict of one
// item and for an integer of 2^32 comes out as the same value in the instructions LibTorch 1.13
// reads; nesting up to the limit passes and one level more is refused, a million levels in
// well under a second; and every way a crafted pickle would have LibTorch read outside its
// stack, allocate a memo of 2^32 slots or build a value inside itself is refused with a
// sentence; code nesting past the limit through brackets, unary signs or blocks is refused,
// what TorchScript prints passes, and strings count for nothing. End to end (files, the
// engine) in tst_own_model_hostile and tst_checkpoints.

#include "core/code_nesting.hpp"
#include "core/pickle_check.hpp"

#include <QElapsedTimer>
#include <QtTest>

#include <string>

using namespace ddplab;

namespace {

std::string bytes(const QByteArray& raw)
{
    return std::string(raw.constData(), size_t(raw.size()));
}

// PROTO 2, then `body`.
std::string pickle(const QByteArray& body)
{
    return bytes(QByteArray("\x80\x02", 2) + body);
}

std::string nested(int depth)
{
    return pickle(QByteArray(depth, '(') + QByteArray(depth, 'l') + ".");
}

}  // namespace

class PickleCheckTest : public QObject {
    Q_OBJECT

private slots:
    void rewritesWhatPythonWritesForOneItem_data();
    void rewritesWhatPythonWritesForOneItem();
    void leavesWhatLibTorchReadsAsItIs();
    void nestingUpToTheLimitPasses();
    void aMillionLevelsAreRefusedQuickly();
    void craftedPicklesAreRefused_data();
    void craftedPicklesAreRefused();
    void deeplyNestedCodeIsRefused();
};

void PickleCheckTest::rewritesWhatPythonWritesForOneItem_data()
{
    QTest::addColumn<QByteArray>("written");
    QTest::addColumn<QByteArray>("readable");
    QTest::addColumn<int>("depth");
    // [1.0]: EMPTY_LIST BINPUT 0 BINFLOAT APPEND -> ... MARK BINFLOAT APPENDS
    const QByteArray one("G?\xf0\x00\x00\x00\x00\x00\x00", 9);
    QTest::newRow("a list of one item") << QByteArray("]q\x00", 3) + one + "a." << QByteArray("]q\x00(", 4) + one + "e." << 1;
    // {"a": 1}: EMPTY_DICT BINPUT 0 BINUNICODE 'a' BININT1 1 SETITEM
    const QByteArray key("X\x01\x00\x00\x00" "a", 6);
    QTest::newRow("a dict of one entry") << QByteArray("}q\x00", 3) + key + "K\x01s." << QByteArray("}q\x00(", 4) + key + "K\x01u." << 1;
    // [[7]] and {"a": {"b": 1}}: the mark goes where the item began, before its own.
    QTest::newRow("a list of a list of one") << QByteArray("]]K\x07" "aa.", 7) << QByteArray("](](K\x07" "ee.", 9) << 2;
    // 2^32 as Python writes it (LONG1, 5 bytes), and -2^40 (6 bytes): 8 bytes, value and sign kept.
    QTest::newRow("2^32") << QByteArray("\x8a\x05\x00\x00\x00\x00\x01.", 8)
                          << QByteArray("\x8a\x08\x00\x00\x00\x00\x01\x00\x00\x00.", 11) << 0;
    QTest::newRow("-2^40") << QByteArray("\x8a\x06\x00\x00\x00\x00\x00\xff.", 9)
                           << QByteArray("\x8a\x08\x00\x00\x00\x00\x00\xff\xff\xff.", 11) << 0;
}

void PickleCheckTest::rewritesWhatPythonWritesForOneItem()
{
    QFETCH(QByteArray, written);
    QFETCH(QByteArray, readable);
    QFETCH(int, depth);
    const PickleCheck check = checkPickle(pickle(written));
    QVERIFY2(check.problem.empty(), check.problem.c_str());
    QCOMPARE(QByteArray::fromStdString(check.readable), QByteArray("\x80\x02", 2) + readable);
    QCOMPARE(check.depth, int64_t(depth));
}

void PickleCheckTest::leavesWhatLibTorchReadsAsItIs()
{
    // {"inputs": [1, 2], "t": (None, True)} as LibTorch's own pickler writes it; bytes after STOP are not read.
    const std::string written = pickle(QByteArray("}q\x00(X\x06\x00\x00\x00inputsq\x01](K\x01K\x02" "eX\x01\x00\x00\x00tN\x88\x86u.", 35));
    const PickleCheck check = checkPickle(written + "trailing");
    QVERIFY2(check.problem.empty(), check.problem.c_str());
    QCOMPARE(check.readable, written);
    QCOMPARE(check.depth, int64_t(2));
}

void PickleCheckTest::nestingUpToTheLimitPasses()
{
    const PickleCheck atLimit = checkPickle(nested(int(kMaxPickleDepth)));
    QVERIFY2(atLimit.problem.empty(), atLimit.problem.c_str());
    QCOMPARE(atLimit.depth, kMaxPickleDepth);
    const PickleCheck beyond = checkPickle(nested(int(kMaxPickleDepth) + 1));
    QVERIFY2(beyond.problem.find("nests values more than 1000 deep") == 0, beyond.problem.c_str());
    QVERIFY(beyond.readable.empty());
}

void PickleCheckTest::aMillionLevelsAreRefusedQuickly()
{
    QElapsedTimer clock;
    clock.start();
    const PickleCheck check = checkPickle(nested(1000 * 1000));
    QVERIFY2(check.problem.find("nests values more than 1000 deep (LIST (0x6c) at byte 1001002)") == 0, check.problem.c_str());
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));  // a bound on hanging, not a speed test
}

void PickleCheckTest::craftedPicklesAreRefused_data()
{
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<QString>("says");
    auto row = [](const char* name, const QByteArray& raw, const char* says) { QTest::newRow(name) << raw << QString::fromLatin1(says); };
    const QByteArray proto("\x80\x02", 2);
    // LibTorch 1.13 read below its stack (SIGSEGV) on each of these.
    row("NEWOBJ on an empty stack", proto + QByteArray("\x81\x85.", 3), "its instruction NEWOBJ (0x81) at byte 2 takes 2 values and finds 0");
    row("BUILD with one value", proto + "NbN.", "BUILD (0x62) at byte 3 takes 2 values and finds 1");
    row("TUPLE1 reaching below a mark", proto + QByteArray("K\x01(\x85t.", 6), "TUPLE1 (0x85) at byte 5 takes 1 value and finds 0");
    row("SETITEMS without a mark", proto + QByteArray("}K\x01K\x02u.", 8), "SETITEMS (0x75) at byte 7 takes the values after a mark, and there is none");
    row("APPENDS with nothing before its mark", proto + QByteArray("(K\x01" "e.", 5), "APPENDS (0x65) at byte 5 fills the value before its mark, and there is none");
    row("DICT of an odd count", proto + QByteArray("(K\x01" "d.", 5), "DICT (0x64) at byte 5 takes keys and values in pairs and finds 1 value");
    row("a memo slot 2^32 - 1", proto + QByteArray("K\x01r\xff\xff\xff\xff.", 8), "keeps a value in memo slot 4294967295 while only 0 are filled");
    row("a memo slot never filled", proto + QByteArray("h\x03.", 3), "takes memo slot 3 while only 0 are filled");
    row("a list inside itself", proto + QByteArray("]q\x00h\x00" "a.", 7), "holds a value inside itself (APPEND (0x61) at byte 7)");
    row("a list changed once inside another", proto + QByteArray("(]q\x00]h\x00" "ah\x00K\x01" "at.", 15),
        "changes a value that is inside another already (APPEND (0x61) at byte 14)");
    row("two values left at STOP", proto + QByteArray("K\x01K\x02.", 5), "STOP (0x2e) at byte 6 ends the pickle with 2 values left, not one");
    row("cut inside a string", proto + QByteArray("X\x05\x00\x00\x00" "ab", 7), "ends inside its instruction BINUNICODE (0x58) at byte 2");
    row("no STOP", proto + QByteArray("K\x01", 2), "ends before its STOP instruction");
    row("an integer of 2^64", proto + QByteArray("\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01.", 12), "holds an integer of 2^63 or more");
    row("protocol 4", QByteArray("\x80\x04K\x01.", 5), "is a pickle of protocol 4");
    row("no PROTO", QByteArray("K\x01.", 3), "does not begin as a pickle does");
    row("INT, of protocol 0", proto + "I5\n.", "holds the pickle instruction INT (0x49) at byte 2, which LibTorch's reader does not take");
    row("empty", QByteArray(), "is empty");
}

void PickleCheckTest::craftedPicklesAreRefused()
{
    QFETCH(QByteArray, raw);
    QFETCH(QString, says);
    const PickleCheck check = checkPickle(bytes(raw));
    QVERIFY2(QString::fromStdString(check.problem).contains(says), check.problem.c_str());
    QVERIFY(check.readable.empty());
}

void PickleCheckTest::deeplyNestedCodeIsRefused()
{
    // What torch.jit.save prints (make_own_model_case's BnCnn, abridged).
    const std::string printed = "class BnCnn(Module):\n  __parameters__ = [\"weight\", ]\n  def forward(self: __torch__.BnCnn,\n"
                                "    x: Tensor) -> Tensor:\n    conv1 = self.conv1\n    _0 = torch.relu((self.bn1).forward((conv1).forward(x, ), ))\n"
                                "    if torch.gt(x, 0.5):\n      _1 = torch.neg(_0)\n    else:\n      _1 = _0\n    return torch.flatten(_1, 1, -1)\n";
    QCOMPARE(codeNestingProblem(printed), std::string());
    const int deep = int(kMaxCodeNesting) + 1;
    const std::string brackets = "def f(x):\n  return " + std::string(size_t(deep), '(') + "x" + std::string(size_t(deep), ')') + "\n";
    QVERIFY2(codeNestingProblem(brackets).find("line 2 could nest 1002 levels deep") == 0, codeNestingProblem(brackets).c_str());
    const std::string minus = "def f(x):\n  y = 1\n  return " + std::string(size_t(deep), '-') + "x\n";
    QVERIFY2(codeNestingProblem(minus).find("line 3 could nest 1002 levels deep") == 0, codeNestingProblem(minus).c_str());
    std::string blocks = "def f(x):\n";
    for (int i = 1; i <= deep; ++i)
        blocks += std::string(size_t(i), ' ') + "if x:\n";
    blocks += std::string(size_t(deep + 1), ' ') + "return x\n";
    QVERIFY2(codeNestingProblem(blocks).find("line 1001 could nest 1001 levels deep") == 0, codeNestingProblem(blocks).c_str());
    // In a string or a comment, brackets and signs are text.
    const std::string text = "def f(x):\n  s = \"" + std::string(size_t(deep), '(') + "\"  # " + std::string(size_t(deep), '-') + "\n  return x\n";
    QCOMPARE(codeNestingProblem(text), std::string());
}

QTEST_APPLESS_MAIN(PickleCheckTest)
#include "tst_pickle_check.moc"
