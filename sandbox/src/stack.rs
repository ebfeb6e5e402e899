//! Native stack for guest calls.
//!
//! WASM code may use up to `max_wasm_stack` (512 KiB) of the calling thread's stack, and
//! wasmtime aborts the process if the thread has less than that left; Lua nests up to 200 C
//! calls (each a few KiB with the host callbacks in between). Rather than trusting every
//! caller's thread, each guest call checks the remaining stack and, when it is short, runs on
//! a freshly allocated segment. Threads with at least 4 MiB of stack never pay for that.

/// Switch to a new stack when less than this is left.
const RED_ZONE: usize = 2 << 20;
/// Size of the new stack segment.
const NEW_STACK: usize = 8 << 20;

/// Runs `f` with at least [`RED_ZONE`] bytes of native stack available.
pub(crate) fn on_guest_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, NEW_STACK, f)
}
