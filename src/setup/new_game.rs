//! What `gitnomic new` writes: the bundled game's files, made a new game's
//! (its players, its default branch, its own seed and start), with a short
//! README for the players and a `.gitignore`. Pure: the bundle is handed
//! in and the files come out; writing them and the first commit are the
//! command's.

use toml_edit::{DocumentMut, Item};

use super::SetupError;
use crate::time::Timestamp;

/// A player of a new game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NewPlayer {
    /// The name the rules and the gamestate use.
    pub name: String,
    /// The forge account that votes as the player.
    pub login: String,
}

/// What a group asks of its new game.
#[derive(Debug, Clone)]
pub(crate) struct NewGame {
    /// The game's name, or the bundled game's.
    pub name: Option<String>,
    /// The players, or the bundled roster when empty. The first is the
    /// admin and the emperor of the first dynasty.
    pub players: Vec<NewPlayer>,
    /// The default branch, where enacted proposals are merged.
    pub branch: String,
    /// When the game begins (its first dynasty starts then).
    pub now: Timestamp,
    /// Where it is played: `OWNER/NAME` on GitHub, or a repository's web
    /// address, written to `[game] repo` for the site's links.
    pub repo: Option<String>,
    /// Whose Actions run its workflows.
    pub actions: Actions,
}

/// Whose Actions run a game's workflows: GitHub's, or Forgejo's (Codeberg,
/// a Forgejo server) or Gitea's, which run the same workflows from a
/// folder of their own and act as a bot of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Actions {
    GitHub,
    Forgejo,
    Gitea,
}

impl Actions {
    /// Whether the forge speaks Forgejo's API (Gitea's is the same).
    pub(crate) fn forgejo_like(self) -> bool {
        self != Actions::GitHub
    }

    /// The folder its runner reads workflows from: Forgejo reads
    /// `.forgejo/workflows/` first, Gitea never does.
    pub(crate) fn folder(self) -> &'static str {
        match self {
            Actions::GitHub => ".github/workflows/",
            Actions::Forgejo => ".forgejo/workflows/",
            Actions::Gitea => ".gitea/workflows/",
        }
    }

    /// Its name for `--forge`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Actions::GitHub => "github",
            Actions::Forgejo => "forgejo",
            Actions::Gitea => "gitea",
        }
    }
}

/// Whether a bundled file belongs to the other forge's way of running the
/// game than the one asked for.
fn for_other_forge(path: &str, actions: Actions) -> bool {
    let github_only = path.starts_with(".github/workflows/");
    let forgejo_only = path.starts_with(".forgejo/workflows/")
        || matches!(path, "scripts/build-on-forgejo" | "scripts/push-pages");
    if actions.forgejo_like() {
        github_only
    } else {
        forgejo_only
    }
}

/// Where a bundled file goes, and what it says, for the forge asked for:
/// on Gitea, Forgejo's workflows go to `.gitea/workflows/` and name
/// `--forge gitea`; every other file stays as it is, unread.
fn for_forge(path: &str, bytes: Vec<u8>, actions: Actions) -> (String, Vec<u8>) {
    match path.strip_prefix(".forgejo/workflows/") {
        Some(file) if actions == Actions::Gitea => (
            format!("{}{file}", actions.folder()),
            String::from_utf8_lossy(&bytes)
                .replace("--forge forgejo", "--forge gitea")
                .into_bytes(),
        ),
        _ => (path.to_string(), bytes),
    }
}

/// A file of the new game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OutFile {
    /// Path in the repository, with `/` separators.
    pub path: String,
    pub bytes: Vec<u8>,
    /// Whether it is a script to run.
    pub executable: bool,
}

/// The players' README, with `{name}` for the game's name.
const README: &str = "# {name}

{name} is a nomic: a game whose rules are changed by its players' votes,
played in this repository. The rules are Markdown in `rules/`, the
gamestate is TOML in `state/` (the players are in `state/roster.toml`),
and the workflows in `.github/workflows/` count the votes and merge or
close pull requests. Nobody counts by hand. They run gitnomic, built from
`Cargo.toml`, `Cargo.lock`, `build.rs`, `src/` and `engine/` (once per change of
those files; proposals may not change them).

## Playing

- **Read** the site the workflows publish to GitHub Pages, or
  `content/pages/how-to-play.md` and `content/pages/how-to-vote.md`.
- **Propose**: open a pull request that changes `rules/`, `state/` or
  `content/pages/`, labelled `Proposal` (or titled `Proposal: ...`).
- **Vote**: comment `FOR`, `AGAINST`, `DEFERENTIAL` or `VETO` on it, or put
  the word in a review. Your last vote counts.
- **Act**: open an issue labelled `Action` and comment commands such as
  `ADD springs DICE6`, or a pull request that only edits `state/`.
- Calls for Judgement and Declarations of Victory are issues or pull
  requests labelled `CfJ` and `DoV`.

The status comment on every matter says how it stands and what happens
next.

## For the admin

Once, after pushing this repository to GitHub, with a token of yours
that may read the repository's settings:

```sh
GITHUB_TOKEN=... GITHUB_REPOSITORY=owner/name gitnomic doctor --forge github
```

It checks that Actions and Issues are on, merge commits are allowed, the
labels exist (it creates the missing ones), Pages is published by
Actions, workflows get a read-only token by default and every login in
`state/roster.toml` exists, and says what to click for anything that is
not. `gitnomic check` validates the game's files; `gitnomic serve` shows
the site locally.
";

/// The admin's part of the README of a game on Codeberg, Forgejo or Gitea.
const README_FORGEJO_ADMIN: &str = "## For the admin

Once, after pushing this repository to {server} and turning Actions on
for it, with a token of yours:

```sh
FORGEJO_TOKEN=... GITHUB_SERVER_URL={url} GITHUB_REPOSITORY=owner/name \\
  gitnomic doctor --forge {forge}
```

It checks that Actions, Issues and pull requests are on, merge commits are
allowed, the labels exist (it creates the missing ones) and every login in
`state/roster.toml` is an account, and says what to click for anything
that is not. `gitnomic check` validates the game's files; `gitnomic serve`
shows the site locally.
";

/// The README of a new game called `name`, for the forge it runs on.
fn readme(name: &str, actions: Actions) -> String {
    let (server, url) = match actions {
        Actions::Gitea => ("your Gitea server", "https://gitea.example.org"),
        _ => ("Codeberg (or your Forgejo server)", "https://codeberg.org"),
    };
    let text = if actions.forgejo_like() {
        let players = README.split("## For the admin").next().unwrap_or(README);
        format!("{players}{README_FORGEJO_ADMIN}")
            .replace("`.github/workflows/`", &format!("`{}`", actions.folder()))
            .replace(
                "the site the workflows publish to GitHub Pages",
                "the site the workflows push to the `pages` branch",
            )
            .replace("{server}", server)
            .replace("{url}", url)
            .replace("{forge}", actions.name())
    } else {
        README.to_string()
    };
    text.replace("{name}", name)
}

/// What a new game ignores: the tool's build and the site built locally.
pub(crate) const GITIGNORE: &str = "/target\n/public\n";

/// A player given on the command line: `LOGIN` (the name is the login) or
/// `NAME=LOGIN`, for a game on GitHub.
#[cfg(test)]
pub(crate) fn parse_player(arg: &str) -> Result<NewPlayer, SetupError> {
    parse_player_on(arg, false)
}

/// [`parse_player`] for a game on GitHub, or on Forgejo (`forgejo`), whose
/// logins may also hold `_` and `.`.
pub(crate) fn parse_player_on(arg: &str, forgejo: bool) -> Result<NewPlayer, SetupError> {
    let (name, login) = arg.split_once('=').unwrap_or((arg, arg));
    let (name, login) = (name.trim(), login.trim());
    if forgejo && !valid_forgejo_login(login) {
        return Err(SetupError::BadForgejoLogin(login.to_string()));
    }
    if !forgejo && !valid_login(login) {
        return Err(SetupError::BadLogin(login.to_string()));
    }
    let name_ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if !name_ok {
        return Err(SetupError::BadName(name.to_string()));
    }
    Ok(NewPlayer {
        name: name.to_string(),
        login: login.to_string(),
    })
}

/// Whether `login` can be an account on Forgejo or Gitea: 1 to 40 letters,
/// digits, `-`, `_` and `.`, beginning and ending with a letter or digit,
/// with no two of `-`, `_`, `.` side by side.
pub(crate) fn valid_forgejo_login(login: &str) -> bool {
    let special = |c: char| matches!(c, '-' | '_' | '.');
    (1..=40).contains(&login.len())
        && login
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || special(c))
        && !login.starts_with(special)
        && !login.ends_with(special)
        && !login
            .as_bytes()
            .windows(2)
            .any(|w| special(char::from(w[0])) && special(char::from(w[1])))
}

/// Whether `login` can be a GitHub account: 1 to 39 letters, digits and
/// single hyphens, neither first nor last.
pub(crate) fn valid_login(login: &str) -> bool {
    (1..=39).contains(&login.len())
        && login.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !login.starts_with('-')
        && !login.ends_with('-')
        && !login.contains("--")
}

/// The new game's files, from the bundle's `(path, bytes, executable)`.
pub(crate) fn files(
    bundle: &[(&str, &[u8], bool)],
    game: &NewGame,
) -> Result<Vec<OutFile>, SetupError> {
    if !crate::game::valid_branch(&game.branch) {
        return Err(SetupError::BadBranch(game.branch.clone()));
    }
    let mut logins = std::collections::BTreeSet::new();
    let mut names = std::collections::BTreeSet::new();
    for p in &game.players {
        if !logins.insert(p.login.to_ascii_lowercase()) || !names.insert(p.name.clone()) {
            return Err(SetupError::Twice(p.login.clone()));
        }
    }
    let mut out = Vec::new();
    let mut name = None;
    for (path, bytes, executable) in bundle {
        if for_other_forge(path, game.actions) {
            continue;
        }
        let text =
            || std::str::from_utf8(bytes).map_err(|_| SetupError::NotText((*path).to_string()));
        let bytes = match *path {
            "state/game.toml" => {
                let (text, game_name) = game_toml(text()?, game)?;
                name = Some(game_name);
                text.into_bytes()
            }
            "state/roster.toml" if !game.players.is_empty() => roster(text()?, game).into_bytes(),
            "state/variables.toml" if !game.players.is_empty() => {
                without_tables(text()?, path, |key, _| key == "players")?.into_bytes()
            }
            "state/collections.toml" if !game.players.is_empty() => {
                without_tables(text()?, path, |_, item| item.is_array_of_tables())?.into_bytes()
            }
            p if (p.starts_with(".github/workflows/") || p.starts_with(".forgejo/workflows/"))
                && game.branch != "main" =>
            {
                text()?
                    .replace("branches: [main]", &format!("branches: [{}]", game.branch))
                    .into_bytes()
            }
            _ => bytes.to_vec(),
        };
        let (path, bytes) = for_forge(path, bytes, game.actions);
        out.push(OutFile {
            path,
            bytes,
            executable: *executable,
        });
    }
    let name = name.ok_or_else(|| SetupError::Missing("state/game.toml".into()))?;
    out.push(OutFile {
        path: "README.md".into(),
        bytes: readme(&name, game.actions).into_bytes(),
        executable: false,
    });
    out.push(OutFile {
        path: ".gitignore".into(),
        bytes: GITIGNORE.as_bytes().to_vec(),
        executable: false,
    });
    Ok(out)
}

/// state/game.toml for the new game: its name, a seed of its own, the
/// first dynasty starting now under the first player. Also its name.
fn game_toml(text: &str, game: &NewGame) -> Result<(String, String), SetupError> {
    let bad = |e: toml_edit::TomlError| SetupError::Toml("state/game.toml".into(), e.to_string());
    let mut doc: DocumentMut = text.parse().map_err(bad)?;
    if let Some(name) = &game.name {
        set(&mut doc, "game", "name", name.as_str().into());
    }
    let name = doc["game"]["name"]
        .as_str()
        .ok_or_else(|| SetupError::Missing("state/game.toml: [game] name".into()))?
        .to_string();
    let day = game.now.to_string();
    let day = day.get(..10).unwrap_or(&day);
    let slug: String = name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    set(&mut doc, "game", "seed", format!("{slug}-{day}").into());
    set(&mut doc, "dynasty", "started", datetime(game.now).into());
    if let Some(first) = game.players.first() {
        set(&mut doc, "dynasty", "emperor", first.name.as_str().into());
    }
    if let Some(repo) = &game.repo {
        if crate::game::weblinks::ForgeWeb::from_setting(repo, &game.branch).is_none() {
            return Err(SetupError::BadRepo(repo.clone()));
        }
        set(&mut doc, "game", "repo", repo.trim().into());
    }
    Ok((doc.to_string(), name))
}

/// Sets `[table] key`, keeping the comment beside the old value.
fn set(doc: &mut DocumentMut, table: &str, key: &str, new: toml_edit::Value) {
    let item = &mut doc[table][key];
    match item.as_value_mut() {
        Some(old) => {
            let decor = old.decor().clone();
            *old = new;
            *old.decor_mut() = decor;
        }
        None => *item = Item::Value(new),
    }
}

fn datetime(at: Timestamp) -> toml_edit::Datetime {
    at.to_string()
        .parse()
        .expect("a timestamp prints as a TOML datetime")
}

/// state/roster.toml listing the new players: the header comments kept,
/// the first player the admin, everyone joined now.
fn roster(text: &str, game: &NewGame) -> String {
    let header: String = text
        .lines()
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let mut out = header.trim_end().to_string();
    out.push('\n');
    for (i, p) in game.players.iter().enumerate() {
        out.push_str(&format!(
            "\n[[players]]\nname = \"{}\"\nlogin = \"{}\"\n{}joined = {}\n",
            p.name,
            p.login,
            if i == 0 { "admin = true\n" } else { "" },
            game.now
        ));
    }
    out
}

/// A TOML file without the top-level tables `drop` picks (the bundled
/// players' values and the collections' items, which belong to the bundled
/// roster), its header comment kept.
fn without_tables(
    text: &str,
    path: &str,
    drop: impl Fn(&str, &Item) -> bool,
) -> Result<String, SetupError> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| SetupError::Toml(path.into(), e.to_string()))?;
    let header: String = text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let dropped: Vec<String> = doc
        .iter()
        .filter(|(k, item)| drop(k, item))
        .map(|(k, _)| k.to_string())
        .collect();
    for key in dropped {
        doc.remove(&key);
    }
    let body = doc.to_string();
    Ok(if body.starts_with(&header) {
        body
    } else {
        format!("{header}{body}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::valid_branch;

    #[test]
    fn logins_on_forgejo_may_hold_underscores_and_dots() {
        for good in ["ada", "ada_b", "a.b-c", &"x".repeat(40)] {
            assert!(valid_forgejo_login(good), "{good}");
        }
        for bad in ["", "_ada", "ada.", "a._b", "ada b", "ädä", &"x".repeat(41)] {
            assert!(!valid_forgejo_login(bad), "{bad}");
        }
        assert_eq!(parse_player_on("ada_b", true).unwrap().login, "ada_b");
        assert!(matches!(
            parse_player_on("ada_b", false),
            Err(SetupError::BadLogin(_))
        ));
    }

    #[test]
    fn logins_are_checked_as_github_does() {
        for good in ["ada", "boris-b", "a1", &"x".repeat(39)] {
            assert!(valid_login(good), "{good}");
        }
        for bad in [
            "",
            "-ada",
            "ada-",
            "a--b",
            "ada b",
            "ada_b",
            "ädä",
            &"x".repeat(40),
        ] {
            assert!(!valid_login(bad), "{bad}");
        }
        assert_eq!(
            parse_player("Ada=ada-tinkers").unwrap(),
            NewPlayer {
                name: "Ada".into(),
                login: "ada-tinkers".into()
            }
        );
        assert!(matches!(
            parse_player("Ada.B=ada"),
            Err(SetupError::BadName(_))
        ));
        assert!(matches!(
            parse_player("ada b"),
            Err(SetupError::BadLogin(_))
        ));
    }

    #[test]
    fn branches_the_workflows_can_name() {
        assert!(valid_branch("main") && valid_branch("game/trunk"));
        for bad in ["", "a b", "-x", "x.lock", "a..b", "x/", "a,b", "[x]"] {
            assert!(!valid_branch(bad), "{bad}");
        }
    }

    const GAME: &str = "# header\n[game]\nname = \"Clockwork\"\nseed = \"old\"\n\n[dynasty]\nnumber = 1\nemperor = \"Wren\" # a name\nstarted = 2026-11-01T00:00:00Z\n";

    fn bundle() -> Vec<(&'static str, &'static [u8], bool)> {
        vec![
            ("state/game.toml", GAME.as_bytes(), false),
            (
                "state/roster.toml",
                b"# The players.\n\n[[players]]\nname = \"Wren\"\nlogin = \"wren-w\"\n",
                false,
            ),
            (
                "state/variables.toml",
                b"# Values.\n\n[globals]\nround = 1\n\n[players.Wren]\nsprings = 3\n",
                false,
            ),
            (
                "state/collections.toml",
                b"# Items.\n\n[[gadgets]]\nid = \"x\"\nowner = \"Wren\"\n",
                false,
            ),
            (
                ".github/workflows/check.yml",
                b"on:\n  push:\n    branches: [main]\n",
                false,
            ),
            ("scripts/fetch-pulls", b"#!/bin/sh\n", true),
            (
                ".forgejo/workflows/resolve.yml",
                b"on:\n  push:\n    branches: [main]\n# run: gitnomic --forge forgejo resolve\n",
                false,
            ),
            ("scripts/push-pages", b"#!/bin/sh\n", true),
            ("scripts/build-on-forgejo", b"#!/bin/sh\n", true),
        ]
    }

    fn text(files: &[OutFile], path: &str) -> String {
        let file = files.iter().find(|f| f.path == path).unwrap();
        String::from_utf8(file.bytes.clone()).unwrap()
    }

    #[test]
    fn a_new_game_has_its_players_branch_seed_and_start() {
        let game = NewGame {
            name: Some("Gears".into()),
            players: vec![
                parse_player("Ann=ann").unwrap(),
                parse_player("bob").unwrap(),
            ],
            branch: "trunk".into(),
            now: Timestamp::parse("2031-02-03T04:05:06Z").unwrap(),
            repo: Some("ann/gears".into()),
            actions: Actions::GitHub,
        };
        let files = files(&bundle(), &game).unwrap();
        let roster = text(&files, "state/roster.toml");
        assert!(roster.starts_with("# The players.\n"), "{roster}");
        assert!(
            roster.contains(
                "name = \"Ann\"\nlogin = \"ann\"\nadmin = true\njoined = 2031-02-03T04:05:06Z"
            ) && roster.contains("name = \"bob\"\nlogin = \"bob\"\njoined")
                && !roster.contains("Wren"),
            "{roster}"
        );
        let g = text(&files, "state/game.toml");
        assert!(
            g.contains("name = \"Gears\"") && g.contains("seed = \"gears-2031-02-03\""),
            "{g}"
        );
        assert!(
            g.contains("emperor = \"Ann\" # a name")
                && g.contains("started = 2031-02-03T04:05:06Z"),
            "{g}"
        );
        assert!(g.starts_with("# header\n"), "{g}");
        assert!(g.contains("repo = \"ann/gears\""), "{g}");
        let vars = text(&files, "state/variables.toml");
        assert!(
            vars.starts_with("# Values.") && vars.contains("round = 1") && !vars.contains("Wren"),
            "{vars}"
        );
        let items = text(&files, "state/collections.toml");
        assert!(
            items.starts_with("# Items.") && !items.contains("gadgets"),
            "{items}"
        );
        assert!(text(&files, ".github/workflows/check.yml").contains("branches: [trunk]"));
        assert!(text(&files, "README.md").starts_with("# Gears\n"));
        assert_eq!(text(&files, ".gitignore"), GITIGNORE);
        assert!(
            files
                .iter()
                .any(|f| f.path == "scripts/fetch-pulls" && f.executable)
        );
    }

    #[test]
    fn without_players_the_bundled_roster_stays() {
        let game = NewGame {
            name: None,
            players: Vec::new(),
            branch: "main".into(),
            now: Timestamp::parse("2031-02-03T04:05:06Z").unwrap(),
            repo: None,
            actions: Actions::GitHub,
        };
        let files = files(&bundle(), &game).unwrap();
        assert!(text(&files, "state/roster.toml").contains("wren-w"));
        assert!(!text(&files, "state/game.toml").contains("repo ="));
        assert!(text(&files, "state/game.toml").contains("emperor = \"Wren\" # a name"));
        assert!(text(&files, "README.md").starts_with("# Clockwork\n"));
        assert!(text(&files, ".github/workflows/check.yml").contains("branches: [main]"));
    }

    #[test]
    fn a_game_on_forgejo_gets_forgejos_workflows_and_not_githubs() {
        let game = NewGame {
            name: None,
            players: Vec::new(),
            branch: "trunk".into(),
            now: Timestamp::parse("2031-02-03T04:05:06Z").unwrap(),
            repo: Some("https://codeberg.org/ann/gears".into()),
            actions: Actions::Forgejo,
        };
        let files = files(&bundle(), &game).unwrap();
        assert!(!files.iter().any(|f| f.path.starts_with(".github/")));
        assert!(text(&files, ".forgejo/workflows/resolve.yml").contains("branches: [trunk]"));
        assert!(
            files
                .iter()
                .any(|f| f.path == "scripts/push-pages" && f.executable)
        );
        let readme = text(&files, "README.md");
        assert!(
            readme.contains("`.forgejo/workflows/`")
                && readme.contains("doctor --forge forgejo")
                && !readme.contains("GitHub"),
            "{readme}"
        );
        let github = files_for(Actions::GitHub);
        assert!(
            !github
                .iter()
                .any(|f| f.path.starts_with(".forgejo/") || f.path == "scripts/push-pages")
        );
        assert!(
            github
                .iter()
                .any(|f| f.path == ".github/workflows/check.yml")
        );
    }

    #[test]
    fn a_game_on_gitea_gets_the_workflows_in_giteas_folder_naming_gitea() {
        let files = files_for(Actions::Gitea);
        assert!(!files.iter().any(|f| f.path.starts_with(".github/")));
        assert!(!files.iter().any(|f| f.path.starts_with(".forgejo/")));
        let resolve = text(&files, ".gitea/workflows/resolve.yml");
        assert!(resolve.contains("--forge gitea"), "{resolve}");
        assert!(!resolve.contains("--forge forgejo"), "{resolve}");
        let readme = text(&files, "README.md");
        assert!(
            readme.contains("`.gitea/workflows/`")
                && readme.contains("doctor --forge gitea")
                && readme.contains("your Gitea server"),
            "{readme}"
        );
    }

    fn files_for(actions: Actions) -> Vec<OutFile> {
        let game = NewGame {
            name: None,
            players: Vec::new(),
            branch: "main".into(),
            now: Timestamp::parse("2031-02-03T04:05:06Z").unwrap(),
            repo: None,
            actions,
        };
        files(&bundle(), &game).unwrap()
    }

    #[test]
    fn refuses_what_cannot_make_a_game() {
        let now = Timestamp::parse("2031-02-03T04:05:06Z").unwrap();
        let twice = NewGame {
            name: None,
            players: vec![parse_player("ann").unwrap(), parse_player("Ann").unwrap()],
            branch: "main".into(),
            now,
            repo: None,
            actions: Actions::GitHub,
        };
        assert!(matches!(
            files(&bundle(), &twice),
            Err(SetupError::Twice(_))
        ));
        let branch = NewGame {
            players: Vec::new(),
            branch: "no way".into(),
            ..twice
        };
        assert!(matches!(
            files(&bundle(), &branch),
            Err(SetupError::BadBranch(_))
        ));
        let repo = NewGame {
            branch: "main".into(),
            repo: Some("javascript:alert(1)".into()),
            ..branch
        };
        assert!(matches!(
            files(&bundle(), &repo),
            Err(SetupError::BadRepo(_))
        ));
    }
}
