// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorboard_file.hpp"

#include "core/config_error.hpp"
#include "core/home_path.hpp"
#include "core/key_names.hpp"
#include "core/protocol_names.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace ddplab {
namespace {

[[noreturn]] void refuse(const std::string& folder, const std::string& problem)
{
    throw ConfigError(key::kTensorboardDir, std::string(key::kTensorboardDir) + " " + folder + " " + problem);
}

// mkdir -p, each parent in turn.
void makeFolders(const std::string& folder)
{
    for (size_t slash = folder.find('/', 1);; slash = folder.find('/', slash + 1)) {
        const std::string part = folder.substr(0, slash);
        if (!part.empty() && ::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST)
            refuse(folder, "could not be made (" + part + ": " + std::strerror(errno) + ")");
        if (slash == std::string::npos)
            break;
    }
    struct stat info {};
    if (::stat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        refuse(folder, "is not a folder");
}

std::string hostName()
{
    char name[256] = {};
    return ::gethostname(name, sizeof name - 1) == 0 && name[0] ? std::string(name) : std::string("localhost");
}

double secondsNow()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

tensorboard::EventNumbers numbersOf(const Json& event)
{
    tensorboard::EventNumbers numbers;
    const auto type = event.find(protocol::field::kType);
    if (type != event.end() && type->is_string())
        numbers.type = type->get<std::string>();
    for (const auto& item : event.items()) {
        if (item.value().is_number())
            numbers.numbers.emplace_back(item.key(), item.value().get<double>());
    }
    return numbers;
}

}  // namespace

TensorBoardFile::TensorBoardFile(const std::string& tensorboardDir)
{
    const std::string logDir = expandHome(tensorboardDir);
    if (logDir.empty())
        refuse(logDir, "is empty");
    makeFolders(logDir);
    const std::string host = hostName();
    const std::string pid = std::to_string(::getpid());
    char when[32] = {};
    const std::time_t now = std::time(nullptr);
    std::tm local {};
    ::localtime_r(&now, &local);
    std::strftime(when, sizeof when, "%Y%m%d-%H%M%S", &local);
    const std::string runFolder = logDir + "/" + tensorboard::folderName(std::string(when) + "_" + host + "_" + pid);
    if (::mkdir(runFolder.c_str(), 0755) != 0 && errno != EEXIST)
        refuse(logDir, "cannot hold the run's folder " + runFolder + ": " + std::strerror(errno));
    m_path = runFolder + "/" + tensorboard::eventFileName(double(now), host, pid);
    // O_EXCL: a file of another run is never written over.
    m_fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (m_fd < 0)
        refuse(logDir, "cannot hold the run's file " + m_path + ": " + std::strerror(errno));
}

TensorBoardFile::~TensorBoardFile()
{
    write();
    if (m_fd >= 0)
        ::close(m_fd);
}

void TensorBoardFile::add(const Json& event)
{
    if (m_fd < 0 || !event.is_object())
        return;
    if (!m_encoder)
        m_encoder.emplace(secondsNow());  // the config event, just before the first step begins
    const int64_t overflowsBefore = m_encoder->overflowCount();
    const tensorboard::EventNumbers numbers = numbersOf(event);
    m_pending += m_encoder->encode(numbers);
    const bool summary = numbers.type == protocol::type::kSummary;
    if ((overflowsBefore == 0 && m_encoder->overflowCount() > 0) || (summary && m_encoder->overflowCount() > 1))
        std::cerr << "ddplab-engine: " << key::kTensorboardDir << ": " << m_encoder->overflowSentence() << std::endl;
}

bool TensorBoardFile::write()
{
    if (m_fd < 0 || m_pending.empty())
        return m_fd >= 0;
    // A write the disk takes only part of is taken back: the file keeps whole records.
    const off_t sizeBefore = ::lseek(m_fd, 0, SEEK_END);
    const char* data = m_pending.data();
    size_t left = m_pending.size();
    while (left > 0) {
        const ssize_t written = ::write(m_fd, data, left);
        if (written < 0 && errno == EINTR)
            continue;
        if (written < 0) {
            const int error = errno;
            if (sizeBefore >= 0)
                (void)!::ftruncate(m_fd, sizeBefore);
            m_error = "cannot write the TensorBoard file \"" + m_path + "\" (" + key::kTensorboardDir + "): " + std::strerror(error) +
                      (error == ENOSPC || error == EDQUOT ? " (the disk is full)" : "");
            ::close(m_fd);
            m_fd = -1;
            m_pending.clear();
            return false;
        }
        data += written;
        left -= size_t(written);
    }
    m_pending.clear();
    return true;
}

}  // namespace ddplab
