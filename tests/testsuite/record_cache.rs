//! The records a build keeps for the next: a game read with their help
//! is the game read afresh, whatever happened to its files in between
//! (edited, touched, deleted, renamed) or to the cache itself, and so is
//! every page of its site.

use std::path::Path;
use std::time::{Duration, SystemTime};

use gitnomic::game::GAME_DIRS;
use gitnomic::game::Game;
use gitnomic::game::timeline::Timeline;
use gitnomic::load::{self, Origin};
use gitnomic::matter::MatterNumber;
use gitnomic::publish::stamped::{self, CachedRead};
use gitnomic::record::cache::{self as record_cache, RecordCache, Stamp};
use gitnomic::site::{self, Pending, SiteInput};

use crate::game_test::copy_tree;

/// The program that made the cache, as a build names itself.
const PROGRAM: &str = "gitnomic test";

/// A moment after every file of the test: every stamp is old enough to
/// trust. (A build trusts only stamps older than two seconds; a test
/// cannot wait for that.)
fn trust_all() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(8_000_000_000)
}

fn record(number: u64, title: &str, body: &str) -> String {
    format!(
        "+++\nnumber = {number}\nkind = \"proposal\"\ntitle = \"{title}\"\nauthor = \"Ada\"\n\
         dynasty = 1\nopened = \"2030-03-01T10:00:00Z\"\nresolved = \"2030-03-02T10:00:00Z\"\n\
         outcome = \"enacted\"\nresolved_by = \"gitnomic resolve\"\nreasons = []\nvotes = []\n\
         uncounted = []\n+++\n{body}\n"
    )
}

/// A copy of the bundled game with three records.
fn game_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let source = Path::new(env!("CARGO_MANIFEST_DIR"));
    for top in ["rules", "state", "content"] {
        copy_tree(&source.join(top), &dir.path().join(top));
    }
    let matters = dir.path().join("content/matters");
    std::fs::create_dir_all(&matters).unwrap();
    for (n, title) in [
        (1, "Wind faster"),
        (2, "Oil the gears"),
        (3, "Stop the clock"),
    ] {
        let text = record(n, title, &format!("The text of {n}."));
        std::fs::write(matters.join(format!("{n:05}.md")), text).unwrap();
    }
    dir
}

/// The game read with `cache`, and the cache it leaves for the next read.
fn read(root: &Path, cache: &[u8], trusted_before: SystemTime) -> (Game, CachedRead, Vec<u8>) {
    let cache = || RecordCache::from_bytes(cache, PROGRAM);
    let read = stamped::read_dir_cached(root, GAME_DIRS, None, Some(cache), trusted_before)
        .expect("readable");
    let game = Game::check_with(&read.files, read.records.clone());
    let next = record_cache::keep(PROGRAM, &read.seen, &game.records);
    (game, read, next)
}

/// The site of `game`.
fn site_of(game: &Game) -> site::Site {
    let input = SiteInput {
        game,
        timeline: &Timeline::default(),
        pending: &Pending::default(),
        overrides: &[],
        commit: None,
        base_url: None,
        forge: None,
    };
    site::render(&input, &|_| {}).expect("the game renders")
}

/// Reads `root` with `cache` and checks that the game and its site are
/// those of a read without any cache. Returns the read and the next cache.
fn read_and_compare(root: &Path, cache: &[u8], what: &str) -> (CachedRead, Vec<u8>) {
    let (game, read, next) = read(root, cache, trust_all());
    let files = load::read(&Origin::Dir(root.to_path_buf()), GAME_DIRS).unwrap();
    let fresh = Game::check(&files);
    assert_eq!(game.records, fresh.records, "{what}: records");
    assert_eq!(
        game.problems.to_string(),
        fresh.problems.to_string(),
        "{what}: problems"
    );
    assert!(
        site_of(&game) == site_of(&fresh),
        "{what}: the sites differ"
    );
    (read, next)
}

fn records_read(read: &CachedRead) -> usize {
    read.files
        .iter()
        .filter(|f| f.path.starts_with("content/matters/"))
        .count()
}

/// Sets a file's modification time, as an edit within the same clock
/// tick might not.
fn set_modified(path: &Path, secs: u64) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
        .unwrap();
}

#[test]
fn a_game_read_with_its_records_cache_is_the_game_read_afresh() {
    let dir = game_dir();
    let root = dir.path();
    let matters = root.join("content/matters");
    let (first, cache) = read_and_compare(root, &[], "no cache");
    assert_eq!((records_read(&first), first.records.len()), (3, 0));
    assert!(first.changed, "a new cache is written");

    let (again, cache) = read_and_compare(root, &cache, "nothing changed");
    assert_eq!((records_read(&again), again.records.len()), (0, 3));
    assert!(!again.changed, "nothing to write");

    std::fs::write(
        matters.join("00002.md"),
        record(2, "Oil the gears", "A longer text of 2."),
    )
    .unwrap();
    let (edited, cache) = read_and_compare(root, &cache, "a record edited");
    assert_eq!((records_read(&edited), edited.records.len()), (1, 2));
    assert!(edited.changed);

    // The same length, and its old modification time unless set anew.
    let same_length = record(3, "Stop the block", "The text of 3.");
    std::fs::write(matters.join("00003.md"), same_length).unwrap();
    set_modified(&matters.join("00003.md"), 1_000_000);
    let (edited, cache) = read_and_compare(root, &cache, "an edit of the same length");
    assert_eq!(records_read(&edited), 1);

    // Touched: new stamps, the same text: found by its text, not parsed.
    set_modified(&matters.join("00001.md"), 2_000_000);
    let (touched, cache) = read_and_compare(root, &cache, "a record touched");
    assert_eq!((records_read(&touched), touched.records.len()), (0, 3));
    assert!(touched.changed, "the new stamp is kept");
    let (_, cache) = read_and_compare(root, &cache, "after the touch");

    std::fs::rename(matters.join("00003.md"), matters.join("00009.md")).unwrap();
    let (renamed, cache) = read_and_compare(root, &cache, "a record renamed");
    assert_eq!((records_read(&renamed), renamed.records.len()), (1, 2));

    std::fs::remove_file(matters.join("00001.md")).unwrap();
    let (deleted, cache) = read_and_compare(root, &cache, "a record deleted");
    assert_eq!(deleted.records.len(), 1);
    assert!(deleted.changed, "the deleted record leaves the cache");

    let mut damaged = cache.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 1;
    let (read_damaged, _) = read_and_compare(root, &damaged, "a damaged cache");
    assert_eq!(read_damaged.records.len(), 0, "a damaged cache is not used");
    let (game, whole, _) = read(root, &cache, trust_all());
    assert_eq!(whole.records.len(), 1);
    let other = record_cache::keep("gitnomic other", &whole.seen, &game.records);
    let (read_other, _) = read_and_compare(root, &other, "another program's cache");
    assert_eq!(
        read_other.records.len(),
        0,
        "another program's cache is not used"
    );
}

#[test]
fn a_file_changed_too_recently_is_kept_to_be_found_by_its_text() {
    let dir = game_dir();
    let (_, first, cache) = read(dir.path(), &[], SystemTime::UNIX_EPOCH);
    assert_eq!(first.seen.len(), 3, "{:?}", first.seen);
    assert!(
        first.seen.iter().all(|(_, stamp, _)| *stamp == Stamp::NONE),
        "no stamp is old enough to trust: {:?}",
        first.seen
    );
    // Not found by a stamp, but by the text read again: none is parsed,
    // and the trusted stamps now taken are worth keeping.
    let (_, again, cache) = read(dir.path(), &cache, trust_all());
    assert_eq!(records_read(&again), 0);
    assert!(again.changed);
    assert!(again.seen.iter().all(|(_, stamp, _)| *stamp != Stamp::NONE));
    let (_, third, _) = read(dir.path(), &cache, trust_all());
    assert_eq!(records_read(&third), 0);
    assert!(
        !third.changed,
        "found by their stamps, nothing to keep anew"
    );
}

/// Commits everything under `root` to a new repository there.
fn commit_all(root: &Path) {
    let repo = git2::Repository::init(root).unwrap();
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let who = git2::Signature::now("Ada", "ada@example.org").unwrap();
    repo.commit(Some("HEAD"), &who, &who, "The game", &tree, &[])
        .unwrap();
}

#[test]
fn a_fresh_checkout_finds_its_records_through_gits_index() {
    // Enough records for the index to be asked (see stamped::INDEX_WORTH).
    let dir = game_dir();
    let matters = dir.path().join("content/matters");
    let many = u64::try_from(stamped::INDEX_WORTH).unwrap() + 10;
    for n in 100..100 + many {
        let text = record(n, "Wind faster", &format!("The text of {n}."));
        std::fs::write(matters.join(format!("{n:05}.md")), text).unwrap();
    }
    commit_all(dir.path());
    let (_, cache) = read_and_compare(dir.path(), &[], "the first read");

    // A clone: every file new, with stamps no cache has seen.
    let clone = tempfile::tempdir().expect("a temporary directory");
    let source = dir.path().to_str().unwrap();
    git2::Repository::clone(source, clone.path()).unwrap();
    // One record edited in place after the checkout, its size and its
    // modification time as git recorded them: only its change time tells.
    let edited = clone.path().join("content/matters/00100.md");
    let modified = std::fs::metadata(&edited).unwrap().modified().unwrap();
    let text = std::fs::read_to_string(&edited).unwrap();
    std::fs::write(&edited, text.replace("Wind faster", "Wind slower")).unwrap();
    let file = std::fs::File::options().write(true).open(&edited).unwrap();
    file.set_modified(modified).unwrap();
    drop(file);

    let (fresh, _) = read_and_compare(clone.path(), &cache, "a fresh checkout");
    // Only the edited record and those written in the instant the index
    // was (racily clean, as git says) are read.
    let total = fresh.records.len() + records_read(&fresh);
    assert!(
        records_read(&fresh) < total / 10,
        "{} of {total} records read",
        records_read(&fresh)
    );
    assert!(fresh.changed, "the new stamps are kept");
    let (game, _, _) = read(clone.path(), &cache, trust_all());
    let record = game
        .records
        .iter()
        .find(|r| r.number == MatterNumber(100))
        .unwrap();
    assert_eq!(record.title, "Wind slower");
}
