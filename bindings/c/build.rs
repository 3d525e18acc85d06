//! Generates `include/hunkloom.h` from this crate's `extern "C"` items with cbindgen.
//!
//! The header is committed; `make test-c` rebuilds and fails if it changed. cbindgen rewrites
//! the file only when its content changes, so a no-op build leaves its timestamp alone.

use std::path::PathBuf;

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("bindings/c/cbindgen.toml is readable and valid");
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen could not parse bindings/c/src")
        .write_to_file(crate_dir.join("../../include/hunkloom.h"));
}
