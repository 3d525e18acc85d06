//! The options structs ([`hl_applier_options`] for `hl_applier_new`, [`hl_apply_options`] for
//! `hl_apply_diff`) with the [`hl_dialect`] and [`hl_policy`] values, converted to the engine's
//! [`ApplierOptions`] and [`ApplyOptions`].

use engine::roo::RooOptions;
use engine::{ApplierOptions, ApplyOptions, Dialect, Policy};

use crate::failure::Failure;
use crate::status::hl_status;

/// Whether a write waits for the disk: one of the `HL_DURABILITY_` values, a field of
/// `hl_workspace_options`, `hl_text_editor_options` and `hl_toolset_options`. Any other value
/// is `HL_STATUS_OUT_OF_RANGE`.
#[allow(non_camel_case_types)]
pub type hl_durability = u32;

/// 0, the default: every written file, journal and directory is flushed (fsync) before the
/// call returns, so a commit that returned survives a power cut.
pub const HL_DURABILITY_FULL: hl_durability = 0;
/// Nothing is flushed (scratch trees, tests, benchmarks): a power cut may lose the last writes,
/// never tear a file.
pub const HL_DURABILITY_NONE: hl_durability = 1;

/// The file layer's durability for `value`.
pub(crate) fn engine_durability(value: hl_durability) -> Result<hunkloom_fs::Durability, Failure> {
    match value {
        HL_DURABILITY_FULL => Ok(hunkloom_fs::Durability::Full),
        HL_DURABILITY_NONE => Ok(hunkloom_fs::Durability::None),
        _ => Err(hl_status::OutOfRange.into()),
    }
}

/// How a diff is read and applied: one of the `HL_DIALECT_` values.
///
/// A plain integer type rather than an enum so that any value a host passes is well-defined: an
/// unknown value fails as the engine does for an unknown dialect name (status
/// `HL_STATUS_INVALID_OPTION`, code `invalid_dialect`).
#[allow(non_camel_case_types)]
pub type hl_dialect = u32;

/// 0, what a zero-initialised options struct holds: the default of the function the options go
/// to. `HL_DIALECT_CLINE_V1` for `hl_applier_new` (drop-in safety), `HL_DIALECT_NATIVE` for
/// `hl_apply_diff`.
pub const HL_DIALECT_DEFAULT: hl_dialect = 0;
/// Cline v1 (`constructNewFileContentV1`), byte-identical with Cline v4.0.10.
pub const HL_DIALECT_CLINE_V1: hl_dialect = 1;
/// Cline v2 (`constructNewFileContentV2`), byte-identical with Cline v4.0.10.
pub const HL_DIALECT_CLINE_V2: hl_dialect = 2;
/// `native`: apply what the model meant and refuse what is ambiguous or stale. Every marker
/// spelling (Cline's, aider's, Roo's); each block located independently of the others by tiers
/// from strict to loose (exact, line endings, trailing whitespace, indentation, typographic
/// punctuation, read-tool line numbers, blank lines, one typo); a SEARCH text found in several
/// places is refused (code `ambiguous_match`), one found nowhere too (`search_not_found`), two
/// blocks on overlapping lines too (`overlapping_blocks`), each with a message a model can act on.
pub const HL_DIALECT_NATIVE: hl_dialect = 3;
/// `roo`: Roo Code's `apply_diff` (`MultiSearchReplaceDiffStrategy`), byte-identical: blocks
/// applied in the order of their `:start_line:` hints, each located by similarity at the
/// options' `fuzzy_threshold` within `buffer_lines` of its hint; the blocks that fail are
/// reported (`HL_BLOCK_FAILED`, Roo's message) while the others apply, whatever the policy. A
/// diff none of whose blocks applied fails with the first failure's code and every failure's
/// message. An applier keeps the diff and applies it at `hl_applier_finish` (Roo sorts the
/// blocks first); its preview stays the original.
pub const HL_DIALECT_ROO: hl_dialect = 4;

/// `buffer_lines` value for no buffer lines at all (0 selects Roo's default, 40).
pub const HL_ROO_BUFFER_LINES_NONE: u32 = u32::MAX;
/// `udiff`: a unified diff of one file, applied as the model meant it: each hunk placed by its
/// context and removed lines (line numbers are only hints; wrong counts, missing headers, fences
/// and drifted whitespace are fine), in exactly one place or refused (`ambiguous_match` with
/// every candidate, `search_not_found` with the closest lines), all hunks or none. Streams hunk
/// by hunk; each hunk is reported as a block.
pub const HL_DIALECT_UDIFF: hl_dialect = 5;
/// `udiff-strict`: a unified diff applied exactly as `git apply` does (`recount` for
/// `git apply --recount`), failing with git's `error:` lines (codes `invalid_patch`,
/// `patch_context_not_found`). Applies at `hl_applier_finish` (its preview is the original
/// until then).
pub const HL_DIALECT_UDIFF_STRICT: hl_dialect = 6;

/// What the `native` dialect does when some blocks of a diff fail: one of the `HL_POLICY_`
/// values. The Cline dialects ignore it (they stop at the first failure, as Cline does).
///
/// A plain integer type rather than an enum so that any value a host passes is well-defined: an
/// unknown value fails as the engine does for an unknown policy name (status
/// `HL_STATUS_INVALID_OPTION`, code `invalid_policy`).
#[allow(non_camel_case_types)]
pub type hl_policy = u32;

/// Apply every block or none: any failed block refuses the whole diff with its error (the
/// default, so a model never leaves a file half edited).
pub const HL_POLICY_ALL_OR_NOTHING: hl_policy = 0;
/// Apply the blocks that matched; the result reports the others with status
/// `HL_BLOCK_FAILED` and their error (see `hl_block`, `hl_result_failed_count`).
pub const HL_POLICY_PARTIAL: hl_policy = 1;

/// Options of `hl_applier_new`. Zero-initialise it (`hl_applier_options opts = {0};`), which
/// selects every default (Cline v1, all or nothing), then set the fields you need; a NULL options
/// pointer means the same. Fields added in later versions will also default at zero.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct hl_applier_options {
    /// A `HL_DIALECT_` value (default, 0: `HL_DIALECT_CLINE_V1`).
    pub dialect: hl_dialect,
    /// A `HL_POLICY_` value (default, 0: `HL_POLICY_ALL_OR_NOTHING`; `native` and `udiff`).
    pub policy: hl_policy,
    /// `HL_DIALECT_ROO` only: the similarity a window needs to be replaced (Roo's
    /// `fuzzyThreshold`); 0 selects Roo's default, 1.0 (0.9 is Roo's 90% setting).
    pub fuzzy_threshold: f64,
    /// `HL_DIALECT_ROO` only: the lines searched around a `:start_line:` hint (Roo's
    /// `bufferLines`); 0 selects Roo's default, 40, and `HL_ROO_BUFFER_LINES_NONE` none.
    pub buffer_lines: u32,
    /// `HL_DIALECT_UDIFF_STRICT` only: count each hunk's lines from its body instead of
    /// trusting its `@@` header, as `git apply --recount` does (default, false: off).
    pub recount: bool,
}

/// Options of `hl_apply_diff`. Zero-initialise it (`hl_apply_options opts = {0};`), which
/// selects every default (`native`, all or nothing), then set the fields you need; a NULL options
/// pointer means the same. Fields added in later versions will also default at zero.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct hl_apply_options {
    /// A `HL_DIALECT_` value (default, 0: `HL_DIALECT_NATIVE`).
    pub dialect: hl_dialect,
    /// A `HL_POLICY_` value (default, 0: `HL_POLICY_ALL_OR_NOTHING`; `native` and `udiff`).
    pub policy: hl_policy,
    /// `HL_DIALECT_ROO` only: the similarity a window needs to be replaced (Roo's
    /// `fuzzyThreshold`); 0 selects Roo's default, 1.0 (0.9 is Roo's 90% setting).
    pub fuzzy_threshold: f64,
    /// `HL_DIALECT_ROO` only: the lines searched around a `:start_line:` hint (Roo's
    /// `bufferLines`); 0 selects Roo's default, 40, and `HL_ROO_BUFFER_LINES_NONE` none.
    pub buffer_lines: u32,
    /// `HL_DIALECT_UDIFF_STRICT` only: count each hunk's lines from its body instead of
    /// trusting its `@@` header, as `git apply --recount` does (default, false: off).
    pub recount: bool,
}

impl hl_applier_options {
    /// The engine's options, or the engine's error for a value it has no counterpart of.
    pub(crate) fn to_engine(self) -> Result<ApplierOptions, Failure> {
        engine_options(
            self.dialect,
            self.policy,
            self.fuzzy_threshold,
            self.buffer_lines,
            self.recount,
        )
    }
}

impl hl_apply_options {
    /// The engine's options, or the engine's error for a value it has no counterpart of.
    pub(crate) fn to_engine(self) -> Result<ApplyOptions, Failure> {
        engine_options(
            self.dialect,
            self.policy,
            self.fuzzy_threshold,
            self.buffer_lines,
            self.recount,
        )
    }
}

/// The engine's options for the fields both structs share; `HL_DIALECT_DEFAULT` leaves the
/// dialect unset, for the function the options go to to fill in.
fn engine_options(
    dialect_value: hl_dialect,
    policy_value: hl_policy,
    fuzzy_threshold: f64,
    buffer_lines: u32,
    recount: bool,
) -> Result<ApplierOptions, Failure> {
    let mut options = ApplierOptions::new()
        .policy(policy(policy_value)?)
        .roo(roo(fuzzy_threshold, buffer_lines))
        .recount(recount);
    options.dialect = dialect(dialect_value)?;
    Ok(options)
}

/// The engine's dialect for `value` (unset for `HL_DIALECT_DEFAULT`), or its `invalid_dialect`
/// error.
fn dialect(value: hl_dialect) -> Result<Option<Dialect>, Failure> {
    Ok(Some(match value {
        HL_DIALECT_DEFAULT => return Ok(None),
        HL_DIALECT_CLINE_V1 => Dialect::ClineV1,
        HL_DIALECT_CLINE_V2 => Dialect::ClineV2,
        HL_DIALECT_NATIVE => Dialect::Native,
        HL_DIALECT_ROO => Dialect::Roo,
        HL_DIALECT_UDIFF => Dialect::Udiff,
        HL_DIALECT_UDIFF_STRICT => Dialect::UdiffStrict,
        // The engine's own error for a name it does not know.
        other => other.to_string().parse::<Dialect>()?,
    }))
}

/// The `roo` dialect's options for the struct fields (0 selects Roo's defaults).
fn roo(fuzzy_threshold: f64, buffer_lines: u32) -> RooOptions {
    let mut roo = RooOptions::new();
    if fuzzy_threshold != 0.0 {
        roo = roo.fuzzy_threshold(fuzzy_threshold);
    }
    match buffer_lines {
        0 => {}
        HL_ROO_BUFFER_LINES_NONE => roo = roo.buffer_lines(0),
        n => roo = roo.buffer_lines(n as usize),
    }
    roo
}

/// The engine's policy for `value`, or its `invalid_policy` error.
pub(crate) fn policy(value: hl_policy) -> Result<Policy, Failure> {
    Ok(match value {
        HL_POLICY_ALL_OR_NOTHING => Policy::AllOrNothing,
        HL_POLICY_PARTIAL => Policy::Partial,
        // The engine's own error for a name it does not know.
        other => other.to_string().parse::<Policy>()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::hl_status;

    fn applier(dialect: hl_dialect, policy: hl_policy) -> Result<ApplierOptions, hl_status> {
        hl_applier_options {
            dialect,
            policy,
            ..Default::default()
        }
        .to_engine()
        .map_err(|f| f.status())
    }

    fn apply(dialect: hl_dialect, policy: hl_policy) -> Result<ApplyOptions, hl_status> {
        hl_apply_options {
            dialect,
            policy,
            ..Default::default()
        }
        .to_engine()
        .map_err(|f| f.status())
    }

    #[test]
    fn zeroed_options_are_the_engine_defaults() {
        assert_eq!(
            hl_applier_options::default().to_engine().ok(),
            Some(ApplierOptions::default())
        );
        assert_eq!(
            hl_apply_options::default().to_engine().ok(),
            Some(ApplyOptions::default())
        );
        assert_eq!(ApplyOptions::default().one_shot_dialect(), Dialect::Native);
        assert_eq!(
            ApplierOptions::default().streaming_dialect(),
            Dialect::ClineV1
        );
    }

    #[test]
    fn every_engine_dialect_has_a_value() {
        for &dialect in Dialect::ALL {
            let found = (1..16).any(|value| {
                applier(value, 0) == Ok(ApplierOptions::new().dialect(dialect))
                    && apply(value, 0) == Ok(ApplyOptions::new().dialect(dialect))
            });
            assert!(found, "{dialect} has no HL_DIALECT_ value");
        }
        assert_eq!(applier(9, 0), Err(hl_status::InvalidOption));
        assert_eq!(apply(u32::MAX, 0), Err(hl_status::InvalidOption));
    }

    #[test]
    fn roo_options_default_at_zero() {
        let roo = |fuzzy_threshold, buffer_lines| {
            hl_apply_options {
                dialect: HL_DIALECT_ROO,
                fuzzy_threshold,
                buffer_lines,
                ..Default::default()
            }
            .to_engine()
            .map(|o| o.roo)
            .ok()
        };
        assert_eq!(roo(0.0, 0), Some(RooOptions::default()));
        assert_eq!(
            roo(0.9, HL_ROO_BUFFER_LINES_NONE),
            Some(RooOptions::new().fuzzy_threshold(0.9).buffer_lines(0))
        );
        assert_eq!(
            roo(0.5, 7),
            Some(RooOptions::new().fuzzy_threshold(0.5).buffer_lines(7))
        );
    }

    #[test]
    fn every_engine_policy_has_a_value() {
        for &policy in Policy::ALL {
            let found = (0..16).any(|value| {
                applier(HL_DIALECT_NATIVE, value)
                    == Ok(ApplierOptions::new()
                        .dialect(Dialect::Native)
                        .policy(policy))
                    && apply(0, value) == Ok(ApplyOptions::new().policy(policy))
            });
            assert!(found, "{policy} has no HL_POLICY_ value");
        }
        assert_eq!(apply(0, 2), Err(hl_status::InvalidOption));
    }

    #[test]
    fn unknown_values_are_the_engines_errors() {
        for (failure, code, message) in [
            (
                hl_apply_options {
                    dialect: 9,
                    ..Default::default()
                }
                .to_engine()
                .err(),
                "invalid_dialect",
                "unknown dialect '9'",
            ),
            (
                hl_apply_options {
                    policy: 5,
                    ..Default::default()
                }
                .to_engine()
                .err(),
                "invalid_policy",
                "unknown policy '5'",
            ),
        ] {
            match failure {
                Some(Failure::Engine(e)) => {
                    assert_eq!(e.code(), code);
                    assert!(e.message().starts_with(message), "{}", e.message());
                }
                other => panic!("expected {code}, got {other:?}"),
            }
        }
    }
}
