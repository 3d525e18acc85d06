// Type-checked (tsc --strict) by readme.test.js: the generated index.d.ts must describe the
// package the way a TypeScript extension uses it. `@ts-expect-error` lines must stay errors.
import {
  StreamingApplier,
  constructNewFileContent,
  constructNewFileContentSync,
  getLineNumberFromCharIndex,
  resumeCacheStats,
  setResumeCacheCapacity,
} from "patchloom"
import type { BlockReport, NewFileContent, Outcome, Update } from "patchloom"

export async function usage(diff: string, original: string): Promise<number> {
  const result: NewFileContent = await constructNewFileContent(diff, original, false, "v2")
  const indices: number[] = constructNewFileContentSync(diff, original, true).matchIndices
  const applier = new StreamingApplier(original, { dialect: "cline-v2" })
  const update: Update = applier.push(diff)
  const preview: string = applier.preview
  const error: Error | null = applier.error
  const outcome: Outcome = applier.finish()
  const block: BlockReport | undefined = outcome.blocks[0]
  const strategy: "exact" | "line_trimmed" | "block_anchor" | "exact_anywhere" | "empty_search_new_file" | "empty_search_whole_file" | undefined = block?.strategy
  setResumeCacheCapacity(resumeCacheStats().capacity)
  return (
    result.newContent.length + indices.length + update.start + preview.length + (error ? 1 : 0) +
    (strategy ? 1 : 0) + getLineNumberFromCharIndex(original, 3)
  )
}

export async function misuse(original: string): Promise<void> {
  // @ts-expect-error isFinal is required
  await constructNewFileContent("", original)
  // @ts-expect-error only "v1" and "v2" exist
  constructNewFileContentSync("", original, true, "v3")
  // @ts-expect-error only the Cline dialects exist
  new StreamingApplier(original, { dialect: "native" })
  // @ts-expect-error chunks are strings
  new StreamingApplier(original).push(42)
  const applier = new StreamingApplier(original)
  // @ts-expect-error preview is read-only
  applier.preview = ""
}
