//! Logging setup. Logs go to stderr and are for operators; the reports a
//! player reads (verdicts, tallies) go to stdout through the commands.

use tracing_subscriber::EnvFilter;

/// How chatty the logs are, from the `-v` / `-q` flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// Errors only.
    Quiet,
    /// Warnings and up (the default).
    Normal,
    /// Everything down to debug.
    Verbose,
}

/// Installs the global subscriber. `GITNOMIC_LOG` (an `EnvFilter` string)
/// overrides the verbosity flags.
pub fn init(verbosity: Verbosity) {
    let default = match verbosity {
        Verbosity::Quiet => "gitnomic=error",
        Verbosity::Normal => "gitnomic=warn",
        Verbosity::Verbose => "gitnomic=debug",
    };
    let filter =
        EnvFilter::try_from_env("GITNOMIC_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    // A second init (as in tests that call it twice) is harmless: ignore it.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .try_init();
}
