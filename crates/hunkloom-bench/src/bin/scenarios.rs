//! Writes the benchmark scenarios to a folder, so the Python and Node benchmark scripts measure
//! the same inputs as the criterion benches: `<dir>/<name>.original` and `<dir>/<name>.diff`
//! for s1, s3 and s4 (S2 and S5 stream s1 and s4 in 4-character chunks).

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: scenarios <output-dir>");
        return ExitCode::from(2);
    };
    let scenarios = [
        ("s1", hunkloom_bench::s1()),
        ("s3", hunkloom_bench::s3()),
        ("s4", hunkloom_bench::s4()),
    ];
    let written = std::fs::create_dir_all(&dir).and_then(|()| {
        scenarios.iter().try_for_each(|(name, s)| {
            std::fs::write(dir.join(format!("{name}.original")), &s.original)?;
            std::fs::write(dir.join(format!("{name}.diff")), &s.diff)
        })
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cannot write {}: {e}", dir.display());
            ExitCode::FAILURE
        }
    }
}
