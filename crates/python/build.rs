//! Lays out the extension module's hot code: the functions `tagloom.parse` runs
//! (`hot-functions.txt`, hottest first, written by `bench/hot_functions.py`) go first
//! in the module's text, next to each other. Without it a fat-LTO build scatters
//! them over about 1 MiB, where they evict each other from the instruction cache by
//! the luck of the build (BENCHMARKS.md, "From Python").
//!
//! Only for the bindings (the `python` feature) and only where rustc links with
//! lld by default (x86-64 Linux, GNU, rustc 1.90 and later), the linker that reads
//! the list: any other linker would refuse the option. A name the linker does not
//! find (a stale list) is skipped, silently. `TAGLOOM_LINK_ORDER=0` turns it off.

use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=hot-functions.txt");
    println!("cargo:rerun-if-env-changed=TAGLOOM_LINK_ORDER");
    if env::var_os("CARGO_FEATURE_PYTHON").is_none()
        || env::var("TAGLOOM_LINK_ORDER").is_ok_and(|v| v == "0")
        || !lld_by_default()
    {
        return;
    }
    let Some(dir) = env::var_os("CARGO_MANIFEST_DIR") else {
        return;
    };
    let list = Path::new(&dir).join("hot-functions.txt");
    if let Some(list) = list.to_str().filter(|_| list.is_file()) {
        println!("cargo:rustc-link-arg-cdylib=-Wl,--symbol-ordering-file={list}");
        println!("cargo:rustc-link-arg-cdylib=-Wl,--no-warn-symbol-ordering");
    }
}

/// Whether this build links with rustc's own lld: the x86-64 GNU/Linux target from
/// rustc 1.90 on, unless the flags choose a linker.
fn lld_by_default() -> bool {
    let target = |key: &str, value: &str| env::var(key).is_ok_and(|v| v == value);
    if !(target("CARGO_CFG_TARGET_ARCH", "x86_64")
        && target("CARGO_CFG_TARGET_OS", "linux")
        && target("CARGO_CFG_TARGET_ENV", "gnu"))
    {
        return false;
    }
    if env::var("CARGO_ENCODED_RUSTFLAGS").is_ok_and(|flags| flags.contains("link")) {
        return false;
    }
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("--version").output() else {
        return false;
    };
    // "rustc 1.95.0 (59807616e 2026-04-14)"
    let version = String::from_utf8_lossy(&out.stdout);
    let minor = version
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split('.').nth(1))
        .and_then(|m| m.parse::<u32>().ok());
    minor.is_some_and(|m| m >= 90)
}
