// SPDX-License-Identifier: GPL-3.0-or-later
#include "loopback_port.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>

namespace ddplab::test {

int loopbackSocket(int port, bool connectToIt)
{
    const int socket = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (socket < 0)
        return -1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(uint16_t(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int result = connectToIt ? ::connect(socket, reinterpret_cast<sockaddr*>(&address), sizeof address)
                                   : ::bind(socket, reinterpret_cast<sockaddr*>(&address), sizeof address);
    if (result != 0) {
        ::close(socket);
        return -1;
    }
    return socket;
}

int freeLoopbackPort()
{
    const int socket = loopbackSocket(0, false);
    if (socket < 0)
        return 0;
    sockaddr_in bound{};
    socklen_t length = sizeof bound;
    const bool named = ::getsockname(socket, reinterpret_cast<sockaddr*>(&bound), &length) == 0;
    ::close(socket);
    return named ? ntohs(bound.sin_port) : 0;
}

}  // namespace ddplab::test
