//! [`ApplierOptions`]: how a diff is read and applied, one type for every entry point that
//! applies one (a [`StreamingApplier`], [`apply_diff`], the file layer); each entry point fills
//! what is left unset with its own default.

use crate::error::Result;
use crate::policy::{Policy, PreviewForm};
use crate::roo::RooOptions;
use crate::stream::Dialect;
#[cfg(doc)]
use crate::stream::{StreamingApplier, apply_diff};

/// Options of a [`StreamingApplier`] and of [`apply_diff`].
///
/// The dialect is the one choice whose default differs by entry point: left unset, a
/// [`StreamingApplier`] reads [`Dialect::ClineV1`] (drop-in safety) and [`apply_diff`] (and
/// the file layer) [`Dialect::Native`].
///
/// ```
/// use hunkloom::{ApplierOptions, Dialect};
///
/// let unset = ApplierOptions::new();
/// assert_eq!(unset.streaming_dialect(), Dialect::ClineV1);
/// assert_eq!(unset.one_shot_dialect(), Dialect::Native);
/// let named = ApplierOptions::from_names(Some("udiff"), None, None, None)?;
/// assert_eq!(named.one_shot_dialect(), Dialect::Udiff);
/// # Ok::<(), hunkloom::Error>(())
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApplierOptions {
    /// How the diff is read and applied (default: unset, the entry point's own; see
    /// [`streaming_dialect`](Self::streaming_dialect) and
    /// [`one_shot_dialect`](Self::one_shot_dialect)).
    pub dialect: Option<Dialect>,
    /// What happens when some blocks fail (`native` and `udiff`; default: all or nothing).
    pub policy: Policy,
    /// How the Cline dialects of a [`StreamingApplier`] keep the preview (default: one string).
    pub preview: PreviewForm,
    /// The fuzzy threshold and buffer lines of the `roo` dialect (default: Roo's, 1.0 and 40).
    pub roo: RooOptions,
    /// `udiff-strict` only: count each hunk's lines from its body instead of trusting its
    /// `@@` header, as `git apply --recount` does (default: off).
    pub recount: bool,
}

/// The name [`apply_diff`] has always taken its options under: the same type.
pub type ApplyOptions = ApplierOptions;

impl ApplierOptions {
    /// The default options: every field at its default, the dialect unset.
    pub fn new() -> Self {
        Self::default()
    }

    /// Options from the names a binding receives, each `None` left at its default (an unknown
    /// name is the error its set gives: `invalid_dialect`, `invalid_policy`).
    pub fn from_names(
        dialect: Option<&str>,
        policy: Option<&str>,
        fuzzy_threshold: Option<f64>,
        buffer_lines: Option<usize>,
    ) -> Result<Self> {
        let mut options = ApplierOptions::new();
        if let Some(name) = dialect {
            options.dialect = Some(name.parse()?);
        }
        if let Some(name) = policy {
            options.policy = name.parse()?;
        }
        if let Some(threshold) = fuzzy_threshold {
            options.roo = options.roo.fuzzy_threshold(threshold);
        }
        if let Some(lines) = buffer_lines {
            options.roo = options.roo.buffer_lines(lines);
        }
        Ok(options)
    }

    /// Sets the dialect.
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = Some(dialect);
        self
    }

    /// Sets the failure policy (`native` and `udiff`).
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// Sets how the Cline dialects keep the preview.
    pub fn preview(mut self, form: PreviewForm) -> Self {
        self.preview = form;
        self
    }

    /// Sets the options of the `roo` dialect.
    pub fn roo(mut self, roo: RooOptions) -> Self {
        self.roo = roo;
        self
    }

    /// Sets `udiff-strict`'s `--recount`.
    pub fn recount(mut self, recount: bool) -> Self {
        self.recount = recount;
        self
    }

    /// The dialect a [`StreamingApplier`] reads: the one set, else [`Dialect::ClineV1`].
    pub fn streaming_dialect(&self) -> Dialect {
        self.dialect.unwrap_or(Dialect::ClineV1)
    }

    /// The dialect [`apply_diff`] and the file layer read: the one set, else
    /// [`Dialect::Native`].
    pub fn one_shot_dialect(&self) -> Dialect {
        self.dialect.unwrap_or(Dialect::Native)
    }
}
