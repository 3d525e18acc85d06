//! The names bindings pass for closed sets of options (dialects, policies, insert conventions,
//! content fixes): one parser, so every set answers an unknown name the same way.

use crate::error::{Error, ErrorKind, Result};

/// The member of `all` called `s`, or an error of `kind` that lists the valid names:
/// `unknown <what> '<s>': expected one of <a>, <b>`.
pub(crate) fn parse<T: Copy>(
    s: &str,
    all: &[T],
    name: fn(T) -> &'static str,
    kind: ErrorKind,
    what: &str,
) -> Result<T> {
    all.iter().copied().find(|&t| name(t) == s).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|&t| name(t)).collect();
        Error::new(
            kind,
            format!("unknown {what} '{s}': expected one of {}", names.join(", ")),
        )
    })
}
