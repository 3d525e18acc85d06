"""The native extension module of hunkloom (import from ``hunkloom`` instead)."""

import os
from pathlib import Path
from typing import Any, Literal, Mapping, Optional, Sequence, Union, final

__all__ = [
    "cli",
    "StreamingApplier",
    "AiderApplier",
    "NativeBodyApplier",
    "PatchChunk",
    "Workspace",
    "TextEditor",
    "EditStream",
    "Toolset",
    "ToolResult",
    "Match",
    "EditOutcome",
    "ExternalChange",
    "PatchOutcome",
    "apply_patch",
    "apply_v4a",
    "PatchResult",
    "PatchWarning",
    "apply_diff",
    "apply_lazy",
    "AmbiguousMatchError",
    "InvalidEditError",
    "Edit",
    "InsertedContent",
    "Written",
    "str_replace",
    "insert",
    "insert_content",
    "write",
    "strip_markdown_fences",
    "apply_model_content_fixes",
    "fix_model_html_escaping",
    "remove_invalid_chars",
    "_error_class",
    "AlreadyFinishedError",
    "ConcurrentUseError",
    "InternalError",
    "InvalidOptionError",
    "MalformedDiffError",
    "MissingFileError",
    "OutOfMemoryError",
    "HunkloomError",
    "SearchNotFoundError",
    "PathRefusedError",
    "StaleFileError",
    "UnsupportedFileError",
    "FileSystemError",
    "construct_new_file_content",
    "set_resume_cache_capacity",
    "resume_cache_stats",
    "line_number_from_index",
    "BlockReport",
    "NewFileContent",
    "ResumeCacheStats",
    "Outcome",
    "Update",
    "__version__",
    "ERROR_CODES",
    "STRATEGIES",
    "NORMALIZATIONS",
    "BLOCK_STATUSES",
    "PROFILES",
    "DIALECTS",
    "PATCH_DIALECTS",
    "POLICIES",
    "FIXES",
    "CONVENTIONS",
    "V4A_MODES",
    "TOOLSET_PROFILES",
    "SEMANTICS",
    "DURABILITIES",
]

__version__: str
ERROR_CODES: tuple[str, ...]
"""Every error code the engine defines (stable snake_case; never renamed)."""

def cli(args: list[str]) -> int:
    """Run the ``hunkloom`` command with ``args`` (the program name first) in this process and
    return its exit status (the package's ``hunkloom`` script and ``python -m hunkloom``)."""

_Dialect = Literal["cline-v1", "cline-v2", "native", "roo", "udiff", "udiff-strict"]
_PatchDialect = Literal[
    "codex", "cline", "udiff", "udiff-strict", "aider", "aider-fenced", "aider-whole", "aider-native",
    "native",
]
_Policy = Literal["all_or_nothing", "partial"]
_FixName = Literal["strip_markdown_fences", "fix_model_html_escaping", "remove_invalid_chars"]
_Strategy = Literal[
    "exact",
    "line_trimmed",
    "block_anchor",
    "exact_anywhere",
    "empty_search_new_file",
    "empty_search_whole_file",
    "line_endings",
    "trailing_whitespace",
    "indentation",
    "punctuation",
    "line_number_prefix",
    "blank_lines",
    "typo",
    "unmatched",
    "similarity",
]
_Normalization = Literal[
    "line_endings",
    "trailing_whitespace",
    "indentation",
    "punctuation",
    "line_number_prefixes",
    "blank_lines",
    "typo",
]
_BlockStatus = Literal["applied", "failed", "already_applied"]
_Profile = Literal["anthropic", "openhands", "native"]
_Durability = Literal["full", "none"]
_ToolsetProfile = Literal[
    "anthropic", "openhands", "native", "openai", "codex", "gemini", "claude-code", "copilot"
]
_Semantics = Literal["reference", "native"]
_Convention = Literal["before", "after"]
_V4aMode = Literal["default", "create"]

STRATEGIES: tuple[_Strategy, ...]
"""Every ``BlockReport.strategy`` the engine reports, in the core's order."""
NORMALIZATIONS: tuple[_Normalization, ...]
"""Every member of ``BlockReport.normalizations``, in the core's order."""
BLOCK_STATUSES: tuple[_BlockStatus, ...]
"""Every ``BlockReport.status``."""
PROFILES: tuple[_Profile, ...]
"""Every :class:`TextEditor` profile, in the core's order."""
DIALECTS: tuple[_Dialect, ...]
"""Every ``dialect`` of :func:`apply_diff` and :class:`StreamingApplier`."""
PATCH_DIALECTS: tuple[_PatchDialect, ...]
"""Every ``dialect`` of :func:`apply_patch`."""
POLICIES: tuple[_Policy, ...]
"""Every ``policy``."""
FIXES: tuple[_FixName, ...]
"""Every fix :func:`write` can run."""
CONVENTIONS: tuple[_Convention, ...]
"""Every ``convention`` of an insert."""
V4A_MODES: tuple[_V4aMode, ...]
"""Every ``mode`` of a V4A body."""
TOOLSET_PROFILES: tuple[_ToolsetProfile, ...]
"""Every :class:`Toolset` profile."""
SEMANTICS: tuple[_Semantics, ...]
"""Every ``semantics`` of a :class:`Toolset`."""
DURABILITIES: tuple[_Durability, ...]
"""Every ``durability``."""

class HunkloomError(ValueError):
    """Base class of every hunkloom error.

    ``code`` is the engine's stable snake_case code (for example ``"search_not_found"``);
    ``str(error)`` is the exact message (Cline's text in the Cline dialects, sometimes empty).
    """

    code: str
    matches: Optional[list[Match]]
    """For an error about a text that matched several places (codes ``multiple_matches``,
    ``ambiguous_match``): every place, in order (for a diff refused as a whole, those of its first
    failed block). None for other errors."""

@final
class Match:
    """One place a text matched, in the text that was searched (equal matches compare and hash
    equal)."""

    @property
    def start(self) -> int:
        """``str`` index where the match starts."""
    @property
    def end(self) -> int:
        """``str`` index where it ends (exclusive)."""
    @property
    def start_line(self) -> int:
        """The 1-based line it starts on."""
    @property
    def end_line(self) -> int:
        """The last 1-based line it covers (a match that ends with a newline does not cover the
        line after it; ``start_line`` for an empty match)."""

class SearchNotFoundError(HunkloomError):
    """The text to replace could not be located where the operation allows.

    Codes ``search_not_found``, ``empty_search_nonempty_file``, ``match_before_previous_block``,
    ``not_found``, ``patch_context_not_found``, ``lazy_no_anchor`` (a part of a lazy edit whose
    first or last line occurs nowhere in the file).
    """

class AmbiguousMatchError(HunkloomError):
    """The text to replace occurs more than once and the operation needs one place (codes
    ``multiple_matches``, ``ambiguous_match``, ``lazy_ambiguous``); ``matches`` lists the
    places."""

class InvalidEditError(HunkloomError):
    """The edit cannot be carried out on this content as asked.

    Codes ``old_equals_new``, ``file_exists``, ``file_not_found``, ``invalid_line``,
    ``invalid_line_number``, ``invalid_line_for_new_file``, ``nothing_to_undo``,
    ``conflicting_changes``, ``patch_file_not_found``, ``patch_file_exists``,
    ``patch_empty_content``, ``omission_placeholder``, ``lazy_silent_deletion``,
    ``lazy_conflict``, ``lazy_indentation`` (lazy edits that cannot be merged as written),
    ``unrepresentable_text`` (a character the file's legacy encoding lacks),
    ``suspected_truncation``, ``line_number_prefixes``, ``truncation_notice`` (a damaged
    tool call: a cut-off write, a view's line numbers, a clipping notice).
    """

class MissingFileError(InvalidEditError, FileNotFoundError):
    """A file the call needs does not exist (codes file_not_found, patch_file_not_found): an
    InvalidEditError that is also a FileNotFoundError."""

class OutOfMemoryError(HunkloomError, MemoryError):
    """The memory a call needs could not be had (code out_of_memory); nothing was written. A
    HunkloomError that is also a MemoryError."""

class MalformedDiffError(HunkloomError):
    """The diff is malformed or contradicts itself: markers missing, misplaced or unterminated,
    or blocks overlapping.

    Codes ``malformed_block``, ``invalid_state_transition``, ``incomplete_at_finish``,
    ``overlapping_blocks``, ``invalid_patch``, ``invalid_patch_hunk``, ``empty_patch``,
    ``duplicate_patch_path``.
    """

class InvalidOptionError(HunkloomError):
    """An unknown option value, or a tool-call input that is not an object.

    Codes ``invalid_version``, ``invalid_dialect``, ``invalid_profile`` (an unknown
    :class:`TextEditor` profile), ``invalid_input`` (:meth:`TextEditor.call` given something
    other than a ``dict`` of JSON values), ``invalid_convention``, ``invalid_fix``,
    ``invalid_policy``, ``invalid_language`` (an unknown ``lang`` of :func:`apply_lazy`),
    ``invalid_glob`` (a :class:`Workspace` ``protect`` glob that is not gitignore syntax).
    """

class AlreadyFinishedError(HunkloomError):
    """A ``StreamingApplier`` was used after ``finish()`` (code ``already_finished``)."""

class ConcurrentUseError(HunkloomError):
    """A ``StreamingApplier`` was called from a second thread while a call on it was running
    (code ``concurrent_use``). Push each applier from one thread at a time."""

class InternalError(HunkloomError):
    """A bug inside hunkloom stopped the call (code ``internal_error``); the applier, workspace or
    text editor it happened on is retired and every later call on it raises this too. Please
    report it."""

class PathRefusedError(HunkloomError):
    """The workspace refuses the path: outside its root, a UNC path, ignored, or a notebook.

    Codes ``path_outside_root``, ``unc_path``, ``path_ignored``, ``notebook_not_supported``,
    and ``path_protected`` for a write to a protected path (which can still be read).
    """

class StaleFileError(HunkloomError):
    """Read the file (again) before editing it: it was never read, or it changed since (codes
    ``not_read``, ``stale_file``)."""

class UnsupportedFileError(HunkloomError):
    """The file cannot be edited safely and was left untouched: an unsupported encoding or too
    large (codes ``unsupported_encoding``, ``file_too_large``)."""

class FileSystemError(HunkloomError):
    """The operating system refused a file operation; the message has its text (code
    ``io_error``). Also a call that waited past its ``lock_timeout`` for another edit of the
    same file or another commit in the root (code ``lock_timeout``); nothing was written."""

@final
class NewFileContent:
    """The result of :func:`construct_new_file_content`."""

    @property
    def new_content(self) -> str:
        """The new file content."""
    @property
    def match_indices(self) -> list[int]:
        """Cline's ``matchIndices``, as ``str`` indices into the original (``original[i:]``
        starts at the matched block)."""
    @property
    def match_lines(self) -> list[int]:
        """The 1-based line of each match index."""

@final
class BlockReport:
    """What happened to one SEARCH/REPLACE block."""

    @property
    def index(self) -> int:
        """The block's number among completed blocks, from 0, in completion order."""
    @property
    def status(self) -> _BlockStatus:
        """Whether the block was applied (``"failed"`` only under the ``"partial"`` policy)."""
    @property
    def strategy(self) -> _Strategy:
        """How the SEARCH text was located. Cline dialects: ``"exact"``, ``"line_trimmed"``,
        ``"block_anchor"``, ``"exact_anywhere"``, ``"empty_search_new_file"``,
        ``"empty_search_whole_file"``; ``native``: ``"exact"``, ``"line_endings"``,
        ``"trailing_whitespace"``, ``"indentation"``, ``"punctuation"``,
        ``"line_number_prefix"``, ``"blank_lines"``, ``"typo"``, or ``"unmatched"`` for a
        failed block; ``roo``: ``"similarity"``, or ``"unmatched"`` for a failed block."""
    @property
    def start(self) -> int:
        """``str`` index in the original where the matched text starts."""
    @property
    def end(self) -> int:
        """``str`` index in the original where the matched text ends."""
    @property
    def start_line(self) -> int:
        """1-based line where the matched text starts."""
    @property
    def end_line(self) -> int:
        """1-based line the matched text ends on (``start_line`` when it is empty)."""
    @property
    def candidates(self) -> int:
        """How many places the deciding tier found (``native``; Cline dialects report 1)."""
    @property
    def indent_delta(self) -> int:
        """The indentation change from the SEARCH text to the file, in columns (``native``)."""
    @property
    def reindented(self) -> bool:
        """Whether the replacement was shifted by ``indent_delta`` (``native``)."""
    @property
    def normalizations(self) -> list[_Normalization]:
        """The differences the match tolerated (``native``): ``"line_endings"``,
        ``"trailing_whitespace"``, ``"indentation"``, ``"punctuation"``,
        ``"line_number_prefixes"``, ``"blank_lines"``, ``"typo"``."""
    @property
    def error(self) -> Optional[HunkloomError]:
        """Why the block failed, or None."""

@final
class Update:
    """One splice of the preview: at ``start``, remove ``removed`` characters, insert
    ``inserted``. Applying every update in order to the applier's ``preview`` from before the
    first push (``""`` in the Cline dialects, the original in ``native``) gives the current
    preview."""

    @property
    def start(self) -> int:
        """``str`` index in the previous preview where the splice starts."""
    @property
    def removed(self) -> int:
        """How many characters of the previous preview the splice removes."""
    @property
    def inserted(self) -> str:
        """The text the splice inserts."""
    @property
    def blocks_completed(self) -> int:
        """How many blocks have completed so far."""
    @property
    def completed(self) -> list[BlockReport]:
        """Reports of the blocks this push completed."""
    def apply_to(self, text: str) -> str:
        """Return ``text`` (equal to the previous preview) with this splice applied."""

@final
class Outcome:
    """The result of :meth:`StreamingApplier.finish`."""

    @property
    def new_content(self) -> str:
        """The new file content."""
    @property
    def match_indices(self) -> list[int]:
        """Cline's ``matchIndices`` as ``str`` indices into the original."""
    @property
    def match_lines(self) -> list[int]:
        """The 1-based line of each match index."""
    @property
    def blocks(self) -> list[BlockReport]:
        """One report per applied block, in completion order."""

@final
class AiderApplier:
    """Apply a model's reply in one of aider's edit formats while it streams in.

    ``files`` are aider's chat files (path to text). ``push`` pieces of any size: each block
    applies to a preview of the files when its closing marker arrives (a ``whole`` listing when
    its closing fence does), and ``push`` returns the paths whose preview changed. ``finish()``
    gives what ``apply_patch(reply, files, dialect=dialect, policy=policy)`` gives for the whole
    reply, however it was cut.
    """

    def __new__(
        cls,
        files: Mapping[str, str],
        *,
        dialect: Literal["aider", "aider-fenced", "aider-whole", "aider-native"] = "aider",
        policy: _Policy = "all_or_nothing",
    ) -> "AiderApplier": ...
    def push(self, chunk: str) -> list[str]:
        """Feed the next piece of the reply; returns the paths whose preview changed. Raises
        the reply's error once it can no longer parse (a block without a file name)."""
    def preview(self, path: str) -> Optional[str]:
        """The file as the reply so far leaves it (a chat file's own text until a block changes
        it); None for a path that is neither a chat file nor written by the reply."""
    @property
    def touched(self) -> list[str]:
        """The paths the reply has written so far, in the order first written."""
    @property
    def dialect(self) -> str:
        """The dialect name."""
    @property
    def finished(self) -> bool:
        """Whether ``finish()`` has been called."""
    def finish(self) -> PatchResult:
        """The files after the whole reply, or its error (the applier cannot be used after)."""

@final
class PatchChunk:
    """How one section of a V4A body was placed by the native reading."""

    @property
    def index(self) -> int:
        """Its 1-based index in the body."""
    @property
    def line(self) -> int:
        """The 1-based line of the file where its lines start."""
    @property
    def context_lines(self) -> int:
        """How many lines of the file it covers (context and removed)."""
    @property
    def removed(self) -> int:
        """How many lines it removes."""
    @property
    def added(self) -> int:
        """How many lines it adds."""
    @property
    def strategy(self) -> str:
        """The tier that placed it: one of ``STRATEGIES`` (``"exact"``, ``"indentation"``, ...)."""
    @property
    def normalizations(self) -> list[str]:
        """Every kind of difference the match tolerated (``NORMALIZATIONS``)."""
    @property
    def candidates(self) -> int:
        """How many places the deciding tier found."""
    @property
    def chosen_by(self) -> Optional[Literal["anchor", "end_of_file"]]:
        """What chose among several places, or None."""
    @property
    def already_applied(self) -> bool:
        """Its new lines were already there: nothing changed."""
    @property
    def indent_delta(self) -> int:
        """The columns its ``+`` lines were re-indented by."""

@final
class NativeBodyApplier:
    """Apply one V4A body (an ``update_file`` / ``create_file`` operation's ``diff``) the native
    way while it streams in: each section is placed once the line after it has arrived, in
    exactly one place of ``input`` or the body refused (see ``apply_patch(dialect="native")``).
    ``finish()`` gives the same text for every way the body was cut.
    """

    def __new__(cls, input: str, mode: _V4aMode = "default") -> "NativeBodyApplier": ...
    def push(self, chunk: str) -> list[PatchChunk]:
        """Feed the next piece of the body; the chunks placed so far. Raises the body's error
        once a section cannot be read or placed (and again on every later call)."""
    @property
    def preview(self) -> str:
        """``input`` with the chunks placed so far applied."""
    @property
    def finished(self) -> bool:
        """Whether ``finish()`` has been called."""
    def finish(self) -> tuple[str, list[PatchChunk]]:
        """The new text and a report per section that changes something, or the error."""

@final
class StreamingApplier:
    """Apply a diff while it streams in.

    ``push`` pieces of any size (tokens, lines, the whole diff), read ``preview`` or apply each
    returned :class:`Update` to your own buffer, then ``finish()``. Chunking never changes the
    result. The GIL is released while the engine works on large inputs; use each applier from
    one thread at a time (a concurrent call raises :class:`ConcurrentUseError`).
    """

    def __new__(
        cls,
        original: str,
        *,
        dialect: Optional[_Dialect] = None,
        policy: Optional[_Policy] = None,
        fuzzy_threshold: Optional[float] = None,
        buffer_lines: Optional[int] = None,
        recount: bool = False,
    ) -> StreamingApplier:
        """Start applying a diff to ``original``. ``dialect`` ``"cline-v1"`` (the default, a
        drop-in for Cline) or ``"cline-v2"`` reproduce Cline; ``"native"`` applies what the
        model meant and refuses what is ambiguous; ``"roo"`` reproduces Roo Code's
        ``apply_diff`` (with Roo's ``fuzzy_threshold`` and ``buffer_lines``; Roo sorts the
        blocks before applying any, so the preview stays the original until ``finish()``);
        ``"udiff"`` and ``"udiff-strict"`` read a unified diff (see :func:`apply_diff`;
        ``udiff`` streams hunk by hunk, ``udiff-strict`` applies at ``finish()``). ``policy``
        (``native``, ``udiff``): all blocks or none (the default), or ``"partial"``.
        ``recount`` (``udiff-strict``): ``git apply --recount``. An option left ``None`` takes
        its default (Roo's are 1.0 and 40). Raises :class:`InvalidOptionError` for an unknown
        name."""
    def push(self, chunk: str) -> Update:
        """Feed the next piece of the diff; returns the splice it made to the preview."""
    @property
    def preview(self) -> str:
        """What the file looks like so far. Reads between two pushes return the same ``str``
        object (converted once, on the first read after a push that changed the preview)."""
    @property
    def error(self) -> Optional[HunkloomError]:
        """The error the diff so far causes, or None. An error caused by the last, incomplete
        line may still be withdrawn by the next push; ``finish()`` raises what remains."""
    @property
    def match_indices(self) -> list[int]:
        """Cline's ``matchIndices`` for the diff so far, as ``str`` indices into the original."""
    @property
    def blocks_completed(self) -> int:
        """How many blocks have completed so far."""
    @property
    def dialect(self) -> str:
        """The dialect name, e.g. ``"cline-v1"``."""
    @property
    def finished(self) -> bool:
        """Whether ``finish()`` has been called."""
    def finish(self) -> Outcome:
        """End the stream and return the final content with a report per block, or raise the
        diff's error. The applier cannot be used afterwards (:class:`AlreadyFinishedError`)."""

def apply_diff(
    diff: str,
    original: str,
    *,
    dialect: Optional[_Dialect] = None,
    policy: Optional[_Policy] = None,
    fuzzy_threshold: Optional[float] = None,
    buffer_lines: Optional[int] = None,
    recount: bool = False,
) -> Outcome:
    """Apply a whole diff in any dialect (``native`` by default; an option left ``None`` takes
    its default: all blocks or none, Roo's 1.0 and 40).

    ``native`` reads every marker spelling models emit and locates each block independently by
    a cascade of tiers, strictest first (exact, line endings, trailing whitespace, indentation,
    punctuation, read-tool line numbers, blank lines, one typo). Two or more candidates raise
    :class:`AmbiguousMatchError`, none :class:`SearchNotFoundError`, with a message a model can
    act on. By default all blocks apply or none; with ``policy="partial"`` the ones that matched
    apply and the rest are reported with ``status == "failed"``.

    ``dialect="roo"`` gives Roo Code's ``apply_diff`` result exactly (its
    ``MultiSearchReplaceDiffStrategy(fuzzy_threshold, buffer_lines)``, whatever ``policy``):
    ``new_content`` is Roo's ``content``, and the blocks Roo lists in ``failParts`` are reported,
    in order, with ``status == "failed"`` and ``str(error)`` Roo's text. When no block applies
    it raises the first failure's class with every failure's text, separated by blank lines;
    markers out of sequence raise :class:`MalformedDiffError` with Roo's text.

    ``udiff`` reads a unified diff of one file as the model meant it: each hunk is placed by its
    context and removed lines (line numbers are only hints, counts may be wrong, headers may be
    missing), exactly one place or refused, and reported like a block. ``udiff-strict`` applies
    it exactly as ``git apply`` does (``recount=True``: ``git apply --recount``); its errors are
    git's ``error:`` lines (codes ``invalid_patch``, ``patch_context_not_found``).
    """

def apply_lazy(
    snippet: str,
    original: str,
    path: Optional[str] = None,
    lang: Optional[str] = None,
) -> str:
    """Merge a lazy edit into ``original`` without a model: the whole new text.

    ``snippet`` is the changed code with a few unchanged lines around each change and marker
    comments (``// ... existing code ...``, ``# ...``, ``/* ... */``, ...) for what it leaves
    out; ``// removed NAME`` deletes the definition NAME. Each part between markers is placed
    only where its first and last lines occur exactly once in the file (comparing lines exactly,
    then ignoring their indentation, then all whitespace); what cannot be placed that way is
    refused, never guessed: :class:`SearchNotFoundError` (``lazy_no_anchor``),
    :class:`AmbiguousMatchError` (``lazy_ambiguous``, with ``matches``) or
    :class:`InvalidEditError` (``lazy_silent_deletion``, ``lazy_conflict``,
    ``lazy_indentation``), each naming the part and why. A snippet without markers is the whole
    new file. The language (which comments are markers) comes from ``lang`` (``"python"``,
    ``"typescript"``, ``"go"``, ``"rust"``, ``"java"``, or an extension such as ``"py"``,
    ``"js"``, ``"kt"``, ``"sh"``), else from ``path``'s extension; an unknown ``lang`` raises
    :class:`InvalidOptionError` (``invalid_language``).
    """

def construct_new_file_content(
    diff: str,
    original: str,
    is_final: bool = True,
    version: Literal["v1", "v2"] = "v1",
) -> NewFileContent:
    """Cline's ``constructNewFileContent``: apply a SEARCH/REPLACE diff (or, with
    ``is_final=False``, a prefix of one) to ``original``, byte-identical with Cline v4.0.10,
    error messages included.

    Calls go through a process-wide resume cache: a call whose ``diff`` extends an earlier
    call's ``diff`` for the same ``original`` and ``version`` (Cline's pattern while a diff
    streams) pushes only the new text instead of starting over. Results are the same either
    way; see :func:`set_resume_cache_capacity`."""

def set_resume_cache_capacity(capacity: int) -> None:
    """Set how many streams :func:`construct_new_file_content` keeps to resume from (default 4,
    one per file being edited at once). ``0`` turns resuming off and frees every kept stream.
    Each kept stream holds a copy of its original, the content so far and the diff so far; a
    final call (``is_final=True``) releases its stream. A negative ``capacity`` raises
    ``ValueError``."""

def resume_cache_stats() -> ResumeCacheStats:
    """The resume cache's counters (process-wide) and how many streams it keeps."""

@final
class ResumeCacheStats:
    """The counters of the resume cache behind :func:`construct_new_file_content`."""

    @property
    def hits(self) -> int:
        """Calls that resumed a kept stream (pushed only the diff's new suffix)."""
    @property
    def misses(self) -> int:
        """Calls computed from scratch."""
    @property
    def entries(self) -> int:
        """Streams kept now."""
    @property
    def capacity(self) -> int:
        """The most streams kept at once (0: the cache is off)."""

def line_number_from_index(content: str, index: int) -> int:
    """The 1-based line number of a ``str`` index into ``content``."""

@final
class Edit:
    """The result of :func:`str_replace` or :func:`insert`."""

    @property
    def new_content(self) -> str:
        """The whole text after the edit."""
    @property
    def replacements(self) -> int:
        """How many places were changed (1 unless ``replace_all`` replaced several; 0 for an
        edit that was already in the file)."""
    @property
    def normalizations(self) -> list[str]:
        """Adjustments needed to apply the edit: ``"trailing_whitespace"``, ``"line_endings"``,
        ``"curly_quotes"``, ``"desanitized"``, ``"deleted_line_ending"``, ``"already_applied"``
        (a retried call whose edit was in the file: nothing changed), ``"view_prefixes"`` (a
        view's line numbers were removed from the new text)."""
    @property
    def first_edit(self) -> tuple[int, int]:
        """The 1-based, inclusive line range of the first change in ``new_content``."""

@final
class InsertedContent:
    """The result of :func:`insert_content`."""

    @property
    def new_content(self) -> str:
        """The whole text after the insert."""
    @property
    def edit_type(self) -> Literal["create", "modify"]:
        """``"create"`` when the file did not exist, else ``"modify"``."""

@final
class Written:
    """The result of :func:`write`."""

    @property
    def new_content(self) -> str:
        """The cleaned-up content to write."""
    @property
    def fixes_applied(self) -> list[str]:
        """The fixes that changed something, in pipeline order: ``"strip_markdown_fences"``,
        ``"fix_model_html_escaping"``, ``"remove_invalid_chars"``."""

def str_replace(
    content: Optional[str],
    old: str,
    new: str,
    replace_all: bool = False,
    path: Optional[str] = None,
    *,
    omission_guard: bool = True,
) -> Edit:
    """Claude Code's edit: replace ``old`` with ``new`` in ``content`` (None = the file does not
    exist; an empty ``old`` then creates it).

    ``old`` is found exactly, else with curly quotes folded (``new`` then takes the file's quote
    style), else with API short forms such as ``<fnr>`` restored. More than one match needs
    ``replace_all``. Trailing whitespace is stripped from ``new``'s lines unless ``path`` is a
    Markdown file. Raises :class:`SearchNotFoundError` (``not_found``),
    :class:`AmbiguousMatchError` (``multiple_matches``) or :class:`InvalidEditError`; with
    ``omission_guard`` (the default), :class:`InvalidEditError` (``omission_placeholder``) when
    ``new`` stands in for lines of ``old`` with a placeholder such as ``# ... existing code ...``.
    """

def insert(
    content: str, line: int, text: str, convention: _Convention
) -> Edit:
    """Insert ``text`` as whole lines, in the file's line endings.

    ``"before"`` (Roo): before 1-based line ``line``, 0 appends. ``"after"`` (Anthropic's text
    editor): after line ``line``, 0 is the top; a line past the end raises
    :class:`InvalidEditError` (``invalid_line``).
    """

def insert_content(
    original: Optional[str],
    line: Union[str, int, float, None],
    content: Optional[str] = None,
) -> InsertedContent:
    """Roo's ``insert_content`` tool, observably: ``original`` None = the file does not exist;
    ``line`` as the tool received it (text from the XML protocol, a number from the native one,
    None when missing); Roo's messages and line joining."""

def write(
    text: str,
    path: Optional[str] = None,
    model_id: Optional[str] = None,
    *,
    fixes: Optional[Sequence[_FixName]] = None,
) -> Written:
    """Cline's ``write_to_file`` content pipeline: strip Markdown fences, then the model content
    fixes for ``model_id`` and ``path``. ``fixes`` limits which fixes may run (each still under
    its own conditions); an unknown name raises :class:`InvalidOptionError` (``invalid_fix``)."""

def strip_markdown_fences(text: str) -> str:
    """Cline's fence stripping of ``write_to_file`` content."""

def apply_model_content_fixes(
    text: str, model_id: Optional[str] = None, file_path: Optional[str] = None
) -> str:
    """Cline's ``applyModelContentFixes``: for non-Claude models, undo HTML escaping (except in
    ``.xml`` files) and remove invalid characters."""

def fix_model_html_escaping(text: str) -> str:
    """Cline's ``fixModelHtmlEscaping``: turn HTML entities a model escaped back into text."""

def remove_invalid_chars(text: str) -> str:
    """Cline's ``removeInvalidChars``."""

@final
class EditOutcome:
    """What a committed :class:`Workspace` edit did."""

    @property
    def path(self) -> Path:
        """The file's absolute path (inside the workspace root)."""
    @property
    def kind(self) -> Literal["create", "update", "delete", "move"]:
        """What happened to the file."""
    @property
    def changed(self) -> bool:
        """Whether the file's bytes changed."""
    @property
    def new_content(self) -> Optional[str]:
        """The file's new text (None after a delete)."""
    @property
    def encoding(self) -> str:
        """The file's encoding, kept from the original (new files are UTF-8): ``"utf-8"``,
        ``"utf-8-bom"``, ``"utf-16le"``, ``"utf-16be"``, or a legacy encoding's WHATWG name
        (``"windows-1251"``, ``"Shift_JIS"``, …; Python's codecs accept it)."""
    @property
    def report(self) -> Union[Edit, Outcome, None]:
        """What the operation reported: an :class:`Edit` (``str_replace``, ``insert``; its
        positions are in the text with ``\\r\\n`` read as ``\\n``), an :class:`Outcome`
        (``apply_diff``, with a report per block), or None (a write, a lazy edit, an undo, a
        patch)."""
    @property
    def moved_from(self) -> Optional[str]:
        """For a file a patch moved, the path it came from as the patch names it; else None."""
    @property
    def external_changes(self) -> list[ExternalChange]:
        """Where the file had changed on disk since it was read, when the edit (or the patch's
        hunks for this file) was computed against the text that was read and merged around
        those changes; empty when the file was unchanged since it was read."""

@final
class ExternalChange:
    """A region another writer changed after the file was read, around which an edit was
    merged. Lines are 1-based; ``count == 0`` means lines were only removed (just before
    ``start``), ``read_count == 0`` that lines were only added."""

    @property
    def start(self) -> int:
        """The first line of the region in the file as written."""
    @property
    def count(self) -> int:
        """How many lines it holds in the file as written."""
    @property
    def read_start(self) -> int:
        """The first line it replaced in the text that was read."""
    @property
    def read_count(self) -> int:
        """How many lines of the text that was read it replaced."""

@final
class Workspace:
    """A directory whose files are edited safely.

    Paths stay inside ``root`` (``..``, symlinks leading out and UNC paths raise
    :class:`PathRefusedError`; so do paths in the ignore file and ``.ipynb`` notebooks). An
    existing file must be :meth:`read` before it is edited. When the file changed since, a
    ``str_replace``, ``insert``, diff or patch is merged around the changes if they do not touch
    the lines it changes (:attr:`EditOutcome.external_changes` says where); otherwise, and for
    writes, it is refused with :class:`StaleFileError`, naming the lines. UTF-8 (with or without BOM) and
    UTF-16 (with BOM) files keep their encoding and every untouched line ending; other files
    raise :class:`UnsupportedFileError` and are never rewritten. Writes are atomic, and
    :meth:`undo` takes back a file's last edits.

    Calls release the GIL, and one workspace serves many threads at once (parallel tool calls,
    subagents): calls on different files run in parallel, calls editing the same file take
    turns. Each edit is computed on what was read when the call started and merged into the file
    as the calls before it left it, so parallel edits of different lines all land; of two edits
    of the same (or adjacent) lines the first lands and the second raises
    :class:`StaleFileError` naming the lines. A call that waits longer than ``lock_timeout``
    for its turn raises :class:`FileSystemError` with code ``lock_timeout``, having written
    nothing.
    """

    def __new__(
        cls,
        root: Union[str, os.PathLike[str]],
        *,
        ignore_file: Optional[str] = None,
        max_file_size: Optional[int] = None,
        undo_depth: Optional[int] = None,
        max_kept_read: Optional[int] = None,
        omission_guard: bool = True,
        lock_timeout: Optional[float] = None,
        protect: Optional[list[str]] = None,
        protect_defaults: bool = True,
        legacy_encodings: bool = True,
        durability: _Durability = "full",
    ) -> Workspace:
        """Open ``root`` (finishing or rolling back a multi-file commit a crash interrupted).
        ``ignore_file`` names the gitignore-syntax file of refused paths (default
        ``.hunkloomignore``), ``max_file_size`` is in bytes (default 1 GiB), ``undo_depth``
        the edits kept per file (default 5), ``max_kept_read`` up to how many bytes of each
        file read are kept for merging an edit around later changes (default 4 MiB; 0 keeps
        none, so a changed file is always refused). ``omission_guard`` (default on) refuses a
        ``write`` of an existing file or a ``str_replace`` whose new text stands in for code
        with a placeholder line (``omission_placeholder``); off, such edits are written as
        given. ``lock_timeout`` is how many seconds a call waits for its turn (default 5).
        ``protect`` adds globs (gitignore syntax, relative to the root, e.g. ``".env*"``) of
        paths that can be read but never written (:class:`PathRefusedError`, code
        ``path_protected``); anything inside ``.git``, ``.hg``, ``.svn`` or ``.jj`` and the
        ignore file are protected unless ``protect_defaults=False``. A glob that is not valid
        raises :class:`InvalidOptionError` (``invalid_glob``). ``legacy_encodings`` (default
        on) reads a file in a legacy encoding (windows-1251, Latin-1, Shift_JIS, …, detected)
        as text and writes it back in it; off, such files raise :class:`UnsupportedFileError`
        (``unsupported_encoding``). ``durability``: ``"full"`` (the default: every commit's
        files and directories flushed with fsync before it returns) or ``"none"`` (nothing
        flushed: scratch trees, tests, benchmarks; a power cut may lose the last commits, never
        tear a file); another name raises :class:`InvalidOptionError` (``invalid_input``)."""
    @property
    def root(self) -> Path:
        """The root directory."""
    def read(self, path: Union[str, os.PathLike[str]]) -> str:
        """Read a file's text and record it, so it may be edited until it changes on disk."""
    def str_replace(
        self,
        path: Union[str, os.PathLike[str]],
        old: str,
        new: str,
        replace_all: bool = False,
    ) -> EditOutcome:
        """Claude Code's edit (see :func:`str_replace`) on a file that was read; an empty
        ``old`` creates a missing file. The model's ``\\n`` text matches CRLF files."""
    def insert(
        self,
        path: Union[str, os.PathLike[str]],
        line: int,
        text: str,
        convention: _Convention,
    ) -> EditOutcome:
        """Insert lines into a file that was read (see :func:`insert`)."""
    def write(
        self, path: Union[str, os.PathLike[str]], content: str, *, allow_shrink: bool = False
    ) -> EditOutcome:
        """Write ``content`` as the file's whole text, as given (creating it if needed; an
        existing file must have been read). A write that would cut the file to less than half
        of its lines and looks cut off (ends inside a line, a bracket left open) raises
        :class:`InvalidEditError` (``suspected_truncation``) unless ``allow_shrink=True``."""
    def apply_diff(
        self,
        path: Union[str, os.PathLike[str]],
        diff: str,
        *,
        dialect: Optional[_Dialect] = None,
        policy: Optional[_Policy] = None,
        recount: bool = False,
    ) -> EditOutcome:
        """Apply a diff (see :func:`apply_diff`; ``native`` and all blocks or none by default)
        to a file that was read."""
    def apply_lazy(
        self,
        path: Union[str, os.PathLike[str]],
        snippet: str,
        *,
        lang: Optional[str] = None,
    ) -> EditOutcome:
        """Merge a lazy edit (see :func:`apply_lazy`) into a file that was read, all or
        nothing; the language from ``lang``, else from the path."""
    def apply_patch(
        self,
        patch: str,
        *,
        dialect: _PatchDialect = "codex",
        policy: _Policy = "all_or_nothing",
        recount: bool = False,
    ) -> PatchOutcome:
        """Apply a multi-file patch (see :func:`apply_patch`) to the
        workspace's files: every path is checked like any other, files read here must be
        unchanged since, encodings and untouched line endings are kept, and all files are
        committed or none (with ``policy="partial"``, the hunks before a failure)."""
    def undo(self, path: Union[str, os.PathLike[str]]) -> EditOutcome:
        """Take back the file's last edit (refused if the file changed since)."""

@final
class PatchOutcome:
    """What :meth:`Workspace.apply_patch` did."""

    @property
    def files(self) -> list[EditOutcome]:
        """One outcome per file the patch changed, in patch order."""
    @property
    def warnings(self) -> list[PatchWarning]:
        """Notes about changes that did not stop the patch."""
    @property
    def fuzz(self) -> int:
        """How far matching had to relax to place the chunks (0 = exactly)."""
    @property
    def failure(self) -> Optional[HunkloomError]:
        """With ``policy="partial"``, the error that stopped the patch (the files before it
        were written); else None."""

@final
class PatchWarning:
    """A note about a patch change that did not stop it."""

    @property
    def path(self) -> str:
        """The file concerned."""
    @property
    def chunk_index(self) -> Optional[int]:
        """The index of the chunk concerned, if one is."""
    @property
    def message(self) -> str:
        """What happened (Cline's exact text in the ``cline`` dialect)."""
    @property
    def context(self) -> Optional[str]:
        """The chunk's context lines, if any."""

@final
class PatchResult:
    """The files after :func:`apply_patch`."""

    @property
    def files(self) -> dict[str, str]:
        """Every file afterwards, by path (deleted and moved-away paths left out)."""
    @property
    def deleted(self) -> list[str]:
        """The paths the patch removed (deleted, or moved away from)."""
    @property
    def warnings(self) -> list[PatchWarning]:
        """Notes about changes that did not stop the patch."""
    @property
    def fuzz(self) -> int:
        """How far matching had to relax to place the chunks (0 = exactly)."""
    @property
    def start_lines(self) -> dict[str, list[int]]:
        """For each updated file, the 1-based line where each chunk applied."""
    @property
    def failure(self) -> Optional[HunkloomError]:
        """With ``policy="partial"``, the error that stopped the patch (``files`` holds what
        came before it); else None."""

def apply_patch(
    patch: str,
    files: Mapping[str, str],
    *,
    dialect: _PatchDialect = "codex",
    policy: _Policy = "all_or_nothing",
    path: Optional[str] = None,
    mode: _V4aMode = "default",
    recount: bool = False,
) -> PatchResult:
    """Apply a ``*** Begin Patch`` multi-file patch (Codex's format; Cline's ``apply_patch``
    with ``dialect="cline"``), a unified diff of several files (a git patch) with
    ``dialect="udiff"`` or ``"udiff-strict"`` (``recount`` as ``git apply --recount``), or a
    model's reply in one of aider's edit formats with ``dialect="aider"`` (SEARCH/REPLACE
    blocks under file names), ``"aider-fenced"`` or ``"aider-whole"`` (file listings) — applied
    as aider 0.86 applies it, ``files`` being its chat files (``"aider-native"``: the block
    formats without aider's guesses, each block placed by the native engine or refused) — to
    ``files`` (path to text) in memory.

    Every file is planned before anything changes: by default the patch applies entirely or
    raises (``policy="partial"`` keeps the hunks before a failure, as Codex does). Chunks are
    located with Codex's cascade (exact, then trailing whitespace, then surrounding
    whitespace, then typographic punctuation folded).

    With ``path``, ``patch`` is a bare per-file body (what OpenAI's Responses-API
    ``apply_patch`` tool sends, a V4A body) for that one file, read as Codex reads it inside
    ``*** Begin Patch`` / ``*** Update File: <path>`` (``mode="create"``: ``*** Add File:``) /
    ``*** End Patch``; the ``codex`` and ``native`` dialects only (``invalid_dialect``
    otherwise, and for a ``mode`` without ``path``). :func:`apply_v4a` applies the same body as
    the OpenAI Agents SDK does.

    ``dialect="native"`` reads a patch or a body as the model meant it, never guessing: each
    section is placed by its lines in exactly one place of its file (its ``@@`` anchors or
    ``*** End of File`` choosing among several, never the first of several copies), its ``+``
    lines re-indented as its context was found, the file's line endings and final-newline state
    kept; anything else is refused naming the section (``patch_context_not_found``,
    ``ambiguous_match``, ``overlapping_blocks``, ``patch_file_exists``, ``empty_patch``).
    """

def apply_v4a(
    input: str, diff: str, mode: _V4aMode = "default"
) -> str:
    """Apply a V4A body — one ``create_file`` / ``update_file`` operation of OpenAI's
    Responses-API ``apply_patch`` tool, without the ``*** Begin Patch`` envelope — to
    ``input`` exactly as the OpenAI Agents SDK's ``apply_diff(input, diff, mode)`` does, and
    return the new text.

    Its behaviour is kept where it loses data: line endings become ``\\r\\n`` everywhere when
    ``input`` has any, and ``mode="create"`` (only ``+`` lines; ``input`` ignored) writes no
    final newline. Failures raise a :class:`HunkloomError` subclass whose message is the
    reference's ``ValueError`` text exactly (codes ``invalid_patch_hunk``,
    ``patch_context_not_found``, ``overlapping_blocks``; ``invalid_dialect`` for an unknown
    ``mode``).
    """

def _error_class(code: str) -> Optional[type[HunkloomError]]:
    """The exception class raised for an error code (None for an unknown code)."""

@final
class ToolResult:
    """What one :meth:`TextEditor.call` gave back. Send ``output`` to the model as the tool
    result, flagged as an error when ``is_error`` is set."""

    @property
    def output(self) -> str:
        """The exact text for the model (the reference's text in the ``anthropic`` and
        ``openhands`` profiles)."""
    @property
    def is_error(self) -> bool:
        """Whether the call failed: a model's mistake (a missing parameter, a path that does not
        exist, an ``old_str`` found nowhere or in several places, ...)."""
    @property
    def code(self) -> str:
        """A stable snake_case code of the failure (``"not_found"``, ``"multiple_matches"``,
        ``"missing_parameter"``, ...); ``""`` on success."""
    @property
    def path(self) -> Optional[str]:
        """The path the call was about, as the output shows it; None when the input had no
        usable path."""
    @property
    def old_content(self) -> Optional[str]:
        """For ``str_replace``, ``insert`` and ``undo_edit`` that changed a file, and the openai
        set's ``apply_patch`` of one ``update_file`` operation: its text before."""
    @property
    def new_content(self) -> Optional[str]:
        """For ``create``, ``str_replace``, ``insert`` and ``undo_edit`` that wrote a file, and a
        toolset call that wrote one file (the native set's file tools and one-file
        ``apply_patch``, the codex set's one-file ``apply_patch``, the openai set's
        ``apply_patch`` of one ``create_file`` or ``update_file`` operation): its text after."""

@final
class Toolset:
    """The edit tools one model family is trained on, answered as its reference answers them,
    over a :class:`Workspace`-like root: paths stay inside ``root``, protected paths are never
    written, writes are atomic, parallel calls on one file take turns.

    ``profile``: ``"native"`` (hunkloom's own tools, as ``hunkloom mcp`` serves them:
    ``read_file``, ``apply_diff``, ``apply_lazy``, ``apply_patch``, ``undo_edit`` and the text
    editor as ``str_replace_based_edit_tool``), ``"anthropic"``, ``"openhands"`` (the reference
    text editor, as :class:`TextEditor`), ``"openai"`` (the Responses-API hosted ``apply_patch`` tool as the
    OpenAI Agents SDK 0.24.0 answers it: ``create_file``, ``update_file``, ``delete_file``
    operations with V4A diffs) or ``"codex"`` (Codex CLI 0.171.0's freeform ``apply_patch`` and
    its ``exec_command`` ``apply_patch`` heredocs; a path outside the root is refused, and a
    command that is not such a heredoc comes back with code ``not_an_edit`` for the host to
    run), ``"gemini"`` (the Gemini CLI's ``replace``, ``write_file`` and ``read_file``),
    ``"claude-code"`` (``Read``, ``Write``, ``Edit``, ``MultiEdit``) or ``"copilot"`` (Copilot
    Chat's ``replace_string_in_file``, ``multi_replace_string_in_file``, ``apply_patch`` and
    ``create_file``).
    ``"anthropic"`` also answers ``str_replace_based_edit_tool`` (text_editor_20250728: no
    ``undo_edit``; a ``view`` shows at most ``max_characters`` characters, default 16,000).
    """

    def __new__(
        cls,
        root: Union[str, os.PathLike[str]],
        profile: _ToolsetProfile = "native",
        *,
        require_read: Optional[bool] = None,
        max_file_size: Optional[int] = None,
        protect: Optional[list[str]] = None,
        max_characters: Optional[int] = None,
        read_only: bool = False,
        semantics: _Semantics = "reference",
        durability: _Durability = "full",
    ) -> Toolset:
        """A toolset over the existing directory ``root``; the options as :class:`TextEditor`'s,
        ``max_characters``, the most characters of a file a text-editor ``view`` shows, and
        ``read_only``: only the tools that never write are listed, the others refused with code
        ``read_only``; ``semantics="native"``: hunkloom's matching and refusals behind the
        profile's tool names (the native text editor for ``anthropic`` and ``openhands``, the
        native reading of patches for ``openai``, ``codex`` and Copilot's ``apply_patch``, the
        native text editor's replacement for the string-replacing tools of ``gemini``,
        ``copilot`` and ``claude-code``); ``durability`` as :class:`Workspace`'s.
        Raises :class:`InvalidOptionError` (``invalid_profile``) for an unknown profile."""
    def tools(self) -> list[dict[str, Any]]:
        """The profile's tool definitions for a model API: ``{"name", "title", "description",
        "input_schema", "read_only"}`` each (``title`` None where the profile has none)."""
    def call(self, name: str, input: Mapping[str, Any]) -> ToolResult:
        """Answer one call of the tool ``name``; every mistake a model can make (an unknown tool
        name too, code ``unknown_tool``) is a result with ``is_error`` set. Only an ``input`` that
        is not a ``dict`` of JSON values raises :class:`InvalidOptionError` (``invalid_input``)."""
    def stream(self, name: str) -> EditStream:
        """A stream for one call of the tool ``name`` whose argument JSON arrives in pieces
        (:class:`EditStream`): the text-editor tools have a ``preview``, as have the native
        set's ``apply_diff`` (its ``diff`` applied by the native streaming applier as it
        arrives, from the moment ``path`` is complete), ``apply_lazy`` (once complete) and
        ``apply_patch`` (its ``*** Begin Patch`` envelope file by file, ``path`` naming the
        file shown), the codex set's ``apply_patch`` (the same way), and the openai set's
        ``apply_patch`` of one operation (its V4A ``diff``, each section once placed); the
        others are read as they arrive (``preview`` stays None) and run by ``finish``, which
        returns what ``call(name, json.loads(all_pieces))`` returns."""
    @property
    def profile(self) -> _ToolsetProfile:
        """The profile it answers as."""
    @property
    def root(self) -> Path:
        """The root directory (absolute, symbolic links resolved)."""

@final
class EditStream:
    """One tool call applied while its argument JSON streams in, made by
    :meth:`TextEditor.stream` or :meth:`Toolset.stream`: ``push`` each piece as the model API delivers it (split anywhere,
    escapes included), read ``preview``, then ``finish``. Each push costs the length of its
    piece, except the one that places the edit (a read of the file) and the one that completes
    the arguments (the call planned). Pushing one stream from two threads at once raises
    :class:`ConcurrentUseError`; a call after ``finish`` :class:`AlreadyFinishedError`."""

    def push(self, piece: str) -> Update:
        """Take the next piece of the call's argument JSON; returns the splice it made to the
        preview (applying every update in order to ``""`` gives the current preview)."""
    @property
    def preview(self) -> Optional[str]:
        """The target file's text with the edit applied as far as it has streamed (``new_str``
        in place of ``old_str`` once that is complete and found exactly once, ``file_text`` of
        a new file, ``new_str`` after ``insert_line``; for the native ``apply_diff``, the
        blocks of ``diff`` applied so far), and exactly the text the call will leave once the
        arguments are complete. None before the edit is placed, for ``view``
        and ``undo_edit``, and for a call that will fail; never raises for the call's sake."""
    @property
    def command(self) -> Optional[str]:
        """The command (an ``apply_patch`` operation's ``type``), once its value is complete."""
    @property
    def path(self) -> Optional[str]:
        """The path (an ``apply_patch`` operation's ``path``; for a ``*** Begin Patch``
        envelope, the file the preview shows now), once its value is complete."""
    def finish(self) -> ToolResult:
        """Run the call: what ``call(json.loads(all_pieces))`` returns. Text that is not a
        complete JSON object (malformed or cut off) gives an error result with code
        ``invalid_arguments``, never an exception."""

@final
class TextEditor:
    """The text-editor tool a model calls (``view``, ``create``, ``str_replace``, ``insert``,
    ``undo_edit``), answered as a reference answers it, over a :class:`Workspace`-like root.

    ``profile``: ``"anthropic"`` (Anthropic's computer-use demo editor, tool name
    ``str_replace_editor``), ``"openhands"`` (OpenHands ACI's ``OHEditor``) or ``"native"`` (the
    default: hunkloom's own edit semantics with Anthropic's message shapes). Paths stay inside
    ``root``; line endings, byte-order marks, tabs and encodings are kept where the references
    would rewrite them; writes are atomic. Calls release the GIL, and one editor answers
    parallel tool calls from many threads: calls on different files run in parallel, calls on
    the same file take turns, each answered as if it came after the one before.
    """

    def __new__(
        cls,
        root: Union[str, os.PathLike[str]],
        profile: _Profile = "native",
        *,
        require_read: Optional[bool] = None,
        max_file_size: Optional[int] = None,
        protect: Optional[list[str]] = None,
        durability: _Durability = "full",
    ) -> TextEditor:
        """An editor over the existing directory ``root``. ``require_read``: refuse to edit a
        file the model has not viewed since it last changed (None: the profile's default, on for
        ``native`` only). ``max_file_size`` in bytes (None: 10 MiB for ``openhands``, 1 GiB
        otherwise). ``protect``: globs of paths that can be viewed but never written, besides
        ``.git`` (and the other version-control directories) and the ignore file (result code
        ``path_protected``). ``durability`` as :class:`Workspace`'s. Raises
        :class:`InvalidOptionError` (``invalid_profile``) for an unknown profile,
        :class:`FileSystemError` if ``root`` is not an accessible directory."""
    def call(self, input: Mapping[str, Any]) -> ToolResult:
        """Answer one tool call: ``input`` is the call's arguments, e.g. ``{"command": "view",
        "path": "/repo/app.py"}``. Every mistake a model can make comes back as a result with
        ``is_error`` set; only an ``input`` that is not a ``dict`` of JSON values (dict, list,
        tuple, str, int, float, bool, None; a ``str`` without a UTF-8 form, i.e. with a lone
        surrogate, is not one) raises :class:`InvalidOptionError` (``invalid_input``)."""
    def stream(self) -> EditStream:
        """A stream for one tool call whose argument JSON arrives in pieces (Anthropic's
        ``input_json_delta``, OpenAI's ``function_call_arguments.delta``): see
        :class:`EditStream`."""
    @staticmethod
    def schema(profile: _Profile = "native", name: Optional[str] = None) -> dict[str, Any]:
        """The tool's definition for a model API: ``{"name", "description", "input_schema"}``
        (OpenAI-style APIs take ``input_schema`` as ``parameters``). ``name`` renames the tool;
        with the ``anthropic`` profile, ``"str_replace_based_edit_tool"`` (Anthropic's newest
        editor) offers no ``undo_edit``."""
    @property
    def profile(self) -> _Profile:
        """The profile it answers as."""
    @property
    def root(self) -> Path:
        """The root directory (absolute, symbolic links resolved)."""
    @property
    def require_read(self) -> bool:
        """Whether edits need a view of the file first."""
