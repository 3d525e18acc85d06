//! What a multi-file patch is once read: a [`Patch`] of [`Hunk`]s (add, delete, update with
//! [`UpdateChunk`]s of [`PatchLine`]s). Below the readers, the planner and the dialects that
//! make and use it, which `patch` dispatches between.

/// A parsed multi-file patch: its hunks in order.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Patch {
    /// The hunks, in the order the patch gives them.
    pub hunks: Vec<Hunk>,
}

impl Patch {
    /// The paths the plan reads: every update's and delete's source, in patch order, each once.
    /// A file layer can read (and check) exactly these before planning.
    pub fn paths_to_read(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.hunks
            .iter()
            .filter_map(|h| match h {
                Hunk::Update { path, .. } | Hunk::Delete { path, .. } => Some(path.as_str()),
                Hunk::Add { .. } => None,
            })
            .filter(|p| seen.insert(*p))
            .collect()
    }
}

/// One file operation of a patch.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hunk {
    /// `*** Add File:` — create (or overwrite) `path` with `contents`.
    Add {
        /// The file's path, as written in the patch.
        path: String,
        /// The `+` lines, each followed by `\n`.
        contents: String,
        /// The 1-based line of the `*** Add File:` marker in the input.
        line: usize,
    },
    /// `*** Delete File:` — remove `path`.
    Delete {
        /// The file's path, as written in the patch.
        path: String,
        /// The 1-based line of the marker in the input.
        line: usize,
    },
    /// `*** Update File:` — edit `path` chunk by chunk, and move it to `move_to` if given.
    Update {
        /// The file's path, as written in the patch.
        path: String,
        /// The `*** Move to:` destination, if any.
        move_to: Option<String>,
        /// The chunks, in file order.
        chunks: Vec<UpdateChunk>,
        /// The 1-based line of the marker in the input.
        line: usize,
    },
}

impl Hunk {
    /// The path the hunk names first (the source of a move).
    pub fn path(&self) -> &str {
        match self {
            Hunk::Add { path, .. } | Hunk::Delete { path, .. } | Hunk::Update { path, .. } => path,
        }
    }

    /// The 1-based line of the hunk's marker in the input.
    pub fn line(&self) -> usize {
        match self {
            Hunk::Add { line, .. } | Hunk::Delete { line, .. } | Hunk::Update { line, .. } => *line,
        }
    }
}

/// One `@@` section of an update hunk.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UpdateChunk {
    /// The text after `@@ `: one line that must come before the chunk's lines.
    pub context: Option<String>,
    /// The chunk's lines, in order.
    pub lines: Vec<PatchLine>,
    /// `*** End of File` followed the chunk: it must match at the end of the file.
    pub end_of_file: bool,
}

impl UpdateChunk {
    /// The lines the file has before the chunk applies (context and removed lines).
    pub fn old_lines(&self) -> impl Iterator<Item = &str> {
        self.lines
            .iter()
            .filter(|l| l.kind != LineKind::Add)
            .map(|l| l.text.as_str())
    }

    /// The lines the file has afterwards (context and added lines).
    pub fn new_lines(&self) -> impl Iterator<Item = &str> {
        self.lines
            .iter()
            .filter(|l| l.kind != LineKind::Remove)
            .map(|l| l.text.as_str())
    }
}

/// One line of a chunk, without its prefix character and line ending.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchLine {
    /// Context, removed or added.
    pub kind: LineKind,
    /// The text after the prefix.
    pub text: String,
}

/// What a chunk line does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// ` ` (or an empty line): present before and after.
    Context,
    /// `-`: removed.
    Remove,
    /// `+`: added.
    Add,
}
