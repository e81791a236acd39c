//! Runs a job of the game's own workflow files against the fake GitHub, as
//! a runner would: step by step, each `if:` evaluated, the outputs a step
//! writes to `$GITHUB_OUTPUT` read back, every `run:` line run by bash in
//! the checkout (the binary under test standing in for
//! `./target/release/gitnomic`, with `--now` put after it). So what the
//! cost tests count is what the workflow files really do, not a list of
//! commands kept beside them.
//!
//! The subset of the workflow language read is the one the game's files
//! use (checked: anything else stops the test with what it met):
//! expressions of `==`, `!=`, `!`, `&&`, `||`, `endsWith`, string
//! literals and the contexts `github`, `runner`, `steps`, `needs`; actions
//! by name (a checkout is the game itself; caches keep their directories,
//! as a restore of the newest entry would; the site's artifact and its
//! deployment are noted). Each job gets a new token, as GitHub gives one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::fake::github::{FakeGitHub, REPO};
use crate::game_test::GameTest;

/// One step of a job, as written.
#[derive(Debug, Default, Clone)]
pub(crate) struct Step {
    pub(crate) id: Option<String>,
    pub(crate) name: Option<String>,
    pub(crate) condition: Option<String>,
    pub(crate) uses: Option<String>,
    pub(crate) run: Option<String>,
    pub(crate) env: Vec<(String, String)>,
}

/// One job of a workflow, as written.
#[derive(Debug, Default, Clone)]
pub(crate) struct Job {
    pub(crate) name: String,
    pub(crate) condition: Option<String>,
    pub(crate) needs: Vec<String>,
    pub(crate) uses: Option<String>,
    pub(crate) outputs: Vec<(String, String)>,
    pub(crate) timeout: Option<u32>,
    pub(crate) steps: Vec<Step>,
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// `key: value` with a trailing ` # comment` dropped (not inside quotes,
/// which the game's files never combine with one).
fn key_value(text: &str) -> Option<(String, String)> {
    let (key, value) = text.split_once(':')?;
    let mut value = value.trim().to_string();
    if !value.starts_with('"') && !value.starts_with('\'') {
        if let Some(at) = value.find(" #") {
            value.truncate(at);
        }
    }
    let value = value.trim();
    // A quoted scalar: its quotes are YAML's, not the value's.
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value)
        .to_string();
    Some((key.trim().to_string(), value))
}

/// The jobs of a workflow file, in the order written.
pub(crate) fn jobs(text: &str) -> Vec<Job> {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    let start = lines
        .iter()
        .position(|l| *l == "jobs:")
        .expect("a workflow has jobs");
    let mut jobs: Vec<Job> = Vec::new();
    let mut section = "";
    // Whether the lines deeper than a step's keys are its `env:`.
    let mut in_env = false;
    let mut i = start + 1;
    while i < lines.len() {
        let line = lines[i];
        let depth = indent(line);
        if depth == 0 {
            break;
        }
        let trimmed = line.trim_start();
        if depth == 2 {
            let name = trimmed.trim_end_matches(':').to_string();
            jobs.push(Job {
                name,
                ..Job::default()
            });
            section = "";
        } else if depth == 4 {
            let job = jobs.last_mut().expect("a job");
            let (key, value) = key_value(trimmed).expect("key: value");
            section = match key.as_str() {
                "if" => {
                    job.condition = Some(value);
                    ""
                }
                "needs" => {
                    job.needs = value
                        .trim_matches(['[', ']'])
                        .split(',')
                        .map(|s| s.trim().to_string())
                        .filter(|s| !s.is_empty())
                        .collect();
                    ""
                }
                "uses" => {
                    job.uses = Some(value);
                    ""
                }
                "timeout-minutes" => {
                    job.timeout = Some(value.parse().expect("minutes"));
                    ""
                }
                "outputs" => "outputs",
                "steps" => "steps",
                _ => "other",
            };
        } else if section == "outputs" && depth == 6 {
            let (key, value) = key_value(trimmed).expect("an output");
            jobs.last_mut().unwrap().outputs.push((key, value));
        } else if section == "steps" {
            let job = jobs.last_mut().unwrap();
            let text = if depth == 6 && trimmed.starts_with("- ") {
                job.steps.push(Step::default());
                &trimmed[2..]
            } else {
                trimmed
            };
            let step = job.steps.last_mut().expect("a step");
            if depth <= 8 {
                let (key, value) = key_value(text).expect("key: value");
                match key.as_str() {
                    "id" => step.id = Some(value),
                    "name" => step.name = Some(value),
                    "if" => step.condition = Some(value),
                    "uses" => step.uses = Some(value),
                    "run" => {
                        assert_ne!(value, "|", "run: scripts are one line here");
                        step.run = Some(value);
                    }
                    _ => {}
                }
                in_env = key == "env";
            } else if in_env && depth == 10 {
                step.env.push(key_value(text).expect("an env entry"));
            }
        }
        i += 1;
    }
    jobs
}

/// The values expressions read.
pub(crate) struct Contexts<'a> {
    pub(crate) github: &'a BTreeMap<String, String>,
    pub(crate) runner_temp: &'a str,
    pub(crate) steps: &'a BTreeMap<String, BTreeMap<String, String>>,
    pub(crate) needs: &'a BTreeMap<String, BTreeMap<String, String>>,
}

impl Contexts<'_> {
    fn lookup(&self, path: &str) -> String {
        let parts: Vec<&str> = path.split('.').collect();
        let found = match parts.as_slice() {
            ["github", rest @ ..] => self.github.get(&rest.join(".")).cloned(),
            ["runner", "temp"] => Some(self.runner_temp.to_string()),
            ["runner", "os"] => Some("Linux".into()),
            ["steps", id, "outputs", key] => Some(
                self.steps
                    .get(*id)
                    .and_then(|o| o.get(*key))
                    .cloned()
                    .unwrap_or_default(),
            ),
            ["needs", job, "outputs", key] => Some(
                self.needs
                    .get(*job)
                    .and_then(|o| o.get(*key))
                    .cloned()
                    .unwrap_or_default(),
            ),
            _ => None,
        };
        found.unwrap_or_else(|| {
            panic!("the workflow reads `{path}`, which this runner does not know")
        })
    }
}

/// Evaluates an expression (`${{ … }}` or the bare text of an `if:`).
pub(crate) fn evaluate(text: &str, contexts: &Contexts<'_>) -> String {
    let inner = text
        .trim()
        .strip_prefix("${{")
        .and_then(|t| t.strip_suffix("}}"))
        .unwrap_or(text);
    let tokens = tokenize(inner);
    let mut at = 0;
    let value = or(&tokens, &mut at, contexts);
    assert_eq!(at, tokens.len(), "unread expression left in `{text}`");
    value
}

/// Substitutes every `${{ … }}` in `text`.
pub(crate) fn interpolate(text: &str, contexts: &Contexts<'_>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").expect("a closed expression") + start + 2;
        out.push_str(&evaluate(&rest[start..end], contexts));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn truthy(value: &str) -> bool {
    !value.is_empty()
}

fn boolean(b: bool) -> String {
    if b { "true".into() } else { String::new() }
}

fn tokenize(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '\'' {
            let mut j = i + 1;
            while chars[j] != '\'' {
                j += 1;
            }
            tokens.push(chars[i..=j].iter().collect());
            i = j + 1;
        } else if "=!&|".contains(c) && chars.get(i + 1).is_some_and(|n| "=&|".contains(*n)) {
            tokens.push(chars[i..i + 2].iter().collect());
            i += 2;
        } else if "()!,".contains(c) {
            tokens.push(c.to_string());
            i += 1;
        } else {
            let mut j = i;
            while j < chars.len() && (chars[j].is_alphanumeric() || "._-".contains(chars[j])) {
                j += 1;
            }
            assert!(j > i, "unexpected `{c}` in `{text}`");
            tokens.push(chars[i..j].iter().collect());
            i = j;
        }
    }
    tokens
}

fn or(t: &[String], at: &mut usize, c: &Contexts<'_>) -> String {
    let mut left = and(t, at, c);
    while t.get(*at).is_some_and(|s| s == "||") {
        *at += 1;
        let right = and(t, at, c);
        left = if truthy(&left) { left } else { right };
    }
    left
}

fn and(t: &[String], at: &mut usize, c: &Contexts<'_>) -> String {
    let mut left = compare(t, at, c);
    while t.get(*at).is_some_and(|s| s == "&&") {
        *at += 1;
        let right = compare(t, at, c);
        left = if truthy(&left) { right } else { left };
    }
    left
}

fn compare(t: &[String], at: &mut usize, c: &Contexts<'_>) -> String {
    let left = unary(t, at, c);
    match t.get(*at).map(String::as_str) {
        Some(op @ ("==" | "!=")) => {
            *at += 1;
            let right = unary(t, at, c);
            // Comparisons of strings ignore case, as GitHub's do.
            let same = left.eq_ignore_ascii_case(&right);
            boolean(if op == "==" { same } else { !same })
        }
        _ => left,
    }
}

fn unary(t: &[String], at: &mut usize, c: &Contexts<'_>) -> String {
    let token = t[*at].clone();
    *at += 1;
    match token.as_str() {
        "!" => boolean(!truthy(&unary(t, at, c))),
        "(" => {
            let value = or(t, at, c);
            assert_eq!(t[*at], ")");
            *at += 1;
            value
        }
        "endsWith" | "startsWith" | "contains" => {
            assert_eq!(t[*at], "(");
            *at += 1;
            let a = or(t, at, c);
            assert_eq!(t[*at], ",");
            *at += 1;
            let b = or(t, at, c);
            assert_eq!(t[*at], ")");
            *at += 1;
            let (a, b) = (a.to_lowercase(), b.to_lowercase());
            boolean(match token.as_str() {
                "endsWith" => a.ends_with(&b),
                "startsWith" => a.starts_with(&b),
                _ => a.contains(&b),
            })
        }
        "true" => "true".into(),
        "false" => String::new(),
        literal if literal.starts_with('\'') => literal.trim_matches('\'').to_string(),
        path => c.lookup(path),
    }
}

/// What one workflow run did.
#[derive(Debug, Default)]
pub(crate) struct Ran {
    /// The jobs that ran (each billed a minute at least), in order.
    pub(crate) jobs: Vec<String>,
    /// The steps that ran, as `job: step`.
    pub(crate) steps: Vec<String>,
    /// Whether a site artifact was uploaded and deployed.
    pub(crate) deployed: bool,
    /// Requests sent to the fake: all, and those not answered 304.
    pub(crate) requests: (usize, usize),
}

/// A game checked out as a runner would check it out, beside the remote
/// (`hub`) it was cloned from, and the fake GitHub serving both.
pub(crate) struct Runner<'a> {
    pub(crate) game: &'a GameTest,
    pub(crate) fake: &'a FakeGitHub,
    /// Kept between runs, as the Actions cache would keep it.
    pub(crate) temp: PathBuf,
    pub(crate) workflows: PathBuf,
    pub(crate) jobs_started: usize,
}

impl<'a> Runner<'a> {
    pub(crate) fn new(game: &'a GameTest, fake: &'a FakeGitHub) -> Self {
        let temp = game.path("../").join(format!(
            "runner-temp-{}",
            game.root().file_name().unwrap().to_string_lossy()
        ));
        std::fs::create_dir_all(&temp).unwrap();
        let workflows = std::env::var_os("GITNOMIC_TEST_WORKFLOWS")
            .filter(|d| !d.is_empty())
            .map_or_else(
                || Path::new(env!("CARGO_MANIFEST_DIR")).join(".github/workflows"),
                PathBuf::from,
            );
        Runner {
            game,
            fake,
            temp,
            workflows,
            jobs_started: 0,
        }
    }

    /// Runs workflow `file` for an event `event` by `actor` at `now`.
    pub(crate) fn run(&mut self, file: &str, event: &str, actor: &str, now: &str) -> Ran {
        let before = self.fake.world().log.len();
        let mut ran = Ran::default();
        self.run_file(file, event, actor, now, &mut ran);
        let w = self.fake.world();
        let new = &w.log[before..];
        ran.requests = (new.len(), new.iter().filter(|r| r.status != 304).count());
        ran
    }

    fn run_file(&mut self, file: &str, event: &str, actor: &str, now: &str, ran: &mut Ran) {
        let text = std::fs::read_to_string(self.workflows.join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut needs: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        let mut done: BTreeMap<String, bool> = BTreeMap::new();
        for job in jobs(&text) {
            let ready = job
                .needs
                .iter()
                .all(|n| done.get(n).copied().unwrap_or(false));
            let github = self.github(event, actor);
            let steps_none = BTreeMap::new();
            let contexts = Contexts {
                github: &github,
                runner_temp: &self.temp.to_string_lossy(),
                steps: &steps_none,
                needs: &needs,
            };
            let wanted = job
                .condition
                .as_deref()
                .is_none_or(|c| truthy(&evaluate(c, &contexts)));
            if !ready || !wanted {
                done.insert(job.name.clone(), false);
                continue;
            }
            if let Some(called) = &job.uses {
                let called = called
                    .strip_prefix("./.github/workflows/")
                    .expect("a workflow of this repository");
                self.run_file(called, event, actor, now, ran);
                done.insert(job.name.clone(), true);
                continue;
            }
            let outputs = self.run_job(&job, event, actor, now, &needs, ran);
            needs.insert(job.name.clone(), outputs);
            done.insert(job.name.clone(), true);
        }
    }

    fn github(&self, event: &str, actor: &str) -> BTreeMap<String, String> {
        let token = format!("t0ken-job-{}", self.jobs_started);
        [
            ("event_name", event),
            ("actor", actor),
            ("token", token.as_str()),
            ("ref_name", "main"),
            ("run_id", "7"),
            ("run_attempt", "1"),
            ("event.repository.default_branch", "main"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
    }

    fn run_job(
        &mut self,
        job: &Job,
        event: &str,
        actor: &str,
        now: &str,
        needs: &BTreeMap<String, BTreeMap<String, String>>,
        ran: &mut Ran,
    ) -> BTreeMap<String, String> {
        self.jobs_started += 1;
        ran.jobs.push(job.name.clone());
        let github = self.github(event, actor);
        let temp = self.temp.to_string_lossy().into_owned();
        let mut steps: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        let output_file = self.temp.join("github-output");
        for step in &job.steps {
            let contexts = Contexts {
                github: &github,
                runner_temp: &temp,
                steps: &steps,
                needs,
            };
            if let Some(c) = &step.condition {
                if !truthy(&evaluate(c, &contexts)) {
                    continue;
                }
            }
            let label = step
                .name
                .clone()
                .or_else(|| step.uses.clone())
                .or_else(|| step.run.clone())
                .unwrap_or_default();
            ran.steps.push(format!("{}: {label}", job.name));
            let mut outputs = BTreeMap::new();
            if let Some(action) = &step.uses {
                let action = action.split('@').next().unwrap();
                match action {
                    // The checkout is the game itself; a save and an
                    // upload leave the directories as they are.
                    "actions/checkout" | "actions/cache/save" | "actions/upload-pages-artifact" => {
                    }
                    "actions/cache" | "actions/cache/restore" => {
                        // The binary is always built already; other
                        // caches keep their directories between runs.
                        outputs.insert("cache-hit".into(), "true".into());
                    }
                    "actions/deploy-pages" => ran.deployed = true,
                    other => panic!("the runner does not know the action {other}"),
                }
            }
            if let Some(line) = &step.run {
                let env: Vec<(String, String)> = step
                    .env
                    .iter()
                    .map(|(k, v)| (k.clone(), interpolate(v, &contexts)))
                    .collect();
                std::fs::write(&output_file, "").unwrap();
                self.run_line(line, &env, now, &output_file, event);
                for l in std::fs::read_to_string(&output_file).unwrap().lines() {
                    let (k, v) = l.split_once('=').expect("name=value outputs");
                    outputs.insert(k.to_string(), v.to_string());
                }
            }
            if let Some(id) = &step.id {
                steps.insert(id.clone(), outputs);
            }
        }
        let contexts = Contexts {
            github: &github,
            runner_temp: &temp,
            steps: &steps,
            needs,
        };
        job.outputs
            .iter()
            .map(|(k, v)| (k.clone(), interpolate(v, &contexts)))
            .collect()
    }

    fn run_line(
        &self,
        line: &str,
        env: &[(String, String)],
        now: &str,
        output: &Path,
        event: &str,
    ) {
        if line.trim_start().starts_with("cargo build") {
            panic!("the binary is restored from the cache in these runs");
        }
        let script = line
            .replace(
                "./target/release/gitnomic",
                "\"$GITNOMIC_TEST_BIN\" --now \"$GITNOMIC_TEST_NOW\"",
            )
            .replace(
                "scripts/",
                &format!("{}/scripts/", env!("CARGO_MANIFEST_DIR")),
            );
        let mut command = Command::new("bash");
        command
            .args(["-euo", "pipefail", "-c", &script])
            .current_dir(self.game.root())
            .env("GITNOMIC_TEST_BIN", env!("CARGO_BIN_EXE_gitnomic"))
            .env("GITNOMIC_TEST_NOW", now)
            .env("GITHUB_OUTPUT", output)
            .env("GITHUB_REF_NAME", "main")
            .env("GITHUB_EVENT_NAME", event)
            .env("GITHUB_API_URL", self.fake.url.as_str())
            .env("GITHUB_REPOSITORY", REPO)
            .env("GITNOMIC_NO_RETRY_WAIT", "1")
            .env_remove("GITHUB_TOKEN")
            .env_remove("GITNOMIC_HTTP_CACHE");
        for (k, v) in env {
            command.env(k, v);
        }
        let out = command.output().expect("bash runs");
        if std::env::var_os("GITNOMIC_TEST_SHOW_STEPS").is_some() {
            println!(
                "$ {line}\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert!(
            out.status.success(),
            "`{line}` failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
