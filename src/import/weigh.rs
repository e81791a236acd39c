//! The nesting of one section: gather the evidence, apply the hints,
//! solve, and say where the evidence disagrees or leaves a rule in doubt.
//! Pure.

use std::collections::BTreeSet;

use super::evidence::{self, Claim, Clue, weight};
use super::nesting::{self, Draft};
use super::solve::{self, Problem, SHARED_WORDS, Solution};
use super::{Hints, ImportError, xref};

/// A numbered entry of the wiki's table of contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ContentsEntry {
    /// Its line in the dump.
    pub(crate) line: usize,
    /// Its number, `[2, 4, 1]` for `2.4.1`.
    pub(crate) number: Vec<u32>,
    /// The title it lists.
    pub(crate) title: String,
}

/// What every section's nesting is decided with.
pub(crate) struct Context<'a> {
    /// Every section's rules (citations cross sections).
    pub(crate) sections: &'a [evidence::Section<'a>],
    /// The table of contents, if the dump has one.
    pub(crate) contents: &'a [ContentsEntry],
    /// The words of the game's terms, which tie no rule to another.
    pub(crate) ignored: &'a BTreeSet<String>,
    /// The hints.
    pub(crate) hints: &'a Hints,
}

/// Clues from the table of contents for the section numbered `number`.
fn contents_clues(contents: &[ContentsEntry], number: u32, drafts: &[Draft]) -> Vec<Clue> {
    let mut used = BTreeSet::new();
    let mut clues = Vec::new();
    for entry in contents {
        let Some((&first, path)) = entry.number.split_first() else {
            continue;
        };
        if first != number || path.is_empty() {
            continue;
        }
        let found = (0..drafts.len())
            .find(|&i| !used.contains(&i) && drafts[i].title.trim() == entry.title.trim());
        if let Some(i) = found {
            used.insert(i);
            clues.push(Clue {
                rule: Some(i),
                claim: Claim::Number(path.to_vec()),
                weight: weight::CONTENTS,
                line: entry.line,
                why: format!(
                    "the contents at line {} list it as {}",
                    entry.line,
                    xref::show(&entry.number)
                ),
            });
        }
    }
    clues
}

/// What a subrule `c` earns under `p` for shared title words.
fn affinity(drafts: &[Draft], ignored: &BTreeSet<String>) -> Vec<Vec<i32>> {
    let titles: Vec<BTreeSet<String>> = drafts
        .iter()
        .map(|d| evidence::title_words(&d.title, ignored))
        .collect();
    let bodies: Vec<BTreeSet<String>> = drafts.iter().map(evidence::body_words).collect();
    (0..drafts.len())
        .map(|c| {
            (0..c)
                .map(|p| {
                    let up = !bodies[c].is_disjoint(&titles[p]);
                    let down = !bodies[p].is_disjoint(&titles[c]);
                    SHARED_WORDS * (i32::from(up) + i32::from(down))
                })
                .collect()
        })
        .collect()
}

/// The parent each hint gives, by index; lines of the hints used go to `hinted`.
fn forced(
    drafts: &[Draft],
    hints: &Hints,
    hinted: &mut BTreeSet<usize>,
) -> Result<Vec<Option<Option<usize>>>, ImportError> {
    let mut forced = vec![None; drafts.len()];
    for (i, draft) in drafts.iter().enumerate() {
        let Some(&parent_line) = hints.parents.get(&draft.line) else {
            continue;
        };
        hinted.insert(draft.line);
        forced[i] = Some(match parent_line {
            0 => None,
            _ => Some(
                drafts[..i]
                    .iter()
                    .position(|d| d.line == parent_line)
                    .ok_or_else(|| ImportError::HintLine {
                        line: draft.line,
                        problem: format!(
                            "line {parent_line} is not the title of an earlier rule in the same section"
                        ),
                    })?,
            ),
        });
    }
    Ok(forced)
}

/// The parents of the rules of the section numbered `number`, with
/// warnings for evidence the nesting goes against and rules in doubt.
pub(crate) fn nest(
    context: &Context,
    number: u32,
    drafts: &[Draft],
    hinted: &mut BTreeSet<usize>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Option<usize>>, ImportError> {
    let mut clues = nesting::clues(drafts);
    clues.extend(evidence::title_clues(drafts, context.ignored));
    clues.extend(evidence::citation_clues(
        context.sections,
        number,
        context.ignored,
    ));
    clues.extend(contents_clues(context.contents, number, drafts));
    let forced = forced(drafts, context.hints, hinted)?;
    // A hint is a person's decision: only numbers cited or listed are
    // still held against it.
    let heard: Vec<Clue> = clues
        .iter()
        .filter(|c| {
            let hinted = c.rule.is_some_and(|r| forced[r].is_some());
            !hinted || matches!(c.claim, Claim::Number(_))
        })
        .cloned()
        .collect();
    let mut problem = Problem::new(drafts.len(), &clues)
        .with_affinity(affinity(drafts, context.ignored))
        .with_lengths(drafts.iter().map(evidence::body_len).collect())
        .with_forced(forced);
    let best = solve::solve(&problem).map_err(|i| ImportError::HintLine {
        line: drafts[i].line,
        problem: "the hints nest the rules here too deep".into(),
    })?;
    let show = |path: &[u32]| {
        let mut full = vec![number];
        full.extend(path);
        xref::show(&full)
    };
    warnings.extend(disagreements(&heard, &best, drafts, &show));
    for (i, other) in solve::doubts(&mut problem, &best) {
        let parent_line = other.parents[i].map_or(0, |p| drafts[p].line);
        warnings.push(format!(
            "line {}: in doubt: numbered {} here, but {} fits the evidence almost as well (hint: [parents] {} = {parent_line})",
            drafts[i].line,
            show(&best.paths[i]),
            show(&other.paths[i]),
            drafts[i].line,
        ));
    }
    Ok(best.parents)
}

/// A warning for every clue the chosen nesting goes against.
fn disagreements(
    clues: &[Clue],
    best: &Solution,
    drafts: &[Draft],
    show: &dyn Fn(&[u32]) -> String,
) -> Vec<String> {
    let mut warnings = Vec::new();
    for clue in clues {
        match clue.rule {
            Some(r) if !solve::satisfied(&clue.claim, best.parents[r], &best.paths[r]) => {
                warnings.push(format!(
                    "line {}: {}, but it is numbered {} here",
                    drafts[r].line,
                    clue.why,
                    show(&best.paths[r])
                ));
            }
            None if !best
                .paths
                .iter()
                .zip(&best.parents)
                .any(|(path, parent)| solve::satisfied(&clue.claim, *parent, path)) =>
            {
                warnings.push(format!(
                    "line {}: {}, but no rule is numbered so here",
                    clue.line, clue.why
                ));
            }
            _ => {}
        }
    }
    warnings
}
