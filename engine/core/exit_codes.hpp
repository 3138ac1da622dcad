#pragma once
// Exit status of every ddplab-engine subcommand (documented in docs/protocol.md).

namespace ddplab {

enum ExitCode : int {
    kExitOk = 0,
    kExitInternal = 1,      // a bug: an unexpected exception in the engine itself
    kExitInvalidInput = 2,  // bad flag, config key or value, unreadable or malformed config file
    kExitDataError = 3,     // a data file is missing, truncated or corrupt
    kExitRankFailed = 4,    // a worker rank failed or was killed; the run was stopped
    kExitCancelled = 5,     // stopped by SIGINT/SIGTERM (or the reader of stdout went away)
};

}  // namespace ddplab
