//! The `human` bot of `arena play`: a person at the terminal plays one seat.
//!
//! At each decision the person sees their seat's observation drawn by
//! [`View::render_observation`] (nothing their seat may not know) and the numbered legal moves,
//! and types a number or the move itself; anything else asks again. The end of the input
//! (Ctrl-D, a closed pipe) leaves the match: every later decision is a fault of the human seat
//! (verdict `invalid`, "the player left"), so in a two-player game the human forfeits.
//!
//! [`HumanLog`] shows the other seats' moves as they happen, only once their decision point is
//! applied (so a simultaneous choice is never shown before the person has chosen) and only as
//! much of them as the person's seat may know (an Intensity pass is shown without its cards).

use std::io::{BufRead, Write};

use cardarena::bots::bot::{Fault, Verdict};
use cardarena::games::view::View;
use cardarena::games::{Outcome, Seat};
use cardarena::play::person::{Person, Prompt};
use cardarena::play::runner::{DecisionRecord, FaultRecord, MatchObserver};

/// Longest input line read at once; a longer line is read (and refused) in pieces.
const MAX_LINE: u64 = 4096;

/// A person playing one seat through a reader (their keyboard) and a writer (their screen).
pub struct HumanBot {
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
    left: bool,
}

/// The person's answer to one prompt.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Move(String),
    Again(String),
}

/// Reads a typed line as a move: a number `1..=legal.len()` or one of the moves (exactly, or
/// ignoring case and surrounding spaces).
fn parse_answer(line: &str, legal: &[String]) -> Answer {
    let text = line.trim();
    if text.is_empty() {
        return Answer::Again(format!("type a number from 1 to {} or a move as written", legal.len()));
    }
    if let Ok(n) = text.parse::<usize>() {
        if (1..=legal.len()).contains(&n) {
            return Answer::Move(legal[n - 1].clone());
        }
        if !legal.iter().any(|l| l == text) {
            return Answer::Again(format!("{n} is not a number from 1 to {}", legal.len()));
        }
    }
    let squeezed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match legal.iter().find(|l| **l == squeezed || l.eq_ignore_ascii_case(&squeezed)) {
        Some(l) => Answer::Move(l.clone()),
        None => {
            let shown: String = text.chars().take(40).collect();
            Answer::Again(format!(
                "{shown:?} is not a legal move now; type a number from 1 to {} or a move as written",
                legal.len()
            ))
        }
    }
}

impl HumanBot {
    /// A human at this process's terminal (stdin, stdout).
    pub fn stdio() -> HumanBot {
        HumanBot::new(Box::new(std::io::BufReader::new(std::io::stdin())), Box::new(std::io::stdout()))
    }

    /// A human reading from `input` and writing to `output`.
    pub fn new(input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) -> HumanBot {
        HumanBot { input, output, left: false }
    }

    fn say(&mut self, text: &str) {
        // A closed screen is noticed at the next read; nothing to do here.
        let _ = self.output.write_all(text.as_bytes());
        let _ = self.output.flush();
    }

    /// One line, or `None` at the end of the input (or when it cannot be read at all).
    fn read_line(&mut self) -> Option<String> {
        let mut buf = Vec::new();
        match std::io::Read::take(&mut self.input, MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(String::from_utf8_lossy(&buf).into_owned()),
        }
    }
}

fn left_fault() -> Fault {
    Fault::new(Verdict::Invalid, "the player left the match (end of input)")
}

/// The person at the terminal answers the same prompts as a person on the ladder's page
/// (`cardarena::play::person`); `arena play` seats them with `PersonBot`.
impl Person for HumanBot {
    fn act(&mut self, prompt: &Prompt) -> Result<String, Fault> {
        if self.left {
            return Err(left_fault());
        }
        let legal = prompt.legal.clone();
        let mut text = format!("\n== your move (seat {}) ==\n", prompt.seat);
        text.push_str(&prompt.view);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("legal moves:\n");
        for (i, l) in legal.iter().enumerate() {
            text.push_str(&format!("  {:>2}) {l}\n", i + 1));
        }
        self.say(&text);
        loop {
            self.say(&format!("your move [1-{}, or the move]: ", legal.len()));
            let Some(line) = self.read_line() else {
                self.left = true;
                self.say("\nend of input: you leave the match (your seat forfeits)\n");
                return Err(left_fault());
            };
            match parse_answer(&line, &legal) {
                Answer::Move(m) => return Ok(m),
                Answer::Again(why) => self.say(&format!("{why}\n")),
            }
        }
    }
}

/// The `arena play` log when a person plays: the others' moves as the person may see them.
pub struct HumanLog {
    /// The person's seat.
    pub seat: Seat,
    /// The bots' names, in seat order.
    pub names: Vec<String>,
    /// Where it is written.
    pub output: Box<dyn Write + Send>,
}

impl HumanLog {
    fn say(&mut self, text: &str) {
        let _ = self.output.write_all(text.as_bytes());
        let _ = self.output.flush();
    }
}

impl<G: View> MatchObserver<G> for HumanLog {
    fn decision(&mut self, _index: usize, record: &DecisionRecord) {
        let line = if record.seat == self.seat {
            match (&record.played, &record.fault) {
                (Some(p), None) => format!("you: {p}\n"),
                (Some(p), Some(f)) => format!("you fault ({}); the arena plays {p} for you\n", f.verdict),
                (None, Some(f)) => format!("you fault ({}): {}\n", f.verdict, f.message),
                (None, None) => String::new(),
            }
        } else {
            let who = format!("seat {} ({})", record.seat, self.names[record.seat]);
            match (&record.played, &record.fault) {
                (Some(p), None) => format!("{who}: {}\n", G::public_action(p)),
                // a fault's message may tell what the bot knows: only the verdict is shown
                (Some(p), Some(f)) => {
                    format!("{who} faults ({}); the arena plays {}\n", f.verdict, G::public_action(p))
                }
                (None, Some(f)) => format!("{who} faults ({})\n", f.verdict),
                (None, None) => String::new(),
            }
        };
        self.say(&line);
    }

    fn fault(&mut self, seat: Seat, fault: &FaultRecord) {
        if fault.decision.is_none() {
            self.say(&format!("seat {seat} ({}) failed to start ({})\n", self.names[seat], fault.verdict));
        }
    }

    fn end(&mut self, outcome: &Outcome, state: &G) {
        let mut text = String::from("\n== the match is over ==\n");
        text.push_str(&state.render_state());
        if !text.ends_with('\n') {
            text.push('\n');
        }
        for (seat, name) in self.names.iter().enumerate() {
            let you = if seat == self.seat { " (you)" } else { "" };
            text.push_str(&format!(
                "  seat {seat} {name}{you}: {} {}, rank {}\n",
                outcome.points[seat],
                cardarena::play::games::points_word(G::FEWER_POINTS_BETTER),
                outcome.ranks[seat]
            ));
        }
        let verdict = match outcome.ranks[self.seat] {
            1 if outcome.ranks.iter().filter(|&&r| r == 1).count() > 1 => "a draw",
            1 => "you win",
            _ => "you lose",
        };
        text.push_str(&format!("Result: {verdict}\n"));
        self.say(&text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal() -> Vec<String> {
        vec!["play 7D".into(), "discard 7D".into(), "draw deck".into()]
    }

    #[test]
    fn numbers_and_move_texts_choose_a_move() {
        assert_eq!(parse_answer("2\n", &legal()), Answer::Move("discard 7D".into()));
        assert_eq!(parse_answer("  play   7d \n", &legal()), Answer::Move("play 7D".into()));
        assert_eq!(parse_answer("draw deck", &legal()), Answer::Move("draw deck".into()));
    }

    #[test]
    fn anything_else_asks_again() {
        for bad in ["", "0", "4", "-1", "play 8D", "99999999999999999999999"] {
            assert!(matches!(parse_answer(bad, &legal()), Answer::Again(_)), "{bad:?}");
        }
    }

    #[test]
    fn a_number_that_is_itself_a_move_is_the_move_when_out_of_range() {
        // Intensity-like moves are numbers too; in range, the number is the list position.
        let legal: Vec<String> = vec!["12".into(), "33".into()];
        assert_eq!(parse_answer("1", &legal), Answer::Move("12".into()));
        assert_eq!(parse_answer("33", &legal), Answer::Move("33".into()));
    }

    #[test]
    fn an_intensity_pass_of_another_seat_hides_its_cards() {
        // seed-games.md §4(b): the passed cards are seen only by the seat that receives them.
        use cardarena::games::{ecard::Ecard, intensity::Intensity};
        assert_eq!(Intensity::public_action("pass 12 33 47"), "passes three cards to its left");
        assert_eq!(Intensity::public_action("play 33"), "play 33");
        assert_eq!(Ecard::public_action("S"), "S");
    }
}
