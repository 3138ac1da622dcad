// SPDX-License-Identifier: GPL-3.0-or-later
#include "store.hpp"

#include "socket_store.hpp"

#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

namespace ddplab {

c10::intrusive_ptr<c10d::Store> openStore(const WorkerIdentity& identity)
{
    const Rendezvous& rv = identity.rendezvous;
    c10::intrusive_ptr<c10d::Store> store;
    if (rv.kind == Rendezvous::Kind::File) {
        // No port at all: the file lives in a 0700 directory only this user can reach.
        store = c10::make_intrusive<c10d::FileStore>(rv.storePath, identity.worldSize);
    } else if (rv.agentStore) {
        // torchrun's agent serves the store (its own choice of address); ranks are its clients.
        c10d::TCPStoreOptions options;
        options.port = rv.port;
        options.isServer = false;
        options.numWorkers = size_t(identity.worldSize);
        options.waitWorkers = true;  // as torch.distributed's env:// rendezvous
        options.timeout = rv.timeout;
        store = c10::make_intrusive<c10d::TCPStore>(rv.host, options);
    } else {
        // Rank 0 serves, on MASTER_ADDR's address only (socket_store.hpp says why not TCPStore).
        store = c10::make_intrusive<SocketStore>(rv.host, rv.port, rv.hostsStore, rv.timeout);
    }
    if (!rv.keyPrefix.empty())
        store = c10::make_intrusive<c10d::PrefixStore>(rv.keyPrefix, store);
    store->setTimeout(rv.timeout);
    return store;
}

}  // namespace ddplab
