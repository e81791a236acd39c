//! `gitnomic import ruleset`: start a game from a BlogNomic ruleset dump;
//! `gitnomic import history` (in `import_history`): BlogNomic's archive.
//!
//! Reads the dump (and hints), imports it with the pure importer, checks
//! the round trip, then either lists the rules or writes the game files.
//! Writing goes to a directory beside the target first and is moved into
//! place with renames ([`Staging`]), so a failure leaves nothing half-written.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};

use super::{EXIT_OK, GlobalArgs};
use crate::import::{self, Contents, Hints, Imported, blognomic, files, hints, plain};
use crate::source::SourceFile;
use crate::staging::Staging;

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
            write(out, &imported, &rules, args.force)?;
            say!("{}", preset_line(&imported));
            say!("{}", question_line(&imported));
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
            eprintln!("{}", preset_line(&imported));
            eprintln!("{}", question_line(&imported));
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

/// Which preset was chosen (and where it is declared), or why none was.
fn preset_line(imported: &Imported) -> String {
    match &imported.preset {
        Some(p) => format!(
            "{}; declared in the [params] of rule `{}`",
            imported.preset_note, p.rule
        ),
        None => imported.preset_note.clone(),
    }
}

/// How many questions the text leaves open, and how many numbers hang on them.
fn question_line(imported: &Imported) -> String {
    let total = imported.rules.len();
    match imported.questions.len() {
        0 => format!("0 questions: nothing in the text leaves a number of the {total} rules open"),
        n => format!(
            "{n} question{}, each asked in a warning above, the most numbers hanging on it first ({} of {total} rules' numbers hang on them, each marked in its file's front matter when written): answer them with [numbers] hints, or write them with --questions FILE",
            if n == 1 { "" } else { "s" },
            imported.in_doubt()
        ),
    }
}

/// Writes the rules (and missing state files) under `out` through a
/// directory beside it: the whole game when `out` does not exist, else
/// `rules/` (exchanged with the old one, which goes with the staging
/// directory) and each new state file.
fn write(out: &Path, imported: &Imported, rules: &[SourceFile], force: bool) -> anyhow::Result<()> {
    let rules_dir = out.join("rules");
    if holds_files(&rules_dir) && !force {
        bail!(
            "{} already holds rules: use --force to replace them",
            rules_dir.display()
        );
    }
    let state: Vec<SourceFile> = files::state_files(imported)
        .into_iter()
        .filter(|f| !out.join(&f.path).exists())
        .collect();
    let staging = Staging::beside(out, "import")?;
    for file in rules.iter().chain(&state) {
        staging.write(&file.path, file.text.as_bytes(), false)?;
    }
    if !out.exists() {
        return staging.into_place(out);
    }
    staging.replace("rules", out)?;
    for file in &state {
        staging.replace(&file.path, out)?;
    }
    Ok(())
}

fn holds_files(dir: &Path) -> bool {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .any(|e| e.file_type().is_file())
}
