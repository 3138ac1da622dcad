// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Standard error one whole line at a time. A run's ranks and its launcher share one stderr,
// and std::cerr is unbuffered: `std::cerr << "rank " << r << ": error: " << message <<
// std::endl` is five write(2)s, LibTorch's warnings two (the text, then its newline), and lines
// of ranks failing together came out cut into one another. Installed once, std::cerr keeps
// what it is given until a newline and writes each complete line with one write(2), which
// the kernel keeps whole on a pipe (up to 4 KiB) and on a terminal or file.

namespace ddplab {

// For the rest of the process: std::cerr and std::clog write whole lines; what is left of an
// unfinished line goes out at exit.
void writeStderrInWholeLines();

}  // namespace ddplab
