//! The choices every applier reads: what happens when some blocks fail ([`Policy`]) and how a
//! Cline preview is kept ([`PreviewForm`]). At the bottom of the engine with [`report`](crate::report),
//! so the dialects import them downward.

/// How a [`StreamingApplier`](crate::StreamingApplier) in a Cline dialect keeps its preview.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PreviewForm {
    /// One string, updated in place: [`preview`](crate::StreamingApplier::preview) costs nothing.
    #[default]
    Text,
    /// Ranges of the original plus new text ([`PieceText`](crate::text::PieceText)): no copy of the original per
    /// applier, and [`push_pieces`](crate::StreamingApplier::push_pieces) and
    /// [`finish_pieces`](crate::StreamingApplier::finish_pieces) describe the result without building
    /// it, for a binding that assembles it from slices of its own copy of the original (as the
    /// JavaScript binding does). [`preview`](crate::StreamingApplier::preview) builds the string on
    /// the first call after a push. The `native` dialect keeps its own pieces either way.
    Pieces,
}

/// What the `native` dialect does when some blocks of a diff fail.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Apply every block or none: any failure refuses the diff with an error (the default, so
    /// a model never leaves a file half edited).
    #[default]
    AllOrNothing,
    /// Apply the blocks that matched and report the others as failed in the [`Outcome`](crate::Outcome).
    Partial,
}

crate::names!(
    Policy {
        AllOrNothing => "all_or_nothing",
        Partial => "partial",
    },
    parse: InvalidPolicy,
    "policy"
);

#[cfg(test)]
mod tests {
    use super::Policy;
    use crate::ErrorKind;

    #[test]
    fn policy_names_round_trip_and_unknown_names_are_errors() {
        for &policy in Policy::ALL {
            assert_eq!(policy.as_str().parse::<Policy>(), Ok(policy));
        }
        let err = "some".parse::<Policy>().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidPolicy);
        assert_eq!(
            err.message(),
            "unknown policy 'some': expected one of all_or_nothing, partial"
        );
    }
}
