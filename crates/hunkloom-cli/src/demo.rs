//! `hunkloom demo`: a built-in edit streamed into a built-in file, the way a model streams it,
//! with the live preview an editor's diff view would show.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use hunkloom::{ApplierOptions, StreamingApplier, Update};

const FILE_NAME: &str = "inventory.py";

const ORIGINAL: &str = r#"import json
from dataclasses import dataclass


@dataclass
class Item:
    name: str
    quantity: int
    price: float


def load(path):
    with open(path) as f:
        return [Item(**row) for row in json.load(f)]


def total_value(items):
    total = 0
    for item in items:
        total += item.quantity * item.price
    return total


def restock(items, name, amount):
    for item in items:
        if item.name == name:
            item.quantity += amount
            return item
    return None


def report(items):
    for item in items:
        print(item.name, item.quantity)
"#;

const DIFF: &str = r#"I'll add type hints, make the total a one-liner and warn about unknown items.

------- SEARCH
def total_value(items):
    total = 0
    for item in items:
        total += item.quantity * item.price
    return total
=======
def total_value(items: list[Item]) -> float:
    """The stock's value at current prices."""
    return sum(item.quantity * item.price for item in items)
+++++++ REPLACE
------- SEARCH
            item.quantity += amount
            return item
    return None
=======
            item.quantity += amount
            return item
    raise KeyError(f"unknown item: {name}")
+++++++ REPLACE
------- SEARCH
def report(items):
    for item in items:
        print(item.name, item.quantity)
=======
def report(items: list[Item]) -> None:
    for item in sorted(items, key=lambda i: i.name):
        print(f"{item.name:<20} {item.quantity:>5}")
+++++++ REPLACE
"#;

pub(crate) fn run(chunk_chars: usize, delay_ms: Option<u64>) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    let live = stdout.is_terminal();
    let delay = Duration::from_millis(delay_ms.unwrap_or(if live { 12 } else { 0 }));
    let chars: Vec<(usize, char)> = DIFF.char_indices().collect();
    let mut applier = StreamingApplier::new(ORIGINAL, ApplierOptions::default());
    let mut engine_time = Duration::ZERO;
    let mut pushes = 0;
    for window in chars.chunks(chunk_chars) {
        let start = window[0].0;
        let end = window.last().map_or(start, |&(i, c)| i + c.len_utf8());
        let began = Instant::now();
        let Update {
            blocks_completed,
            completed,
            ..
        } = applier.push(&DIFF[start..end]);
        engine_time += began.elapsed();
        pushes += 1;
        if live {
            // Redraw in place: clear the screen, show the file as it looks right now.
            let _ = write!(
                stdout,
                "\x1b[2J\x1b[H── {FILE_NAME} (live preview, {} block(s) applied) ──\n{}",
                blocks_completed,
                applier.preview()
            );
            let _ = stdout.flush();
        }
        for block in &completed {
            let line = format!(
                "block {} applied ({}) at lines {}-{} of the original",
                block.index + 1,
                block.strategy.as_str(),
                block.start.line,
                block.end.line.saturating_sub(1).max(block.start.line)
            );
            if !live {
                let _ = writeln!(stdout, "{line}");
            }
        }
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
    }
    let began = Instant::now();
    let outcome = applier.finish().map_err(|e| e.to_string())?;
    engine_time += began.elapsed();
    if live {
        let _ = write!(stdout, "\x1b[2J\x1b[H");
    }
    let _ = writeln!(
        stdout,
        "\nStreamed a {}-byte diff in {pushes} pushes of {chunk_chars} characters into {FILE_NAME}:\n",
        DIFF.len()
    );
    let _ = write!(
        stdout,
        "{}",
        crate::unified_diff(FILE_NAME, ORIGINAL, &outcome.new_content)
    );
    let _ = writeln!(
        stdout,
        "\n{} blocks applied; the engine spent {:.1} µs in total ({:.2} µs per push).",
        outcome.blocks.len(),
        engine_time.as_secs_f64() * 1e6,
        engine_time.as_secs_f64() * 1e6 / pushes as f64
    );
    Ok(())
}
