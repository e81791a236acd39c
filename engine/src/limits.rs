//! Whether a player may open a proposal at a given moment: the pending and
//! per-day limits, and the hiatus and seasonal downtime that stop proposals
//! being submitted. Used by the tally (a post over a limit is not a
//! proposal, §4 A-19) and by the forge loop before it labels a new PR.

use chrono::Datelike;

use super::params::{MonthDay, Params};
use crate::time::Timestamp;

/// What a player already has when they open a new proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ProposerRecord {
    /// Their proposals still pending at that moment.
    pub pending: u32,
    /// The proposals they opened earlier on the same UTC day.
    pub opened_today: u32,
}

/// Why a proposal may not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A DoV is pending, or an Ascension Address is awaited.
    #[error("the game is in hiatus")]
    Hiatus,
    /// It is the seasonal downtime.
    #[error("it is the seasonal downtime")]
    Downtime,
    /// Too many pending proposals.
    #[error("the author already has {0} pending proposals (the most allowed)")]
    TooManyPending(u32),
    /// Too many proposals today.
    #[error("the author already opened {0} proposals this UTC day (the most allowed)")]
    TooManyToday(u32),
}

/// Whether a proposal may be opened at `at`, given the author's record and
/// whether the game is in a DoV hiatus or awaiting an Ascension Address.
pub fn may_propose(
    params: &Params,
    at: Timestamp,
    in_hiatus: bool,
    record: ProposerRecord,
) -> Result<(), Refusal> {
    if in_hiatus {
        Err(Refusal::Hiatus)
    } else if in_downtime(params, at) {
        Err(Refusal::Downtime)
    } else if record.pending >= params.max_pending {
        Err(Refusal::TooManyPending(record.pending))
    } else if record.opened_today >= params.max_per_day {
        Err(Refusal::TooManyToday(record.opened_today))
    } else {
        Ok(())
    }
}

/// Whether two moments fall on the same UTC calendar day.
pub fn same_utc_day(a: Timestamp, b: Timestamp) -> bool {
    a.to_datetime().date_naive() == b.to_datetime().date_naive()
}

fn month_day(t: Timestamp) -> MonthDay {
    let d = t.to_datetime();
    MonthDay {
        month: d.month(),
        day: d.day(),
    }
}

/// Whether `t` falls in the seasonal downtime: from `downtime_start` 00:00
/// UTC up to (not including) `downtime_end` 00:00 UTC, every year. A start
/// after the end wraps over the new year.
pub fn in_downtime(params: &Params, t: Timestamp) -> bool {
    if !params.seasonal_downtime {
        return false;
    }
    let (start, end, day) = (params.downtime_start, params.downtime_end, month_day(t));
    if start <= end {
        start <= day && day < end
    } else {
        day >= start || day < end
    }
}

/// The downtime's start and end instants in the years from that of `from`
/// to the one after `until`'s.
pub fn downtime_edges(params: &Params, from: Timestamp, until: Timestamp) -> Vec<Timestamp> {
    if !params.seasonal_downtime {
        return Vec::new();
    }
    (from.to_datetime().year()..=until.to_datetime().year() + 1)
        .flat_map(|y| [params.downtime_start, params.downtime_end].map(|md| (y, md)))
        .filter_map(|(y, md)| chrono::NaiveDate::from_ymd_opt(y, md.month, md.day))
        .filter_map(|d| d.and_hms_opt(0, 0, 0))
        .map(|d| Timestamp::from_datetime(d.and_utc()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Timestamp {
        Timestamp::parse(s).unwrap()
    }

    fn p113() -> Params {
        Params::preset("blognomic-113").unwrap()
    }

    #[test]
    fn limits_of_pending_and_per_day() {
        let p = p113();
        let at = t("2030-03-01T10:00:00Z");
        let rec = |pending, opened_today| ProposerRecord {
            pending,
            opened_today,
        };
        assert_eq!(may_propose(&p, at, false, rec(1, 2)), Ok(()));
        assert_eq!(
            may_propose(&p, at, false, rec(2, 0)),
            Err(Refusal::TooManyPending(2))
        );
        assert_eq!(
            may_propose(&p, at, false, rec(0, 3)),
            Err(Refusal::TooManyToday(3))
        );
        assert_eq!(may_propose(&p, at, true, rec(0, 0)), Err(Refusal::Hiatus));
    }

    #[test]
    fn downtime_is_dec_24_to_27_exclusive_and_only_in_113() {
        let p = p113();
        assert!(!in_downtime(&p, t("2030-12-23T23:59:59Z")));
        assert!(in_downtime(&p, t("2030-12-24T00:00:00Z")));
        assert!(in_downtime(&p, t("2030-12-26T23:59:59Z")));
        assert!(!in_downtime(&p, t("2030-12-27T00:00:00Z")));
        assert_eq!(
            may_propose(
                &p,
                t("2030-12-25T12:00:00Z"),
                false,
                ProposerRecord::default()
            ),
            Err(Refusal::Downtime)
        );
        let old = Params::preset("blognomic-75").unwrap();
        assert!(!in_downtime(&old, t("2030-12-25T12:00:00Z")));
        let (at, later) = (t("2030-12-25T12:00:00Z"), t("2032-01-01T00:00:00Z"));
        assert!(downtime_edges(&old, at, later).is_empty());
    }

    #[test]
    fn downtime_may_wrap_over_new_year() {
        let mut p = p113();
        p.downtime_start = MonthDay { month: 12, day: 30 };
        p.downtime_end = MonthDay { month: 1, day: 2 };
        assert!(in_downtime(&p, t("2030-12-31T00:00:00Z")));
        assert!(in_downtime(&p, t("2031-01-01T12:00:00Z")));
        assert!(!in_downtime(&p, t("2031-01-02T00:00:00Z")));
    }

    #[test]
    fn utc_days() {
        assert!(same_utc_day(
            t("2030-03-01T00:00:00Z"),
            t("2030-03-01T23:59:59Z")
        ));
        assert!(!same_utc_day(
            t("2030-03-01T23:59:59Z"),
            t("2030-03-02T00:00:00Z")
        ));
    }

    #[test]
    fn edges_from_a_year_to_the_one_after_another() {
        let june = t("2030-06-01T00:00:00Z");
        let e = downtime_edges(&p113(), june, june);
        assert_eq!(e[0], t("2030-12-24T00:00:00Z"));
        assert_eq!(e[1], t("2030-12-27T00:00:00Z"));
        assert_eq!(e.len(), 4);
        let e = downtime_edges(&p113(), june, t("2032-02-01T00:00:00Z"));
        assert_eq!(e.len(), 8);
        assert_eq!(e[7], t("2033-12-27T00:00:00Z"));
    }
}
