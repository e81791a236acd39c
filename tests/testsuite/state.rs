//! The bundled gamestate through the library: byte-stable round trips.

use gitnomic::gamestate::edit::StateDoc;

use crate::game_test::GameTest;

#[test]
fn every_bundled_state_file_round_trips_byte_for_byte() {
    let game = GameTest::bundled();
    for entry in std::fs::read_dir(game.path("state")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = StateDoc::parse(&path.display().to_string(), &text).unwrap();
        assert_eq!(
            doc.render(),
            text,
            "{} changed on a round trip",
            path.display()
        );
    }
}

#[test]
fn an_edit_to_the_bundled_variables_changes_one_line() {
    let game = GameTest::bundled();
    let before = game.read("state/variables.toml");
    let mut doc = StateDoc::parse("state/variables.toml", &before).unwrap();
    doc.set(&["players", "Boris"], "cogs", 7).unwrap();
    let after = doc.render();
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(changed, [("cogs = 5", "cogs = 7")]);
    assert_eq!(before.lines().count(), after.lines().count());
}
