"""Apply a model's edit to a file on disk: stream it into a live view, write it through a
Workspace, let a wrong edit be refused, and undo. Run: python edit_file.py (after
`pip install hunkloom`); it prints what examples/expected.txt holds."""

import pathlib
import tempfile

import hunkloom

# A project with a Windows (CRLF) file, and the edit a model streams for it (LF, as models write).
root = pathlib.Path(tempfile.mkdtemp())
(root / "app.py").write_bytes(b"def total(items):\r\n    return sum(items)\r\n")
diff = (
    "<<<<<<< SEARCH\n    return sum(items)\n=======\n"
    "    return sum(items, start=0)\n>>>>>>> REPLACE\n"
)
chunks = [diff[i : i + 16] for i in range(0, len(diff), 16)]

ws = hunkloom.Workspace(root)
original = ws.read("app.py")  # an edit needs a read first

# The live view starts from the applier's own preview (the original, in the native dialect)
# and takes each update as a splice, as an editor's document would.
applier = hunkloom.StreamingApplier(original, dialect="native")
view = applier.preview
for chunk in chunks:
    view = applier.push(chunk).apply_to(view)
    assert view == applier.preview
print(f"streamed {len(chunks)} chunks, the view equal to the applier's preview after each")
block = applier.finish().blocks[0]
print(f"block 1: {block.status} at line {block.start_line} ({block.strategy})")

# The same edit written to disk: atomically, keeping the file's encoding and line endings.
ws.apply_diff("app.py", diff)
assert (root / "app.py").read_bytes() == b"def total(items):\r\n    return sum(items, start=0)\r\n"
print("app.py: edit written, CRLF line endings kept")

# A wrong edit is refused with a stable code and a message the model can act on.
try:
    ws.apply_diff("app.py", "<<<<<<< SEARCH\n    return total(items)\n=======\n    pass\n>>>>>>> REPLACE\n")
except hunkloom.HunkloomError as error:
    print(f"refused: {error.code}")

ws.undo("app.py")
assert (root / "app.py").read_bytes() == b"def total(items):\r\n    return sum(items)\r\n"
print("undo: app.py has its original bytes again")
