//! The sandbox's integration tests, in one test binary (wasmtime linked once): one module per
//! subject; `cargo test -p cardarena-sandbox --test it hostile::` runs one.

mod behaviour;
mod calibration;
mod hostile;
mod interp;
mod interp_python;
mod lua_patches;
mod math;
mod official;
mod wasi;
