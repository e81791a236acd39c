//! `gitnomic import ruleset`: start a game from a BlogNomic ruleset dump;
//! `gitnomic import history` (in `import_history`): BlogNomic's archive.
//!
//! Reads the dump (and hints), imports it with the pure importer, checks
//! the round trip, then either lists the rules or writes the game files.
//! Writing goes to a directory beside the target first and is moved into
//! place with renames ([`make::imported_rules`]), so a failure leaves
//! nothing half-written.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, bail};

use super::{EXIT_OK, GlobalArgs};
use crate::import::{self, Contents, Hints, blognomic, files, hints, plain};
use crate::make;

/// Arguments of `gitnomic import`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to import.
    #[command(subcommand)]
    pub what: What,
}

/// The things `gitnomic import` can import.
#[derive(Debug, clap::Subcommand)]
pub enum What {
    /// Import a BlogNomic ruleset dump (the wiki page printed as plain text).
    Ruleset(RulesetArgs),
    /// Import BlogNomic's proposal history (a CSV table) as archive records
    /// under content/matters/<source>/; odd rows are reported and skipped.
    History(super::import_history::Args),
}

/// Arguments of `gitnomic import ruleset`.
#[derive(Debug, clap::Args)]
pub struct RulesetArgs {
    /// The dump to import.
    pub file: PathBuf,
    /// The game root to write into: DIR/rules/, and DIR/state/game.toml and
    /// DIR/state/roster.toml unless they exist.
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present_any = ["list", "questions"],
        conflicts_with = "list"
    )]
    pub out: Option<PathBuf>,
    /// Print `number<TAB>section<TAB>title` for every rule found and write nothing.
    #[arg(long)]
    pub list: bool,
    /// Hints by line number for what the text cannot decide (TOML: titles,
    /// not_titles, [parents], [numbers]); a file --questions wrote.
    #[arg(long, value_name = "HINTS")]
    pub hints: Option<PathBuf>,
    /// Replace the rules already in DIR/rules/.
    #[arg(long, requires = "out")]
    pub force: bool,
    /// Write the questions the text leaves open to FILE, as a hints file
    /// with the import's current answers filled in: edit the answers and
    /// pass it back with --hints.
    #[arg(long, value_name = "FILE")]
    pub questions: Option<PathBuf>,
    /// The wiki page's Contents box, pasted into FILE (lines such as
    /// `2.4.1 Powers`): it numbers the rules it lists.
    #[arg(long, value_name = "FILE")]
    pub contents: Option<PathBuf>,
}

/// Runs `gitnomic import`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    match &args.what {
        What::History(history) => super::import_history::run(history, global),
        What::Ruleset(args) => ruleset(args),
    }
}

fn ruleset(args: &RulesetArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let hints = match &args.hints {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            Hints::parse(&text).with_context(|| format!("in {}", path.display()))?
        }
        None => Hints::default(),
    };
    let contents = match &args.contents {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let contents = Contents::parse(&text);
            if contents.is_empty() {
                bail!(
                    "{}: no contents entry (a line such as `2.4.1 Powers`) found",
                    path.display()
                );
            }
            contents
        }
        None => Contents::default(),
    };
    let stem = args
        .file
        .file_stem()
        .map_or_else(|| "Imported ruleset".into(), |s| s.to_string_lossy());
    let context = || format!("cannot import {}", args.file.display());
    let imported = blognomic::import_with(&text, &stem, &hints, &contents).with_context(context)?;
    let rules = files::rule_files(&imported);
    import::verify(&imported, &rules).with_context(context)?;
    for warning in &imported.warnings {
        eprintln!("warning: {}: {warning}", args.file.display());
    }
    if let Some(path) = &args.questions {
        let asked = blognomic::all_questions(&text, &stem, &hints, &contents, &imported);
        let file = hints::questions_file(&args.file.display().to_string(), &hints, &asked);
        std::fs::write(path, file).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!(
            "wrote {} question{} to {}: check the answers against the wiki, then import with --hints {}",
            asked.len(),
            if asked.len() == 1 { "" } else { "s" },
            path.display(),
            path.display()
        );
    }
    match &args.out {
        Some(out) if !args.list => {
            make::imported_rules(out, &imported, &rules, args.force)?;
            say!("{}", imported.preset_line());
            say!("{}", imported.question_line());
            say!(
                "imported {} rules in {} sections into {} (terms: {} / {}, {} / {})",
                imported.rules.len(),
                imported.sections.len(),
                out.display(),
                imported.terms.player,
                imported.terms.players,
                imported.terms.emperor,
                imported.terms.emperors,
            );
        }
        _ => {
            eprintln!("{}", imported.preset_line());
            eprintln!("{}", imported.question_line());
            if args.list {
                let ruleset = plain::ruleset(&rules, &imported.terms).with_context(context)?;
                for rule in &ruleset.rules {
                    say!("{}\t{}\t{}", rule.number, rule.section, rule.title);
                }
            }
        }
    }
    Ok(ExitCode::from(EXIT_OK))
}
