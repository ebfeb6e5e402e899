//! The sandbox: runs untrusted Lua/WASM bots under deterministic limits. It knows no game.
