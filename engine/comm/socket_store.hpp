// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The rendezvous store of ranks started by torchrun (without its agent store) or Slurm: rank 0
// serves a small key-value store and every rank, rank 0 included, is its client.
// c10d's own TCPStore (LibTorch 1.13) listens on every interface whatever MASTER_ADDR says and
// cannot be told otherwise; this one listens on the address MASTER_ADDR names and nothing
// else, so a single-node run with MASTER_ADDR=127.0.0.1 stays on loopback. It is as
// unauthenticated as TCPStore: a multi-node store is reachable by the cluster's network
// (docs/clusters.md says how to restrict it).

#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/version.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ddplab {

class SocketStoreServer;

class SocketStore final : public c10d::Store {
public:
    // With `serve`, first starts the server on host:port (throws ConfigError("environment")
    // naming the port when it is in use or the address is not this machine's). Then connects,
    // retrying until `timeout` while the server comes up.
    SocketStore(const std::string& host, uint16_t port, bool serve, std::chrono::milliseconds timeout);
    ~SocketStore() override;

    void set(const std::string& key, const std::vector<uint8_t>& value) override;
    std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expected,
                                    const std::vector<uint8_t>& desired) override;
    std::vector<uint8_t> get(const std::string& key) override;
    int64_t add(const std::string& key, int64_t value) override;
    bool deleteKey(const std::string& key) override;
    bool check(const std::vector<std::string>& keys) override;
    int64_t getNumKeys() override;
    void wait(const std::vector<std::string>& keys) override;
    void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) override;
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 6)
    // LibTorch 2.6+ makes clone() pure virtual in c10d::Store (its process groups take a
    // store of their own for other threads): a second client of the same server.
    c10::intrusive_ptr<c10d::Store> clone() override;
#endif

private:
    std::vector<std::vector<uint8_t>> call(uint8_t op, const std::vector<std::vector<uint8_t>>& arguments,
                                           std::chrono::milliseconds timeout);

    std::unique_ptr<SocketStoreServer> m_server;
    std::string m_host;   // for clone()
    [[maybe_unused]] uint16_t m_port = 0;  // read by clone(), which LibTorch 2.6 and later ask for
    std::string m_where;  // "host:port", for messages
    int m_fd = -1;
    std::mutex m_mutex;   // one request at a time on the connection
};

}  // namespace ddplab
