//! The names of closed sets: what bindings pass in (dialects, policies, insert conventions,
//! content fixes), with one parser so every set answers an unknown name the same way, and what
//! they report (strategies, normalizations, block statuses, change kinds), each declared once
//! with [`names!`] so every language reports the same strings and can list them all.

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

/// Declares the stable snake_case names of a fieldless enum once: `as_str()` and `ALL` (every
/// value in declaration order), which bindings export so their type declarations can be checked
/// against them.
macro_rules! names {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The stable snake_case name, as every binding reports it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }
    };
}
pub(crate) use names;
