//! The `gitnomic` binary: parse the command line, set up logging, run.

use std::process::ExitCode;

use clap::Parser;
use gitnomic::cli::{self, Cli};

/// See Cargo.toml for why not the system's allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    gitnomic::cli::logging::init(cli.global.verbosity());
    match cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            let said = format!("{err:#}");
            eprintln!("gitnomic: error: {}", gitnomic::text::for_terminal(&said));
            ExitCode::from(cli::EXIT_ERROR)
        }
    }
}
