//! What the GitHub and Forgejo adapters share: one repository reached over
//! a REST API with a token. The HTTP client with its retries, rate limits
//! and reply bound ([`http`]), the threads kept between runs ([`threads`]),
//! the encodings of paths and files ([`codec`]), and [`Rest`]: the
//! client, the repository, and what a run has learnt of it, so each
//! adapter holds only what its forge's shapes and routes make its own.

pub(crate) mod codec;
pub(crate) mod http;
pub(crate) mod threads;

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

pub(crate) use self::http::Sleeper;
use self::http::{Client, Flavor, Reply, Sent};
use super::{ForgeComment, ForgeError, MatterNumber};
use crate::time::Timestamp;

/// Where and as whom to reach a forge's API.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The API's base URL (`https://api.github.com`,
    /// `https://codeberg.org/api/v1`).
    pub api: String,
    /// `owner/name`.
    pub repo: String,
    /// The token.
    pub token: String,
    /// The default branch.
    pub base: String,
    /// The login the token acts as (`github-actions[bot]`,
    /// `forgejo-actions`).
    pub bot: String,
}

/// One repository on a forge, and what this run has read of it.
pub(crate) struct Rest {
    pub(crate) client: Client,
    pub(crate) repo: String,
    pub(crate) base: String,
    pub(crate) bot: String,
    /// The API's base URL, which the cache file is stamped with.
    pub(crate) api: String,
    /// Whether each number read this run is a pull request, so a thread
    /// is read without asking again what it is.
    pub(crate) pulls: RefCell<HashMap<MatterNumber, bool>>,
    /// The bot's status comment on each thread read this run, so writing
    /// the status does not read the thread again.
    pub(crate) statuses: RefCell<HashMap<MatterNumber, Option<ForgeComment>>>,
    /// The files each pull request changes, as read once in this process:
    /// a `check` of every open matter asks, for each, the files of every
    /// one opened before it (limits count only matters), so without this
    /// a check of n matters read n²/2 lists.
    pub(crate) changed: RefCell<HashMap<MatterNumber, Vec<String>>>,
    /// Files of the default branch read this run (blob SHA and text, or
    /// absent), so writing one does not read it again; forgotten when a
    /// merge moves the branch or a write's outcome is unknown.
    pub(crate) files: RefCell<HashMap<String, Option<(String, String)>>>,
    /// The labels of each matter read this run, kept up to date by this
    /// run's writes, so a label it does not have is not removed.
    pub(crate) labels: RefCell<HashMap<MatterNumber, Vec<String>>>,
    /// Each pull request's head as this run read it (`None`: not open), so
    /// a merge needs no read first when the run already knows.
    pub(crate) heads: RefCell<HashMap<MatterNumber, Option<String>>>,
    /// Where ETags and threads are kept between runs, if anywhere.
    cache_file: Option<PathBuf>,
    /// Threads kept between runs (see [`threads`]).
    pub(crate) threads: RefCell<threads::Threads>,
}

impl Rest {
    /// The repository `settings` name, spoken as `flavor` says, waiting
    /// between retries with `sleep`.
    pub(crate) fn new(settings: &Settings, sleep: Sleeper, flavor: Flavor) -> Self {
        Rest {
            client: Client::new(&settings.api, &settings.token, sleep, flavor),
            repo: settings.repo.clone(),
            base: settings.base.clone(),
            bot: settings.bot.clone(),
            api: settings.api.trim_end_matches('/').to_string(),
            pulls: RefCell::default(),
            statuses: RefCell::default(),
            changed: RefCell::default(),
            files: RefCell::default(),
            labels: RefCell::default(),
            heads: RefCell::default(),
            cache_file: None,
            threads: RefCell::new(threads::Threads::new(
                Timestamp::from_unix(0),
                threads::DEFAULT_MAX_AGE_HOURS,
            )),
        }
    }

    /// The API path of `rest` within the repository.
    pub(crate) fn path(&self, rest: &str) -> String {
        format!("/repos/{}{rest}", self.repo)
    }

    /// Sends a write; an uncertain outcome becomes `Err(why)` for the
    /// caller to settle, a certain one its reply.
    pub(crate) fn send(
        &self,
        method: &str,
        rest: &str,
        body: &serde_json::Value,
    ) -> Result<Result<Reply, String>, ForgeError> {
        Ok(match self.client.write(method, &self.path(rest), body)? {
            Sent::Done(reply) => Ok(reply),
            Sent::Unknown(why) => Err(why),
        })
    }

    /// Sends a write whose repetition is harmless (it sets, not adds):
    /// once more after an uncertain outcome, then reports.
    pub(crate) fn send_settable(
        &self,
        method: &str,
        rest: &str,
        body: &serde_json::Value,
    ) -> Result<Reply, ForgeError> {
        match self.send(method, rest, body)? {
            Ok(reply) => Ok(reply),
            Err(_) => self.send(method, rest, body)?.map_err(ForgeError::Other),
        }
    }

    /// Keeps the ETags and threads for the next run, if a file was named,
    /// and says what the run cost.
    fn keep(&self) {
        let (sent, not_modified) = self.client.counts();
        let forge = self.client.forge_name();
        tracing::info!(
            "{forge}: {sent} requests, {not_modified} answered 304 (no rate limit spent)"
        );
        let Some(path) = &self.cache_file else {
            return;
        };
        let file = self
            .threads
            .borrow()
            .file(&self.api, &self.repo, self.client.etags());
        let saved = serde_json::to_string(&file)
            .map_err(std::io::Error::other)
            .and_then(|text| {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                // Whole or not at all: a run killed mid-write must not
                // leave half a cache for the next one.
                let tmp = path.with_extension("tmp");
                crate::staging::write_durably(&tmp, path, text.as_bytes())
            });
        if let Err(e) = saved {
            tracing::warn!(
                "could not keep {forge}'s threads in {}: {e}",
                path.display()
            );
        }
    }
}

impl Drop for Rest {
    fn drop(&mut self) {
        self.keep();
    }
}

/// How a run sets up an adapter over [`Rest`]: written once for both.
pub(crate) trait Configure: Sized {
    /// The shared part, to set up.
    #[doc(hidden)]
    fn rest_mut(&mut self) -> &mut Rest;

    /// Keeps ETags and replies in `path` between runs, so what has not
    /// changed since the last run is answered 304 (which costs no rate
    /// limit with the same token), and each matter's thread with its
    /// `updated_at`, so an unchanged thread is not read at all (see
    /// [`threads`]; CI restores and saves the file with its cache). A file
    /// that is missing, unreadable, of another format or of another
    /// repository is ignored.
    #[must_use]
    fn with_cache_file(mut self, path: PathBuf) -> Self {
        let rest = self.rest_mut();
        if let Some(mut kept) = threads::Threads::load(&path, &rest.api, &rest.repo) {
            rest.threads.borrow_mut().adopt(&mut kept);
            rest.client.set_etags(std::mem::take(&mut kept.etags));
        }
        rest.cache_file = Some(path);
        self
    }

    /// Reads every thread again once its kept copy is `hours` old, however
    /// still its matter's `updated_at` stands (see [`threads`]).
    #[must_use]
    fn with_thread_max_age(mut self, hours: i64) -> Self {
        self.rest_mut().threads.borrow_mut().set_max_age(hours);
        self
    }

    /// Reckons rate-limit resets from `now` (the run's moment, advanced by
    /// every wait), and waits at most `max_wait` in all before stopping with
    /// [`ForgeError::RateLimited`] (by default 300 s from the epoch).
    #[must_use]
    fn with_clock(mut self, now: Timestamp, max_wait: Duration) -> Self {
        let rest = self.rest_mut();
        rest.client.set_clock(now, max_wait);
        rest.threads.borrow_mut().set_clock(now);
        self
    }

    /// Reads no reply longer than `bytes` ([`crate::bounds::REPLY_BYTES`]
    /// by default).
    #[must_use]
    fn with_max_reply(mut self, bytes: u64) -> Self {
        self.rest_mut().client.set_max_reply(bytes);
        self
    }
}
