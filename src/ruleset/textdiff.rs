//! Line and word differences between two texts, for showing what an
//! amendment changed: a line diff (a shortest edit script, by the
//! `similar` crate) whose replaced lines are paired and diffed again word
//! by word, so "three" becoming "four" stands out in a long sentence. Pure.

use std::convert::Infallible;

use serde::Serialize;
use similar::algorithms::{Compact, DiffHook, myers};

/// Unchanged lines kept around each change.
const CONTEXT: usize = 2;

/// One line of a diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// `add`, `del`, `same`, or `fold` for skipped unchanged lines.
    pub kind: &'static str,
    /// The line's text in pieces; `changed` pieces are what differs from
    /// the line it replaced (all of a line that replaced none).
    pub segments: Vec<Segment>,
}

/// A piece of a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Segment {
    /// The text.
    pub text: String,
    /// Whether it differs from the paired line.
    pub changed: bool,
}

impl Line {
    /// The line as plain text.
    pub fn text(&self) -> String {
        self.segments.iter().map(|s| s.text.as_str()).collect()
    }
}

/// The diff of `old` and `new`, line by line with replaced lines diffed
/// word by word, unchanged runs longer than the context folded away.
pub fn lines(old: &str, new: &str) -> Vec<Line> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let steps = steps(&a, &b);
    let mut out = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        if let Step::Same(x, _) = steps[i] {
            out.push(whole("same", a[x], false));
            i += 1;
            continue;
        }
        let (mut dels, mut adds) = (Vec::new(), Vec::new());
        while let Some(step) = steps.get(i) {
            match *step {
                Step::Del(x) => dels.push(a[x]),
                Step::Add(y) => adds.push(b[y]),
                Step::Same(..) => break,
            }
            i += 1;
        }
        out.extend(replaced(&dels, &adds));
    }
    fold(&out)
}

/// A line in one piece; a blank line is never marked changed (there is
/// nothing to mark).
fn whole(kind: &'static str, text: &str, changed: bool) -> Line {
    Line {
        kind,
        segments: vec![Segment {
            text: text.to_string(),
            changed: changed && !text.is_empty(),
        }],
    }
}

/// A run of deleted and added lines: the k-th deletion paired with the
/// k-th addition and diffed by word; the rest shown whole.
fn replaced(dels: &[&str], adds: &[&str]) -> Vec<Line> {
    let mut old_lines = Vec::new();
    let mut new_lines = Vec::new();
    for (k, del) in dels.iter().enumerate() {
        match adds.get(k) {
            Some(add) => {
                let (was, now) = words(del, add);
                old_lines.push(Line {
                    kind: "del",
                    segments: was,
                });
                new_lines.push(Line {
                    kind: "add",
                    segments: now,
                });
            }
            None => old_lines.push(whole("del", del, true)),
        }
    }
    new_lines.extend(adds.iter().skip(dels.len()).map(|t| whole("add", t, true)));
    old_lines.extend(new_lines);
    old_lines
}

/// Words, runs of spaces and single other characters: the units a
/// replaced line (or a rendered block's text) is compared in.
pub fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    let mut last: Option<u8> = None;
    for (i, c) in text.char_indices() {
        let k = class(c);
        if i > start && (Some(k) != last || k == 2) {
            out.push(&text[start..i]);
            start = i;
        }
        last = Some(k);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// The two lines in segments, the words that differ marked.
fn words(old: &str, new: &str) -> (Vec<Segment>, Vec<Segment>) {
    let (a, b) = (tokens(old), tokens(new));
    let (gone, came) = changed(&a, &b, |t| t.trim().is_empty());
    (segments(&a, &gone), segments(&b, &came))
}

/// The tokens in runs of changed and unchanged text.
fn segments(tokens: &[&str], changed: &[bool]) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for (text, &changed) in tokens.iter().zip(changed) {
        match out.last_mut() {
            Some(last) if last.changed == changed => last.text.push_str(text),
            _ => out.push(Segment {
                text: (*text).to_string(),
                changed,
            }),
        }
    }
    out
}

/// Which tokens of `a` are gone and which of `b` came, by [`steps`]; a
/// lone `blank` token (the space between two words) between two changed
/// ones counts as changed too, so a phrase taken out reads as one change,
/// `in [manners specified] by`, not two words apart, `in[ manners]
/// [specified] by`.
pub fn changed<T: PartialEq>(
    a: &[T],
    b: &[T],
    blank: impl Fn(&T) -> bool,
) -> (Vec<bool>, Vec<bool>) {
    let (mut gone, mut came) = (vec![false; a.len()], vec![false; b.len()]);
    for step in steps(a, b) {
        match step {
            Step::Del(x) => gone[x] = true,
            Step::Add(y) => came[y] = true,
            Step::Same(..) => {}
        }
    }
    let bridge = |tokens: &[T], flags: &mut [bool]| {
        for k in 1..flags.len().saturating_sub(1) {
            if flags[k - 1] && !flags[k] && flags[k + 1] && blank(&tokens[k]) {
                flags[k] = true;
            }
        }
    };
    bridge(a, &mut gone);
    bridge(b, &mut came);
    (gone, came)
}

/// One step of an alignment of two sequences, by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `a[i]` equals `b[j]`.
    Same(usize, usize),
    /// `a[i]` is not in `b`.
    Del(usize),
    /// `b[j]` is not in `a`.
    Add(usize),
}

/// A shortest edit script from `a` to `b`, so a longest common
/// subsequence of the two is kept, as steps in order: Myers' algorithm,
/// in memory linear in the lengths, its changes then slid along equal
/// elements to join their neighbours where they can. Generic so that
/// lines, words and rendered blocks align the same way.
pub fn steps<T: PartialEq>(a: &[T], b: &[T]) -> Vec<Step> {
    let out = Steps(Vec::with_capacity(a.len().max(b.len())));
    let mut compact = Compact::new(out, a, b);
    let Ok(()) = myers::diff(&mut compact, a, 0..a.len(), b, 0..b.len());
    compact.into_inner().0
}

/// Collects an edit script as steps.
struct Steps(Vec<Step>);

impl DiffHook for Steps {
    type Error = Infallible;

    fn equal(&mut self, old: usize, new: usize, len: usize) -> Result<(), Infallible> {
        self.0
            .extend((0..len).map(|k| Step::Same(old + k, new + k)));
        Ok(())
    }

    fn delete(&mut self, old: usize, len: usize, _new: usize) -> Result<(), Infallible> {
        self.0.extend((old..old + len).map(Step::Del));
        Ok(())
    }

    fn insert(&mut self, _old: usize, new: usize, len: usize) -> Result<(), Infallible> {
        self.0.extend((new..new + len).map(Step::Add));
        Ok(())
    }
}

fn fold(lines: &[Line]) -> Vec<Line> {
    let near_change = |i: usize| {
        let lo = i.saturating_sub(CONTEXT);
        let hi = (i + CONTEXT + 1).min(lines.len());
        lines[lo..hi].iter().any(|l| l.kind != "same")
    };
    let keep: Vec<bool> = (0..lines.len()).map(near_change).collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if keep[i] {
            out.push(l.clone());
        } else if i == 0 || keep[i - 1] {
            out.push(whole("fold", "…", false));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                let text: String = l
                    .segments
                    .iter()
                    .map(|s| {
                        if s.changed {
                            format!("[{}]", s.text)
                        } else {
                            s.text.clone()
                        }
                    })
                    .collect();
                format!("{} {text}", l.kind)
            })
            .collect()
    }

    #[test]
    fn a_replaced_line_marks_the_words_that_changed() {
        let old = "Intro.\n- Each player has three Springs.\nEnd.\n";
        let new = "Intro.\n- Each player has four Springs.\nEnd.\n";
        assert_eq!(
            shown(&lines(old, new)),
            [
                "same Intro.",
                "del - Each player has [three] Springs.",
                "add - Each player has [four] Springs.",
                "same End."
            ]
        );
    }

    #[test]
    fn unchanged_runs_fold_and_unpaired_lines_are_whole() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n";
        let new = "1\n2\n3\n4\n5\n6\n7\n8\nnine\n";
        assert_eq!(
            shown(&lines(old, new)),
            ["fold …", "same 7", "same 8", "add [nine]"]
        );
        assert_eq!(tokens("a-b  c"), ["a", "-", "b", "  ", "c"]);
    }
    #[test]
    fn a_phrase_taken_out_or_put_in_is_one_change() {
        let old = "Altered only in manners specified by the Ruleset.";
        let new = "Altered only by the Ruleset.";
        assert_eq!(
            shown(&lines(old, new)),
            [
                "del Altered only [in manners specified ]by the Ruleset.",
                "add Altered only by the Ruleset."
            ]
        );
        let (old, new) = ("A raid costs one Spring.", "A raid costs two Springs.");
        assert_eq!(
            shown(&lines(old, new)),
            [
                "del A raid costs [one Spring].",
                "add A raid costs [two Springs]."
            ]
        );
    }

    /// The length of a longest common subsequence, by the textbook table.
    fn lcs_len(a: &[u8], b: &[u8]) -> usize {
        let mut t = vec![vec![0; b.len() + 1]; a.len() + 1];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                t[i][j] = if a[i] == b[j] {
                    t[i + 1][j + 1] + 1
                } else {
                    t[i + 1][j].max(t[i][j + 1])
                };
            }
        }
        t[0][0]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
                concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/ruleset/textdiff.txt"),
            ))),
            ..proptest::prelude::ProptestConfig::with_cases(1000)
        })]

        /// Steps walk both sequences in order, each element once, pair only
        /// equal elements, and keep a longest common subsequence: the diff
        /// is minimal.
        #[test]
        fn steps_are_a_minimal_alignment(
            a in proptest::collection::vec(0u8..4, 0..40),
            b in proptest::collection::vec(0u8..4, 0..40),
        ) {
            let (mut i, mut j, mut kept) = (0, 0, 0);
            for step in steps(&a, &b) {
                match step {
                    Step::Same(x, y) => {
                        proptest::prop_assert_eq!((x, y), (i, j));
                        proptest::prop_assert_eq!(a[x], b[y]);
                        (i, j, kept) = (i + 1, j + 1, kept + 1);
                    }
                    Step::Del(x) => {
                        proptest::prop_assert_eq!(x, i);
                        i += 1;
                    }
                    Step::Add(y) => {
                        proptest::prop_assert_eq!(y, j);
                        j += 1;
                    }
                }
            }
            proptest::prop_assert_eq!((i, j), (a.len(), b.len()));
            proptest::prop_assert_eq!(kept, lcs_len(&a, &b));
        }
    }
}
