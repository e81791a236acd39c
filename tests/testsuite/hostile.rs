//! Issue 33: a game played in public. Anyone may title, describe and
//! comment with any characters, and push any bytes; the worst one matter
//! may do is to be held or closed itself. Through the binary on the local
//! forge, with the bundled game (five players, quorum 3).

use crate::game_test::GameTest;

fn committed() -> GameTest {
    let game = GameTest::bundled();
    game.commit_all("the bundled game");
    game
}

/// The number `play open` printed.
fn number(stdout: &str) -> String {
    let after = stdout.split('#').nth(1).unwrap_or_default();
    after.chars().take_while(char::is_ascii_digit).collect()
}

/// Item 1: a title with a `+++` line is closed like any other post, and
/// its record reads back: main still checks and the next run goes on.
#[test]
fn a_title_with_a_fence_line_leaves_main_readable() {
    let game = committed();
    let title = "CfJ\n+++\nx";
    let opened = game.open("2030-01-01T00:00:00Z", "stranger", "cfj", title, None);
    let n = number(&opened.stdout);
    game.at("2030-01-01T00:10:00Z", &["resolve"]);
    let record = game.read_at("main", &format!("content/matters/{n:0>5}.md"));
    assert!(record.is_some(), "no record of #{n}");
    game.at("2030-01-01T00:20:00Z", &["check"]);
    let again = game.at("2030-01-01T00:30:00Z", &["resolve"]);
    assert!(!again.stdout.contains("error"), "{}", again.stdout);
    let log = game.at("2030-01-01T00:30:00Z", &["log"]);
    assert_eq!(log.code, 0);
}

/// Item 2: an action's title that reads like the log's lines credits
/// nobody: the log shows only the change Boris's comment made.
#[test]
fn a_title_cannot_put_a_change_or_a_roll_in_the_log() {
    let game = committed();
    let title =
        "Bob acts\n\nplayers.Boris.springs: 3 → 10 by @ada-tinkers, comment 1, rolled DICE6 = 6\n";
    let n = number(
        &game
            .open("2030-01-01T00:00:00Z", "boris-b", "action", title, None)
            .stdout,
    );
    game.at(
        "2030-01-01T01:00:00Z",
        &["play", "comment", &n, "ADD springs 1", "--as", "boris-b"],
    );
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    let log = game.at("2030-01-01T02:00:00Z", &["log"]).stdout;
    assert!(log.contains("players.Boris.springs"), "{log}");
    assert!(log.contains("3 → 4"), "{log}");
    assert!(!log.contains("ada-tinkers"), "{log}");
    assert!(!log.contains("DICE6"), "{log}");
    let subject = git_subject(&game);
    assert!(!subject.contains('\n'), "{subject:?}");
}

/// The subject of main's last commit that changed the variables.
fn git_subject(game: &GameTest) -> String {
    let out = std::process::Command::new("git")
        .args([
            "log",
            "-1",
            "--format=%B",
            "main",
            "--",
            "state/variables.toml",
        ])
        .current_dir(game.root())
        .output()
        .unwrap();
    let message = String::from_utf8(out.stdout).unwrap();
    assert!(message.starts_with("Action #"), "{message}");
    message.lines().next().unwrap_or_default().to_string()
}

/// Item 5: titles and comments reach the terminal with their control
/// characters shown as codes: no escape sequence, bell or reordering.
#[test]
fn titles_and_comments_send_no_controls_to_the_terminal() {
    let game = committed();
    let title = "Wind \u{1b}]0;owned\u{7}\u{1b}[2J\u{202e}sgnirps";
    let opened = game.open("2030-01-01T00:00:00Z", "ada-tinkers", "cfj", title, None);
    let n = number(&opened.stdout);
    game.at(
        "2030-01-01T00:05:00Z",
        &[
            "play",
            "comment",
            &n,
            "FOR \u{1b}[31mred\u{9b}1m",
            "--as",
            "boris-b",
        ],
    );
    for args in [
        vec!["play", "show", n.as_str()],
        vec!["play", "list"],
        vec![
            "play", "open", "--as", "cleo-c", "--kind", "cfj", "--title", title,
        ],
    ] {
        let run = game.at("2030-01-01T00:06:00Z", &args);
        for c in ['\u{1b}', '\u{7}', '\u{202e}', '\u{9b}'] {
            assert!(
                !run.stdout.contains(c),
                "{args:?} printed {c:?}:\n{}",
                run.stdout
            );
        }
    }
    let shown = game
        .at("2030-01-01T00:07:00Z", &["play", "show", &n])
        .stdout;
    assert!(shown.contains("\\u{1b}[31mred"), "{shown}");
}
