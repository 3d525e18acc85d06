//! `_native.cli`: the `hunkloom` command run in this process, for the package's `hunkloom`
//! script and `python -m hunkloom` (so `pip install hunkloom`, `pipx run hunkloom` and
//! `uvx hunkloom` give the command without a second binary in the wheel).

use std::ffi::OsString;

use pyo3::prelude::*;

/// Runs the command with `args` (the program name first) and returns its exit status. The GIL
/// is released meanwhile (`hunkloom mcp` serves until its input ends). A bug inside hunkloom
/// is reported on standard error with status 101, as a crashed Rust program exits.
#[pyfunction]
pub(crate) fn cli(py: Python<'_>, args: Vec<OsString>) -> u8 {
    py.detach(
        move || match hunkloom_handle::catch(|| hunkloom_cli::run(args)) {
            Ok(status) => status,
            Err(e) => {
                eprintln!("hunkloom: {}", e.message());
                101
            }
        },
    )
}
