//! The nesting of one section: gather the evidence, apply the hints,
//! solve, and say where the evidence disagrees or leaves a rule in doubt.
//! Pure.

use std::collections::BTreeSet;

use super::Draft;
use super::evidence::{self, Claim, Clue, weight};
use super::nesting;
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

/// Clues for the rules with no clue of their own that stand between two
/// rules that are subrules by clues of their own: a level, once open, is
/// not closed and opened again around a rule that says nothing, so such a
/// rule is likely in the level of the rule before it ("Flying", cited as
/// 2.2.1; "Chores", unclued; "Buildings", calling itself a subrule: all
/// three subrules of 2.2).
fn level_clues(clues: &[Clue], drafts: &[Draft]) -> Vec<Clue> {
    let has_own = |r: usize| clues.iter().any(|c| c.rule == Some(r));
    // Whether a clue makes rule `r` a subrule; with `after`, a subrule
    // that need not be the first subrule of rule `after` (a number cited
    // as `X.1` would make `after` its parent).
    let nested_by_clue = |r: usize, after: Option<usize>| {
        clues.iter().any(|c| {
            c.rule == Some(r)
                && match &c.claim {
                    Claim::ParentIs(p) => Some(*p) != after,
                    Claim::Nested | Claim::SiblingOfPrevious => true,
                    Claim::Number(path) => {
                        path.len() > 1 && (after.is_none() || path.last() != Some(&1))
                    }
                    Claim::NotUnder(_) => false,
                }
        })
    };
    (1..drafts.len().saturating_sub(1))
        .filter(|&i| !has_own(i) && nested_by_clue(i - 1, None) && nested_by_clue(i + 1, Some(i)))
        .map(|i| {
            let why = format!(
                "it stands between the rules at lines {} and {}, subrules by clues of their own",
                drafts[i - 1].line,
                drafts[i + 1].line
            );
            evidence::clue(
                i,
                Claim::SiblingOfPrevious,
                weight::IN_LEVEL,
                drafts[i].line,
                why,
            )
        })
        .collect()
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
    clues.extend(evidence::title_clues(drafts));
    clues.extend(evidence::citation_clues(
        context.sections,
        number,
        context.ignored,
    ));
    clues.extend(contents_clues(context.contents, number, drafts));
    clues.extend(level_clues(&clues, drafts));
    let forced = forced(drafts, context.hints, hinted)?;
    // A hint is a person's decision: only numbers cited or listed are
    // still held against it. A rule's place in the level around it is an
    // inference, not something the text says: nothing to warn about.
    let heard: Vec<Clue> = clues
        .iter()
        .filter(|c| {
            let hinted = c.rule.is_some_and(|r| forced[r].is_some());
            (!hinted || matches!(c.claim, Claim::Number(_))) && c.claim != Claim::SiblingOfPrevious
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
            Some(r) if !solve::holds(&clue.claim, best, r) => {
                warnings.push(format!(
                    "line {}: {}, but it is numbered {} here",
                    drafts[r].line,
                    clue.why,
                    show(&best.paths[r])
                ));
            }
            None if !solve::held_anywhere(&clue.claim, best) => {
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

#[cfg(test)]
mod tests {
    //! The evidence combined, on dumps made up from a random rule tree.

    use crate::import::{Hints, blognomic, xref};

    /// Made-up one-word titles, none a part of another.
    const WORDS: &[&str] = &[
        "Quill", "Ember", "Sprocket", "Lantern", "Marsh", "Cobble", "Thistle", "Gavel", "Pylon",
        "Brine", "Wicket", "Fennel", "Tundra", "Mosaic", "Anvil", "Harrow", "Quartz", "Willow",
    ];

    /// Depths (1 = top-level) of a rule tree: each at most one deeper
    /// than the rule before, and never deeper than 3.
    fn tree(steps: &[usize]) -> Vec<usize> {
        let mut depths = vec![1];
        for &step in steps {
            let last = *depths.last().unwrap_or(&1);
            depths.push((step % (last + 1) + 1).min(3));
        }
        depths
    }

    /// The numbers `2.x.y` a tree of dynastic rules has.
    fn numbers(depths: &[usize]) -> Vec<String> {
        let mut path: Vec<u32> = Vec::new();
        depths
            .iter()
            .map(|&d| {
                path.truncate(d);
                if path.len() < d {
                    path.push(1);
                } else {
                    path[d - 1] += 1;
                }
                let mut full = vec![2];
                full.extend(&path);
                xref::show(&full)
            })
            .collect()
    }

    /// A dump with two core rules (the first holds `cited`, a sentence of
    /// citations), then the dynastic rules of the tree, then `contents`
    /// before the first heading.
    fn dump(depths: &[usize], cited: &str, contents: &str) -> String {
        let mut text = format!(
            "Made Up\n{contents}Core Rules\nThe Ruleset\nThis ruleset binds; all Owls shall obey it. {cited}\nOwls\nOne is known as the Moon.\nDynastic Rules\n"
        );
        for title in &WORDS[..depths.len()] {
            text.push_str(&format!("{title}\nNothing here is of note.\n"));
        }
        text
    }

    fn imported_numbers(text: &str) -> (Vec<String>, Vec<String>) {
        let imported = blognomic::import(text, "stem", &Hints::default()).unwrap();
        let numbers = xref::numbers(&imported.sections, &imported.rules);
        let dynastic = imported.rules[2..]
            .iter()
            .map(|r| numbers[&r.id].clone())
            .collect();
        (dynastic, imported.warnings)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        #[test]
        fn with_no_evidence_every_rule_is_top_level_and_nothing_is_in_doubt(
            steps in proptest::collection::vec(0usize..4, 0..12)
        ) {
            let depths = tree(&steps);
            let flat = vec![1; depths.len()];
            let (got, warnings) = imported_numbers(&dump(&depths, "", ""));
            proptest::prop_assert_eq!(got, numbers(&flat));
            proptest::prop_assert!(warnings.is_empty(), "{:?}", warnings);
        }

        #[test]
        fn the_contents_number_every_rule(
            steps in proptest::collection::vec(0usize..4, 0..12)
        ) {
            let depths = tree(&steps);
            let want = numbers(&depths);
            let mut contents = "Contents\n1 Core Rules\n2 Dynastic Rules\n".to_string();
            for (number, title) in want.iter().zip(WORDS) {
                contents.push_str(&format!("{number} {title}\n"));
            }
            let (got, warnings) = imported_numbers(&dump(&depths, "", &contents));
            proptest::prop_assert_eq!(got, want);
            proptest::prop_assert!(warnings.is_empty(), "{:?}", warnings);
        }

        #[test]
        fn citations_of_every_subrule_settle_the_whole_tree(
            steps in proptest::collection::vec(0usize..4, 0..12)
        ) {
            let depths = tree(&steps);
            let want = numbers(&depths);
            let cited: Vec<String> = depths
                .iter()
                .zip(&want)
                .zip(WORDS)
                .filter(|((d, _), _)| **d > 1)
                .map(|((_, number), title)| format!("See Rule {number} ({title})."))
                .collect();
            let (got, warnings) = imported_numbers(&dump(&depths, &cited.join(" "), ""));
            proptest::prop_assert_eq!(got, want);
            proptest::prop_assert!(warnings.is_empty(), "{:?}", warnings);
        }
    }
}
