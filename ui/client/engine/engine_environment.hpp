// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The environment the lab starts an engine in: the lab's own, with glibc's malloc asked to back
// its heap with huge pages where the kernel gives them on request (transparent huge pages in
// "madvise" mode, this machine's and Ubuntu's default; "always" gives them anyway, "never" not).
// LibTorch's start allocates in tens of thousands of small pieces as it registers its operators,
// and each 4 KiB page of that heap is a page fault: `ddplab-engine --version` faulted 17,400
// times and took 1.02 s of CPU here, with 2 MiB pages 7,100 and 0.84 s; a 2-rank Fashion-MNIST
// CNN run of 60 steps 7.2 s and 6.0 s (docs/ci.md, eleventh round). The suites run with the same
// (tests/CMakeLists.txt), so what they check is what the lab starts.

#include <QProcessEnvironment>
#include <QString>

namespace ddplab::ui {

// GLIBC_TUNABLES's value with the huge-page heap added; a value that already names
// glibc.malloc.hugetlb is kept as it is (the user's word wins).
QString withHugePageHeap(const QString& tunables);

// This process's environment now (a variable set since the lab started included), with
// GLIBC_TUNABLES through withHugePageHeap.
QProcessEnvironment engineEnvironment();

}  // namespace ddplab::ui
