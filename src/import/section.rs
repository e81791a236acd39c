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

/// One section's nesting, and which of its rules' numbers are in doubt.
pub(crate) struct Nesting {
    /// Each rule's parent.
    pub(crate) parents: Vec<Option<usize>>,
    /// Why each rule's number is in doubt, if it is: one line, for the
    /// rule's file.
    pub(crate) doubts: Vec<Option<String>>,
    /// Whether a contents entry or a numbered citation gives a number
    /// that the nesting keeps: something the text itself numbers.
    pub(crate) anchored: bool,
}

/// What places a rule where the chosen nesting puts it.
enum Support<'c> {
    /// A contents entry or a citation gives its number.
    Numbered,
    /// Nothing the text says of it.
    Nothing,
    /// One clue that gives no number (a keyword, a title, a likeness).
    One(&'c Clue),
    /// Several clues.
    Several,
}

impl Support<'_> {
    /// What rule `i` of `best` rests on.
    fn of<'c>(clues: &'c [Clue], best: &Solution, i: usize) -> Support<'c> {
        let held: Vec<&Clue> = clues
            .iter()
            .filter(|c| c.rule == Some(i) && solve::holds(&c.claim, best, i))
            .collect();
        match held[..] {
            _ if held.iter().any(|c| matches!(c.claim, Claim::Number(_))) => Support::Numbered,
            [] => Support::Nothing,
            [one] => Support::One(one),
            _ => Support::Several,
        }
    }

    /// How much less than `best` a nesting that moves the rule may score
    /// for the rule to be in doubt. With nothing placing it, moving it
    /// costs only the price of nesting; with one clue, only that clue.
    fn margin(&self) -> i32 {
        match self {
            Support::Numbered | Support::Several => solve::DOUBT,
            Support::Nothing => solve::NEST + solve::DOUBT,
            Support::One(clue) => clue.weight + solve::DOUBT,
        }
    }
}

/// The parents of the rules of the section numbered `number`, with
/// warnings for evidence the nesting goes against and for every rule
/// whose number is in doubt.
pub(crate) fn nest(
    context: &Context,
    number: u32,
    drafts: &[Draft],
    hinted: &mut BTreeSet<usize>,
    warnings: &mut Vec<String>,
) -> Result<Nesting, ImportError> {
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
    let runner_ups = solve::runner_ups(&mut problem, &best);
    let doubts = doubts(&clues, &best, &runner_ups, drafts, &show, warnings);
    let anchored = clues.iter().any(|c| {
        matches!(c.claim, Claim::Number(_))
            && match c.rule {
                Some(r) => solve::holds(&c.claim, &best, r),
                None => solve::held_anywhere(&c.claim, &best),
            }
    });
    Ok(Nesting {
        parents: best.parents,
        doubts,
        anchored,
    })
}

/// Which rules' numbers are in doubt, and why, with warnings that name
/// each and the hint that settles it. A rule is in doubt when a nesting
/// that moves it scores within its margin (see [`Support::margin`]) of
/// the best; the rules after it that the move would renumber are in doubt
/// with it. Rules that nothing places are named together, one warning a
/// section, as there are many in a dump without citations.
fn doubts(
    clues: &[Clue],
    best: &Solution,
    runner_ups: &[Option<Solution>],
    drafts: &[Draft],
    show: &dyn Fn(&[u32]) -> String,
    warnings: &mut Vec<String>,
) -> Vec<Option<String>> {
    let mut doubts: Vec<Option<String>> = vec![None; drafts.len()];
    let mut unplaced = Vec::new();
    let mut followers = Vec::new();
    for (i, other) in runner_ups.iter().enumerate() {
        let Some(other) = other else { continue };
        let support = Support::of(clues, best, i);
        if best.score - other.score >= support.margin() {
            continue;
        }
        let line = drafts[i].line;
        let (here, there) = (show(&best.paths[i]), show(&other.paths[i]));
        let parent_line = other.parents[i].map_or(0, |p| drafts[p].line);
        let why = match support {
            Support::Nothing => {
                unplaced.push(format!("{line} = {parent_line}"));
                format!(
                    "numbered {here} here, but nothing in the text places it; it could be {there}"
                )
            }
            Support::One(clue) => format!(
                "numbered {here} here, but it rests on one clue only ({}); without it, {there}",
                clue.why
            ),
            Support::Numbered | Support::Several => {
                format!("numbered {here} here, but {there} fits the evidence almost as well")
            }
        };
        if !matches!(support, Support::Nothing) {
            warnings.push(format!(
                "line {line}: in doubt: {why} (hint: [parents] {line} = {parent_line})"
            ));
        }
        doubts[i] = Some(why);
        let moved: Vec<usize> = (i + 1..drafts.len())
            .filter(|&j| other.paths[j] != best.paths[j])
            .collect();
        followers.push((i, moved));
    }
    if !unplaced.is_empty() {
        let lines: Vec<&str> = unplaced
            .iter()
            .filter_map(|h| h.split(' ').next())
            .collect();
        warnings.push(format!(
            "{}: in doubt: nothing in the text places {} (no citation, contents entry or words about subrules), so {} be numbered otherwise on the wiki; the likeliest other place, as hints: [parents] {}",
            lines_named(&lines),
            if lines.len() == 1 { "this rule" } else { "these rules" },
            if lines.len() == 1 { "it may" } else { "each may" },
            unplaced.join(", ")
        ));
    }
    for (i, moved) in followers {
        let moved: Vec<usize> = moved.into_iter().filter(|&j| doubts[j].is_none()).collect();
        if moved.is_empty() {
            continue;
        }
        let why = format!(
            "numbered on from the rule at line {}, whose place is in doubt",
            drafts[i].line
        );
        let lines: Vec<String> = moved.iter().map(|&j| drafts[j].line.to_string()).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        warnings.push(format!(
            "{}: in doubt: {why}; settling it settles them",
            lines_named(&lines)
        ));
        for j in moved {
            doubts[j] = Some(why.clone());
        }
    }
    doubts
}

/// `line 7` or `lines 7, 9, 12`: how a warning names the lines it is about.
fn lines_named(lines: &[&str]) -> String {
    match lines {
        [one] => format!("line {one}"),
        _ => format!("lines {}", lines.join(", ")),
    }
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

    /// A dump with one core rule (it holds `cited`, a sentence of
    /// citations), then the dynastic rules of the tree, after `contents`
    /// before the first heading.
    fn dump(depths: &[usize], cited: &str, contents: &str) -> String {
        let mut text = format!(
            "Made Up\n{contents}Core Rules\nThe Ruleset\nThis ruleset binds; all Owls shall obey it. One is known as the Moon. {cited}\nDynastic Rules\n"
        );
        for title in &WORDS[..depths.len()] {
            text.push_str(&format!("{title}\nNothing here is of note.\n"));
        }
        text
    }

    /// The dynastic rules' numbers and lines, the warnings, and how many
    /// rules are in doubt.
    struct Outcome {
        numbers: Vec<String>,
        lines: Vec<usize>,
        warnings: Vec<String>,
        in_doubt: usize,
    }

    fn imported(text: &str) -> Outcome {
        let imported = blognomic::import(text, "stem", &Hints::default()).unwrap();
        let numbers = xref::numbers(&imported.sections, &imported.rules);
        let dynastic = &imported.rules[1..];
        Outcome {
            numbers: dynastic.iter().map(|r| numbers[&r.id].clone()).collect(),
            lines: dynastic.iter().map(|r| r.line).collect(),
            in_doubt: imported.in_doubt(),
            warnings: imported.warnings,
        }
    }

    impl Outcome {
        /// Whether a warning names `line` (`line 7: …`, `lines 5, 7: …`).
        fn named(&self, line: usize) -> bool {
            self.warnings.iter().any(|w| {
                let head = w.split(": ").next().unwrap_or_default();
                let list = head
                    .strip_prefix("lines ")
                    .or_else(|| head.strip_prefix("line "));
                list.is_some_and(|l| l.split(", ").any(|n| n == line.to_string()))
            })
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
                concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/import/section.txt"),
            ))),
            ..proptest::prelude::ProptestConfig::with_cases(64)
        })]

        #[test]
        fn with_no_evidence_every_rule_is_top_level_and_every_later_one_in_doubt(
            steps in proptest::collection::vec(0usize..4, 0..12)
        ) {
            let depths = tree(&steps);
            let flat = vec![1; depths.len()];
            let got = imported(&dump(&depths, "", ""));
            proptest::prop_assert_eq!(&got.numbers, &numbers(&flat));
            for &line in &got.lines[1..] {
                proptest::prop_assert!(got.named(line), "line {line}: {:?}", got.warnings);
            }
            proptest::prop_assert_eq!(got.in_doubt, depths.len() - 1);
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
            let got = imported(&dump(&depths, "", &contents));
            proptest::prop_assert_eq!(got.numbers, want);
            proptest::prop_assert!(got.warnings.is_empty(), "{:?}", got.warnings);
            proptest::prop_assert_eq!(got.in_doubt, 0);
        }

        #[test]
        fn citations_of_every_rule_settle_the_whole_tree(
            steps in proptest::collection::vec(0usize..4, 0..12)
        ) {
            let depths = tree(&steps);
            let want = numbers(&depths);
            let cited: Vec<String> = want
                .iter()
                .zip(WORDS)
                .map(|(number, title)| format!("See Rule {number} ({title})."))
                .collect();
            let got = imported(&dump(&depths, &cited.join(" "), ""));
            proptest::prop_assert_eq!(got.numbers, want);
            proptest::prop_assert!(got.warnings.is_empty(), "{:?}", got.warnings);
        }

        /// Some rules are cited, the others have no evidence at all (their
        /// bodies are alike and say nothing): every rule is numbered right
        /// or named in a warning, and a rule without evidence that no
        /// later citation pins is always named.
        #[test]
        fn a_rule_without_evidence_is_numbered_right_or_named(
            steps in proptest::collection::vec(0usize..4, 0..12),
            cite in proptest::collection::vec(proptest::bool::ANY, 12),
        ) {
            let depths = tree(&steps);
            let want = numbers(&depths);
            let cited: Vec<String> = want
                .iter()
                .zip(WORDS)
                .zip(&cite)
                .filter(|(_, c)| **c)
                .map(|((number, title), _)| format!("See Rule {number} ({title})."))
                .collect();
            let got = imported(&dump(&depths, &cited.join(" "), ""));
            for (k, line) in got.lines.iter().enumerate() {
                if got.numbers[k] != want[k] {
                    proptest::prop_assert!(
                        got.named(*line),
                        "{} is {} but numbered {}, and no warning names line {line}: {:?}",
                        WORDS[k], want[k], got.numbers[k], got.warnings
                    );
                }
                let pinned = cite[k..got.lines.len()].iter().any(|c| *c);
                if k > 0 && !pinned {
                    proptest::prop_assert!(got.named(*line), "line {line}: {:?}", got.warnings);
                }
            }
        }
    }
}
