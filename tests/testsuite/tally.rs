//! `gitnomic tally` as a user runs it: text, `--json`, `--now`, exit codes.

use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;

fn scenario(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios")
        .join(name)
}

fn tally() -> Command {
    Command::cargo_bin("gitnomic").unwrap()
}

#[test]
fn text_report_for_people() {
    tally()
        .arg("tally")
        .arg(scenario("p01-odd-quorum-met-at-12h.toml"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Proposal #1: ENACT (3 FOR, 0 AGAINST)",
        ))
        .stdout(predicate::str::contains(
            "A: FOR, from the author's implicit vote",
        ))
        .stdout(predicate::str::contains("All 2 expectations met."));
}

#[test]
fn json_has_the_documented_shape() {
    let out = tally()
        .arg("tally")
        .arg(scenario("p19-non-player-comments-ignored.toml"))
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["now"], "2030-03-01T12:00:00Z");
    assert_eq!(v["active"], 5);
    assert_eq!(v["quorum"], 3);
    let d = &v["decisions"][0];
    let mut keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "against",
            "decision",
            "for",
            "id",
            "kind",
            "next_change",
            "reasons",
            "uncounted",
            "votes"
        ]
    );
    assert_eq!(d["id"], 1);
    assert_eq!(d["kind"], "proposal");
    assert_eq!(d["decision"], "enact");
    assert_eq!(d["for"], 3);
    assert_eq!(d["against"], 0);
    assert_eq!(
        d["votes"],
        serde_json::json!({"A": "FOR", "B": "FOR", "C": "FOR"})
    );
    assert_eq!(d["uncounted"][0]["by"], "X");
    assert_eq!(d["uncounted"][0]["why"], "not a player");
    assert_eq!(d["uncounted"].as_array().unwrap().len(), 3);
    assert!(d["next_change"].is_null());
}

#[test]
fn now_flag_overrides_the_file_and_cascades_in_order() {
    let out = tally()
        .args(["tally", "--json", "--now", "2030-03-03T00:00:00Z"])
        .arg(scenario("p26-oldest-pending-blocks-then-cascade.toml"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let ids: Vec<(u64, &str)> = v["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["id"].as_u64().unwrap(), d["decision"].as_str().unwrap()))
        .collect();
    assert_eq!(ids, [(1, "enact"), (2, "enact")]);
}

#[test]
fn waiting_matter_says_what_comes_next() {
    let out = tally()
        .args(["tally", "--json", "--now", "2030-03-01T20:00:00Z"])
        .arg(scenario("p26-oldest-pending-blocks-then-cascade.toml"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let first = &v["decisions"][0];
    assert_eq!(first["decision"], "wait");
    assert_eq!(first["next_change"]["at"], "2030-03-03T00:00:00Z");
    assert_eq!(first["next_change"]["becomes"], "enact");
    let second = &v["decisions"][1];
    assert!(
        second["reasons"][0]
            .as_str()
            .unwrap()
            .contains("older proposal #1")
    );
}

#[test]
fn unmet_expectation_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wrong.toml");
    let text = std::fs::read_to_string(scenario("p01-odd-quorum-met-at-12h.toml"))
        .unwrap()
        .replace("decision = \"enact\"", "decision = \"fail\"");
    std::fs::write(&path, text).unwrap();
    tally()
        .arg("tally")
        .arg(&path)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("expected #1 to fail"));
}

#[test]
fn bad_file_exits_2_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(
        &path,
        "now = \"2030-01-01T00:00:00Z\"\n\n[[players]]\nname = \"A\"\ncolour = 1\n",
    )
    .unwrap();
    tally()
        .arg("tally")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 5"))
        .stderr(predicate::str::contains("colour"));
    tally()
        .args(["tally", "/nonexistent/file.toml"])
        .assert()
        .code(2);
}

#[test]
fn no_moment_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nonow.toml");
    std::fs::write(&path, "[[players]]\nname = \"A\"\n").unwrap();
    tally().arg("tally").arg(&path).assert().code(2);
    tally()
        .args(["tally", "--now", "2030-01-01T00:00:00Z"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("1 active players, quorum 1"));
}

#[test]
fn a_quorum_dividing_by_zero_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zero.toml");
    let text = "now = \"2030-01-01T00:00:00Z\"\n\n[params]\nquorum = \"active / 0\"\n";
    std::fs::write(&path, text).unwrap();
    tally()
        .arg("tally")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 3"))
        .stderr(predicate::str::contains("params.quorum"))
        .stderr(predicate::str::contains("divides by zero"));
    let text = "now = \"2030-01-01T00:00:00Z\"\n\n[params]\nquorum = \"12 / (active - 4)\"\n";
    std::fs::write(&path, text).unwrap();
    tally()
        .arg("tally")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("with 4 active players"));
}
