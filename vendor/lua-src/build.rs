//! mlua-sys's build script compiles the Lua sources of this crate (`lua-5.4.9/`), and cargo
//! rebuilds it only when this crate changes; the C files are not part of that by themselves.
//! Watching them here makes an edit of one (the `LUA_MASKFUEL` patch, say) rebuild this crate
//! and so rerun mlua-sys's build script, instead of linking the stale objects.
fn main() {
    println!("cargo:rerun-if-changed=lua-5.4.9");
}
