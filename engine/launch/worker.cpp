// SPDX-License-Identifier: GPL-3.0-or-later
#include "worker.hpp"

#include "comm/backend_choice.hpp"
#include "comm/communicator.hpp"
#include "comm/gpu_inventory.hpp"
#include "comm/worker_identity.hpp"
#include "core/config_error.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"
#include "core/data_error.hpp"
#include "core/protocol.hpp"
#include "core/wording.hpp"
#include "core/workload_table.hpp"
#include "output/event_flusher.hpp"
#include "output/event_writer.hpp"
#include "output/output_error.hpp"
#include "output/tensorboard_file.hpp"
#include "heap_policy.hpp"
#include "kernel_choice.hpp"
#include "thread_share.hpp"
#include "train/out_of_memory.hpp"
#include "train/trainer.hpp"
#include "workloads/make_workload.hpp"
#include "workloads/saved_model_file.hpp"

#include <ATen/Parallel.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace ddplab {
namespace {

// How long a rank started by torchrun or Slurm looks at how busy its node is.
constexpr int kBusySampleMs = 100;

ThreadShare threadsPerRank(const Config& config, const WorkerIdentity& identity)
{
    if (config.threads > 0)
        return {int(config.threads), "threads " + std::to_string(config.threads) + " (the setting)"};
    // Ranks on one node share its cores, and other programs may hold some: more threads than
    // free cores only adds contention (thread_share.hpp).
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    const double busy = std::isnan(identity.busyCoresAtStart) ? busyCoresNow(kBusySampleMs) : identity.busyCoresAtStart;
    return shareOfFreeCores(cores, busy, identity.localWorldSize);
}

// Before any rank allocates: the ranks that share this rank's GPU must fit in what it has free.
void requireGpuMemory(const Config& config, const WorkerIdentity& identity, const c10::Device& device, int visibleGpus)
{
    MachineResources gpu;
    gpu.gpuMemoryFreeBytes = gpuMemoryFreeBytes(device);
    gpu.gpus = identity.gpusBoundPerTask ? identity.localWorldSize : visibleGpus;
    requireValid(config, &gpu, identity.localWorldSize);
}

// NCCL writes NCCL_DEBUG's output to stdout, which is rank 0's event stream (under torchrun,
// srun and the lab): to standard error instead, unless the user chose a file. NCCL opens the
// file by name, truncating: fine for a pipe or a terminal, not for a stderr that is a file
// (its log so far would be cut), and impossible for a socket; those get a file of their own,
// said on stderr.
void keepNcclDebugOffStdout()
{
    if (std::getenv("NCCL_DEBUG_FILE"))
        return;
    struct stat standardError {};
    if (::fstat(STDERR_FILENO, &standardError) == 0 && !S_ISREG(standardError.st_mode)) {
        if (FILE* byName = std::fopen("/dev/stderr", "w")) {
            std::fclose(byName);
            ::setenv("NCCL_DEBUG_FILE", "/dev/stderr", 0);
            return;
        }
    }
    const std::string file = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/ddplab-nccl-debug.%h.%p.log";
    ::setenv("NCCL_DEBUG_FILE", file.c_str(), 0);
    if (std::getenv("NCCL_DEBUG"))
        std::cerr << "ddplab-engine: NCCL_DEBUG output goes to " << file << " (%h host, %p process id)" << std::endl;
}

int report(EventWriter& events, const WorkerIdentity& identity, const std::string& message, const std::string& key,
           int code)
{
    std::cerr << "ddplab-engine: rank " << identity.rank << ": error: " << message << std::endl;
    protocol::ErrorReport error{message, identity.rank, key, code};
    // When: the launcher names the rank that failed first, and peers only fail after it.
    error.monotonicNs = int64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now().time_since_epoch()).count());
    events.emit(protocol::errorEvent(error));
    return code;
}

}  // namespace

int runWorker(const Config& config, const WorkerIdentity& identity, EventWriter& events)
{
    // First, while this is the process's only thread (see EventFlusher).
    std::optional<EventFlusher> flusher;
    if (identity.rank == 0)
        flusher.emplace(events);
    // Declared outside the try: on an error they must outlive the report. Destroying the
    // process group closes this rank's connections, and peers would then report their
    // "connection reset" before this rank had said what went wrong.
    std::unique_ptr<Workload> workload;
    std::unique_ptr<Communicator> comm;
    // A peer's closed socket must surface as Gloo's error, not as a silent SIGPIPE death.
    ::signal(SIGPIPE, SIG_IGN);
    keepFreedMemoryForReuse();
    try {
        if (identity.worldSize != config.worldSize)
            throw ConfigError(key::kWorldSize, "world_size is " + std::to_string(config.worldSize) + " but the launcher started " +
                                                countOf(identity.worldSize, "rank") + "; pass --world-size " +
                                                std::to_string(identity.worldSize));
        const ThreadShare share = threadsPerRank(config, identity);
        const int threads = share.threads;
        at::set_num_threads(threads);
        chooseKernels(config);

        // Only a CUDA run asks about GPUs: the question itself starts the CUDA runtime.
        const bool torchHasCuda = config.device == DeviceKind::Cuda && at::detail::getCUDAHooks().hasCUDA();
        const int gpus = torchHasCuda ? int(at::detail::getCUDAHooks().getNumGPUs()) : 0;
        const BackendChoice choice = chooseBackend(config, identity, gpus, torchHasCuda, ncclBuilt());
        // The rank's one device, computed once: LibTorch's tensors, the step timer's events and
        // NCCL all use it, and it is the current device of the rank from here on.
        const c10::Device device = config.device == DeviceKind::Cuda
                                       ? c10::Device(c10::kCUDA, c10::DeviceIndex(rankGpuIndex(identity, gpus)))
                                       : c10::Device(c10::kCPU);
        if (device.is_cuda()) {
            c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)->setDevice(device);
            requireGpuMemory(config, identity, device, gpus);
        }
        if (choice.backend == BackendKind::Nccl)
            keepNcclDebugOffStdout();

        // Where the trained model goes, before any step: under torchrun or Slurm no launcher
        // checked it (ours did, and said the notice).
        if (identity.rank == 0 && traitsOf(config).ownModel) {
            const std::string notice = checkSaveTarget(config.saveModel);
            if (!notice.empty() && identity.launchedBy != WorkerIdentity().launchedBy)
                std::cerr << "ddplab-engine: " << notice << std::endl;
        }
        // Data first: a missing file fails fast, before peers wait on this rank.
        workload = makeWorkload(config, device, identity.rank);
        // The size of one's own data set is known now; what follows from it is checked again.
        Config resolved = config;
        if (traitsOf(resolved).ownModel) {
            resolved.trainSamples = workload->datasetSize();
            requireValid(resolved);
        }
        WorkerIdentity connecting = identity;
        connecting.rendezvous.timeout = std::chrono::seconds(config.collectiveTimeout);
        comm = connect(choice.backend, connecting, device);
        const bool leader = identity.rank == 0;
        protocol::RunFacts facts;
        facts.backend = choice.backend;
        facts.backendReason = choice.reason;
        facts.deviceName = device.str();
        facts.threadsPerRank = threads;
        facts.threadsReason = share.reason;
        facts.launchedBy = identity.launchedBy;
        facts.torchVersion = TORCH_VERSION;
        // Rank 0's TensorBoard file, made before the first step: a folder that cannot hold it
        // is refused now, not after training.
        if (leader && !config.tensorboardDir.empty())
            events.addTensorBoard(std::make_unique<TensorBoardFile>(config.tensorboardDir));
        Trainer trainer(resolved, *workload, *comm, leader ? &events : nullptr, facts);
        const Json summary = trainer.run();
        if (leader) {
            if (!config.saveModel.empty())
                workload->saveModel(config.saveModel);
            events.emit(summary);
            if (!events.fileError().empty())
                throw OutputError(events.fileError(), events.fileErrorKey());
        }
        return kExitOk;
    } catch (const ConfigError& error) {
        return report(events, identity, error.what(), error.key(), kExitInvalidInput);
    } catch (const DataError& error) {
        return report(events, identity, error.what(), error.key(), kExitDataError);
    } catch (const OutputError& error) {
        return report(events, identity, error.what(), error.key(), kExitOutputError);
    } catch (const OutOfMemory& error) {
        return report(events, identity, "rank " + std::to_string(identity.rank) + " " + error.what(), "", kExitRankFailed);
    } catch (const c10::Error& error) {
        // LibTorch's message carries its backtrace: that is for the stderr file, not for a person.
        std::cerr << error.what() << std::endl;
        return report(events, identity, error.what_without_backtrace(), "", kExitRankFailed);
    } catch (const std::exception& error) {
        return report(events, identity, error.what(), "", kExitRankFailed);
    }
}

}  // namespace ddplab
