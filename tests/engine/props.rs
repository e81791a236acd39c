//! Invariants of the engine, checked on random games (proptest).
//!
//! Each property is something the rules guarantee whatever the votes:
//! enact and fail never both hold; a non-player's comment never changes a
//! decision; a FOR added by an active player who is not the author never
//! turns an enactment into a failure; comments from the future do not
//! exist; every matter gets exactly one decision. And the engine decides
//! and looks ahead exactly as the slow reference engine in
//! [`reference`] does, on every preset, on amended conditions and on
//! conditions that compare the age with any duration.

use chrono::Datelike;
use gitnomic::engine::decide::{Decision, Quantities};
use gitnomic::engine::expr::Expr;
use gitnomic::engine::params::{Condition, MonthDay, PRESETS};
use gitnomic::engine::tally::Tally;
use gitnomic::engine::{
    Comment, Crowned, IdleSpell, Matter, MatterKind, MatterNumber, Params, Phase, Player,
    PlayerName, Snapshot, look_ahead,
};
use gitnomic::time::{Span, Timestamp};
use proptest::prelude::*;

use crate::reference;

const BODIES: [&str; 12] = [
    "FOR",
    "AGAINST",
    "DEF",
    "VETO",
    "IMP",
    "> FOR",
    "nothing to say",
    "FOR the idea, but AGAINST this",
    "`AGAINST`",
    "✅",
    "DEFERENTIAL",
    "AGAINST then FOR",
];

fn base() -> Timestamp {
    Timestamp::parse("2030-03-01T00:00:00Z").unwrap()
}

fn name(i: usize) -> PlayerName {
    PlayerName(format!("P{i}"))
}

/// A game being played under the rules `table` gives, by `players` active
/// players (`name(0)` on), with `matters` open and no emperor.
fn playing(table: &toml::Table, players: usize, matters: Vec<Matter>) -> Snapshot {
    Snapshot {
        params: Params::from_table(table).unwrap(),
        players: (0..players)
            .map(|i| Player {
                name: name(i),
                idle: vec![],
            })
            .collect(),
        emperor: None,
        phase: Phase::Playing,
        crowned: None,
        matters,
    }
}

prop_compose! {
    fn player(i: usize)(idle in 0..4u8, from in 0..200i64, len in 1..100i64) -> Player {
        let at = |h| Some(base().plus(Span::hours(h)));
        let idle = match idle {
            0 => vec![IdleSpell { from: None, until: None }],
            1 => vec![IdleSpell { from: at(from), until: at(from + len) }],
            _ => vec![],
        };
        Player { name: name(i), idle }
    }
}

prop_compose! {
    fn comment(players: usize)(who in 0..=players, minutes in 0..9000i64, body in 0..BODIES.len(), order in 0..1000u64)
        -> (usize, i64, usize, u64) {
        (who, minutes, body, order)
    }
}

prop_compose! {
    fn matter(players: usize, id: u64)(
        kind in 0..3u8,
        author in 0..players,
        opened in 0..120i64,
        comments in prop::collection::vec(comment(players), 0..9),
    ) -> Matter {
        let opened = base().plus(Span::hours(opened));
        let kind = [MatterKind::Proposal, MatterKind::Cfj, MatterKind::Dov][usize::from(kind)];
        let comments = comments
            .into_iter()
            .map(|(who, minutes, body, order)| Comment {
                order,
                // `who == players` is someone not on the roster.
                by: if who == players { PlayerName("Zed".into()) } else { name(who) },
                at: opened.plus(Span::seconds(minutes * 60)),
                body: BODIES[body].to_owned(),
            })
            .collect();
        Matter { id: MatterNumber(id), kind, author: name(author), opened, comments }
    }
}

fn game() -> impl Strategy<Value = (Snapshot, Timestamp)> {
    (2usize..8).prop_flat_map(|n| {
        let players: Vec<_> = (0..n).map(player).collect();
        let matters: Vec<_> = (1..=4u64).map(|id| matter(n, id)).collect();
        (
            players,
            prop::collection::vec(any::<bool>(), 4),
            matters,
            0..=n,
            0..PRESETS.len(),
            any::<bool>(),
            0..260i64,
        )
            .prop_map(|(players, keep, matters, emperor, preset, awaiting, now)| {
                let matters = matters
                    .into_iter()
                    .zip(keep)
                    .filter(|(m, k)| *k || m.id == MatterNumber(1))
                    .map(|(m, _)| m)
                    .collect();
                let snapshot = Snapshot {
                    params: Params::preset(PRESETS[preset]).unwrap(),
                    players,
                    emperor: (emperor < 8).then(|| name(emperor)),
                    phase: if awaiting {
                        Phase::AwaitingAscension
                    } else {
                        Phase::Playing
                    },
                    crowned: None,
                    matters,
                };
                (snapshot, base().plus(Span::hours(now)))
            })
    })
}

/// Where failures found are saved and replayed first: the crate's one
/// folder of regressions.
fn saved_cases() -> Option<Box<dyn proptest::test_runner::FailurePersistence>> {
    Some(Box::new(
        proptest::test_runner::FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/tests/engine.txt"
        )),
    ))
}

fn decisions(s: &Snapshot, now: Timestamp) -> Vec<(MatterNumber, Decision)> {
    let mut d: Vec<_> = look_ahead(s, now)
        .decisions
        .iter()
        .map(|d| (d.number, d.decision))
        .collect();
    d.sort_unstable();
    d
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: saved_cases(),
        ..ProptestConfig::with_cases(200)
    })]

    #[test]
    fn every_matter_gets_exactly_one_decision((s, now) in game()) {
        let run = look_ahead(&s, now);
        let mut ids: Vec<MatterNumber> = run.decisions.iter().map(|d| d.number).collect();
        ids.sort_unstable();
        let mut want: Vec<MatterNumber> = s.matters.iter().map(|m| m.id).collect();
        want.sort_unstable();
        prop_assert_eq!(ids, want);
        for d in &run.decisions {
            prop_assert!(!d.reasons.is_empty(), "#{} has no reason", d.number);
            // Reasons are for players: words and numbers, not the
            // conditions' symbols or the names they are written with.
            for r in &d.reasons {
                prop_assert!(!r.contains(['≥', '≤', '<', '>', '=', '≠', '_']), "#{}: {}", d.number, r);
            }
            prop_assert!(d.tally.for_votes + d.tally.against_votes <= run.turnout.active);
        }
    }

    #[test]
    fn a_non_player_never_changes_a_decision((s, now) in game(), m in 0..4usize, body in 0..BODIES.len(), minutes in 0..9000i64) {
        let before = decisions(&s, now);
        let mut t = s.clone();
        let index = m % t.matters.len();
        let opened = t.matters[index].opened;
        t.matters[index].comments.push(Comment {
            order: 5000,
            by: PlayerName("Outsider".into()),
            at: opened.plus(Span::seconds(minutes * 60)),
            body: BODIES[body].to_owned(),
        });
        prop_assert_eq!(before, decisions(&t, now));
    }

    #[test]
    fn comments_after_now_do_not_exist((s, now) in game(), m in 0..4usize, who in 0..8usize, body in 0..BODIES.len()) {
        let before = decisions(&s, now);
        let mut t = s.clone();
        let index = m % t.matters.len();
        t.matters[index].comments.push(Comment {
            order: 5000,
            by: name(who),
            at: now.plus(Span::seconds(1)),
            body: BODIES[body].to_owned(),
        });
        prop_assert_eq!(before, decisions(&t, now));
    }

    #[test]
    fn a_for_by_an_active_non_author_never_turns_enact_into_fail((s, now) in game(), m in 0..4usize, who in 0..8usize) {
        let index = m % s.matters.len();
        let matter = &s.matters[index];
        let voter = name(who);
        prop_assume!(voter != matter.author && s.active_at(&voter, now) && matter.opened <= now);
        let before = look_ahead(&s, now).get(matter.id).map(|d| d.decision);
        let mut t = s.clone();
        t.matters[index].comments.push(Comment { order: 5000, by: voter, at: now, body: "FOR".into() });
        let after = look_ahead(&t, now).get(matter.id).map(|d| d.decision);
        if before == Some(Decision::Enact) {
            prop_assert_ne!(after, Some(Decision::Fail));
        }
    }

    #[test]
    fn enact_and_fail_never_both_hold(
        preset in 0..PRESETS.len(),
        kind in 0..3usize,
        silent in 0i64..20,
        split in (0i64..20, 0i64..20, 0i64..20),
        age in 0i64..400_000,
        flags in prop::array::uniform5(any::<bool>()),
    ) {
        let params = Params::preset(PRESETS[preset]).unwrap();
        let (f, a, other) = split;
        // Votes come from active players: FOR + AGAINST + others ≤ active.
        let active = (f + a + other + silent).max(1);
        let tally = Tally {
            for_votes: f,
            against_votes: a,
            votes_cast: f + a + other,
            vetoed: flags[0],
            self_killed: flags[1],
            wizard_for: flags[2],
            wizard_voted: flags[2] || flags[3],
            ..Tally::default()
        };
        let mut q = Quantities {
            tally: &tally,
            params: &params,
            active,
            quorum: active / 2 + 1,
            age: Span::seconds(age),
            opened: None,
            hiatus: flags[4],
            enactable: None,
        };
        let (enact, fail) = match kind {
            0 => (&params.proposal_enact, &params.proposal_fail),
            1 => (&params.cfj_enact, &params.cfj_fail),
            _ => (&params.dov_enact, &params.dov_fail),
        };
        let e = enact.expr.eval_bool(&q).unwrap();
        q.enactable = Some(e);
        let x = fail.expr.eval_bool(&q).unwrap();
        prop_assert!(!(e && x), "both hold: F={f} A={a} N={active} age={age}s flags={flags:?}");
    }
}

/// Parameter amendments the equivalence check tries on top of a preset:
/// time limits that collide, tight proposal limits, the rarer policy
/// choices, and conditions that are not monotone in time or cannot always
/// be computed, so the look-ahead may not assume anything about them.
const AMENDMENTS: [&str; 8] = [
    "",
    "stale_after_hours = 30\nmax_pending = 1\nmax_per_day = 2",
    "def_is_valid_icon = false\nveto_sticky = false\nimplicit_vote_counts_as_voted = false",
    "revive_votes_on_unidle = false\ncount_comments_made_while_idle = true\n\
     hiatus_permits_proposal_voting = false",
    "proposal_enact = \"not blocked and (for_votes >= quorum and age >= enact_quorum_hours \
     or age > 20 and age < 30 and for_votes > against_votes)\"\n\
     proposal_fail = \"blocked or age * 2 / 3 >= resolve_majority_hours and not enactable\"",
    "cfj_enact = \"age - enact_quorum_hours > cfj_resolve_after_hours / 2 and for_votes > against_votes \
     or for_votes * 9223372036854775807 > quorum\"\n\
     dov_enact = \"age >= dov_fast_hours and for_votes >= quorum or age == 30\"\n\
     dov_fail = \"age > 40 and age <= 60 and not enactable\"",
    "enact_quorum_hours = 0\nresolve_majority_hours = 12\ndov_fast_hours = 12\n\
     dov_middle_hours = 12\ncfj_resolve_after_hours = 0",
    "quorum = \"active / 3\"\nseasonal_downtime = false",
];

prop_compose! {
    fn rich_player(i: usize)(kind in 0..5u8, from in 0..300i64, len in 1..150i64, gap in 1..60i64)
        -> Player {
        let at = |h| Some(base().plus(Span::hours(h)));
        let idle = match kind {
            0 => vec![IdleSpell { from: None, until: None }],
            1 => vec![IdleSpell { from: at(from), until: at(from + len) }],
            2 => vec![IdleSpell { from: at(from), until: None }],
            3 => vec![
                IdleSpell { from: None, until: at(from) },
                IdleSpell { from: at(from + gap), until: at(from + gap + len) },
            ],
            _ => vec![],
        };
        Player { name: name(i), idle }
    }
}

prop_compose! {
    fn rich_matter(players: usize, id: u64)(
        kind in 0..3u8,
        author in 0..players,
        opened in 0..200i64,
        comments in prop::collection::vec(comment(players), 0..9),
    ) -> Matter {
        let mut m = matter_of(players, id, kind, author, opened, comments);
        // Minutes as well as hours: time limits of different matters interleave.
        m.opened = m.opened.plus(Span::seconds((id as i64 % 3) * 60));
        m
    }
}

fn matter_of(
    players: usize,
    id: u64,
    kind: u8,
    author: usize,
    opened: i64,
    comments: Vec<(usize, i64, usize, u64)>,
) -> Matter {
    let opened = base().plus(Span::hours(opened));
    let kind = [MatterKind::Proposal, MatterKind::Cfj, MatterKind::Dov][usize::from(kind)];
    let comments = comments
        .into_iter()
        .map(|(who, minutes, body, order)| Comment {
            order,
            by: if who == players {
                PlayerName("Zed".into())
            } else {
                name(who)
            },
            at: opened.plus(Span::seconds(minutes * 60)),
            body: BODIES[body].to_owned(),
        })
        .collect();
    Matter {
        id: MatterNumber(id),
        kind,
        author: name(author),
        opened,
        comments,
    }
}

/// A game for the equivalence check: up to nine players with idle spells
/// starting and ending around *now*, up to seven matters some of them
/// opened after *now*, any preset with one of [`AMENDMENTS`], and a start
/// either in March or just before the seasonal downtime.
fn rich_game() -> impl Strategy<Value = (Snapshot, Timestamp)> {
    (2usize..10).prop_flat_map(|n| {
        let players: Vec<_> = (0..n).map(rich_player).collect();
        let matters: Vec<_> = (1..=7u64).map(|id| rich_matter(n, id)).collect();
        (
            players,
            prop::collection::vec(any::<bool>(), 7),
            matters,
            (0..=n + 2, 0..PRESETS.len(), 0..AMENDMENTS.len()),
            (
                any::<bool>(),
                any::<bool>(),
                proptest::option::of(0..120i64),
            ),
            0..320i64,
        )
            .prop_map(
                move |(
                    players,
                    keep,
                    matters,
                    (emperor, preset, amend),
                    (awaiting, december, crowned),
                    now,
                )| {
                    let matters = matters
                        .into_iter()
                        .zip(keep)
                        .filter(|(m, k)| *k || m.id == MatterNumber(1))
                        .map(|(m, _)| m)
                        .collect();
                    let table: toml::Table =
                        format!("preset = \"{}\"\n{}", PRESETS[preset], AMENDMENTS[amend])
                            .parse()
                            .unwrap();
                    let mut snapshot = Snapshot {
                        params: Params::from_table(&table).unwrap(),
                        players,
                        emperor: (emperor < n).then(|| name(emperor)),
                        phase: if awaiting {
                            Phase::AwaitingAscension
                        } else {
                            Phase::Playing
                        },
                        // The DoV whose Address is awaited, enacted at a
                        // moment among the matters: DoVs opened before it
                        // fail by it, those opened after are no DoVs.
                        crowned: crowned.map(|hour| Crowned {
                            dov: MatterNumber(99),
                            at: base().plus(Span::hours(hour)),
                        }),
                        matters,
                    };
                    // December: the same game shifted to start on Dec 20, so the
                    // downtime (Dec 24-27 in Ruleset 113) falls inside it.
                    let shift = if december {
                        Span::days(294)
                    } else {
                        Span::seconds(0)
                    };
                    shift_game(&mut snapshot, shift);
                    (snapshot, base().plus(shift).plus(Span::hours(now)))
                },
            )
    })
}

fn shift_game(s: &mut Snapshot, by: Span) {
    if let Some(c) = &mut s.crowned {
        c.at = c.at.plus(by);
    }
    for p in &mut s.players {
        for spell in &mut p.idle {
            spell.from = spell.from.map(|t| t.plus(by));
            spell.until = spell.until.map(|t| t.plus(by));
        }
    }
    for m in &mut s.matters {
        m.opened = m.opened.plus(by);
        for c in &mut m.comments {
            c.at = c.at.plus(by);
        }
    }
}

/// A [`rich_game`] crowded onto a 12-hour grid, every other matter a DoV:
/// many matters reach their time limits at the same moment, so the ties
/// of the queue (an older DoV enacted just when a younger one would be
/// decided, an older proposal decided just when a younger one is due) come
/// up often.
fn crowded_game() -> impl Strategy<Value = (Snapshot, Timestamp)> {
    rich_game().prop_map(|(mut s, now)| {
        for m in &mut s.matters {
            let hours = m.opened.since(base()).as_seconds() / 3600;
            let day_shift = hours - hours % 12;
            let by = Span::seconds(
                base()
                    .plus(Span::hours(day_shift))
                    .since(m.opened)
                    .as_seconds(),
            );
            m.opened = m.opened.plus(by);
            for c in &mut m.comments {
                c.at = c.at.plus(by);
            }
            if m.id.get() % 2 == 0 {
                m.kind = MatterKind::Dov;
            }
        }
        (s, now)
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: saved_cases(),
        ..ProptestConfig::with_cases(3000)
    })]

    /// The same on crowded games.
    #[test]
    fn the_engine_equals_the_reference_when_limits_coincide((s, now) in crowded_game()) {
        prop_assert_eq!(look_ahead(&s, now), reference::resolve(&s, now));
    }

    /// The look-ahead promises it "can never disagree with what the engine
    /// will actually do": the whole run, reasons, tallies and look-ahead
    /// included, equals the reference engine's.
    #[test]
    fn the_engine_equals_the_reference((s, now) in rich_game()) {
        let fast = look_ahead(&s, now);
        let slow = reference::resolve(&s, now);
        prop_assert_eq!(fast, slow);
    }
}

prop_compose! {
    /// A comparison of the age with a duration no parameter names, by
    /// arithmetic that may turn it off the hour and off the minute.
    fn time_clause()(k in 1i64..4, d in 1i64..8, op in 0..6usize, hours in 0i64..100) -> String {
        let op = [">=", ">", "==", "<", "<=", "!="][op];
        format!("age * {k} / {d} {op} {hours}")
    }
}

/// `condition`, amended to `text`.
fn amended(text: String) -> Condition {
    let expr = Expr::parse(&text).unwrap();
    Condition { text, expr }
}

/// A [`rich_game`] whose conditions also turn at ages written as hours
/// and arithmetic on the age ([`time_clause`]).
fn timed_game() -> impl Strategy<Value = (Snapshot, Timestamp)> {
    (rich_game(), prop::collection::vec(time_clause(), 3)).prop_map(|((mut s, now), c)| {
        let p = &mut s.params;
        p.proposal_enact = amended(format!(
            "({}) or {} and for_votes > against_votes",
            p.proposal_enact.text, c[0]
        ));
        p.cfj_fail = amended(format!("({}) or {}", p.cfj_fail.text, c[1]));
        p.dov_enact = amended(format!("({}) and not ({})", p.dov_enact.text, c[2]));
        (s, now)
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: saved_cases(),
        ..ProptestConfig::with_cases(1000)
    })]

    /// The same where conditions compare the age with any duration.
    #[test]
    fn the_engine_equals_the_reference_whatever_durations_conditions_name((s, now) in timed_game()) {
        prop_assert_eq!(look_ahead(&s, now), reference::resolve(&s, now));
    }
}

/// A DoV under a condition that holds in exactly one second of its life,
/// its 30th hour, and fails from 40 h 1 s: the look-ahead used to watch
/// only the parameters' time limits, so it saw neither and said the DoV
/// would fail at the next of those (found when the reference engine got
/// moments of its own).
#[test]
fn the_look_ahead_finds_turns_written_as_hours() {
    let table: toml::Table = format!("preset = \"{}\"\n{}", PRESETS[0], AMENDMENTS[5])
        .parse()
        .unwrap();
    let mut s = playing(
        &table,
        3,
        vec![Matter {
            id: MatterNumber(7),
            kind: MatterKind::Dov,
            author: name(1),
            opened: base().plus(Span::seconds(3660)),
            comments: vec![],
        }],
    );
    let next = |s: &Snapshot| {
        let run = look_ahead(s, base());
        assert_eq!(run, reference::resolve(s, base()));
        let change = run
            .get(MatterNumber(7))
            .and_then(|d| d.next_change)
            .unwrap();
        (
            change.at.unwrap().since(base()).as_seconds(),
            change.becomes.unwrap(),
        )
    };
    assert_eq!(next(&s), (3660 + 30 * 3600, Decision::Enact));
    // Two thirds of the age pass 48 h at 72 h 2 s.
    s.params.dov_enact = amended("false".into());
    s.params.dov_fail = amended("age * 2 / 3 > resolve_majority_hours".into());
    assert_eq!(next(&s), (3660 + 72 * 3600 + 2, Decision::Fail));
}

/// A [`rich_game`] under a seasonal downtime of other dates: from a day
/// between two weeks before and a few days after *now* (over New Year in
/// the December games), for 0 to 19 days, so that runs, DoVs and the
/// look-ahead meet its edges. The reference reads the rule's midnights
/// its own way (`reference::in_downtime`).
fn downtime_game() -> impl Strategy<Value = (Snapshot, Timestamp)> {
    (rich_game(), -14i64..5, 0u64..20).prop_map(|((mut s, now), from, len)| {
        let day = |d: chrono::NaiveDate| MonthDay {
            month: d.month(),
            day: d.day(),
        };
        let start = now.plus(Span::days(from)).to_datetime().date_naive();
        let p = &mut s.params;
        p.seasonal_downtime = true;
        p.downtime_start = day(start);
        p.downtime_end = day(start + chrono::Days::new(len));
        (s, now)
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: saved_cases(),
        ..ProptestConfig::with_cases(500)
    })]

    /// The same under a seasonal downtime of any dates.
    #[test]
    fn the_engine_equals_the_reference_whatever_the_downtime((s, now) in downtime_game()) {
        prop_assert_eq!(look_ahead(&s, now), reference::resolve(&s, now));
    }
}

/// A downtime running over New Year: DoVs opened on either side of its
/// start and of its end are DoVs or not alike in the engine and in the
/// reference, which reads the rule's "from 00:00 UTC on downtime_start
/// until 00:00 UTC on downtime_end" in its own way.
#[test]
fn dovs_at_the_edges_of_a_downtime_over_new_year_are_judged_alike() {
    let table: toml::Table = "downtime_start = \"12-30\"\ndowntime_end = \"01-02\""
        .parse()
        .unwrap();
    let at = |text: &str| Timestamp::parse(text).unwrap();
    let opened = [
        "2030-12-29T23:59:59Z",
        "2030-12-30T00:00:00Z",
        "2031-01-01T23:59:59Z",
        "2031-01-02T00:00:00Z",
    ];
    let s = playing(
        &table,
        4,
        opened
            .iter()
            .zip(1u64..)
            .map(|(t, id)| Matter {
                id: MatterNumber(id),
                kind: MatterKind::Dov,
                author: name(usize::try_from(id).unwrap() - 1),
                opened: at(t),
                comments: vec![],
            })
            .collect(),
    );
    let now = at("2031-01-03T00:00:00Z");
    let run = look_ahead(&s, now);
    assert_eq!(run, reference::resolve(&s, now));
    let invalid: Vec<u64> = gitnomic::engine::invalid(&s, now)
        .into_keys()
        .map(MatterNumber::get)
        .collect();
    assert_eq!(invalid, [2, 3]);
}
