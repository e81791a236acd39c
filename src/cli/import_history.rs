//! `gitnomic import history`: BlogNomic's proposal table as archive records.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_OK, GlobalArgs};
use crate::publish::write as publish;
use crate::record::imported;

/// Arguments of `gitnomic import history`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The table of proposals (BlogNomic's `proposals.csv`).
    pub csv: PathBuf,
    /// The name the records are filed under: `content/matters/<SOURCE>/`.
    #[arg(long, default_value = "blognomic")]
    pub source: String,
}

/// Runs the import: records are written under `--root`; rows left out are
/// reported as `file:line: skipped: why` on stderr and do not fail the
/// run, and rows closed before they were posted as `file:line: flagged:
/// …` (imported as the table has them).
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.csv)
        .with_context(|| format!("cannot read {}", args.csv.display()))?;
    let import = imported::import(&text, &args.source)
        .with_context(|| format!("cannot import {}", args.csv.display()))?;
    for row in &import.problems {
        eprintln!(
            "{}:{}: skipped: {}",
            args.csv.display(),
            row.line,
            row.problem
        );
    }
    for flagged in &import.flagged {
        eprintln!(
            "{}:{}: flagged: {}",
            args.csv.display(),
            flagged.line,
            flagged.problem
        );
    }
    let files: BTreeMap<String, String> = import
        .records
        .iter()
        .map(|r| (r.path(), r.render()))
        .collect();
    let stats =
        publish::write(&global.root, &files, &[]).context("cannot write the imported records")?;
    say!(
        "imported {} records into {} ({} written, {} unchanged); {} flagged as closed before they were posted; {} rows skipped",
        import.records.len(),
        global
            .root
            .join("content/matters")
            .join(&args.source)
            .display(),
        stats.written,
        stats.unchanged,
        import.flagged.len(),
        import.problems.len()
    );
    Ok(ExitCode::from(EXIT_OK))
}
