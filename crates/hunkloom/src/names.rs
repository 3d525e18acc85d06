//! The names of closed sets: what bindings pass in (dialects, policies, insert conventions,
//! content fixes, profiles, durability), with one parser so every set answers an unknown name
//! the same way, and what they report (strategies, normalizations, block statuses, change
//! kinds), each declared once with [`names!`](crate::names!) so every language reports the same
//! strings and can list them all. The crates built on the engine declare theirs with it too.

use crate::error::{Error, ErrorKind, Result};

/// The member of `all` called `s`, or an error of `kind` that lists the valid names:
/// `unknown <what> '<s>': expected one of <a>, <b>`. What [`names!`](crate::names!)'s `FromStr`
/// calls.
pub fn parse<T: Copy>(
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
/// against them. With `parse: <ErrorKind variant>, "<what>"` the names are an input too: it
/// adds `FromStr` (an unknown name is that kind of error, naming the valid ones, by [`parse`])
/// and `Display` (the name).
///
/// ```
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// enum Speed { Fast, Slow }
/// hunkloom::names!(Speed { Fast => "fast", Slow => "slow" }, parse: InvalidInput, "speed");
///
/// assert_eq!("slow".parse::<Speed>().unwrap(), Speed::Slow);
/// assert_eq!(Speed::Fast.to_string(), "fast");
/// let e = "quick".parse::<Speed>().unwrap_err();
/// assert_eq!(e.message(), "unknown speed 'quick': expected one of fast, slow");
/// ```
#[macro_export]
macro_rules! names {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The stable snake_case name, as every binding passes and reports it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }
    };
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }, parse: $kind:ident, $what:literal) => {
        $crate::names!($ty { $($variant => $name),+ });

        impl ::core::str::FromStr for $ty {
            type Err = $crate::Error;

            fn from_str(s: &str) -> ::core::result::Result<Self, $crate::Error> {
                $crate::names::parse(s, $ty::ALL, $ty::as_str, $crate::ErrorKind::$kind, $what)
            }
        }

        impl ::core::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
