#include "inspect_command.hpp"

#include "cli/run_command.hpp"
#include "core/config_error.hpp"
#include "core/config_validate.hpp"
#include "core/data_error.hpp"
#include "core/key_names.hpp"
#include "core/protocol_inspection.hpp"
#include "core/protocol_names.hpp"
#include "output/event_writer.hpp"
#include "workloads/model_inspection.hpp"

#include <unistd.h>

namespace ddplab {

int runInspect(const ConfigOptions& options)
{
    EventWriter out;
    out.addFd(STDOUT_FILENO);
    try {
        Config config = options.resolve();
        if (config.workload != WorkloadKind::TorchScript)
            throw ConfigError(key::kWorkload, "inspect checks your own model and data: workload torchscript with model_file "
                                              "and train_data (docs/own-model.md)");
        const MachineResources machine = thisMachine();
        requireValid(config, &machine, config.worldSize);
        const protocol::InspectionReport report = inspectOwnModel(config);
        config.trainSamples = report.train.samples;
        out.emit(protocol::inspectionEvent(config, report));
        return kExitOk;
    } catch (const ConfigError& error) {
        return fail(out, error.what(), error.key(), kExitInvalidInput);
    } catch (const DataError& error) {
        return fail(out, error.what(), error.key(), kExitDataError);
    } catch (const std::exception& error) {
        return fail(out, std::string("internal error: ") + error.what(), "", kExitInternal);
    }
}

}  // namespace ddplab
