//! Write [cardarena](../../../../README.md) bots in Rust, compiled to a WASM module.
//!
//! ```no_run
//! use cardarena_bot::{blade, Bot};
//!
//! #[derive(Default)]
//! struct FirstCard;
//!
//! impl Bot for FirstCard {
//!     type Observation = blade::Observation; // the game this bot plays
//!     fn act(&mut self, obs: &blade::Observation) -> String {
//!         obs.legal[0].clone() // one string of `obs.legal`
//!     }
//! }
//!
//! cardarena_bot::export_bot!(FirstCard);
//! ```
//!
//! Build it as a `cdylib` for `wasm32-unknown-unknown` (see `example_bots/README.md`):
//! `cargo build --release --target wasm32-unknown-unknown`, then
//! `arena play --game blade --bots target/wasm32-unknown-unknown/release/my_bot.wasm,random`.
//!
//! * [`Bot`]: the trait a bot implements. One value of the bot type lives for one match:
//!   created with `Default`, told about the match in [`Bot::init`], asked for every decision
//!   in [`Bot::act`].
//! * [`export_bot!`]: generates the module's exports (`alloc`, `init`, `act`; CONTRACT.md §3).
//! * The observation of each game, typed: [`blade`], [`ecard`], [`lost_cities`],
//!   [`intensity`] (field by field as in `docs/games/<game>.md`); [`AnyObservation`] for a
//!   bot that plays several games.
//! * [`log`] / [`log!`] write a line to the bot's log (the replay's `log` of the decision);
//!   [`budget_left`] is the fuel left for this decision.
//! * [`Rng`]: a small seeded random generator (seed it from [`InitInfo::seed`]).
//!
//! A panic (including an observation that cannot be parsed) logs its message and aborts: the
//! arena records the `crash` verdict with the log lines.

#![warn(missing_docs)]

pub mod blade;
pub mod ecard;
pub mod intensity;
pub mod lost_cities;

mod rng;

pub use rng::Rng;

use serde::de::DeserializeOwned;
use serde::Deserialize;

/// What a bot is told once, before its first decision (`init(info)` in CONTRACT.md §3).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct InitInfo {
    /// `"blade"`, `"ecard"`, `"lost-cities"` or `"intensity"`.
    pub game: String,
    /// The variant played (`docs/games/<game>.md`).
    pub variant: String,
    /// This bot's seat, from 0.
    pub seat: usize,
    /// The number of seats: 2, or 4 for Intensity.
    pub players: usize,
    /// The match seed: the same seed gives the same match. Seed your [`Rng`] with it.
    pub seed: u64,
}

/// A bot. One value lives for one match: created with [`Default::default`], then
/// [`Bot::init`] once, then [`Bot::act`] for every decision of its seat.
pub trait Bot: Default {
    /// The observation type of the game this bot plays, e.g. [`blade::Observation`], or
    /// [`AnyObservation`] to play several games.
    type Observation: DeserializeOwned;

    /// Called once before the first decision. The default does nothing.
    fn init(&mut self, info: &InitInfo) {
        let _ = info;
    }

    /// One decision: return one of the strings of the observation's `legal` list.
    fn act(&mut self, obs: &Self::Observation) -> String;
}

/// The observation of any game, dispatched on its `game` field.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyObservation {
    /// `"blade"`.
    Blade(blade::Observation),
    /// `"ecard"`.
    Ecard(ecard::Observation),
    /// `"lost-cities"`.
    LostCities(lost_cities::Observation),
    /// `"intensity"`.
    Intensity(intensity::Observation),
}

impl<'de> Deserialize<'de> for AnyObservation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = serde_json::Value::deserialize(d)?;
        let game = value.get("game").and_then(|g| g.as_str()).unwrap_or("").to_owned();
        let typed = match game.as_str() {
            "blade" => serde_json::from_value(value).map(AnyObservation::Blade),
            "ecard" => serde_json::from_value(value).map(AnyObservation::Ecard),
            "lost-cities" => serde_json::from_value(value).map(AnyObservation::LostCities),
            "intensity" => serde_json::from_value(value).map(AnyObservation::Intensity),
            other => return Err(D::Error::custom(format!("unknown game {other:?}"))),
        };
        typed.map_err(D::Error::custom)
    }
}

impl AnyObservation {
    /// The legal actions of any game's observation.
    pub fn legal(&self) -> &[String] {
        match self {
            AnyObservation::Blade(o) => &o.legal,
            AnyObservation::Ecard(o) => &o.legal,
            AnyObservation::LostCities(o) => &o.legal,
            AnyObservation::Intensity(o) => &o.legal,
        }
    }
}

/// The host functions (module `env`, both optional in the contract).
#[cfg(target_arch = "wasm32")]
mod host {
    #[link(wasm_import_module = "env")]
    extern "C" {
        #[link_name = "log"]
        pub fn log(ptr: *const u8, len: usize);
        #[link_name = "budget_left"]
        pub fn budget_left() -> i64;
    }
}

/// Writes one line to the bot's log (the `log` of the decision in the replay, and the game
/// log of `arena play`). Costs 100 fuel plus 1 per byte; the log is capped per match.
///
/// Outside WASM (native tests) it prints to stderr.
pub fn log(line: &str) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: the host reads `line.len()` bytes at `line.as_ptr()`, inside our memory.
    unsafe {
        host::log(line.as_ptr(), line.len())
    }
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("{line}");
}

/// `format!`-style [`log`]: `cardarena_bot::log!("hand {:?}", obs.hand)`.
#[macro_export]
macro_rules! log {
    ($($arg:tt)*) => {
        $crate::log(&::std::format!($($arg)*))
    };
}

/// The fuel left for this decision (already the smaller of the decision's budget and what is
/// left of the match's bank). One unit is about one WebAssembly instruction; the default
/// budget is 100 million per decision and 1 billion per match (`docs/bot-api.md`).
///
/// Outside WASM (native tests) it returns `i64::MAX`.
pub fn budget_left() -> i64 {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: a host function without arguments.
    unsafe {
        host::budget_left()
    }
    #[cfg(not(target_arch = "wasm32"))]
    i64::MAX
}

/// Generates the module's exports for a [`Bot`] type: `alloc(len) -> ptr`,
/// `init(ptr, len)` and `act(ptr, len) -> (reply_ptr << 32) | reply_len` (CONTRACT.md §3).
/// Use it once, in the bot's crate (a `cdylib`):
///
/// ```no_run
/// # #[derive(Default)] struct MyBot;
/// # impl cardarena_bot::Bot for MyBot {
/// #     type Observation = cardarena_bot::AnyObservation;
/// #     fn act(&mut self, obs: &Self::Observation) -> String { obs.legal()[0].clone() }
/// # }
/// cardarena_bot::export_bot!(MyBot);
/// ```
#[macro_export]
macro_rules! export_bot {
    ($bot:ty) => {
        const _: () = {
            ::std::thread_local! {
                static BOT: ::core::cell::RefCell<::core::option::Option<$bot>> =
                    const { ::core::cell::RefCell::new(::core::option::Option::None) };
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn alloc(len: i32) -> i32 {
                $crate::__private::alloc(len)
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn init(ptr: i32, len: i32) {
                $crate::__private::init::<$bot>(&BOT, ptr, len)
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn act(ptr: i32, len: i32) -> i64 {
                $crate::__private::act::<$bot>(&BOT, ptr, len)
            }
        };
    };
}

/// The implementation behind [`export_bot!`]. Not a stable API.
#[doc(hidden)]
pub mod __private {
    use std::cell::RefCell;
    use std::thread::LocalKey;

    use super::{Bot, InitInfo};

    thread_local! {
        /// The buffer the host writes the observation (or init info) into.
        static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        /// The last reply, kept alive until the host has read it (the next call).
        static REPLY: RefCell<String> = const { RefCell::new(String::new()) };
    }

    type Slot<B> = LocalKey<RefCell<Option<B>>>;

    /// Logs panic messages before the abort, once per instance.
    fn install_panic_hook() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            std::panic::set_hook(Box::new(|info| super::log(&format!("panic: {info}"))));
        });
    }

    /// `alloc(len)`: a buffer of `len` bytes for the host's input, reused from call to call.
    pub fn alloc(len: i32) -> i32 {
        install_panic_hook();
        INPUT.with(|buf| {
            let mut buf = buf.borrow_mut();
            buf.clear();
            buf.resize(len.max(0) as usize, 0);
            buf.as_mut_ptr() as usize as i32
        })
    }

    /// The input the host wrote at `ptr` (which must be the last `alloc`'s buffer).
    fn input<T>(ptr: i32, len: i32, parse: impl FnOnce(&[u8]) -> T) -> T {
        INPUT.with(|buf| {
            let buf = buf.borrow();
            // (Compared as 32-bit addresses: that is what they are in WASM; natively, in the
            // SDK's tests, the i32 holds the low half of the address.)
            assert!(
                ptr as u32 == buf.as_ptr() as usize as u32 && len as usize <= buf.len(),
                "the input is not in the buffer returned by alloc"
            );
            parse(&buf[..len as usize])
        })
    }

    fn parse<T: serde::de::DeserializeOwned>(what: &str, bytes: &[u8]) -> T {
        match serde_json::from_slice(bytes) {
            Ok(v) => v,
            Err(e) => {
                let start = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
                panic!("cardarena-bot: cannot read the {what} ({e}); it starts with {start}")
            }
        }
    }

    /// `init(ptr, len)`: a fresh bot, told about the match.
    pub fn init<B: Bot>(slot: &'static Slot<B>, ptr: i32, len: i32) {
        install_panic_hook();
        let info: InitInfo = input(ptr, len, |b| parse("init info", b));
        slot.with(|s| {
            let mut bot = B::default();
            bot.init(&info);
            *s.borrow_mut() = Some(bot);
        });
    }

    /// Tests: what the host does after `alloc`, and reading the reply back.
    #[cfg(test)]
    pub fn test_write(bytes: &[u8]) {
        INPUT.with(|buf| buf.borrow_mut()[..bytes.len()].copy_from_slice(bytes));
    }

    #[cfg(test)]
    pub fn test_reply() -> String {
        REPLY.with(|r| r.borrow().clone())
    }

    /// `act(ptr, len)`: one decision; the reply stays in memory until the next call.
    pub fn act<B: Bot>(slot: &'static Slot<B>, ptr: i32, len: i32) -> i64 {
        let obs: B::Observation = input(ptr, len, |b| parse("observation", b));
        let reply = slot.with(|s| s.borrow_mut().get_or_insert_with(B::default).act(&obs));
        REPLY.with(|r| {
            let mut r = r.borrow_mut();
            *r = reply;
            ((r.as_ptr() as usize as u64) << 32 | r.len() as u64) as i64
        })
    }
}

#[cfg(test)]
mod tests;
