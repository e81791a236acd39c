//! The forge's web pages for the game's repository: where a player votes
//! (a matter's pull request or issue), proposes a change to a rule (the
//! forge's web editor for its file, which forks the repository and opens a
//! pull request for a player who cannot push to it) and opens a new
//! matter. The site links to them when it knows the repository's address.

use serde::Serialize;

/// The name the "New proposal" link gives a new rule's file, to change.
pub const NEW_RULE_FILE: &str = "new-rule.md";

/// What the "New proposal" link fills a new rule's file with: the front
/// matter every rule needs (its stable `id` and `title`; its number comes
/// from its place) and a line to replace with the rule's text.
pub const NEW_RULE: &str = "+++\nid = \"new-rule\"\ntitle = \"New Rule\"\n+++\nWhat the new rule says. Change the id and title above, and the file's name to match the id.\n";

/// `text` as a URL query value: every byte but unreserved ASCII
/// percent-encoded.
fn query(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The game's repository on its forge, as web addresses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ForgeWeb {
    /// `https://github.com/OWNER/NAME`.
    pub repo_url: String,
    /// The default branch, where proposals are merged.
    pub branch: String,
    /// The web editor of a file, less the file's path:
    /// `https://github.com/OWNER/NAME/edit/main/`.
    pub edit: String,
    /// A new rule file under `rules/dynastic/` in the web editor, filled
    /// in with a rule's front matter ([`NEW_RULE`]): a new proposal.
    pub new_proposal: String,
    /// A new issue labelled as a Call for Judgement.
    pub new_cfj: String,
    /// The open pull requests: where a build that asked no forge sends
    /// players to find the pending matters.
    pub open_pulls: String,
}

impl ForgeWeb {
    /// The repository `repo` on the forge at `server` (`https://github.com`),
    /// when both are well formed: `OWNER/NAME`, and an http(s) address.
    pub fn new(server: &str, repo: &str, branch: &str) -> Option<ForgeWeb> {
        let server = server.trim().trim_end_matches('/');
        let lower = server.to_ascii_lowercase();
        let web = (lower.starts_with("https://") || lower.starts_with("http://"))
            && crate::markdown::is_safe_url(server)
            && !server.contains(['"', '<', '>', ' ', '?', '#']);
        let part = |p: &str| {
            !p.is_empty()
                && p != "."
                && p != ".."
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        let valid_repo = matches!(repo.trim().split_once('/'), Some((o, n)) if part(o) && part(n));
        if !web || !valid_repo || !crate::game::valid_branch(branch) {
            return None;
        }
        let repo_url = format!("{server}/{}", repo.trim());
        Some(ForgeWeb {
            edit: format!("{repo_url}/edit/{branch}/"),
            new_proposal: format!(
                "{repo_url}/new/{branch}/rules/dynastic?filename={}&value={}",
                query(NEW_RULE_FILE),
                query(NEW_RULE)
            ),
            new_cfj: format!("{repo_url}/issues/new?labels=CfJ&title=CfJ%3A+"),
            open_pulls: format!("{repo_url}/pulls"),
            branch: branch.to_string(),
            repo_url,
        })
    }

    /// The repository a game's `[game] repo` setting names: `OWNER/NAME`
    /// on GitHub, or a whole `https://HOST/OWNER/NAME` address.
    pub fn from_setting(setting: &str, branch: &str) -> Option<ForgeWeb> {
        let setting = setting.trim().trim_end_matches('/');
        let Some(rest) = setting
            .strip_prefix("https://")
            .or_else(|| setting.strip_prefix("http://"))
        else {
            return ForgeWeb::new("https://github.com", setting, branch);
        };
        let (host, repo) = rest.split_once('/')?;
        let scheme = &setting[..setting.len() - rest.len()];
        ForgeWeb::new(&format!("{scheme}{host}"), repo, branch)
    }

    /// The thread of matter `number`, pull request or issue (GitHub
    /// sends an issue's address on to the pull request of that number).
    pub fn thread_url(&self, number: impl std::fmt::Display) -> String {
        format!("{}/issues/{number}", self.repo_url)
    }

    /// The page of commit `sha`.
    pub fn commit_url(&self, sha: &str) -> Option<String> {
        let hex = !sha.is_empty() && sha.bytes().all(|b| b.is_ascii_hexdigit());
        hex.then(|| format!("{}/commit/{sha}", self.repo_url))
    }
}

#[cfg(test)]
mod tests {
    use super::ForgeWeb;

    #[test]
    fn a_repository_gives_its_editor_and_new_matter_pages() {
        let f = ForgeWeb::new("https://github.com/", "ada/clockwork", "main").expect("valid");
        assert_eq!(f.repo_url, "https://github.com/ada/clockwork");
        assert_eq!(f.edit, "https://github.com/ada/clockwork/edit/main/");
        assert!(
            f.new_proposal.starts_with(
                "https://github.com/ada/clockwork/new/main/rules/dynastic?filename=new-rule.md&value=%2B%2B%2B%0Aid%20%3D%20%22new-rule%22"
            ),
            "{}",
            f.new_proposal
        );
        let rule = crate::ruleset::Ruleset::parse(&[crate::source::SourceFile::new(
            "rules/dynastic/new-rule.md",
            super::NEW_RULE,
        )]);
        assert!(rule.1.is_empty(), "the template is a rule: {}", rule.1);
        assert_eq!(rule.0.rules[0].id.as_str(), "new-rule");
        assert_eq!(
            f.commit_url("c0ffee").as_deref(),
            Some("https://github.com/ada/clockwork/commit/c0ffee")
        );
        assert_eq!(f.commit_url("not hex"), None);
    }

    #[test]
    fn a_setting_is_owner_and_name_or_a_whole_address() {
        let gh = ForgeWeb::from_setting("ada/clockwork", "main").expect("valid");
        assert_eq!(gh.repo_url, "https://github.com/ada/clockwork");
        let other = ForgeWeb::from_setting("https://git.example.org/ada/clockwork/", "trunk")
            .expect("valid");
        assert_eq!(other.repo_url, "https://git.example.org/ada/clockwork");
        assert_eq!(
            other.edit,
            "https://git.example.org/ada/clockwork/edit/trunk/"
        );
    }

    #[test]
    fn anything_else_is_no_address() {
        for (server, repo) in [
            ("javascript:alert(1)//", "a/b"),
            ("https://github.com", "a"),
            ("https://github.com", "a/b/c"),
            ("https://github.com", "a/\"b"),
            ("https://github.com", "../b"),
            ("ftp://x", "a/b"),
        ] {
            assert_eq!(ForgeWeb::new(server, repo, "main"), None, "{server} {repo}");
        }
        assert_eq!(ForgeWeb::from_setting("javascript:alert(1)", "main"), None);
        assert_eq!(ForgeWeb::new("https://github.com", "a/b", "-x"), None);
    }
}
