//! Pass counts per part of a corpus, in first-seen order, and their printing:
//! `<corpus> <part>: <passed>/<total> passed[, <n> skipped]`, `<corpus> <part>: <n> not run
//! (<why>)`, then `<corpus>: <passed>/<total> passed[, <n> skipped]`.

/// Tallies per part, in first-seen order, with the failures.
#[derive(Debug, Default)]
pub struct Tally {
    /// `(part, passed, total, skipped)`, in first-seen order.
    pub parts: Vec<(String, usize, usize, usize)>,
    /// `(part, count, why)` of rows this runner cannot run, in first-seen order.
    pub not_run: Vec<(String, usize, &'static str)>,
    /// `<id>: <why>` of every failed row.
    pub failures: Vec<String>,
}

impl Tally {
    /// Counts one row of `part`: `Ok(true)` passed, `Ok(false)` skipped, `Err(why)` failed.
    pub fn record(&mut self, part: &str, id: &str, outcome: Result<bool, String>) {
        let at = match self.parts.iter().position(|p| p.0 == part) {
            Some(i) => i,
            None => {
                self.parts.push((part.to_owned(), 0, 0, 0));
                self.parts.len() - 1
            }
        };
        let entry = &mut self.parts[at];
        entry.2 += 1;
        match outcome {
            Ok(true) => entry.1 += 1,
            Ok(false) => entry.3 += 1,
            Err(why) => self.failures.push(format!("{id}: {why}")),
        }
    }

    /// Counts one row of `part` that this runner does not run, and why.
    pub fn not_run(&mut self, part: &str, why: &'static str) {
        match self.not_run.iter_mut().find(|p| p.0 == part) {
            Some(p) => p.1 += 1,
            None => self.not_run.push((part.to_owned(), 1, why)),
        }
    }

    /// The rows counted in [`parts`](Self::parts): run, skipped or failed.
    pub fn total(&self) -> usize {
        self.parts.iter().map(|p| p.2).sum()
    }

    /// Prints a line per part, then a line per part not run.
    pub fn print_parts(&self, corpus: &str) {
        for (part, p, t, s) in &self.parts {
            println!("{corpus} {part}: {p}/{t} passed{}", skip_note(*s));
        }
        for (part, n, why) in &self.not_run {
            println!("{corpus} {part}: {n} not run ({why})");
        }
    }

    /// [`print_parts`](Self::print_parts), then the corpus total.
    pub fn print(&self, corpus: &str) {
        self.print_parts(corpus);
        let (passed, skipped) = self
            .parts
            .iter()
            .fold((0, 0), |(p, s), part| (p + part.1, s + part.3));
        println!(
            "{corpus}: {passed}/{} passed{}",
            self.total(),
            skip_note(skipped)
        );
    }
}

fn skip_note(skipped: usize) -> String {
    if skipped > 0 {
        format!(", {skipped} skipped")
    } else {
        String::new()
    }
}

/// `Ok(true)` when `got` equals `want`, else both in the failure.
pub fn check(got: &str, want: &str) -> Result<bool, String> {
    if got == want {
        Ok(true)
    } else {
        Err(format!("\n  want {want:?}\n  got  {got:?}"))
    }
}
