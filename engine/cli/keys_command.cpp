#include "keys_command.hpp"

#include "core/config.hpp"
#include "core/config_keys.hpp"
#include "core/protocol.hpp"

namespace ddplab {

Json keyReport()
{
    static const char* const kTypeNames[] = {"integer", "number", "boolean", "choice", "text"};
    const Config defaults;
    Json report = Json::array();
    for (const ConfigKey& key : configKeys()) {
        Json entry;
        entry[protocol::keys::kKey] = key.name;
        entry[protocol::keys::kFlag] = key.type == KeyType::Boolean ? key.flag() + " / --no-" + key.flag().substr(2) : key.flag();
        entry[protocol::keys::kType] = kTypeNames[int(key.type)];
        entry[protocol::keys::kDefault] = key.read(defaults);
        entry[protocol::keys::kAllowed] = key.allowed;
        entry[protocol::keys::kHelp] = key.help;
        if (!key.choices.empty())
            entry[protocol::keys::kChoices] = key.choices;
        report.push_back(entry);
    }
    return report;
}

}  // namespace ddplab
