//! Apply a model's edit to a file on disk: stream it into a live view, write it through a
//! `Workspace`, let a wrong edit be refused, and undo. Run: `cargo run -p hunkloom-examples
//! --bin edit_file`; it prints what examples/expected.txt holds.

use hunkloom::{ApplierOptions, ApplyOptions, Dialect, StreamingApplier};
use hunkloom_fs::{Workspace, WorkspaceOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A project with a Windows (CRLF) file, and the edit a model streams for it (LF, as models
    // write).
    let root = tempfile::tempdir()?;
    let file = root.path().join("app.py");
    std::fs::write(&file, "def total(items):\r\n    return sum(items)\r\n")?;
    let diff = "<<<<<<< SEARCH\n    return sum(items)\n=======\n    return sum(items, start=0)\n>>>>>>> REPLACE\n";
    let chunks: Vec<&str> = diff
        .as_bytes()
        .chunks(16)
        .map(|c| std::str::from_utf8(c).expect("ASCII"))
        .collect();

    let ws = Workspace::open(root.path(), WorkspaceOptions::new())?;
    let original = ws.read("app.py")?; // an edit needs a read first

    // The live view starts from the applier's own preview (the original, in the native dialect)
    // and takes each update as a splice, as an editor's document would.
    let mut applier =
        StreamingApplier::new(&original, ApplierOptions::new().dialect(Dialect::Native));
    let mut view = applier.preview().to_owned();
    for chunk in &chunks {
        applier.push(chunk).apply_to(&mut view);
        assert_eq!(view, applier.preview());
    }
    println!(
        "streamed {} chunks, the view equal to the applier's preview after each",
        chunks.len()
    );
    let outcome = applier.finish()?;
    let block = &outcome.blocks[0];
    println!(
        "block 1: {} at line {} ({})",
        block.status.as_str(),
        block.start.line,
        block.strategy.as_str()
    );

    // The same edit written to disk: atomically, keeping the file's encoding and line endings.
    ws.apply_diff("app.py", diff, &ApplyOptions::default())?;
    assert_eq!(
        std::fs::read(&file)?,
        b"def total(items):\r\n    return sum(items, start=0)\r\n"
    );
    println!("app.py: edit written, CRLF line endings kept");

    // A wrong edit is refused with a stable code and a message the model can act on.
    let wrong = "<<<<<<< SEARCH\n    return total(items)\n=======\n    pass\n>>>>>>> REPLACE\n";
    if let Err(error) = ws.apply_diff("app.py", wrong, &ApplyOptions::default()) {
        println!("refused: {}", error.code());
    }

    ws.undo("app.py")?;
    assert_eq!(
        std::fs::read(&file)?,
        b"def total(items):\r\n    return sum(items)\r\n"
    );
    println!("undo: app.py has its original bytes again");
    Ok(())
}
