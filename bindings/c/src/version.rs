//! `hl_version`: which library a host compiled against and which it loaded.

use std::ffi::c_char;

/// The major version of this header.
pub const HL_VERSION_MAJOR: u32 = 0;
/// The minor version of this header.
pub const HL_VERSION_MINOR: u32 = 1;
/// The patch version of this header.
pub const HL_VERSION_PATCH: u32 = 0;

/// The version of the loaded library, `"MAJOR.MINOR.PATCH"` (e.g. `"0.1.0"`): a static
/// NUL-terminated string owned by the library, valid for the life of the process; do not free
/// it. Compare it with `HL_VERSION_MAJOR`/`_MINOR`/`_PATCH` to check that the header you compiled
/// against matches the library you loaded.
#[unsafe(no_mangle)]
pub extern "C" fn hl_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_version_is_the_crate_version() {
        let header = format!("{HL_VERSION_MAJOR}.{HL_VERSION_MINOR}.{HL_VERSION_PATCH}");
        assert_eq!(header, env!("CARGO_PKG_VERSION"));
        // SAFETY: hl_version returns a static NUL-terminated string.
        let loaded = unsafe { std::ffi::CStr::from_ptr(hl_version()) };
        assert_eq!(loaded.to_str(), Ok(env!("CARGO_PKG_VERSION")));
    }
}
