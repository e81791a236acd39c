//! The presets: the core voting of BlogNomic Rulesets 49, 53, 73, 75 and
//! 113 (MECHANICS.md §4.1) as parameter sets, the base every ruleset's
//! `[params]` override.

use super::params::{Condition, DEFAULT_PRESET, ImplicitFor, MonthDay, Params, Scope, SelfKill};

const Q113: &str = "active / 2 + 1";
const PROPOSAL_ENACT: &str = "not blocked and (for_votes >= quorum and age >= enact_quorum_hours \
     or age >= resolve_majority_hours and valid_votes > 1 and for_votes > against_votes)";
const PROPOSAL_FAIL: &str = "blocked or active - against_votes < quorum \
     or age >= resolve_majority_hours and not enactable";
const CFJ_ENACT_113: &str = "(for_votes >= quorum or against_votes >= quorum \
     or age > cfj_resolve_after_hours) and for_votes > against_votes";
const CFJ_FAIL_113: &str = "(for_votes >= quorum or against_votes >= quorum \
     or age > cfj_resolve_after_hours) and for_votes <= against_votes";
const DOV_ENACT_113: &str = "age >= dov_fast_hours and for_votes >= quorum \
     and (wizard_for or against_votes == 0) \
     or age >= dov_middle_hours and for_votes >= quorum and against_votes < quorum / 2 \
     or age >= dov_slow_hours and votes >= quorum and 2 * for_votes > valid_votes";
const DOV_FAIL_113: &str = "age >= dov_fast_hours and active - against_votes < quorum \
     or age >= dov_slow_hours and not enactable";
const CFJ_ENACT_OLD: &str = "(for_votes >= quorum or against_votes >= quorum \
     or hiatus and age >= cfj_hiatus_hours or not hiatus and age >= cfj_resolve_after_hours) \
     and 2 * for_votes > valid_votes";
const CFJ_FAIL_OLD: &str = "(for_votes >= quorum or against_votes >= quorum \
     or hiatus and age >= cfj_hiatus_hours or not hiatus and age >= cfj_resolve_after_hours) \
     and 2 * for_votes <= valid_votes";
const DOV_ENACT_OLD: &str = "(age >= dov_middle_hours or wizard_voted and age >= dov_fast_hours) \
     and valid_votes >= quorum and 2 * for_votes > valid_votes";
const DOV_FAIL_OLD: &str = "(age >= dov_middle_hours or wizard_voted and age >= dov_fast_hours) \
     and not enactable";

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| (*w).to_owned()).collect()
}

impl Params {
    /// The parameters of a named preset (`blognomic-49`, `-53`, `-73`,
    /// `-75`, `-113`), or `None` for an unknown name.
    pub fn preset(name: &str) -> Option<Params> {
        let mut p = Params::ruleset_113()?;
        p.preset = name.to_owned();
        let early = match name {
            DEFAULT_PRESET => return Some(p),
            "blognomic-49" | "blognomic-53" => true,
            "blognomic-73" | "blognomic-75" => false,
            _ => return None,
        };
        p.stale_after_hours = 0;
        p.cfj_resolve_after_hours = 96;
        p.dov_cooldown_hours = if early { 0 } else { 120 };
        p.seasonal_downtime = false;
        p.rejoin_block_days = 0;
        p.unidle_block_days = if early { 0 } else { 4 };
        p.daily_gap_hours = 6;
        p.implicit_for = ImplicitFor::Proposals;
        p.self_kill = SelfKill::Locked;
        p.emperor_may_def = !early;
        p.dov_banned_before_ascension = !early;
        p.hiatus_permits_proposal_voting = !early;
        p.revive_votes_on_unidle = !early;
        p.cfj_enact = Condition::parse(CFJ_ENACT_OLD, Scope::Enact).ok()?;
        p.cfj_fail = Condition::parse(CFJ_FAIL_OLD, Scope::Fail).ok()?;
        p.dov_enact = Condition::parse(DOV_ENACT_OLD, Scope::Enact).ok()?;
        p.dov_fail = Condition::parse(DOV_FAIL_OLD, Scope::Fail).ok()?;
        Some(p)
    }

    fn ruleset_113() -> Option<Params> {
        let enact = |t| Condition::parse(t, Scope::Enact).ok();
        let fail = |t| Condition::parse(t, Scope::Fail).ok();
        Some(Params {
            preset: DEFAULT_PRESET.to_owned(),
            words_for: words(&["FOR", "✅"]),
            words_against: words(&["AGAINST", "❌"]),
            words_deferential: words(&["DEFERENTIAL", "DEF", "IMP"]),
            words_veto: words(&["VETO"]),
            max_pending: 2,
            max_per_day: 3,
            enact_quorum_hours: 12,
            resolve_majority_hours: 48,
            stale_after_hours: 168,
            cfj_resolve_after_hours: 48,
            cfj_hiatus_hours: 48,
            dov_fast_hours: 12,
            dov_middle_hours: 24,
            dov_slow_hours: 48,
            dov_cooldown_hours: 120,
            seasonal_downtime: true,
            downtime_start: MonthDay { month: 12, day: 24 },
            downtime_end: MonthDay { month: 12, day: 27 },
            rejoin_block_days: 14,
            idle_after_days: 7,
            unidle_block_days: 4,
            daily_gap_hours: 10,
            typo_fix_max_chars: 12,
            kind_window_minutes: 15,
            review_states_vote: true,
            implicit_for: ImplicitFor::AllMatters,
            self_kill: SelfKill::Sticky,
            veto_sticky: true,
            emperor_may_def: true,
            def_is_valid_icon: true,
            implicit_vote_counts_as_voted: true,
            dov_banned_before_ascension: true,
            hiatus_permits_proposal_voting: true,
            count_comments_made_while_idle: false,
            revive_votes_on_unidle: true,
            quorum: Condition::parse(Q113, Scope::Quorum).ok()?,
            proposal_enact: enact(PROPOSAL_ENACT)?,
            proposal_fail: fail(PROPOSAL_FAIL)?,
            cfj_enact: enact(CFJ_ENACT_113)?,
            cfj_fail: fail(CFJ_FAIL_113)?,
            dov_enact: enact(DOV_ENACT_113)?,
            dov_fail: fail(DOV_FAIL_113)?,
        })
    }
}
