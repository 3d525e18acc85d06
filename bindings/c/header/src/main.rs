//! Writes the C header generated from `bindings/c/src` (with `bindings/c/cbindgen.toml`) to the
//! path given as the only argument.
//!
//! `make gen-c` writes it to `include/hunkloom.h` (committed); `make test-c` writes it elsewhere
//! and fails if it differs from the committed one. An ordinary `cargo build` never touches the
//! committed header.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(out) = std::env::args_os().nth(1) else {
        eprintln!("usage: hunkloom-c-header OUTPUT.h");
        return ExitCode::from(2);
    };
    let c_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let config = match cbindgen::Config::from_file(c_dir.join("cbindgen.toml")) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("bindings/c/cbindgen.toml: {e}");
            return ExitCode::FAILURE;
        }
    };
    match cbindgen::Builder::new()
        .with_config(config)
        .with_src(c_dir.join("src/lib.rs"))
        .generate()
    {
        Ok(bindings) => {
            bindings.write_to_file(out);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cbindgen could not parse bindings/c/src: {e}");
            ExitCode::FAILURE
        }
    }
}
