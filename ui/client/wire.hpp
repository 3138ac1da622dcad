// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The names that cross the process boundary, as Qt reads them: event.value(wire(field::kLoss)).
// Every one is a constant of engine/core/protocol_names.hpp or key_names.hpp; no file of ui/
// spells one itself (tests/setup/tst_protocol_names checks).

#include "core/key_names.hpp"
#include "core/protocol_names.hpp"

#include <QLatin1String>

namespace ddplab::ui {

namespace type = ddplab::protocol::type;
namespace field = ddplab::protocol::field;
namespace key = ddplab::key;
namespace choice = ddplab::choice;

constexpr QLatin1String wire(const char* name)
{
    return QLatin1String(name);
}

}  // namespace ddplab::ui
