// Type-checked (tsc --strict) by readme.test.js: the generated index.d.ts must describe the
// package the way a TypeScript extension uses it. `@ts-expect-error` lines must stay errors.
import {
  StreamingApplier,
  applyDiff,
  applyModelContentFixes,
  constructNewFileContent,
  constructNewFileContentSync,
  getLineNumberFromCharIndex,
  insert,
  insertContent,
  resumeCacheStats,
  setResumeCacheCapacity,
  strReplace,
  write,
} from "patchloom"
import type { ApplyOptions, BlockReport, Edit, InsertedContent, NewFileContent, Outcome, Update, Written } from "patchloom"

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
    | "typo" | "unmatched" | undefined = block?.strategy
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
  const dialect: "cline-v1" | "cline-v2" | "native" = applier.dialect
  const completed: BlockReport[] = applier.push(diff).completed
  let n = native.blocks.length + cline.blocks.length + completed.length + dialect.length
  for (const block of outcome.blocks) {
    const status: "applied" | "failed" = block.status
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
