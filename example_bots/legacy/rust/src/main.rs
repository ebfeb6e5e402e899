//! An Intensity bot for the COMP1511 18s1 referee's protocol (one run per decision, integers on
//! stdin, the answer on stdout), compiled for wasm32-wasip1. It passes its three highest cards
//! and plays its lowest legal card. The `HashMap` makes the program ask WASI for random bytes
//! (its hash keys), which the arena answers deterministically.

use std::collections::HashMap;
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("stdin");
    let mut numbers = input.split_whitespace().map(|t| t.parse::<u32>().expect("an integer"));
    let mut out = io::stdout().lock();
    match numbers.next() {
        Some(0) => writeln!(out, "legacy rust example"),
        Some(1) => {
            let hand: Vec<u32> = numbers.take(10).collect();
            writeln!(out, "{} {} {}", hand[7], hand[8], hand[9])
        }
        Some(2) => {
            let mut next = || numbers.next().expect("more input");
            let (n_hand, n_played) = (next() as usize, next() as usize);
            let _position = next();
            let hand: Vec<u32> = (0..n_hand).map(|_| next()).collect();
            let played: Vec<u32> = (0..n_played).map(|_| next()).collect();
            let previous: Vec<u32> = (0..4 * (10 - n_hand)).map(|_| next()).collect();
            let mut by_suit: HashMap<u32, Vec<u32>> = HashMap::new();
            for &card in &hand {
                by_suit.entry(card / 10).or_default().push(card);
            }
            let calf = |c: &u32| (30..40).contains(c);
            let card = match played.first() {
                Some(led) => by_suit.get(&(led / 10)).map_or(hand[0], |cards| cards[0]),
                None if previous.iter().any(calf) || hand.iter().all(calf) => hand[0],
                None => hand.iter().copied().find(|c| !calf(c)).unwrap_or(hand[0]),
            };
            writeln!(out, "{card}")
        }
        _ => Ok(()),
    }
    .expect("stdout");
}
