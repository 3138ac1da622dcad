// SPDX-License-Identifier: GPL-3.0-or-later
#include "config_file.hpp"

#include "config_error.hpp"
#include "protocol.hpp"
#include "wording.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>
#include <vector>

namespace ddplab {
namespace {

// A config is a few dozen scalars; anything deeper is not one, and the reader's stack is finite.
constexpr size_t kMaxNesting = 64;

std::string describeFileType(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a named pipe (FIFO)";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    return "not a regular file";
}

// Reads the whole file, refusing what cannot be a config before reading a byte of it: a
// folder, a FIFO that would block until someone writes, a device such as /dev/zero that never
// ends, a file over the size limit.
std::string readBounded(const std::string& origin, const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        throw ConfigError(protocol::errorKey::kConfig, origin + " cannot be read: " + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat info {};
    if (::fstat(fd, &info) != 0)
        throw ConfigError(protocol::errorKey::kConfig, origin + " cannot be read: " + std::strerror(errno));
    if (!S_ISREG(info.st_mode))
        throw ConfigError(protocol::errorKey::kConfig, origin + " is " + describeFileType(info.st_mode) + "; give a JSON file of settings");
    if (info.st_size > off_t(kMaxConfigBytes))
        throw ConfigError(protocol::errorKey::kConfig, origin + " is " + std::to_string(info.st_size) + " bytes; a config file may be at most " +
                                        std::to_string(kMaxConfigBytes) + " bytes (1 MiB)");
    std::string text;
    char buffer[65536];
    while (true) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw ConfigError(protocol::errorKey::kConfig, origin + " cannot be read: " + std::strerror(errno));
        if (n == 0)
            break;
        text.append(buffer, size_t(n));
        if (text.size() > kMaxConfigBytes)  // it grew while we read it
            throw ConfigError(protocol::errorKey::kConfig, origin + " is over " + std::to_string(kMaxConfigBytes) + " bytes (1 MiB), the limit for a config file");
    }
    return text;
}

// `--config -`: a pipe (ssh) or a file redirected in; read to its end, within the same limit.
std::string readStandardInput()
{
    std::string text;
    char buffer[65536];
    while (true) {
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw ConfigError(protocol::errorKey::kConfig, std::string("the config on standard input cannot be read: ") + std::strerror(errno));
        if (n == 0)
            return text;
        text.append(buffer, size_t(n));
        if (text.size() > kMaxConfigBytes)
            throw ConfigError(protocol::errorKey::kConfig, "the config on standard input is over " + std::to_string(kMaxConfigBytes) +
                                            " bytes (1 MiB), the limit for a config");
    }
}

// Builds the document in one pass, in linear time (ordered_json's own inserts search every key
// before each insert), refusing what the engine would otherwise silently decide: a key given
// twice (the last would win), a number too large for a double (it would become infinity).
class ConfigBuilder {
public:
    using Number = double;

    explicit ConfigBuilder(std::string origin) : m_origin(std::move(origin)) {}

    Json take() { return std::move(m_root); }

    bool null() { return add(Json(nullptr)); }
    bool boolean(bool value) { return add(Json(value)); }
    bool number_integer(Json::number_integer_t value) { return add(Json(value)); }
    bool number_unsigned(Json::number_unsigned_t value) { return add(Json(value)); }
    bool number_float(Json::number_float_t value, const std::string&) { return add(Json(value)); }
    bool string(std::string& value) { return add(Json(std::move(value))); }
    bool binary(Json::binary_t&) { return add(Json(nullptr)); }

    bool start_object(std::size_t)
    {
        open(Json::object());
        m_keys.emplace_back();
        return true;
    }
    bool key(std::string& name)
    {
        if (!m_keys.back().insert(name).second)
            throw ConfigError(name, "key " + quotedName(name) + " appears twice in " + m_origin + "; keep one of them");
        m_pendingKey = name;
        if (m_stack.size() == 1)
            m_lastTopKey = name;
        return true;
    }
    bool end_object()
    {
        m_keys.pop_back();
        close();
        return true;
    }
    bool start_array(std::size_t)
    {
        open(Json::array());
        return true;
    }
    bool end_array()
    {
        close();
        return true;
    }

    bool parse_error(std::size_t, const std::string& token, const nlohmann::detail::exception& error)
    {
        if (error.id == 406)  // out_of_range: number overflow
            throw ConfigError(m_lastTopKey, (m_lastTopKey.empty() ? std::string("a value") : quotedName(m_lastTopKey)) + " in " + m_origin +
                                                " is " + token + ", too large for a number (at most about 1.8e308)");
        std::string detail = error.what();
        const auto at = detail.find("parse error");
        if (at != std::string::npos)
            detail = detail.substr(at);
        // nlohmann's message carries the line and column ("at line 3, column 14: ...").
        throw ConfigError(protocol::errorKey::kConfig, m_origin + " is not valid JSON: " + detail);
    }

private:
    bool add(Json value)
    {
        if (m_stack.empty()) {
            m_root = std::move(value);
            return true;
        }
        Json& parent = *m_stack.back();
        if (parent.is_object())
            parent.get_ref<Json::object_t&>().emplace_back(m_pendingKey, std::move(value));  // keys already checked
        else
            parent.get_ref<Json::array_t&>().push_back(std::move(value));
        return true;
    }
    void open(Json container)
    {
        if (m_stack.size() >= kMaxNesting)
            throw ConfigError(protocol::errorKey::kConfig, m_origin + " nests objects or arrays more than " + std::to_string(kMaxNesting) +
                                            " levels deep; nothing read as settings nests that deep");
        if (m_stack.empty()) {
            m_root = std::move(container);
            m_stack.push_back(&m_root);
            return;
        }
        Json& parent = *m_stack.back();
        Json* child = nullptr;
        if (parent.is_object()) {
            auto& members = parent.get_ref<Json::object_t&>();
            members.emplace_back(m_pendingKey, std::move(container));
            child = &members.back().second;
        } else {
            auto& elements = parent.get_ref<Json::array_t&>();
            elements.push_back(std::move(container));
            child = &elements.back();
        }
        m_stack.push_back(child);
    }
    void close() { m_stack.pop_back(); }

    std::string m_origin;
    Json m_root;
    std::vector<Json*> m_stack;                           // the open containers
    std::vector<std::unordered_set<std::string>> m_keys;  // the keys of each open object
    std::string m_pendingKey;
    std::string m_lastTopKey;
};

}  // namespace

Json parseConfigText(const std::string& text, const std::string& origin)
{
    // The JSON reader takes a NUL for the end of the text: `{"world_size": 2}` followed by a
    // NUL and anything at all would pass.
    const size_t nul = text.find('\0');
    if (nul != std::string::npos)
        throw ConfigError(protocol::errorKey::kConfig, origin + " holds a NUL byte at byte " + std::to_string(nul) +
                                                           "; JSON text holds none");
    ConfigBuilder builder(origin);
    Json::sax_parse(text, &builder);
    return builder.take();
}

Json readConfigFile(const std::string& path)
{
    if (path == "-")
        return parseConfigText(readStandardInput(), "the config on standard input");
    const std::string origin = "config file \"" + path + "\"";
    return parseConfigText(readBounded(origin, path), origin);
}

}  // namespace ddplab
