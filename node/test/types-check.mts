// Type-checked (tsc --strict) by readme.test.js: the generated index.d.ts must describe the
// package the way a TypeScript extension uses it. `@ts-expect-error` lines must stay errors.
import {
  MultiSearchReplaceDiffStrategy,
  StreamingApplier,
  Workspace,
  applyDiff,
  applyModelContentFixes,
  applyPatch,
  applyV4a,
  constructNewFileContent,
  constructNewFileContentSync,
  getLineNumberFromCharIndex,
  insert,
  insertContent,
  resumeCacheStats,
  setResumeCacheCapacity,
  strReplace,
  write,
} from "hunkloom"
import type {
  ApplyOptions,
  BlockReport,
  DiffResult,
  Edit,
  EditOutcome,
  InsertedContent,
  NewFileContent,
  Outcome,
  PatchChange,
  PatchOptions,
  PatchOutcome,
  PatchResult,
  PatchWarning,
  PatchedFile,
  Update,
  WorkspaceOptions,
  Written,
} from "hunkloom"

export async function usage(diff: string, original: string): Promise<number> {
  const result: NewFileContent = await constructNewFileContent(diff, original, false, "v2")
  const indices: number[] = constructNewFileContentSync(diff, original, true).matchIndices
  const applier = new StreamingApplier(original, { dialect: "cline-v2" })
  const update: Update = applier.push(diff)
  const preview: string = applier.preview
  const error: Error | null = applier.error
  const outcome: Outcome = applier.finish()
  const block: BlockReport | undefined = outcome.blocks[0]
  const strategy:
    | "exact" | "line_trimmed" | "block_anchor" | "exact_anywhere" | "empty_search_new_file" | "empty_search_whole_file"
    | "line_endings" | "trailing_whitespace" | "indentation" | "punctuation" | "line_number_prefix" | "blank_lines"
    | "typo" | "unmatched" | "similarity" | undefined = block?.strategy
  setResumeCacheCapacity(resumeCacheStats().capacity)
  return (
    result.newContent.length + indices.length + update.start + preview.length + (error ? 1 : 0) +
    (strategy ? 1 : 0) + getLineNumberFromCharIndex(original, 3)
  )
}

export function nativeUsage(diff: string, original: string): number {
  const options: ApplyOptions = { policy: "partial" }
  const outcome: Outcome = applyDiff(diff, original, options)
  const native: Outcome = applyDiff(diff, original)
  const cline: Outcome = applyDiff(diff, original, { dialect: "cline-v2" })
  const applier = new StreamingApplier(original, { dialect: "native", policy: "all_or_nothing" })
  const dialect: "cline-v1" | "cline-v2" | "native" | "roo" | "udiff" | "udiff-strict" = applier.dialect
  const completed: BlockReport[] = applier.push(diff).completed
  let n = native.blocks.length + cline.blocks.length + completed.length + dialect.length
  for (const block of outcome.blocks) {
    const status: "applied" | "failed" | "already_applied" = block.status
    const error: Error | null = block.error
    const normalization:
      | "line_endings" | "trailing_whitespace" | "indentation" | "punctuation" | "line_number_prefixes"
      | "blank_lines" | "typo" | undefined = block.normalizations[0]
    const reindented: boolean = block.reindented
    n += block.endLine - block.startLine + block.candidates + block.indentDelta + status.length
    n += (error?.message.length ?? 0) + (normalization ? 1 : 0) + (reindented ? 1 : 0)
  }
  return n
}

export function opsUsage(file: string | null, line: string | number | undefined): string {
  const edit: Edit = strReplace(file, "old", "new", true, "README.md")
  const first: number = edit.firstEdit.start + edit.replacements
  const curly: boolean = edit.normalizations.includes("curly_quotes")
  const after: Edit = insert(edit.newContent, first, "text", "after")
  const roo: InsertedContent = insertContent(file, line, null)
  const created: "create" | "modify" = roo.editType
  const written: Written = write(after.newContent, "a.xml", null, ["remove_invalid_chars"])
  const fix: "strip_markdown_fences" | "fix_model_html_escaping" | "remove_invalid_chars" | undefined = written.fixesApplied[0]
  return applyModelContentFixes(written.newContent, undefined, "a.js") + created + (fix ?? "") + (curly ? "" : "!")
}

export function opsMisuse(content: string): void {
  // @ts-expect-error only "before" and "after" exist
  insert(content, 1, "x", "Before")
  // @ts-expect-error the line is a number
  insert(content, "1", "x", "after")
  // @ts-expect-error the content is a string or null, never undefined
  strReplace(undefined, "a", "b")
  // @ts-expect-error only the three fixes exist
  write(content, null, null, ["html"])
}

export async function misuse(original: string): Promise<void> {
  // @ts-expect-error isFinal is required
  await constructNewFileContent("", original)
  // @ts-expect-error only "v1" and "v2" exist
  constructNewFileContentSync("", original, true, "v3")
  // @ts-expect-error only "cline-v1", "cline-v2" and "native" exist
  new StreamingApplier(original, { dialect: "cline-v3" })
  // @ts-expect-error only "all_or_nothing" and "partial" exist
  applyDiff("", original, { policy: "best_effort" })
  // @ts-expect-error only "all_or_nothing" and "partial" exist
  new StreamingApplier(original, { dialect: "native", policy: "allOrNothing" })
  // @ts-expect-error the diff is a string
  applyDiff(undefined, original)
  // @ts-expect-error chunks are strings
  new StreamingApplier(original).push(42)
  const applier = new StreamingApplier(original)
  // @ts-expect-error preview is read-only
  applier.preview = ""
}

export function workspaceUsage(root: string, diff: string): number {
  const options: WorkspaceOptions = { ignoreFile: ".clineignore", maxFileSize: 1 << 20, undoDepth: 3 }
  const ws = new Workspace(root, options)
  const text: string = ws.read("a.py") + ws.root
  const edit: EditOutcome = ws.strReplace("a.py", "old", "new", true)
  const kind: "create" | "update" | "delete" | "move" = edit.kind
  const encoding: string = edit.encoding // "utf-8", "utf-8-bom", "utf-16le", "utf-16be" or a legacy name
  const content: string | null = edit.newContent
  const report: Edit | Outcome | null = edit.report
  const blocks = report !== null && "blocks" in report ? report.blocks.length : 0
  ws.insert("a.py", 1, "import os", "before")
  ws.write("b.py", "x = 1\n")
  ws.applyDiff("a.py", diff, { dialect: "native", policy: "partial" })
  const undone: EditOutcome = ws.undo("a.py")
  const patched: PatchOutcome = ws.applyPatch("*** Begin Patch\n*** End Patch\n", { dialect: "cline" })
  const file: PatchedFile | undefined = patched.files[0]
  const moved: string | null | undefined = file?.movedFrom
  return text.length + kind.length + encoding.length + (content?.length ?? 0) + blocks + (undone.changed ? 1 : 0) + (moved?.length ?? 0)
}

export function patchUsage(patch: string, files: Record<string, string>): number {
  const options: PatchOptions = { dialect: "codex", policy: "partial" }
  const result: PatchResult = applyPatch(patch, files, options)
  const after: Record<string, string> = result.files
  const change: PatchChange | undefined = result.changes[0]
  const changeKind: "add" | "update" | "delete" | undefined = change?.kind
  const warning: PatchWarning | undefined = result.warnings[0]
  const chunk: number | null | undefined = warning?.chunkIndex
  const error: Error | undefined = result.failure?.error
  return Object.keys(after).length + result.deleted.length + result.fuzz + (changeKind ? 1 : 0) + (chunk ?? 0) + (error ? 1 : 0)
}

export function v4aUsage(source: string, body: string): number {
  const updated: string = applyV4a(source, body)
  const created: string = applyV4a("", body, "create")
  const codex: PatchResult = applyPatch(body, { "a.py": source }, { path: "a.py", mode: "default" })
  // @ts-expect-error only "default" and "create" exist
  applyV4a(source, body, "update")
  // @ts-expect-error only "default" and "create" exist
  applyPatch(body, {}, { path: "a.py", mode: "add" })
  return updated.length + created.length + Object.keys(codex.files).length
}

export function workspaceMisuse(root: string): void {
  // @ts-expect-error the options are an object
  new Workspace(root, "strict")
  const ws = new Workspace(root)
  // @ts-expect-error root is read-only
  ws.root = "/"
  // @ts-expect-error only "before" and "after" exist
  ws.insert("a", 1, "x", "Before")
  // @ts-expect-error "native" is a patch dialect, "cline-v1" is not
  applyPatch("", {}, { dialect: "cline-v1" })
  applyPatch("", {}, { dialect: "native" })
  // @ts-expect-error files are a record of strings
  applyPatch("", { a: 1 })
}

export async function rooUsage(original: string, diff: string): Promise<number> {
  const strategy = new MultiSearchReplaceDiffStrategy(0.9, 40)
  const name: string = strategy.getName()
  const result: DiffResult = await strategy.applyDiff(original, diff, 3, 9)
  const content: string | undefined = result.success ? result.content : undefined
  const failed: string[] = (result.failParts ?? []).map((p) => p.error)
  const progress = strategy.getProgressStatus({ params: { diff }, partial: false }, result)
  const viaDialect: Outcome = applyDiff(diff, original, { dialect: "roo", fuzzyThreshold: 0.9, bufferLines: 10 })
  // @ts-expect-error the threshold is a number
  new MultiSearchReplaceDiffStrategy("0.9")
  return name.length + (content ?? "").length + failed.length + (progress.text ?? "").length + viaDialect.blocks.length
}
