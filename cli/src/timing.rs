//! `arena timing`: the CPU time per decision of every bot of a tournament file, for the zoo
//! (docs/zoo.md). Each bot plays a few deals against `greedy` in every other seat, once from each
//! seat; every decision is timed in the calling thread's CPU time (a clock that other processes
//! on the machine do not advance). Only the figures depend on the machine; the matches are the
//! same as anywhere.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use serde::Serialize;

use cardarena::bots::bot::{Bot, Fault};
use cardarena::games::rng::derive_seed;
use cardarena::games::Game;
use cardarena::play::registry::{self, BotSource, Loader};
use cardarena::play::runner::BotEntry;
use cardarena::play::{Hosted, Match};
use cardarena::tournament::config::Event;

/// One bot's time per decision.
#[derive(Clone, Debug, Serialize)]
pub struct BotTiming {
    /// The bot as written in the file.
    pub bot: String,
    /// Decisions timed.
    pub decisions: u64,
    /// Mean CPU milliseconds per decision.
    pub mean_ms: f64,
    /// The slowest decision, in CPU milliseconds.
    pub max_ms: f64,
}

/// The timings of one event.
#[derive(Clone, Debug, Serialize)]
pub struct EventTiming {
    /// The event's name.
    pub name: String,
    /// Its game.
    pub game: String,
    /// Deals per bot (each played once from every seat).
    pub deals: u32,
    /// How many levels the game's `strong` has (`strong:1` …).
    pub strong_levels: usize,
    /// The level plain `strong` plays.
    pub strong_default_level: usize,
    /// One row per bot, in file order.
    pub bots: Vec<BotTiming>,
}

/// A bot that adds the CPU time of each decision to `clock`.
struct Timed<G: Game> {
    inner: Box<dyn Bot<G>>,
    clock: Arc<Mutex<(u64, Duration, Duration)>>,
}

impl<G: Game> Bot<G> for Timed<G> {
    fn init(&mut self, info: &cardarena::bots::bot::InitInfo) -> Result<(), Fault> {
        self.inner.init(info)
    }

    fn take_log(&mut self) -> Vec<String> {
        self.inner.take_log()
    }

    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        let start = crate::bench::thread_cpu();
        let out = self.inner.act(obs);
        let spent = crate::bench::thread_cpu().saturating_sub(start);
        let mut c = self.clock.lock().unwrap_or_else(|e| e.into_inner());
        *c = (c.0 + 1, c.1 + spent, c.2.max(spent));
        out
    }
}

pub(crate) fn time_event<G: Hosted>(
    event: &Event,
    loader: &Loader,
    deals: u32,
) -> anyhow::Result<EventTiming> {
    let variant = registry::variant::<G>(event.variant.as_deref())?;
    let greedy = BotSource::Builtin("greedy".into());
    let mut rows = Vec::new();
    for (name, path) in event.bots.iter().zip(&event.bot_paths) {
        let source = loader.resolve::<G>(path).with_context(|| format!("event {:?}", event.name))?;
        let clock = Arc::new(Mutex::new((0u64, Duration::ZERO, Duration::ZERO)));
        for d in 0..deals {
            let seed = derive_seed(&[event.seed, u64::from(d)]);
            for seat in 0..G::PLAYERS {
                let sources: Vec<&BotSource> =
                    (0..G::PLAYERS).map(|s| if s == seat { &source } else { &greedy }).collect();
                let table = sources.iter().enumerate().fold(Match::<G>::new(variant, seed), |t, (s, src)| {
                    let entry: BotEntry = src.entry();
                    let limits = src.limits(&event.limits);
                    if s == seat {
                        let clock = clock.clone();
                        t.seat_wrapped(entry, src, limits.as_ref(), move |inner| {
                            Box::new(Timed { inner, clock })
                        })
                    } else {
                        t.seat_with(entry, src, limits.as_ref())
                    }
                });
                table.play();
            }
        }
        let (n, total, max) = *clock.lock().unwrap_or_else(|e| e.into_inner());
        rows.push(BotTiming {
            bot: name.clone(),
            decisions: n,
            mean_ms: total.as_secs_f64() * 1000.0 / n.max(1) as f64,
            max_ms: max.as_secs_f64() * 1000.0,
        });
    }
    let (strong_levels, strong_default_level) = G::builtin_levels().unwrap_or((0, 1));
    Ok(EventTiming {
        name: event.name.clone(),
        game: event.game.clone(),
        deals,
        strong_levels,
        strong_default_level,
        bots: rows,
    })
}
