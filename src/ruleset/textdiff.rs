//! Line and word differences between two texts, for showing what an
//! amendment changed: a line diff (longest common subsequence) whose
//! replaced lines are paired and diffed again word by word, so "three"
//! becoming "four" stands out in a long sentence. Pure.

use serde::Serialize;

/// Unchanged lines kept around each change.
const CONTEXT: usize = 2;
/// Above this many line (or word) pairs, compare wholesale rather than align.
const MAX_CELLS: usize = 4_000_000;

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
    let ops = align(&a, &b);
    let mut out = Vec::new();
    let mut i = 0;
    while i < ops.len() {
        match ops[i] {
            Op::Same(text) => {
                out.push(whole("same", text, false));
                i += 1;
            }
            _ => {
                let start = i;
                while i < ops.len() && !matches!(ops[i], Op::Same(_)) {
                    i += 1;
                }
                out.extend(replaced(&ops[start..i]));
            }
        }
    }
    fold(&out)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op<'t> {
    Same(&'t str),
    Del(&'t str),
    Add(&'t str),
}

fn whole(kind: &'static str, text: &str, changed: bool) -> Line {
    Line {
        kind,
        segments: vec![Segment {
            text: text.to_string(),
            changed,
        }],
    }
}

/// A run of deleted and added lines: the i-th deletion paired with the
/// i-th addition and diffed by word; the rest shown whole.
fn replaced(run: &[Op<'_>]) -> Vec<Line> {
    let dels: Vec<&str> = run
        .iter()
        .filter_map(|o| if let Op::Del(t) = o { Some(*t) } else { None })
        .collect();
    let adds: Vec<&str> = run
        .iter()
        .filter_map(|o| if let Op::Add(t) = o { Some(*t) } else { None })
        .collect();
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
    let a = tokens(old);
    let b = tokens(new);
    let (mut was, mut now) = (Vec::new(), Vec::new());
    for op in align(&a, &b) {
        match op {
            Op::Same(t) => {
                push(&mut was, t, false);
                push(&mut now, t, false);
            }
            Op::Del(t) => push(&mut was, t, true),
            Op::Add(t) => push(&mut now, t, true),
        }
    }
    (was, now)
}

fn push(segments: &mut Vec<Segment>, text: &str, changed: bool) {
    match segments.last_mut() {
        Some(last) if last.changed == changed => last.text.push_str(text),
        _ => segments.push(Segment {
            text: text.to_string(),
            changed,
        }),
    }
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

/// The longest common subsequence of `a` and `b` as steps; past
/// `MAX_CELLS` everything of `a` is deleted and everything of `b` added.
/// Generic so that lines, words and rendered blocks align the same way.
pub fn steps<T: PartialEq>(a: &[T], b: &[T]) -> Vec<Step> {
    if a.len().saturating_mul(b.len()) > MAX_CELLS {
        let mut out: Vec<Step> = (0..a.len()).map(Step::Del).collect();
        out.extend((0..b.len()).map(Step::Add));
        return out;
    }
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push(Step::Same(i, j));
            (i, j) = (i + 1, j + 1);
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(Step::Del(i));
            i += 1;
        } else {
            out.push(Step::Add(j));
            j += 1;
        }
    }
    out
}

/// [`steps`] with the texts themselves.
fn align<'t>(a: &[&'t str], b: &[&'t str]) -> Vec<Op<'t>> {
    steps(a, b)
        .into_iter()
        .map(|s| match s {
            Step::Same(i, _) => Op::Same(a[i]),
            Step::Del(i) => Op::Del(a[i]),
            Step::Add(j) => Op::Add(b[j]),
        })
        .collect()
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
}
