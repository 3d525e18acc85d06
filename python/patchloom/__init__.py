"""patchloom: apply the edits language models write, exactly as the tools they replace do.

The engine is native (Rust). ``construct_new_file_content`` is a drop-in for Cline v4.0.10's
``constructNewFileContent``; ``StreamingApplier`` applies a diff while it streams in, at a cost
per push proportional to the pushed text. ``str_replace``, ``insert`` and ``insert_content``
are the tool-call edits of Claude Code, Anthropic's text editor tool and Roo; ``write`` is Cline's
``write_to_file`` content clean-up. ``apply_diff`` applies a whole diff in the ``native``
dialect: what the model meant, refusing what is ambiguous or stale. Positions are Python ``str``
indices.
"""

from ._native import (
    ERROR_CODES,
    AlreadyFinishedError,
    AmbiguousMatchError,
    BlockReport,
    ConcurrentUseError,
    Edit,
    FileSystemError,
    InsertedContent,
    InvalidEditError,
    InvalidOptionError,
    MalformedDiffError,
    NewFileContent,
    Outcome,
    PatchloomError,
    PathRefusedError,
    SearchNotFoundError,
    StaleFileError,
    StreamingApplier,
    UnsupportedFileError,
    Update,
    Written,
    __version__,
    apply_diff,
    apply_model_content_fixes,
    construct_new_file_content,
    fix_model_html_escaping,
    insert,
    insert_content,
    line_number_from_index,
    remove_invalid_chars,
    str_replace,
    strip_markdown_fences,
    write,
)

__all__ = [
    "ERROR_CODES",
    "AlreadyFinishedError",
    "AmbiguousMatchError",
    "BlockReport",
    "ConcurrentUseError",
    "Edit",
    "FileSystemError",
    "InsertedContent",
    "InvalidEditError",
    "InvalidOptionError",
    "MalformedDiffError",
    "NewFileContent",
    "Outcome",
    "PatchloomError",
    "PathRefusedError",
    "SearchNotFoundError",
    "StaleFileError",
    "StreamingApplier",
    "UnsupportedFileError",
    "Update",
    "Written",
    "__version__",
    "apply_diff",
    "apply_model_content_fixes",
    "construct_new_file_content",
    "fix_model_html_escaping",
    "insert",
    "insert_content",
    "line_number_from_index",
    "remove_invalid_chars",
    "str_replace",
    "strip_markdown_fences",
    "write",
]
