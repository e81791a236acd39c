//! A thread longer than one reply may be, on both forges: GitHub pages a
//! thread's comments, but a page of long comments can outgrow what a run
//! reads in one reply; Forgejo lists them all in one reply, read in
//! windows of time when it does not fit. A thread read whole counts every
//! vote; one that no reply can hold costs its own matter this run, and the
//! rest of the run goes on.

use crate::fake::github::Item;
use crate::forges::scenarios::{ENACTED, ForgeKind, on_both};

/// A comment of about 30 KB, `word` first.
fn long(word: &str) -> String {
    format!("{word}\n\n{}", "a long argument ".repeat(1_900))
}

#[test]
fn a_thread_longer_than_one_reply_is_read_whole() {
    let outcome = on_both(|g| {
        {
            let mut w = g.fake.world();
            // GitHub's pages of two long comments fit in a reply; Forgejo's
            // one reply of all five does not.
            w.page_size = Some(2);
            for (i, who) in ["boris-b", "cleo-c", "dmitri-d", "wren-w"]
                .iter()
                .enumerate()
            {
                w.add_comment(
                    1,
                    who,
                    &format!("2030-01-01T0{}:00:00Z", i + 1),
                    &long("FOR"),
                );
            }
            w.add_comment(1, "stranger", "2030-01-01T05:00:00Z", &long("AGAINST"));
        }
        let run = g.run_with(
            "2030-01-01T12:00:00Z",
            &["resolve"],
            &[("GITNOMIC_MAX_REPLY", "100000")],
        );
        assert_eq!(run.code, 0, "{:?}: {}{}", g.forge, run.stdout, run.stderr);
        if g.forge == ForgeKind::Forgejo {
            let windows = g
                .fake
                .world()
                .log
                .iter()
                .filter(|r| r.path.contains("/comments?since="))
                .count();
            assert!(windows >= 2, "read in windows of time: {windows}");
        }
        vec![run]
    });
    assert!(
        outcome.decisions.iter().any(|d| d.contains(ENACTED)),
        "{outcome:#?}"
    );
    let record = &outcome.records["content/matters/00001.md"];
    assert!(record.contains("for = 5"), "every vote was read: {record}");
}

#[test]
fn a_thread_no_reply_can_hold_waits_and_the_other_matters_are_decided() {
    let outcome = on_both(|g| {
        {
            let mut w = g.fake.world();
            // One comment longer than a reply may be: no page or window of
            // time holds it.
            w.add_comment(1, "stranger", "2030-01-01T01:00:00Z", &long("AGAINST"));
            let mut pull = Item::pull(2, "Idea 2", "cleo-c", "2030-01-01T00:00:00Z", &g.head);
            pull.labels = vec!["Proposal".into()];
            pull.files = vec!["state/variables.toml".into()];
            w.items.insert(2, pull);
            for who in ["boris-b", "dmitri-d", "ada-tinkers"] {
                w.add_comment(2, who, "2030-01-01T02:00:00Z", "FOR");
            }
        }
        let run = g.run_with(
            "2030-01-01T12:00:00Z",
            &["resolve"],
            &[("GITNOMIC_MAX_REPLY", "20000")],
        );
        assert_eq!(run.code, 0, "{:?}: {}{}", g.forge, run.stdout, run.stderr);
        vec![run]
    });
    assert!(
        outcome.decisions.iter().any(|d| d.contains(
            "Proposal #1: wait — not read this run: its thread is longer than the 20 KiB"
        )),
        "{outcome:#?}"
    );
    assert!(
        outcome
            .decisions
            .iter()
            .any(|d| d.contains("Proposal #2: enact — enacted")),
        "{outcome:#?}"
    );
    assert!(outcome.records.contains_key("content/matters/00002.md"));
    assert!(!outcome.records.contains_key("content/matters/00001.md"));
}
