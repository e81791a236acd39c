//! Every scenario in tests/scenarios/ through the engine: each `[[expect]]`
//! is checked at its own moment.

use std::path::{Path, PathBuf};

use gitnomic::engine::{self, scenario};

fn scenario_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/scenarios exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_expectation_of_every_scenario_is_met() {
    let files = scenario_files();
    assert!(
        files.len() >= 40,
        "expected the 40 worked scenarios and more"
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let s = scenario::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!s.expects.is_empty(), "{} expects nothing", path.display());
        let fallback = s.now.expect("every scenario names its moment");
        for c in s.check(fallback) {
            checked += 1;
            if !c.met() {
                failures.push(format!(
                    "{}:{}: #{} at {}: expected {:?}, got {:?}",
                    path.display(),
                    c.expect.line,
                    c.expect.id,
                    c.now,
                    c.expect.decision,
                    c.got
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 80, "only {checked} expectations checked");
}

/// The scenarios named `<preset>-...` must decide differently under
/// Ruleset 113: otherwise they would not tell the preset apart.
#[test]
fn preset_scenarios_differ_from_113() {
    let mut seen = std::collections::BTreeSet::new();
    for path in scenario_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(preset) = ["r49", "r53", "r73", "r75"]
            .into_iter()
            .find(|p| name.starts_with(&format!("{p}-")))
        else {
            continue;
        };
        let s = scenario::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut under_113 = s.clone();
        under_113.snapshot.params = engine::Params::preset("blognomic-113").unwrap();
        let differs = under_113.check(s.now.unwrap()).iter().any(|c| !c.met());
        assert!(differs, "{name}: blognomic-113 decides the same");
        seen.insert(preset);
    }
    assert_eq!(
        seen.len(),
        4,
        "each older preset has its scenarios: {seen:?}"
    );
}

#[test]
fn resolve_agrees_with_the_expectations_and_explains_itself() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/scenarios/p02-even-no-quorum-48h-majority.toml"),
    )
    .unwrap();
    let s = scenario::parse(&text).unwrap();
    let at = gitnomic::time::Timestamp::parse("2030-03-02T00:00:00Z").unwrap();
    let run = engine::look_ahead(&s.snapshot, at);
    let d = run.get(engine::MatterNumber(1)).unwrap();
    assert_eq!(d.decision, engine::Decision::Wait);
    let next = d.next_change.unwrap();
    assert_eq!(next.more_for, Some(1));
    assert_eq!(next.becomes, Some(engine::Decision::Enact));
    assert_eq!(
        next.at,
        Some(gitnomic::time::Timestamp::parse("2030-03-03T00:00:00Z").unwrap())
    );
    assert!(
        d.reasons
            .iter()
            .any(|r| r.contains("3 FOR, under the quorum of 4")),
        "{:?}",
        d.reasons
    );
}
