//! The `arena` binary's progress display for tournaments (the library's `tournament::Progress`):
//! a bar on a terminal (indicatif), else (CI logs, `nohup`) a plain line every few seconds.

use std::time::{Duration, Instant};

use cardarena::tournament::Progress;
use indicatif::{ProgressBar, ProgressStyle};

/// Progress on stderr, one event at a time: a bar on a terminal; else (CI logs, `nohup`) a plain
/// line every few seconds. The estimate is the event's elapsed time per match finished, times
/// the matches left, shown once a few matches have finished.
pub struct Bar {
    bar: Option<ProgressBar>,
    plain: bool,
    state: std::sync::Mutex<ProgressState>,
}

struct ProgressState {
    event: String,
    total: u64,
    done: u64,
    started: Instant,
    last_line: Instant,
}

/// How often the plain progress line is printed.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

impl Bar {
    /// The bar on a terminal, plain lines elsewhere; nothing at all when not `enabled`.
    pub fn new(enabled: bool) -> Bar {
        use std::io::IsTerminal;
        let terminal = std::io::stderr().is_terminal();
        let bar = (enabled && terminal).then(|| {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} matches")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            bar
        });
        let now = Instant::now();
        Bar {
            bar,
            plain: enabled && !terminal,
            state: std::sync::Mutex::new(ProgressState {
                event: String::new(),
                total: 0,
                done: 0,
                started: now,
                last_line: now,
            }),
        }
    }
}

impl Progress for Bar {
    /// Starts the count of an event with `total` matches to play (none: nothing to show).
    fn event_started(&self, event: &str, total: u64) {
        if total == 0 {
            return;
        }
        let mut st = self.state.lock().expect("progress lock");
        *st = ProgressState {
            event: event.to_string(),
            total,
            done: 0,
            started: Instant::now(),
            last_line: Instant::now(),
        };
        if let Some(bar) = &self.bar {
            bar.reset();
            bar.set_length(total);
            bar.set_position(0);
            bar.set_message(format!("{event}: playing"));
        }
    }

    /// `n` more matches of the current event finished.
    fn matches_finished(&self, n: u64) {
        let mut st = self.state.lock().expect("progress lock");
        st.done += n;
        let line = st.line();
        if let Some(bar) = &self.bar {
            bar.set_position(st.done);
            bar.set_message(line.0);
        } else if self.plain && (st.last_line.elapsed() >= PLAIN_EVERY || st.done == st.total) {
            st.last_line = Instant::now();
            eprintln!("{} {}/{} matches{}", st.event, st.done, st.total, line.1);
        }
    }

    /// Prints `text` on stderr without breaking the bar.
    fn warning(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    }

    fn finished(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl ProgressState {
    /// The bar's message (event, rate and estimate) and the plain line's tail.
    fn line(&self) -> (String, String) {
        let secs = self.started.elapsed().as_secs_f64();
        // A few matches and a second first: the first matches also pay for loading the bots.
        if self.done < 4 || secs < 1.0 {
            return (self.event.clone(), String::new());
        }
        let rate = self.done as f64 / secs;
        let left = (self.total - self.done.min(self.total)) as f64 / rate;
        let tail = format!(", {rate:.0} matches/s, about {} left", human_secs(left));
        (format!("{}{tail}", self.event), tail)
    }
}

/// `secs` as `12s`, `3m05s` or `1h02m`.
fn human_secs(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}
