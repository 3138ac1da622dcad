#include "store.hpp"

#include "communicator.hpp"

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
    } else {
        c10d::TCPStoreOptions options;
        options.port = rv.port;
        options.isServer = rv.hostsStore;
        options.numWorkers = size_t(identity.worldSize);
        // Every rank counts itself in and waits for the others, as torch.distributed does
        // (the server only returns once world_size ranks have checked in).
        options.waitWorkers = true;
        options.multiTenant = rv.hostsStore;  // as torch.distributed's env:// rendezvous
        options.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(kCollectiveTimeout);
        store = c10::make_intrusive<c10d::TCPStore>(rv.host, options);
    }
    if (!rv.keyPrefix.empty())
        store = c10::make_intrusive<c10d::PrefixStore>(rv.keyPrefix, store);
    store->setTimeout(std::chrono::duration_cast<std::chrono::milliseconds>(kCollectiveTimeout));
    return store;
}

}  // namespace ddplab
