//! The planted-mistakes measure of `arena analyse` over many deals at the default budgets
//! (`cardarena::analyse::planted`; docs/tools.md has the results):
//! `cargo run --release --example analyse_marks [DEALS]`.

use cardarena::analyse::planted::{describe, measure};
use cardarena::analyse::Analyse;
use cardarena::games::blade::Blade;
use cardarena::games::intensity::Intensity;
use cardarena::games::lost_cities::LostCities;
use cardarena::play::Hosted;

fn run<G: Hosted + Analyse + cardarena::bots::Greedy>(deals: u64) {
    let start = std::time::Instant::now();
    let r = measure::<G>(1, deals, G::DEFAULT_BUDGET);
    println!("{} ({:.0} s)", describe::<G>(&r), start.elapsed().as_secs_f64());
}

fn main() {
    let deals = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    run::<Blade>(deals);
    run::<LostCities>(deals / 4);
    run::<Intensity>(deals);
}
