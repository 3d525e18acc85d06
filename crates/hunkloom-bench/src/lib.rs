//! Deterministic inputs for the benchmarks: synthetic code-like files and SEARCH/REPLACE diffs.
//!
//! Scenarios (the same in every language's benchmark):
//! - S1: a 10,000-line file with 20 exact 4-line blocks, applied one-shot.
//! - S2: S1's diff streamed in 4-character chunks.
//! - S3: S1's blocks with indentation removed and trailing spaces added (line-trimmed tier).
//! - S4: a 200,000-line file with one block near the end, one-shot.
//! - S5: S4 streamed in 4-character chunks.
//! - S6: S4's file with a block that matches nothing, through the `native` dialect, against an
//!   exact block over the same file.
//! - S7: the `native` streaming applier's cost per push: a 10,000-line whole-file replacement in
//!   one block, and a 200-block diff over a 10,000-line file, both in 4-character chunks.
//! - L1–L3: lazy edits (`apply_lazy`) of a 10,000-line file: one changed line between markers,
//!   20 of them spread over the file, and the 20 with their indentation lost (placed at the
//!   whitespace-insensitive tier).

pub mod codex_standin;

/// A file and a lazy snippet for it (`# ... existing code ...` markers).
pub struct LazyScenario {
    /// The original file (Python-like code).
    pub original: String,
    /// What a model writes: changed lines with unchanged ones around them, and markers.
    pub snippet: String,
}

/// A lazy snippet for [`code_file`]`(10_000)`: around each of `segments` statements spread
/// evenly over the file, the line above, the statement with a comment added, and the line
/// below, between `# ... existing code ...` markers; `dedent` removes every line's
/// indentation (so only the whitespace-insensitive tier places them).
pub fn lazy(segments: usize, dedent: bool) -> LazyScenario {
    let original = code_file(10_000);
    let lines: Vec<&str> = original.lines().collect();
    let step = lines.len() / segments;
    let mut snippet = String::from("# ... existing code ...\n");
    for k in 0..segments {
        // Lines 2..6 of each 8-line function are statements; edit the second of three.
        let at = (k * step) / 8 * 8 + 3;
        let edited = [
            lines[at - 1].to_owned(),
            format!("{}  # reviewed", lines[at]),
            lines[at + 1].to_owned(),
        ];
        for line in &edited {
            snippet.push_str(if dedent { line.trim_start() } else { line });
            snippet.push('\n');
        }
        snippet.push_str("# ... existing code ...\n");
    }
    LazyScenario { original, snippet }
}

/// A file and a diff for it.
pub struct Scenario {
    /// The original file.
    pub original: String,
    /// The SEARCH/REPLACE diff.
    pub diff: String,
}

/// A deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

/// `lines` lines of Python-like code; every line is distinct (it carries its number).
pub fn code_file(lines: usize) -> String {
    let names = [
        "value", "count", "buffer", "token", "result", "entry", "cursor", "limit",
    ];
    let ops = ["+", "-", "*", "//", "%"];
    let mut rng = Rng(0x5EED_0001);
    let mut out = String::with_capacity(lines * 40);
    for i in 0..lines {
        let line = match i % 8 {
            0 => format!(
                "def handler_{i}({}, {}):",
                rng.pick(&names),
                rng.pick(&names)
            ),
            1 => format!("    \"\"\"Process batch {i}.\"\"\""),
            7 => String::new(),
            _ => format!(
                "    {}_{i} = {} {} {}",
                rng.pick(&names),
                rng.pick(&names),
                rng.pick(&ops),
                rng.next() % 1000
            ),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn block(search: &[&str], replace: &[String]) -> String {
    let mut out = String::from("------- SEARCH\n");
    for line in search {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("=======\n");
    for line in replace {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("+++++++ REPLACE\n");
    out
}

/// A diff of `blocks` 4-line blocks spread evenly over `original`, each starting on line
/// `first + k * step`; `mangle` rewrites the SEARCH lines.
fn diff_for(original: &str, starts: &[usize], mangle: impl Fn(&str) -> String) -> String {
    let lines: Vec<&str> = original.lines().collect();
    let mut diff = String::new();
    for &start in starts {
        let search: Vec<String> = lines[start..start + 4].iter().map(|l| mangle(l)).collect();
        let search: Vec<&str> = search.iter().map(String::as_str).collect();
        let replace: Vec<String> = lines[start..start + 4]
            .iter()
            .map(|l| format!("{l}  # reviewed"))
            .collect();
        diff.push_str(&block(&search, &replace));
    }
    diff
}

fn s1_starts() -> Vec<usize> {
    (0..20).map(|k| 2 + k * 500).collect()
}

/// S1 (and S2): 10,000 lines, 20 exact 4-line blocks.
pub fn s1() -> Scenario {
    let original = code_file(10_000);
    let diff = diff_for(&original, &s1_starts(), str::to_owned);
    Scenario { original, diff }
}

/// S3: S1 with each SEARCH line's indentation removed and two trailing spaces added.
pub fn s3() -> Scenario {
    let original = code_file(10_000);
    let diff = diff_for(&original, &s1_starts(), |l| format!("{}  ", l.trim_start()));
    Scenario { original, diff }
}

/// S4 (and S5): 200,000 lines, one block near the end.
pub fn s4() -> Scenario {
    let original = code_file(200_000);
    let diff = diff_for(&original, &[199_900], str::to_owned);
    Scenario { original, diff }
}

/// S6: S4's 200,000-line file with one 4-line block whose SEARCH text matches nothing: each of
/// its lines is in the file, but far apart, so every tolerant tier of the `native` dialect runs
/// and finds nothing (its worst case), and the refusal computes its diagnostics.
pub fn s6_no_match() -> Scenario {
    let original = code_file(200_000);
    let lines: Vec<&str> = original.lines().collect();
    let search: Vec<&str> = [50_002, 90_003, 130_004, 170_005]
        .iter()
        .map(|&i| lines[i])
        .collect();
    let diff = block(&search, &["    pass".to_owned()]);
    Scenario { original, diff }
}

/// S6's exact counterpart: the same file with one exact 4-line block near the end (S4).
pub fn s6_exact() -> Scenario {
    s4()
}

/// S7: a 10,000-line file replaced whole by one block (every line changed), so one block's
/// replacement streams for the whole diff.
pub fn s7_rewrite() -> Scenario {
    let original = code_file(10_000);
    let lines: Vec<&str> = original.lines().collect();
    let replace: Vec<String> = lines.iter().map(|l| format!("{l}  # reviewed")).collect();
    let diff = block(&lines, &replace);
    Scenario { original, diff }
}

/// S7: 200 exact 4-line blocks spread evenly over a 10,000-line file.
pub fn s7_many_blocks() -> Scenario {
    let original = code_file(10_000);
    let starts: Vec<usize> = (0..200).map(|k| 2 + k * 50).collect();
    let diff = diff_for(&original, &starts, str::to_owned);
    Scenario { original, diff }
}

/// The diff cut into pieces of `n` characters, as a model's tokens arrive.
pub fn chunks(diff: &str, n: usize) -> Vec<&str> {
    let bounds: Vec<usize> = diff
        .char_indices()
        .map(|(i, _)| i)
        .step_by(n)
        .chain(std::iter::once(diff.len()))
        .collect();
    bounds.windows(2).map(|w| &diff[w[0]..w[1]]).collect()
}

/// The order of the blocks of a [`many_blocks`] diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockOrder {
    /// In file order (the usual case).
    Forward,
    /// Last line first (every block lands before all those placed so far).
    Reverse,
    /// A fixed pseudo-random permutation.
    Shuffled,
}

/// Cost bounds: a file of `blocks` distinct lines and a diff of `blocks` exact one-line blocks,
/// one per line, in `order`; the input grows linearly with `blocks`, so any per-block cost
/// that grows with the file or with the blocks placed before shows as super-linear growth.
pub fn many_blocks(blocks: usize, order: BlockOrder) -> Scenario {
    let mut original = String::with_capacity(blocks * 24);
    for i in 0..blocks {
        original.push_str(&format!("let v{i} = f({i});\n"));
    }
    let mut lines: Vec<usize> = (0..blocks).collect();
    match order {
        BlockOrder::Forward => {}
        BlockOrder::Reverse => lines.reverse(),
        BlockOrder::Shuffled => {
            let mut rng = Rng(0x5EED_0002);
            for i in (1..lines.len()).rev() {
                lines.swap(i, (rng.next() % (i as u64 + 1)) as usize);
            }
        }
    }
    let mut diff = String::with_capacity(blocks * 80);
    for i in lines {
        diff.push_str(&format!(
            "------- SEARCH\nlet v{i} = f({i});\n=======\nlet v{i} = g({i});\n+++++++ REPLACE\n"
        ));
    }
    Scenario { original, diff }
}

/// Cost bounds of the patch module: a `*** Begin Patch` with one `*** Update File:` of `hunks`
/// one-line `@@` hunks over a file of as many distinct lines (in file order, as the format
/// requires), and the files it reads.
pub fn many_hunks(hunks: usize) -> (String, std::collections::BTreeMap<String, String>) {
    let mut original = String::with_capacity(hunks * 24);
    let mut patch = String::from("*** Begin Patch\n*** Update File: a.rs\n");
    for i in 0..hunks {
        original.push_str(&format!("let v{i} = f({i});\n"));
        patch.push_str(&format!("@@\n-let v{i} = f({i});\n+let v{i} = g({i});\n"));
    }
    patch.push_str("*** End Patch\n");
    let files = [("a.rs".to_owned(), original)].into_iter().collect();
    (patch, files)
}

/// Cost bounds of the unified-diff dialects: a file of `hunks` groups of three lines (a
/// comment, a statement, a comment) and a unified diff of as many hunks (the comments as
/// context, the statement replaced), in file order, as `diff -U1` writes them.
pub fn many_udiff_hunks(hunks: usize) -> Scenario {
    let mut original = String::with_capacity(hunks * 48);
    let mut diff = String::with_capacity(hunks * 80 + 32);
    diff.push_str("--- a/a.rs\n+++ b/a.rs\n");
    for i in 0..hunks {
        original.push_str(&format!("// v{i}\nlet v{i} = f({i});\n// w{i}\n"));
        let line = 3 * i + 1;
        diff.push_str(&format!(
            "@@ -{line},3 +{line},3 @@\n // v{i}\n-let v{i} = f({i});\n+let v{i} = g({i});\n // w{i}\n"
        ));
    }
    Scenario { original, diff }
}

/// Cost bounds of the unified-diff dialects across files: a git patch adding `files` one-line
/// files and updating as many existing ones, and the files it reads.
pub fn many_udiff_files(files: usize) -> (String, std::collections::BTreeMap<String, String>) {
    let mut patch = String::new();
    let mut existing = std::collections::BTreeMap::new();
    for i in 0..files {
        patch.push_str(&format!(
            "diff --git a/new/{i}.txt b/new/{i}.txt\nnew file mode 100644\n--- /dev/null\n\
             +++ b/new/{i}.txt\n@@ -0,0 +1 @@\n+file {i}\n"
        ));
        patch.push_str(&format!(
            "--- a/old/{i}.txt\n+++ b/old/{i}.txt\n@@ -1 +1 @@\n-old {i}\n+new {i}\n"
        ));
        existing.insert(format!("old/{i}.txt"), format!("old {i}\n"));
    }
    (patch, existing)
}

/// Cost bounds of the patch module across files: a patch adding `files` one-line files and
/// updating as many existing ones, and the files it reads.
pub fn many_files(files: usize) -> (String, std::collections::BTreeMap<String, String>) {
    let mut patch = String::from("*** Begin Patch\n");
    let mut existing = std::collections::BTreeMap::new();
    for i in 0..files {
        patch.push_str(&format!("*** Add File: new/{i}.txt\n+file {i}\n"));
        patch.push_str(&format!(
            "*** Update File: old/{i}.txt\n@@\n-old {i}\n+new {i}\n"
        ));
        existing.insert(format!("old/{i}.txt"), format!("old {i}\n"));
    }
    patch.push_str("*** End Patch\n");
    (patch, existing)
}
