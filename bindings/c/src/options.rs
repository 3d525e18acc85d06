//! [`pl_applier_options`] and the [`pl_dialect`] values, converted to the engine's
//! [`ApplierOptions`].

use engine::{ApplierOptions, Dialect};

use crate::status::pl_status;

/// How a diff is read and applied: one of the `PL_DIALECT_` values.
///
/// A plain integer type rather than an enum so that any value a host passes is well-defined:
/// unknown values are rejected with `PL_STATUS_INVALID_OPTION`.
#[allow(non_camel_case_types)]
pub type pl_dialect = u32;

/// Cline v1 (`constructNewFileContentV1`), byte-identical with Cline v4.0.10. The default.
pub const PL_DIALECT_CLINE_V1: pl_dialect = 0;
/// Cline v2 (`constructNewFileContentV2`), byte-identical with Cline v4.0.10.
pub const PL_DIALECT_CLINE_V2: pl_dialect = 1;

/// Options of `pl_applier_new`. Zero-initialise it (`pl_applier_options opts = {0};`), which
/// selects every default, then set the fields you need; a NULL options pointer means the same.
/// Fields added in later versions will also default at zero.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pl_applier_options {
    /// A `PL_DIALECT_` value (default `PL_DIALECT_CLINE_V1`).
    pub dialect: pl_dialect,
}

impl pl_applier_options {
    /// The engine's options, or `InvalidOption` for a value the engine has no counterpart of.
    pub(crate) fn to_engine(self) -> Result<ApplierOptions, pl_status> {
        let dialect = match self.dialect {
            PL_DIALECT_CLINE_V1 => Dialect::ClineV1,
            PL_DIALECT_CLINE_V2 => Dialect::ClineV2,
            _ => return Err(pl_status::InvalidOption),
        };
        Ok(ApplierOptions::new().dialect(dialect))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_options_are_the_engine_defaults() {
        assert_eq!(
            pl_applier_options::default().to_engine(),
            Ok(ApplierOptions::default())
        );
    }

    #[test]
    fn every_engine_dialect_has_a_value() {
        for &dialect in Dialect::ALL {
            let found = (0..16).any(|value| {
                pl_applier_options { dialect: value }.to_engine()
                    == Ok(ApplierOptions::new().dialect(dialect))
            });
            assert!(found, "{dialect} has no PL_DIALECT_ value");
        }
        let unknown = pl_applier_options { dialect: 7 };
        assert_eq!(unknown.to_engine(), Err(pl_status::InvalidOption));
    }
}
