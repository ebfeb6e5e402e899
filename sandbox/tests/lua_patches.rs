//! vendor/lua-src is the pristine lua-src crate plus the patch files of
//! vendor/lua-src/patches/, no more and no less (`scripts/lua-patches.sh check`). After an edit
//! of the Lua sources, `scripts/lua-patches.sh export NAME` writes the edit as the next patch.

use std::path::Path;
use std::process::Command;

#[test]
fn vendored_lua_is_the_pristine_crate_plus_its_patch_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new("bash")
        .arg(root.join("scripts/lua-patches.sh"))
        .arg("check")
        .output()
        .expect("bash runs scripts/lua-patches.sh");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
