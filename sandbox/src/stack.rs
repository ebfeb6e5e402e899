//! Native stack for guest calls.
//!
//! WASM code may use up to `max_wasm_stack` (512 KiB) of the calling thread's stack, and
//! wasmtime aborts the process if the thread has less than that left. Lua nests up to 200 C
//! calls; the deepest path goes through the host's `gsub` (Lua → Rust → Lua …); its depth at
//! Lua's limit of 200 levels, in release and debug builds, is in docs/sandbox.md and sets the
//! thresholds below.
//!
//! Rather than trusting every caller's thread, each guest call checks the remaining stack and,
//! when it is short, runs on a freshly allocated segment (a small cost per call). A fresh 2 MiB
//! thread (Rust's default for spawned threads) has enough in release builds.

/// Switch to a new stack when less than this is left.
const RED_ZONE: usize = if cfg!(debug_assertions) {
    4 << 20
} else {
    3 << 19 // 1.5 MiB
};
/// Size of the new stack segment.
const NEW_STACK: usize = 8 << 20;

/// Runs `f` with at least [`RED_ZONE`] bytes of native stack available.
pub(crate) fn on_guest_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, NEW_STACK, f)
}
