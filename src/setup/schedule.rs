//! What a workflow's schedule costs: how many times a day its `cron:`
//! lines start it. A private repository's job is billed a minute at least,
//! and an idle run of the resolve workflow is one job, so the schedule
//! alone bills that many minutes a day (docs/costs.md). Pure.

use std::collections::BTreeSet;

/// The Free plan's minutes a month for a private repository.
pub(crate) const FREE_MINUTES_A_MONTH: u32 = 2_000;

/// The days a month is counted as.
const DAYS_A_MONTH: u32 = 30;

/// The `cron:` expressions of a workflow file, in order.
pub(crate) fn crons(workflow: &str) -> Vec<String> {
    workflow
        .lines()
        .filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix("cron:"))
        .map(|v| v.trim().trim_matches(['"', '\'']).to_string())
        .collect()
}

/// How many times a day `cron` starts a run (at most: a day-of-month or
/// weekday field is read as every day); `None` when it does not read as
/// five fields of numbers, ranges, lists and steps.
pub(crate) fn runs_per_day(cron: &str) -> Option<u32> {
    let fields: Vec<&str> = cron.split_whitespace().collect();
    let [minute, hour, _, _, _] = fields.as_slice() else {
        return None;
    };
    let minutes = values(minute, 59)?;
    let hours = values(hour, 23)?;
    u32::try_from(minutes.len() * hours.len()).ok()
}

/// The values one field names, each within `0..=max`.
fn values(field: &str, max: u32) -> Option<BTreeSet<u32>> {
    let mut out = BTreeSet::new();
    for item in field.split(',') {
        let (range, step) = match item.split_once('/') {
            Some((range, step)) => (range, step.parse::<u32>().ok().filter(|s| *s > 0)?),
            None => (item, 1),
        };
        let (from, to) = match range {
            "*" => (0, max),
            _ => match range.split_once('-') {
                Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
                // `5/15` runs from 5 to the end of the field.
                None if item.contains('/') => (range.parse().ok()?, max),
                None => {
                    let v = range.parse().ok()?;
                    (v, v)
                }
            },
        };
        if from > to || to > max {
            return None;
        }
        out.extend((from..=to).step_by(usize::try_from(step).ok()?));
    }
    Some(out)
}

/// The minutes a month the schedules of `workflow` bill at least, with the
/// runs a day: one job a run, a minute a job.
pub(crate) fn idle_minutes_a_month(workflow: &str) -> Option<(u32, u32)> {
    let mut runs = 0;
    for cron in crons(workflow) {
        runs += runs_per_day(&cron)?;
    }
    Some((runs, runs * DAYS_A_MONTH))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_a_day_of_the_usual_schedules() {
        for (cron, runs) in [
            ("17 * * * *", 24),
            ("17,47 * * * *", 48),
            ("*/15 * * * *", 96),
            ("5/20 * * * *", 3 * 24),
            ("0 */2 * * *", 12),
            ("0 9-17 * * 1-5", 9),
            ("0,30 8,20 * * *", 4),
        ] {
            assert_eq!(runs_per_day(cron), Some(runs), "{cron}");
        }
        for bad in [
            "",
            "* * * *",
            "61 * * * *",
            "*/0 * * * *",
            "5-1 * * * *",
            "@hourly",
        ] {
            assert_eq!(runs_per_day(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_bundled_resolve_workflow_bills_an_idle_month_within_the_free_plan() {
        let text = include_str!("../../.github/workflows/resolve.yml");
        assert_eq!(crons(text), ["17 * * * *"]);
        let (runs, minutes) = idle_minutes_a_month(text).unwrap();
        assert_eq!((runs, minutes), (24, 720));
        assert!(minutes < FREE_MINUTES_A_MONTH);
        let twice = "    - cron: \"17 * * * *\"\n    - cron: '47 * * * *'\n";
        assert_eq!(idle_minutes_a_month(twice), Some((48, 1440)));
    }
}
