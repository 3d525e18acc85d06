//! [`apply_diff`]: a whole diff applied at once, in any dialect (`native` by default).

use crate::error::Result;
use crate::roo::RooOptions;
use crate::stream::{ApplierOptions, Dialect, Outcome, Policy, StreamingApplier};

/// Options of [`apply_diff`]. Unlike [`ApplierOptions`] (whose default dialect is Cline v1, for
/// drop-in safety), the default dialect here is [`Dialect::Native`].
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApplyOptions {
    /// How the diff is read and applied (default: [`Dialect::Native`]).
    pub dialect: Dialect,
    /// What happens when some blocks fail (`native` only; default: all or nothing).
    pub policy: Policy,
    /// The fuzzy threshold and buffer lines of the `roo` dialect (default: Roo's, 1.0 and 40).
    pub roo: RooOptions,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions {
            dialect: Dialect::Native,
            policy: Policy::AllOrNothing,
            roo: RooOptions::default(),
        }
    }
}

impl ApplyOptions {
    /// The default options (`native`, all or nothing).
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the dialect.
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = dialect;
        self
    }

    /// Sets the failure policy (`native` only).
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// Sets the options of the `roo` dialect.
    pub fn roo(mut self, roo: RooOptions) -> Self {
        self.roo = roo;
        self
    }
}

impl From<&ApplyOptions> for ApplierOptions {
    fn from(o: &ApplyOptions) -> Self {
        ApplierOptions::new()
            .dialect(o.dialect)
            .policy(o.policy)
            .roo(o.roo)
    }
}

/// Applies a whole SEARCH/REPLACE diff to `original`: the new content and a report per block,
/// or an error with a stable [`code`](crate::Error::code).
///
/// In the default `native` dialect every block is located independently of the others by a
/// cascade of tiers, strictest first (exact, line endings, trailing whitespace, indentation,
/// typographic punctuation, read-tool line numbers, blank lines, one typo); a tier with two or
/// more candidates refuses the block (`ambiguous_match`) and a block found nowhere refuses it
/// (`search_not_found`), with a message a model can act on. By default a diff applies all its
/// blocks or none. The result is the same as streaming the diff through a
/// [`StreamingApplier`] in any chunking.
///
/// In the `roo` dialect the result is Roo's (see [`roo::apply_diff`](crate::roo::apply_diff)),
/// whatever the policy: the blocks that applied, and the others reported failed with Roo's
/// message; a diff none of whose blocks applied is refused with the first failure's code and
/// every failure's message, separated by blank lines.
///
/// ```
/// use hunkloom::{apply_diff, ApplyOptions, ErrorKind};
///
/// // The model's SEARCH text lost the file's indentation and CRLF line endings: still applied.
/// let original = "fn main() {\r\n    let x = 1;\r\n    println!(\"{x}\");\r\n}\r\n";
/// let diff = "<<<<<<< SEARCH\nlet x = 1;\nprintln!(\"{x}\");\n=======\n    let x = 2;\n    println!(\"{x}\");\n>>>>>>> REPLACE\n";
/// let outcome = apply_diff(diff, original, &ApplyOptions::default())?;
/// assert_eq!(outcome.new_content, "fn main() {\r\n    let x = 2;\r\n    println!(\"{x}\");\r\n}\r\n");
/// assert_eq!(outcome.blocks[0].strategy.as_str(), "indentation");
///
/// // A SEARCH text that occurs twice is refused rather than guessed.
/// let twice = "a = 1\nb = 2\na = 1\n";
/// let diff = "------- SEARCH\na = 1\n=======\na = 3\n+++++++ REPLACE\n";
/// let err = apply_diff(diff, twice, &ApplyOptions::default()).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::AmbiguousMatch);
/// assert_eq!(err.code(), "ambiguous_match");
/// // Where it matched: every candidate's span and 1-based lines.
/// let lines: Vec<usize> = err.matches().unwrap().iter().map(|m| m.line()).collect();
/// assert_eq!(lines, [1, 3]);
/// # Ok::<(), hunkloom::Error>(())
/// ```
pub fn apply_diff(diff: &str, original: &str, options: &ApplyOptions) -> Result<Outcome> {
    let mut applier = StreamingApplier::new(original, options.into());
    applier.push(diff);
    applier.finish()
}
