//! `cargo test` runs the example program and compares its output with examples/expected.txt,
//! the output every language's example prints.

#[test]
fn edit_file_prints_the_expected_output() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_edit_file"))
        .output()
        .expect("run edit_file");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = include_str!("../expected.txt");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}
