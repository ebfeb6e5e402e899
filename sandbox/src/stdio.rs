//! The standard streams and deterministic sources of one run of a legacy stdin/stdout program,
//! kept in the WASM store's host state (`wasm.rs`) and used by the WASI functions (`wasi.rs`).

/// The standard streams and the deterministic sources of one run (in the store's host state).
#[derive(Default)]
pub(crate) struct Stdio {
    pub(crate) stdin: Vec<u8>,
    pub(crate) read: usize,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stdout_over: bool,
    /// stderr since its last newline.
    pub(crate) stderr_line: Vec<u8>,
    /// SplitMix64 state of `random_get`.
    pub(crate) random: u64,
    /// The run's fuel at its start (the clocks count the fuel used since).
    pub(crate) fuel_start: u64,
    /// The first NOSYS stub the program called.
    pub(crate) nosys: Option<String>,
}
