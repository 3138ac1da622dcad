// SPDX-License-Identifier: GPL-3.0-or-later
#include "socket_store.hpp"

#include "core/config_error.hpp"
#include "core/protocol_names.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace ddplab {
namespace {

using Bytes = std::vector<uint8_t>;
using Clock = std::chrono::steady_clock;

// Requests: one operation and its arguments; replies: the results (an empty list for "done").
enum Op : uint8_t { kSet = 1, kGet, kAdd, kCompareSet, kDelete, kCheck, kNumKeys, kWait };

// A request or reply no rendezvous needs: beyond it the peer is not one of ours.
constexpr uint32_t kMaxFrameBytes = 64u << 20;
constexpr std::chrono::milliseconds kConnectRetry{100};

Bytes toBytes(const std::string& text) { return Bytes(text.begin(), text.end()); }
std::string toText(const Bytes& bytes) { return std::string(bytes.begin(), bytes.end()); }

void putU32(Bytes& out, uint32_t value)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(uint8_t(value >> shift));
}

uint32_t getU32(const uint8_t* in)
{
    return (uint32_t(in[0]) << 24) | (uint32_t(in[1]) << 16) | (uint32_t(in[2]) << 8) | uint32_t(in[3]);
}

// [u32 length][u8 tag][u32 count]([u32 size][bytes])...
Bytes encodeFrame(uint8_t tag, const std::vector<Bytes>& parts)
{
    Bytes body{tag};
    putU32(body, uint32_t(parts.size()));
    for (const Bytes& part : parts) {
        putU32(body, uint32_t(part.size()));
        body.insert(body.end(), part.begin(), part.end());
    }
    Bytes frame;
    putU32(frame, uint32_t(body.size()));
    frame.insert(frame.end(), body.begin(), body.end());
    return frame;
}

bool decodeBody(const Bytes& body, uint8_t& tag, std::vector<Bytes>& parts)
{
    if (body.size() < 5)
        return false;
    tag = body[0];
    const uint32_t count = getU32(&body[1]);
    size_t at = 5;
    parts.clear();
    for (uint32_t i = 0; i < count; ++i) {
        if (at + 4 > body.size())
            return false;
        const uint32_t size = getU32(&body[at]);
        at += 4;
        if (size > body.size() - at)
            return false;
        parts.emplace_back(body.begin() + long(at), body.begin() + long(at + size));
        at += size;
    }
    return at == body.size();
}

bool sendAll(int fd, const Bytes& data)
{
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += size_t(n);
    }
    return true;
}

struct AddressList {
    addrinfo* head = nullptr;
    ~AddressList() { if (head) ::freeaddrinfo(head); }
};

void resolve(const std::string& host, uint16_t port, AddressList& list)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    const int status = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &list.head);
    if (status != 0)
        throw ConfigError(protocol::errorKey::kEnvironment, "MASTER_ADDR \"" + host + "\" cannot be resolved: " + ::gai_strerror(status));
}

}  // namespace

// ---------------------------------------------------------------------------------------
// The server: one thread, one poll() over the listening socket and every connection.
// ---------------------------------------------------------------------------------------
class SocketStoreServer {
public:
    SocketStoreServer(const std::string& host, uint16_t port)
    {
        AddressList addresses;
        resolve(host, port, addresses);
        int lastError = 0;
        for (addrinfo* a = addresses.head; a && m_listenFd < 0; a = a->ai_next) {
            const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
            if (fd < 0)
                continue;
            const int yes = 1;
            ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
            // Only the address MASTER_ADDR names: never the wildcard TCPStore would take.
            if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 1024) == 0) {
                m_listenFd = fd;
                break;
            }
            lastError = errno;
            ::close(fd);
        }
        if (m_listenFd < 0) {
            const std::string where = host + ":" + std::to_string(port);
            if (lastError == EADDRINUSE)
                throw ConfigError(protocol::errorKey::kEnvironment, "MASTER_PORT " + std::to_string(port) + " is in use on " + host +
                                                     ": rank 0 cannot serve the rendezvous store there; pick a free port");
            if (lastError == EADDRNOTAVAIL)
                throw ConfigError(protocol::errorKey::kEnvironment, "MASTER_ADDR \"" + host + "\" is not an address of this machine: rank 0 "
                                                 "serves the rendezvous store and must run where MASTER_ADDR points");
            throw ConfigError(protocol::errorKey::kEnvironment, "rank 0 cannot serve the rendezvous store on " + where + ": " +
                                                 std::strerror(lastError));
        }
        if (::pipe2(m_wake, O_CLOEXEC) != 0)
            throw std::runtime_error(std::string("cannot create the store's wake-up pipe: ") + std::strerror(errno));
        m_thread = std::thread([this] { serve(); });
    }

    ~SocketStoreServer()
    {
        m_stop = true;
        (void)!::write(m_wake[1], "x", 1);
        m_thread.join();
        for (auto& [fd, client] : m_clients)
            ::close(fd);
        ::close(m_listenFd);
        ::close(m_wake[0]);
        ::close(m_wake[1]);
    }

private:
    struct Client {
        Bytes buffer;
    };
    struct Parked {  // a get or wait whose keys are not all there yet
        int fd;
        uint8_t op;
        std::vector<std::string> keys;
    };

    void serve()
    {
        while (!m_stop) {
            std::vector<pollfd> fds{{m_wake[0], POLLIN, 0}, {m_listenFd, POLLIN, 0}};
            for (const auto& [fd, client] : m_clients)
                fds.push_back({fd, POLLIN, 0});
            if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
                return;
            if (fds[1].revents & POLLIN) {
                const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
                if (fd >= 0) {
                    const int yes = 1;
                    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
                    m_clients[fd];
                }
            }
            for (size_t i = 2; i < fds.size(); ++i) {
                if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
                    readFrom(fds[i].fd);
            }
        }
    }

    void drop(int fd)
    {
        ::close(fd);
        m_clients.erase(fd);
        m_parked.erase(std::remove_if(m_parked.begin(), m_parked.end(), [fd](const Parked& p) { return p.fd == fd; }),
                       m_parked.end());
    }

    void readFrom(int fd)
    {
        uint8_t chunk[65536];
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                return;
            drop(fd);
            return;
        }
        Bytes& buffer = m_clients[fd].buffer;
        buffer.insert(buffer.end(), chunk, chunk + n);
        while (buffer.size() >= 4) {
            const uint32_t size = getU32(buffer.data());
            if (size > kMaxFrameBytes) {
                drop(fd);
                return;
            }
            if (buffer.size() < 4 + size_t(size))
                return;
            const Bytes body(buffer.begin() + 4, buffer.begin() + 4 + long(size));
            buffer.erase(buffer.begin(), buffer.begin() + 4 + long(size));
            uint8_t op = 0;
            std::vector<Bytes> args;
            bool handled = false;
            try {
                handled = decodeBody(body, op, args) && handle(fd, op, args);
            } catch (const std::exception&) {  // a number that is not one (add)
            }
            if (!handled) {
                drop(fd);
                return;
            }
        }
    }

    bool has(const std::vector<std::string>& keys) const
    {
        return std::all_of(keys.begin(), keys.end(), [this](const std::string& k) { return m_data.count(k) > 0; });
    }

    bool reply(int fd, const std::vector<Bytes>& results) { return sendAll(fd, encodeFrame(0, results)); }

    // Answers what waited for keys that exist now.
    void wakeParked()
    {
        for (auto it = m_parked.begin(); it != m_parked.end();) {
            if (!has(it->keys)) {
                ++it;
                continue;
            }
            const Parked parked = *it;
            it = m_parked.erase(it);
            if (parked.op == kGet)
                reply(parked.fd, {m_data.at(parked.keys.front())});
            else
                reply(parked.fd, {});
        }
    }

    bool handle(int fd, uint8_t op, const std::vector<Bytes>& args)
    {
        std::vector<std::string> keys;
        for (const Bytes& arg : args)
            keys.push_back(toText(arg));
        switch (op) {
        case kSet:
            if (args.size() != 2)
                return false;
            m_data[keys[0]] = args[1];
            wakeParked();
            return reply(fd, {});
        case kGet:
        case kWait:
            if (op == kGet && args.size() != 1)
                return false;
            if (!has(keys)) {
                m_parked.push_back({fd, op, keys});
                return true;
            }
            return op == kGet ? reply(fd, {m_data.at(keys[0])}) : reply(fd, {});
        case kAdd: {
            if (args.size() != 2)
                return false;
            const auto found = m_data.find(keys[0]);
            const int64_t current = found == m_data.end() ? 0 : std::stoll(toText(found->second));
            const Bytes sum = toBytes(std::to_string(current + std::stoll(keys[1])));
            m_data[keys[0]] = sum;
            wakeParked();
            return reply(fd, {sum});
        }
        case kCompareSet: {
            if (args.size() != 3)
                return false;
            const auto found = m_data.find(keys[0]);
            if ((found == m_data.end() && args[1].empty()) || (found != m_data.end() && found->second == args[1])) {
                m_data[keys[0]] = args[2];
                wakeParked();
                return reply(fd, {args[2]});
            }
            return reply(fd, {found == m_data.end() ? args[1] : found->second});
        }
        case kDelete:
            if (args.size() != 1)
                return false;
            return reply(fd, {toBytes(m_data.erase(keys[0]) ? "1" : "0")});
        case kCheck:
            return reply(fd, {toBytes(has(keys) ? "1" : "0")});
        case kNumKeys:
            return reply(fd, {toBytes(std::to_string(m_data.size()))});
        default:
            return false;
        }
    }

    int m_listenFd = -1;
    int m_wake[2] = {-1, -1};
    std::atomic<bool> m_stop = false;
    std::thread m_thread;
    std::map<int, Client> m_clients;
    std::vector<Parked> m_parked;
    std::map<std::string, Bytes> m_data;
};

// ---------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------
SocketStore::SocketStore(const std::string& host, uint16_t port, bool serve, std::chrono::milliseconds timeout)
    : c10d::Store(timeout), m_host(host), m_port(port), m_where(host + ":" + std::to_string(port))
{
    if (serve)
        m_server = std::make_unique<SocketStoreServer>(host, port);
    AddressList addresses;
    resolve(host, port, addresses);
    const auto deadline = Clock::now() + timeout;
    int lastError = 0;
    while (m_fd < 0) {
        for (addrinfo* a = addresses.head; a && m_fd < 0; a = a->ai_next) {
            const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
            if (fd < 0)
                continue;
            if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
                const int yes = 1;
                ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
                m_fd = fd;
            } else {
                lastError = errno;
                ::close(fd);
            }
        }
        if (m_fd >= 0)
            break;
        if (Clock::now() >= deadline)
            throw std::runtime_error("cannot reach the rendezvous store at " + m_where + " (rank 0 serves it) within " +
                                     std::to_string(timeout.count() / 1000) + " s: " + std::strerror(lastError));
        std::this_thread::sleep_for(kConnectRetry);
    }
}

SocketStore::~SocketStore()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 6)
c10::intrusive_ptr<c10d::Store> SocketStore::clone()
{
    // A client only: rank 0's server stays with the original.
    return c10::make_intrusive<SocketStore>(m_host, m_port, /*serve=*/false, timeout_);
}
#endif

std::vector<Bytes> SocketStore::call(uint8_t op, const std::vector<Bytes>& arguments, std::chrono::milliseconds timeout)
{
    std::lock_guard lock(m_mutex);
    if (m_fd < 0)
        throw std::runtime_error("the rendezvous store at " + m_where + " was lost after an earlier timeout");
    if (!sendAll(m_fd, encodeFrame(op, arguments)))
        throw std::runtime_error("the rendezvous store at " + m_where + " went away: " + std::strerror(errno));
    const bool forever = timeout == c10d::Store::kNoTimeout;
    const auto deadline = Clock::now() + timeout;
    Bytes buffer;
    while (true) {
        if (buffer.size() >= 4 && buffer.size() >= 4 + size_t(getU32(buffer.data()))) {
            const Bytes body(buffer.begin() + 4, buffer.begin() + 4 + long(getU32(buffer.data())));
            uint8_t status = 0;
            std::vector<Bytes> results;
            if (!decodeBody(body, status, results))
                throw std::runtime_error("the rendezvous store at " + m_where + " sent a reply that is not one");
            return results;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (!forever && left <= 0) {
            // The reply may still come and would answer the next request: the connection is done.
            ::close(m_fd);
            m_fd = -1;
            throw std::runtime_error("Timed out waiting " + std::to_string(timeout.count()) +
                                     "ms for the rendezvous store at " + m_where);
        }
        pollfd ready{m_fd, POLLIN, 0};
        if (::poll(&ready, 1, forever ? -1 : int(std::min<int64_t>(left, 1000))) <= 0)
            continue;
        uint8_t chunk[65536];
        const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::runtime_error("the rendezvous store at " + m_where + " went away (rank 0 ended?)");
        buffer.insert(buffer.end(), chunk, chunk + n);
        if (buffer.size() >= 4 && getU32(buffer.data()) > kMaxFrameBytes)
            throw std::runtime_error("the rendezvous store at " + m_where + " sent an oversized reply");
    }
}

void SocketStore::set(const std::string& key, const std::vector<uint8_t>& value)
{
    call(kSet, {toBytes(key), value}, timeout_);
}

std::vector<uint8_t> SocketStore::compareSet(const std::string& key, const std::vector<uint8_t>& expected,
                                             const std::vector<uint8_t>& desired)
{
    return call(kCompareSet, {toBytes(key), expected, desired}, timeout_).at(0);
}

std::vector<uint8_t> SocketStore::get(const std::string& key)
{
    return call(kGet, {toBytes(key)}, timeout_).at(0);
}

int64_t SocketStore::add(const std::string& key, int64_t value)
{
    return std::stoll(toText(call(kAdd, {toBytes(key), toBytes(std::to_string(value))}, timeout_).at(0)));
}

bool SocketStore::deleteKey(const std::string& key)
{
    return toText(call(kDelete, {toBytes(key)}, timeout_).at(0)) == "1";
}

bool SocketStore::check(const std::vector<std::string>& keys)
{
    std::vector<Bytes> arguments;
    for (const std::string& key : keys)
        arguments.push_back(toBytes(key));
    return toText(call(kCheck, arguments, timeout_).at(0)) == "1";
}

int64_t SocketStore::getNumKeys()
{
    return std::stoll(toText(call(kNumKeys, {}, timeout_).at(0)));
}

void SocketStore::wait(const std::vector<std::string>& keys)
{
    wait(keys, timeout_);
}

void SocketStore::wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout)
{
    std::vector<Bytes> arguments;
    for (const std::string& key : keys)
        arguments.push_back(toBytes(key));
    call(kWait, arguments, timeout);
}

}  // namespace ddplab
