// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_line.hpp"

#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace ddplab {

std::string encodeEventLine(const Json& event)
{
    return event.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

bool writeWholeLine(int fd, const std::string& line)
{
    size_t done = 0;
    while (done < line.size()) {
        const ssize_t written = ::write(fd, line.data() + done, line.size() - done);
        if (written < 0 && errno == EINTR)
            continue;
        if (written < 0 && errno == EAGAIN) {
            pollfd ready{fd, POLLOUT, 0};
            ::poll(&ready, 1, 100);
            continue;
        }
        if (written <= 0)
            return false;
        done += size_t(written);
    }
    return true;
}

}  // namespace ddplab
