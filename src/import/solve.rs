//! The nesting of one section that agrees with the most evidence. Pure.
//!
//! A nesting of rules printed in order is a choice, for each rule after
//! the first, of its depth: one deeper than the rule before (its first
//! subrule), the same, or shallower. So the numbers follow from left to
//! right, and a beam search over those choices finds the best one: each
//! choice earns the weight of every [`Clue`] it satisfies, and pays for
//! nesting at all (so that, with no evidence, a rule is top-level), for
//! nesting deep, and for a subrule much longer than its parent; shared
//! words between a rule and its parent earn a little. Only the number of
//! the current rule and the chain of its ancestors matter to what comes
//! next, so states that agree on those are merged and the search is exact
//! unless the beam overflows.
//!
//! Hints are forced choices. A rule is *in doubt* when the best nesting
//! in which it has another parent scores nearly as well.

use std::collections::HashMap;
use std::rc::Rc;

use super::evidence::{Claim, Clue};

/// The cost of making a rule a subrule.
pub(crate) const NEST: i32 = 10;
/// The extra cost of each level below the second (`2.1.1.1` pays once).
const DEEP: i32 = 5;
/// What a subrule earns for each direction in which it and its parent
/// share a word of a title (the subrule's body uses the parent's title,
/// or the parent's body the subrule's).
pub(crate) const SHARED_WORDS: i32 = 2;
/// The cost of a subrule more than [`LONG_RATIO`] times as long as its
/// parent: a parent states the frame, its subrules the details.
const LONG_CHILD: i32 = 5;
const LONG_RATIO: usize = 3;
/// The deepest a rule may be within its section.
const MAX_DEPTH: usize = 4;
/// How many partial nestings the search keeps.
const BEAM: usize = 128;
/// A rule is in doubt when another parent loses by less than this (more
/// when little evidence places it: see `section`).
pub(crate) const DOUBT: i32 = 5;

/// One section's rules and the evidence about them.
pub(crate) struct Problem<'a> {
    by_rule: Vec<Vec<&'a Clue>>,
    anywhere: Vec<&'a Clue>,
    /// `affinity[c][p]`: what rule `c` earns as a subrule of `p`.
    affinity: Vec<Vec<i32>>,
    /// Each body's length, for [`LONG_CHILD`].
    lengths: Vec<usize>,
    /// The parent a hint gives each rule, if any.
    forced: Vec<Option<Option<usize>>>,
    /// A parent one rule may not have (to find the runner-up).
    forbid: Option<(usize, Option<usize>)>,
}

/// A nesting and how well it agrees with the evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Solution {
    /// Each rule's parent.
    pub(crate) parents: Vec<Option<usize>>,
    /// Each rule's number within the section (`[4, 1]` is `S.4.1`).
    pub(crate) paths: Vec<Vec<u32>>,
    /// Its score.
    pub(crate) score: i32,
}

impl<'a> Problem<'a> {
    /// `n` rules and the clues about them; no other signal, no hints.
    pub(crate) fn new(n: usize, clues: &'a [Clue]) -> Self {
        let mut by_rule = vec![Vec::new(); n];
        let mut anywhere = Vec::new();
        for clue in clues {
            match clue.rule {
                Some(r) if r < n => by_rule[r].push(clue),
                Some(_) => {}
                None => anywhere.push(clue),
            }
        }
        Problem {
            by_rule,
            anywhere,
            affinity: Vec::new(),
            lengths: Vec::new(),
            forced: vec![None; n],
            forbid: None,
        }
    }

    /// Adds what each rule earns under each earlier one.
    pub(crate) fn with_affinity(mut self, affinity: Vec<Vec<i32>>) -> Self {
        self.affinity = affinity;
        self
    }

    /// Adds the bodies' lengths.
    pub(crate) fn with_lengths(mut self, lengths: Vec<usize>) -> Self {
        self.lengths = lengths;
        self
    }

    /// Adds the hints: rule index → parent.
    pub(crate) fn with_forced(mut self, forced: Vec<Option<Option<usize>>>) -> Self {
        self.forced = forced;
        self
    }

    fn len(&self) -> usize {
        self.by_rule.len()
    }

    /// What rule `i` earns with this parent and number, when the rule
    /// before it has the parent `previous`.
    fn gain(&self, i: usize, parent: Option<usize>, path: &[u32], previous: Option<usize>) -> i32 {
        let mut score = 0;
        if let Some(p) = parent {
            let below = i32::try_from(path.len().saturating_sub(2)).unwrap_or(i32::MAX / DEEP);
            score -= NEST + DEEP * below;
            score += self
                .affinity
                .get(i)
                .and_then(|a| a.get(p))
                .copied()
                .unwrap_or(0);
            let (c_len, p_len) = (self.lengths.get(i), self.lengths.get(p));
            if let (Some(&c_len), Some(&p_len)) = (c_len, p_len) {
                if p_len > 0 && c_len > LONG_RATIO * p_len {
                    score -= LONG_CHILD;
                }
            }
        }
        for clue in self.by_rule[i].iter().chain(&self.anywhere) {
            if satisfied(&clue.claim, parent, path, previous) {
                score += clue.weight;
            }
        }
        score
    }

    fn allowed(&self, i: usize, parent: Option<usize>) -> bool {
        self.forced[i].is_none_or(|f| f == parent) && self.forbid != Some((i, parent))
    }
}

/// Whether a rule with this parent and number satisfies a claim, when
/// the rule before it has the parent `previous`.
pub(crate) fn satisfied(
    claim: &Claim,
    parent: Option<usize>,
    path: &[u32],
    previous: Option<usize>,
) -> bool {
    match claim {
        Claim::ParentIs(p) => parent == Some(*p),
        Claim::NotUnder(p) => parent != Some(*p),
        Claim::Nested => parent.is_some(),
        Claim::SiblingOfPrevious => parent.is_some() && parent == previous,
        Claim::Number(n) => n == path,
    }
}

/// Whether rule `r` of a solution satisfies a claim.
pub(crate) fn holds(claim: &Claim, solution: &Solution, r: usize) -> bool {
    let previous = r.checked_sub(1).and_then(|p| solution.parents[p]);
    satisfied(claim, solution.parents[r], &solution.paths[r], previous)
}

/// Whether some rule of a solution satisfies a claim about no rule in
/// particular.
pub(crate) fn held_anywhere(claim: &Claim, solution: &Solution) -> bool {
    (0..solution.parents.len()).any(|r| holds(claim, solution, r))
}

/// The choices made so far, shared between states.
struct Step {
    parent: Option<usize>,
    path: Vec<u32>,
    before: Option<Rc<Step>>,
}

#[derive(Clone)]
struct State {
    path: Vec<u32>,
    /// The rule at each level of `path`.
    chain: Vec<usize>,
    score: i32,
    steps: Rc<Step>,
}

impl State {
    /// The state after rule `i` at `depth` (1 is top-level), if possible.
    fn then(&self, i: usize, depth: usize) -> (Vec<u32>, Vec<usize>, Option<usize>) {
        let mut path = self.path.clone();
        let mut chain = self.chain.clone();
        if depth > path.len() {
            path.push(1);
        } else {
            path.truncate(depth);
            chain.truncate(depth);
            path[depth - 1] += 1;
            chain.pop();
        }
        let parent = (depth > 1).then(|| chain[depth - 2]);
        chain.push(i);
        (path, chain, parent)
    }
}

/// The best nesting, or the index of a rule whose hint cannot be met.
pub(crate) fn solve(problem: &Problem) -> Result<Solution, usize> {
    let n = problem.len();
    if n == 0 {
        return Ok(Solution {
            parents: Vec::new(),
            paths: Vec::new(),
            score: 0,
        });
    }
    if !problem.allowed(0, None) {
        return Err(0);
    }
    let first = vec![1];
    let mut beam = vec![State {
        score: problem.gain(0, None, &first, None),
        steps: Rc::new(Step {
            parent: None,
            path: first.clone(),
            before: None,
        }),
        path: first,
        chain: vec![0],
    }];
    for i in 1..n {
        beam = step(problem, &beam, i);
        if beam.is_empty() {
            return Err(i);
        }
    }
    Ok(unwind(&beam[0]))
}

/// The best [`BEAM`] states after rule `i`, each merged with the others
/// that agree on its number and ancestors.
fn step(problem: &Problem, beam: &[State], i: usize) -> Vec<State> {
    let mut next: Vec<State> = Vec::new();
    let mut seen: HashMap<(Vec<u32>, Vec<usize>), usize> = HashMap::new();
    for state in beam {
        let previous = state.chain.len().checked_sub(2).map(|k| state.chain[k]);
        for depth in 1..=(state.path.len() + 1).min(MAX_DEPTH) {
            let (path, chain, parent) = state.then(i, depth);
            if !problem.allowed(i, parent) {
                continue;
            }
            let score = state.score + problem.gain(i, parent, &path, previous);
            let key = (path.clone(), chain.clone());
            let known = seen.get(&key).copied();
            if known.is_some_and(|k| next[k].score >= score) {
                continue;
            }
            let candidate = State {
                steps: Rc::new(Step {
                    parent,
                    path: path.clone(),
                    before: Some(Rc::clone(&state.steps)),
                }),
                path,
                chain,
                score,
            };
            match known {
                Some(k) => next[k] = candidate,
                None => {
                    seen.insert(key, next.len());
                    next.push(candidate);
                }
            }
        }
    }
    next.sort_by_key(|s| std::cmp::Reverse(s.score));
    next.truncate(BEAM);
    next
}

fn unwind(state: &State) -> Solution {
    let mut parents = Vec::new();
    let mut paths = Vec::new();
    let mut step = Some(&state.steps);
    while let Some(s) = step {
        parents.push(s.parent);
        paths.push(s.path.clone());
        step = s.before.as_ref();
    }
    parents.reverse();
    paths.reverse();
    Solution {
        parents,
        paths,
        score: state.score,
    }
}

/// For each rule, the best nesting in which it has another parent than
/// in `best`: `None` for the first rule, a rule with a hint (`pinned`),
/// or a rule that can have no other parent. How much less it scores says
/// how sure `best` is of that rule's place (see `section`).
pub(crate) fn runner_ups(
    problem: &mut Problem,
    best: &Solution,
    pinned: &[bool],
) -> Vec<Option<Solution>> {
    let mut found = vec![None; problem.len()];
    for (i, slot) in found.iter_mut().enumerate().skip(1) {
        if problem.forced[i].is_some() || pinned.get(i).copied().unwrap_or(false) {
            continue;
        }
        problem.forbid = Some((i, best.parents[i]));
        *slot = solve(problem).ok();
    }
    problem.forbid = None;
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clue(rule: Option<usize>, claim: Claim, weight: i32) -> Clue {
        Clue {
            rule,
            claim,
            weight,
            line: 0,
            why: String::new(),
        }
    }

    fn numbers(solution: &Solution) -> Vec<String> {
        solution
            .paths
            .iter()
            .map(|p| super::super::xref::show(p))
            .collect()
    }

    #[test]
    fn without_evidence_every_rule_is_top_level() {
        let problem = Problem::new(4, &[]);
        let best = solve(&problem).unwrap();
        assert_eq!(best.parents, [None; 4]);
        assert_eq!(numbers(&best), ["1", "2", "3", "4"]);
    }

    #[test]
    fn a_citation_nests_what_it_must_and_shared_words_choose_where() {
        // Rule 4 is cited as 3.1, so rule 3 is 3: of rules 1 and 2, one
        // must be a subrule, and rule 1 shares words with rule 0.
        let clues = [clue(Some(4), Claim::Number(vec![3, 1]), 30)];
        let mut affinity = vec![vec![0; 5]; 5];
        affinity[1][0] = SHARED_WORDS;
        let problem = Problem::new(5, &clues).with_affinity(affinity);
        let best = solve(&problem).unwrap();
        assert_eq!(numbers(&best), ["1", "1.1", "2", "3", "3.1"]);
        assert_eq!(best.score, 30 - 2 * NEST + SHARED_WORDS);
    }

    #[test]
    fn weak_evidence_loses_to_the_cost_of_nesting_and_strong_wins() {
        let weak = [clue(Some(1), Claim::ParentIs(0), NEST - 1)];
        assert_eq!(
            solve(&Problem::new(2, &weak)).unwrap().parents,
            [None, None]
        );
        let strong = [clue(Some(1), Claim::ParentIs(0), NEST + 1)];
        assert_eq!(
            solve(&Problem::new(2, &strong)).unwrap().parents,
            [None, Some(0)]
        );
    }

    #[test]
    fn hints_are_forced_even_against_evidence() {
        let clues = [clue(Some(1), Claim::ParentIs(0), 80)];
        let problem = Problem::new(3, &clues).with_forced(vec![None, Some(None), Some(Some(1))]);
        let best = solve(&problem).unwrap();
        assert_eq!(best.parents, [None, None, Some(1)]);
        let impossible = Problem::new(2, &[]).with_forced(vec![None, Some(Some(1))]);
        assert_eq!(solve(&impossible), Err(1));
    }

    /// The rules whose runner-up loses by less than [`DOUBT`], with their
    /// number there.
    fn doubted(problem: &mut Problem, best: &Solution) -> Vec<(usize, Vec<u32>)> {
        runner_ups(problem, best, &[])
            .into_iter()
            .enumerate()
            .filter_map(|(i, other)| other.map(|o| (i, o)))
            .filter(|(_, other)| best.score - other.score < DOUBT)
            .map(|(i, other)| (i, other.paths[i].clone()))
            .collect()
    }

    #[test]
    fn close_calls_are_doubts() {
        // Rule 2 is cited as 1.2, so rule 1 is 1.1: nothing is in doubt.
        let sure = [clue(Some(2), Claim::Number(vec![1, 2]), 80)];
        let mut problem = Problem::new(3, &sure);
        let best = solve(&problem).unwrap();
        assert_eq!(best.parents, [None, Some(0), Some(0)]);
        assert!(doubted(&mut problem, &best).is_empty());
        // Rule 1 calls itself a subrule; a weak clue puts rule 2 beside
        // it, hardly better than leaving it top-level: rule 2 is in doubt.
        let weak = [
            clue(Some(1), Claim::Nested, 30),
            clue(Some(2), Claim::Number(vec![1, 2]), NEST + 3),
        ];
        let mut problem = Problem::new(3, &weak);
        let best = solve(&problem).unwrap();
        assert_eq!(best.parents, [None, Some(0), Some(0)]);
        assert_eq!(doubted(&mut problem, &best), [(2, vec![2])]);
    }

    #[test]
    fn a_rule_between_two_subrules_stays_in_their_level_with_its_clue() {
        // Rule 1 is cited as 1.1 and rule 3 calls itself a subrule.
        let mut clues = vec![
            clue(Some(1), Claim::Number(vec![1, 1]), 50),
            clue(Some(3), Claim::Nested, 30),
        ];
        let opened = solve(&Problem::new(4, &clues)).unwrap();
        assert_eq!(opened.parents, [None, Some(0), None, Some(2)]);
        clues.push(clue(Some(2), Claim::SiblingOfPrevious, 15));
        let stayed = solve(&Problem::new(4, &clues)).unwrap();
        assert_eq!(stayed.parents, [None, Some(0), Some(0), Some(0)]);
        assert_eq!(numbers(&stayed), ["1", "1.1", "1.2", "1.3"]);
        assert!(holds(&Claim::SiblingOfPrevious, &stayed, 2));
        assert!(!holds(&Claim::SiblingOfPrevious, &opened, 2));
    }
}
