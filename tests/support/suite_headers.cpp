// SPDX-License-Identifier: GPL-3.0-or-later
// The translation unit that compiles suite_headers.hpp once for a folder of suites.
