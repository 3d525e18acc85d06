//! Gives libhunkloom.so a real SONAME, `libhunkloom.so.<abi>`, so a program linked against one
//! release loads only a library with the same C ABI. `<abi>` follows Cargo's compatibility rule
//! (as cargo-c does): the major version from 1.0 on, `0.<minor>` before it, since a 0.x minor
//! release may break the ABI. `make build-c`, `make dist` and `make install` create the
//! `libhunkloom.so.<abi>` and `libhunkloom.so` names next to the library.

fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_default();
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").unwrap_or_default();
    let abi = if major == "0" {
        format!("0.{minor}")
    } else {
        major
    };
    // ELF systems only; macOS and Windows name their libraries differently.
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if matches!(
        os.as_str(),
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly"
    ) {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libhunkloom.so.{abi}");
    }
}
