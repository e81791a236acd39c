//! How long a game's resolve runs take on the forge's runners, from the
//! event that woke a run to the moment its status comments were written:
//! what a player waits between a vote and the tally under it. Pure: the
//! command `timings` reads the runs (GitHub's Actions API keeps the times
//! of every run, job and step) and prints what is reckoned here.
//!
//! A run woken by a conversation comment is created when the comment is
//! made, so "comment to status" is the span from the run's creation to the
//! end of its resolve step (the step that writes the status comments).
//! A review wakes the resolver through a second workflow, so that span
//! starts when the second workflow finished, not at the review.

use std::fmt;

use crate::time::{Span, Timestamp};

/// The name of the resolve workflow's step that tallies and writes the
/// status comments (as `.github/workflows/resolve.yml` names it).
pub(crate) const RESOLVE_STEP: &str = "Resolve";

/// The word of a step name that marks the step compiling gitnomic (run
/// only when the cached binary is missing).
const BUILD_STEP_WORD: &str = "Build gitnomic";

/// What woke a run, as the forge names its event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Woken {
    /// A conversation comment made, edited or deleted.
    Comment,
    /// A review, through the workflow that only wakes the resolver.
    Review,
    Schedule,
    /// Anything else (a run started by hand, …).
    Other(String),
}

impl Woken {
    /// The kind of a run from the forge's event name.
    pub fn of_event(event: &str) -> Self {
        match event {
            "issue_comment" => Woken::Comment,
            "workflow_run" => Woken::Review,
            "schedule" => Woken::Schedule,
            other => Woken::Other(other.to_string()),
        }
    }
}

impl fmt::Display for Woken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Woken::Comment => f.write_str("comment"),
            Woken::Review => f.write_str("review"),
            Woken::Schedule => f.write_str("schedule"),
            Woken::Other(event) => f.write_str(event),
        }
    }
}

/// One step of a run's job, as the forge reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The step's name in the workflow.
    pub name: String,
    /// `success`, `failure`, `skipped`, … (`None` while it runs).
    pub conclusion: Option<String>,
    /// When it ended.
    pub completed: Option<Timestamp>,
}

/// One completed run of the resolve workflow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunTimes {
    /// The forge's run number, for finding it in its web pages.
    pub number: u64,
    /// The event that woke it.
    pub woken: Woken,
    /// When the run was created (when its event happened).
    pub created: Timestamp,
    /// When a runner took the resolve job.
    pub runner: Option<Timestamp>,
    /// When the run ended, every job included (the site too).
    pub ended: Timestamp,
    /// The resolve job's steps.
    pub steps: Vec<Step>,
    /// The minutes GitHub bills a private repository for the run: each
    /// job that ran, rounded up to a whole minute (a skipped job is free).
    pub billed: u32,
}

/// The minutes GitHub bills for one job that ran `span`: rounded up, and a
/// minute at least.
pub(crate) fn billed_minutes(span: Span) -> u32 {
    let seconds = span.as_seconds().max(1);
    u32::try_from((seconds + 59) / 60).unwrap_or(u32::MAX)
}

impl RunTimes {
    /// From the run's creation to a runner taking the job.
    pub fn wait(&self) -> Option<Span> {
        self.runner.map(|r| r.since(self.created))
    }

    /// From the run's creation to its status comments written (the end of
    /// a resolve step that succeeded).
    pub fn to_status(&self) -> Option<Span> {
        self.steps
            .iter()
            .find(|s| s.name == RESOLVE_STEP && s.conclusion.as_deref() == Some("success"))
            .and_then(|s| s.completed)
            .map(|done| done.since(self.created))
    }

    pub fn whole(&self) -> Span {
        self.ended.since(self.created)
    }

    /// Whether this run compiled gitnomic (its cached binary was missing).
    pub fn built(&self) -> bool {
        self.steps.iter().any(|s| {
            s.name.starts_with(BUILD_STEP_WORD) && s.conclusion.as_deref() == Some("success")
        })
    }
}

/// The smallest, middle and largest of some spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Spread {
    /// How many spans.
    pub count: usize,
    /// The smallest.
    pub fastest: Span,
    /// The median (the lower middle of an even count).
    pub median: Span,
    /// The largest.
    pub slowest: Span,
}

impl Spread {
    /// The spread of `spans`, `None` when there are none.
    pub(crate) fn of(mut spans: Vec<Span>) -> Option<Self> {
        spans.sort_unstable();
        Some(Spread {
            count: spans.len(),
            fastest: *spans.first()?,
            median: spans[(spans.len() - 1) / 2],
            slowest: *spans.last()?,
        })
    }
}

/// What the runs say of a game's waits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Comment to status, over the runs woken by a comment that reused
    /// the cached binary (the usual case).
    pub comment_to_status: Option<Spread>,
    /// The same, over the runs woken by a comment that compiled gitnomic.
    pub comment_to_status_built: Option<Spread>,
    /// Waiting for a runner, over every run.
    pub wait: Option<Spread>,
    /// Whole runs, over every run.
    pub whole: Option<Spread>,
    /// Billed minutes: the median of the scheduled runs and of the runs
    /// woken by a comment, and the whole day's worth over the runs read.
    pub minutes: Minutes,
}

/// What the runs read were billed (a private repository's minutes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Minutes {
    /// The median of the scheduled runs (an idle run when nothing was due).
    pub schedule: Option<u32>,
    /// The median of the runs a comment woke (a vote, usually).
    pub comment: Option<u32>,
    /// Every run's minutes summed, and the span from the first run read to
    /// the last.
    pub total: u32,
    pub over: Span,
}

impl Minutes {
    /// The minutes a day the runs read come to, when they span a day or
    /// more (fewer say too little of a day's schedule).
    pub(crate) fn a_day(&self) -> Option<u32> {
        let seconds = self.over.as_seconds();
        (seconds >= 86_400)
            .then(|| u32::try_from(i64::from(self.total) * 86_400 / seconds).unwrap_or(u32::MAX))
    }
}

/// The median of some minutes, `None` when there are none.
fn median(mut minutes: Vec<u32>) -> Option<u32> {
    minutes.sort_unstable();
    minutes.get(minutes.len().checked_sub(1)? / 2).copied()
}

/// Sums up `runs`.
pub(crate) fn summary(runs: &[RunTimes]) -> Summary {
    let comment_to_status = |built: bool| {
        Spread::of(
            runs.iter()
                .filter(|r| r.woken == Woken::Comment && r.built() == built)
                .filter_map(RunTimes::to_status)
                .collect(),
        )
    };
    let billed = |woken: Woken| {
        median(
            runs.iter()
                .filter(|r| r.woken == woken)
                .map(|r| r.billed)
                .collect(),
        )
    };
    let first = runs.iter().map(|r| r.created).min();
    let last = runs.iter().map(|r| r.created).max();
    Summary {
        comment_to_status: comment_to_status(false),
        comment_to_status_built: comment_to_status(true),
        wait: Spread::of(runs.iter().filter_map(RunTimes::wait).collect()),
        whole: Spread::of(runs.iter().map(RunTimes::whole).collect()),
        minutes: Minutes {
            schedule: billed(Woken::Schedule),
            comment: billed(Woken::Comment),
            total: runs.iter().map(|r| r.billed).sum(),
            over: last
                .zip(first)
                .map_or(Span::seconds(0), |(l, f)| l.since(f)),
        },
    }
}

/// A span as people read waits: "48 s", "3 min 05 s", "1 h 02 min".
pub(crate) fn span_text(span: Span) -> String {
    let s = span.as_seconds();
    if s < 0 {
        return format!("-{}", span_text(Span::seconds(-s)));
    }
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

/// A spread in words: "median 31 s (fastest 22 s, slowest 48 s; 9 runs)".
pub(crate) fn spread_text(spread: &Spread) -> String {
    format!(
        "median {} (fastest {}, slowest {}; {} run{})",
        span_text(spread.median),
        span_text(spread.fastest),
        span_text(spread.slowest),
        spread.count,
        if spread.count == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> Timestamp {
        Timestamp::from_unix(1_900_000_000 + s)
    }

    fn step(name: &str, conclusion: &str, done: i64) -> Step {
        Step {
            name: name.into(),
            conclusion: Some(conclusion.into()),
            completed: Some(at(done)),
        }
    }

    fn run(event: &str, built: bool, status_at: i64) -> RunTimes {
        RunTimes {
            number: 1,
            woken: Woken::of_event(event),
            created: at(0),
            runner: Some(at(5)),
            ended: at(status_at + 60),
            steps: vec![
                step(
                    "Build gitnomic from the default branch",
                    if built { "success" } else { "skipped" },
                    6,
                ),
                step(RESOLVE_STEP, "success", status_at),
            ],
            billed: if built { 6 } else { 1 },
        }
    }

    #[test]
    fn each_job_is_billed_whole_minutes_and_the_day_is_reckoned_from_the_runs() {
        assert_eq!(billed_minutes(Span::seconds(0)), 1);
        assert_eq!(billed_minutes(Span::seconds(59)), 1);
        assert_eq!(billed_minutes(Span::seconds(60)), 1);
        assert_eq!(billed_minutes(Span::seconds(61)), 2);
        let mut runs: Vec<RunTimes> = (0..=48)
            .map(|i| {
                let mut r = run("schedule", false, 20);
                r.created = at(i * 1800);
                r
            })
            .collect();
        let mut vote = run("issue_comment", false, 20);
        vote.billed = 2;
        runs.push(vote);
        let m = summary(&runs).minutes;
        assert_eq!((m.schedule, m.comment, m.total), (Some(1), Some(2), 51));
        // A run every half hour for a day, and one vote.
        assert_eq!(m.a_day(), Some(51));
        assert_eq!(
            summary(&runs[..3]).minutes.a_day(),
            None,
            "an hour says little of a day"
        );
    }

    #[test]
    fn comment_to_status_ends_at_the_resolve_step_and_keeps_builds_apart() {
        let runs = [
            run("issue_comment", false, 30),
            run("issue_comment", false, 20),
            run("issue_comment", false, 50),
            run("issue_comment", true, 250),
            run("schedule", false, 10),
        ];
        let s = summary(&runs);
        let usual = s.comment_to_status.expect("three usual runs");
        assert_eq!(usual.count, 3);
        assert_eq!(usual.median, Span::seconds(30));
        assert_eq!(
            (usual.fastest, usual.slowest),
            (Span::seconds(20), Span::seconds(50))
        );
        let built = s.comment_to_status_built.expect("one run built");
        assert_eq!((built.count, built.median), (1, Span::seconds(250)));
        assert_eq!(s.wait.map(|w| w.count), Some(5));
        assert_eq!(s.whole.map(|w| w.slowest), Some(Span::seconds(310)));
    }

    #[test]
    fn a_resolve_step_that_failed_gives_no_status_time() {
        let mut failed = run("issue_comment", false, 30);
        failed.steps[1].conclusion = Some("failure".into());
        assert_eq!(failed.to_status(), None);
        assert_eq!(summary(&[failed]).comment_to_status, None);
    }

    #[test]
    fn spans_read_as_people_say_them() {
        assert_eq!(span_text(Span::seconds(48)), "48 s");
        assert_eq!(span_text(Span::seconds(185)), "3 min 05 s");
        assert_eq!(span_text(Span::seconds(3720)), "1 h 02 min");
        let spread = Spread::of(vec![Span::seconds(9), Span::seconds(3), Span::seconds(4)]);
        assert_eq!(
            spread.map(|s| spread_text(&s)).as_deref(),
            Some("median 4 s (fastest 3 s, slowest 9 s; 3 runs)")
        );
        assert_eq!(Spread::of(Vec::new()), None);
    }
}
