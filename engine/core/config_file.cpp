#include "config_file.hpp"

#include "config_error.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ddplab {

Json readConfigFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError("config", "config file \"" + path + "\" cannot be read: " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw ConfigError("config", "config file \"" + path + "\" cannot be read: " + std::strerror(errno));
    try {
        return Json::parse(text.str());
    } catch (const Json::parse_error& error) {
        // nlohmann's message carries the line and column ("at line 3, column 14: ...").
        std::string detail = error.what();
        const auto at = detail.find("parse error");
        if (at != std::string::npos)
            detail = detail.substr(at);
        throw ConfigError("config", "config file \"" + path + "\" is not valid JSON: " + detail);
    }
}

}  // namespace ddplab
