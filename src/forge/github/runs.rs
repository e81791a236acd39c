//! What `gitnomic timings` reads of a workflow's runs on GitHub: each
//! completed run's creation, end and event, and the times of the steps of
//! its job that holds the resolve step (one request for the runs, one per
//! run for its jobs).

use serde::Deserialize;

use super::{ForgeError, GitHubForge, dto};
use crate::forge::rest::codec::encode;
use crate::setup::timings::{RESOLVE_STEP, RunTimes, Step, Woken, billed_minutes};

#[derive(Deserialize)]
struct Runs {
    workflow_runs: Vec<Run>,
}

#[derive(Deserialize)]
struct Run {
    id: u64,
    run_number: u64,
    event: String,
    created_at: String,
    updated_at: String,
}

#[derive(Deserialize)]
struct Jobs {
    jobs: Vec<Job>,
}

#[derive(Deserialize)]
struct Job {
    started_at: String,
    completed_at: Option<String>,
    conclusion: Option<String>,
    #[serde(default)]
    steps: Vec<JobStep>,
}

impl Job {
    /// The minutes GitHub bills for it: none when it was skipped.
    fn billed(&self) -> Result<u32, ForgeError> {
        if self.conclusion.as_deref() == Some("skipped") {
            return Ok(0);
        }
        let Some(done) = &self.completed_at else {
            return Ok(0);
        };
        let span = dto::time(done)?.since(dto::time(&self.started_at)?);
        Ok(billed_minutes(span))
    }
}

#[derive(Deserialize)]
struct JobStep {
    name: String,
    conclusion: Option<String>,
    completed_at: Option<String>,
}

impl GitHubForge {
    /// The last `count` (at most 100) completed runs of `workflow` (its
    /// file name, e.g. `resolve.yml`), newest first, with the steps of the
    /// job that runs the resolve step (none if no job of a run has one).
    pub fn workflow_run_times(
        &self,
        workflow: &str,
        count: usize,
    ) -> Result<Vec<RunTimes>, ForgeError> {
        let count = count.clamp(1, 100);
        let path = format!(
            "/actions/workflows/{}/runs?status=completed&per_page={count}",
            encode(workflow)
        );
        let runs: Runs = self.read(&path, || {
            format!(
                "GitHub knows no workflow `{workflow}` in {}: push the game's workflows and \
                 enable Actions (`gitnomic doctor --forge github` says how)",
                self.rest.repo
            )
        })?;
        let mut out = Vec::new();
        for run in runs.workflow_runs {
            let path = format!("/actions/runs/{}/jobs?per_page=100", run.id);
            let jobs: Jobs = self.read(&path, || format!("run {} has gone", run.run_number))?;
            let mut billed = 0;
            for job in &jobs.jobs {
                billed += job.billed()?;
            }
            let job = jobs
                .jobs
                .into_iter()
                .find(|j| j.steps.iter().any(|s| s.name == RESOLVE_STEP));
            let (runner, steps) = match job {
                Some(job) => (Some(dto::time(&job.started_at)?), steps(job.steps)?),
                None => (None, Vec::new()),
            };
            out.push(RunTimes {
                number: run.run_number,
                woken: Woken::of_event(&run.event),
                created: dto::time(&run.created_at)?,
                runner,
                ended: dto::time(&run.updated_at)?,
                steps,
                billed,
            });
        }
        Ok(out)
    }
}

impl GitHubForge {
    /// A GET of `rest`; a 404 is the error `absent` says.
    fn read<T: for<'de> Deserialize<'de>>(
        &self,
        rest: &str,
        absent: impl FnOnce() -> String,
    ) -> Result<T, ForgeError> {
        self.get_json_or(rest, || ForgeError::Other(absent()))
    }
}

fn steps(steps: Vec<JobStep>) -> Result<Vec<Step>, ForgeError> {
    steps
        .into_iter()
        .map(|s| {
            Ok(Step {
                name: s.name,
                conclusion: s.conclusion,
                completed: s.completed_at.as_deref().map(dto::time).transpose()?,
            })
        })
        .collect()
}
