//! vendor/lua-src is the pristine lua-src crate plus the patch files of
//! vendor/lua-src/patches/, no more and no less (`scripts/lua-patches.sh check`), and its README
//! lists each of them. After an edit of the Lua sources, `scripts/lua-patches.sh export NAME`
//! writes the edit as the next patch (then add it to the README's table).

use std::collections::BTreeSet;
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

/// vendor/lua-src/README.md's table of patches names exactly the files of patches/.
#[test]
fn the_readme_lists_every_patch_file() {
    let vendor = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vendor/lua-src");
    let files: BTreeSet<String> = std::fs::read_dir(vendor.join("patches"))
        .expect("vendor/lua-src/patches/")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".patch"))
        .collect();
    let readme = std::fs::read_to_string(vendor.join("README.md")).unwrap();
    let listed: BTreeSet<String> = readme
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .filter(|name| name.ends_with(".patch"))
        .map(str::to_owned)
        .collect();
    assert!(!files.is_empty());
    assert_eq!(listed, files, "vendor/lua-src/README.md's table against vendor/lua-src/patches/");
}
