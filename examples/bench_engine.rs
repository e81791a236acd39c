//! The engine alone, for `scripts/bench-tally`: reads a scenario file
//! once, then runs `engine::resolve` (decisions and look-ahead) at its
//! `now` a number of times and prints the fastest run in milliseconds.
//! The process figure of `gitnomic tally` also counts reading the TOML
//! and writing the JSON; this one is what a resolve run spends deciding.
//!
//!   cargo run --release --example bench_engine -- FILE [RUNS]

use std::time::Instant;

use gitnomic::engine::{look_ahead, scenario};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: bench_engine FILE [RUNS]")?;
    let runs: usize = args.next().map_or(Ok(10), |r| r.parse())?;
    let text = std::fs::read_to_string(&path)?;
    let scenario = scenario::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let now = scenario.now.ok_or("the scenario has no `now`")?;
    let mut best = f64::INFINITY;
    let mut waiting = 0;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let run = look_ahead(&scenario.snapshot, now);
        best = best.min(start.elapsed().as_secs_f64() * 1000.0);
        waiting = run
            .decisions
            .iter()
            .filter(|d| d.next_change.is_some())
            .count();
    }
    println!("{best:.2} {waiting}");
    Ok(())
}
