/**
 * Enough of git for pull requests to have real files, patches and diffs: commits are full snapshots
 * (path -> content), a diff between two snapshots is a line diff (via LCS on small files), and a merge
 * of two is git's three-way merge over that diff.
 */
import {blobSha} from './git-objects.js'
import type {Tree} from './state.js'

export interface FileChange {
  filename: string
  status: 'added' | 'removed' | 'modified'
  additions: number
  deletions: number
  patch: string
  /** The file's blob ids on each side (null where it is absent). */
  blobs: {base: string | null; head: string | null}
}

/** A file's lines with their line ends, so that a missing final newline is a change of the last line, as in git. */
function linesWithEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? []
}

type Op = {kind: ' ' | '-' | '+'; text: string; oldLine: number; newLine: number}

/** An edit script from a to b by longest common subsequence (files here are small). */
function editScript(a: string[], b: string[]): Op[] {
  const n = a.length
  const m = b.length
  const lcs: Uint32Array[] = Array.from({length: n + 1}, () => new Uint32Array(m + 1))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
    }
  }
  const ops: Op[] = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({kind: ' ', text: a[i]!, oldLine: i + 1, newLine: j + 1})
      i++
      j++
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // Deletions before additions, as git prints a changed block.
      ops.push({kind: '-', text: a[i]!, oldLine: i + 1, newLine: j})
      i++
    } else {
      ops.push({kind: '+', text: b[j]!, oldLine: i, newLine: j + 1})
      j++
    }
  }
  return ops
}

/** A unified-diff patch with 3 lines of context, hunks as git prints them (a last line without its newline marked). */
function unifiedPatch(before: string, after: string): {patch: string; additions: number; deletions: number} {
  const ops = editScript(linesWithEnds(before), linesWithEnds(after))
  const context = 3
  const changed = ops.map((op, index) => (op.kind === ' ' ? -1 : index)).filter((index) => index >= 0)
  const hunks: string[] = []
  let cursor = 0
  while (cursor < changed.length) {
    const start = Math.max(0, changed[cursor]! - context)
    let end = Math.min(ops.length - 1, changed[cursor]! + context)
    while (cursor + 1 < changed.length && changed[cursor + 1]! - context <= end + 1) {
      cursor++
      end = Math.min(ops.length - 1, changed[cursor]! + context)
    }
    cursor++
    const slice = ops.slice(start, end + 1)
    const oldCount = slice.filter((op) => op.kind !== '+').length
    const newCount = slice.filter((op) => op.kind !== '-').length
    const first = slice[0]!
    const oldStart = oldCount === 0 ? first.oldLine : first.kind === '+' ? first.oldLine + 1 : first.oldLine
    const newStart = newCount === 0 ? first.newLine : first.kind === '-' ? first.newLine + 1 : first.newLine
    hunks.push(
      `@@ -${oldStart}${oldCount === 1 ? '' : `,${oldCount}`} +${newStart}${newCount === 1 ? '' : `,${newCount}`} @@`,
    )
    for (const op of slice) {
      hunks.push(op.kind + op.text.replace(/\n$/, ''))
      if (!op.text.endsWith('\n')) hunks.push('\\ No newline at end of file')
    }
  }
  return {
    patch: hunks.join('\n'),
    additions: ops.filter((op) => op.kind === '+').length,
    deletions: ops.filter((op) => op.kind === '-').length,
  }
}

export function diffTrees(base: Tree, head: Tree): FileChange[] {
  const paths = [...new Set([...Object.keys(base), ...Object.keys(head)])].sort()
  const changes: FileChange[] = []
  for (const filename of paths) {
    const before = base[filename]
    const after = head[filename]
    if (before === after) continue
    const {patch, additions, deletions} = unifiedPatch(before ?? '', after ?? '')
    changes.push({
      filename,
      status: before === undefined ? 'added' : after === undefined ? 'removed' : 'modified',
      additions,
      deletions,
      patch,
      blobs: {base: before === undefined ? null : blobSha(before), head: after === undefined ? null : blobSha(after)},
    })
  }
  return changes
}

/** A side's change to the base: the base's lines [start, end) replaced by `lines`. */
interface Hunk {
  start: number
  end: number
  lines: string[]
}

function hunks(base: string[], side: string[]): Hunk[] {
  const result: Hunk[] = []
  let index = 0
  let open: Hunk | undefined
  for (const op of editScript(base, side)) {
    if (op.kind === ' ') {
      open = undefined
      index++
      continue
    }
    if (!open) result.push((open = {start: index, end: index, lines: []}))
    if (op.kind === '-') open.end = ++index
    else open.lines.push(op.text)
  }
  return result
}

/**
 * git's line-level three-way merge of one file: the changes of both sides to the base, or undefined
 * when they conflict. As in git, changes conflict when they overlap or touch (two edits of adjacent
 * lines, two insertions at one place) unless they are the same change.
 */
function mergeText(base: string, ours: string, theirs: string): string | undefined {
  const baseLines = linesWithEnds(base)
  const changes = [
    ...hunks(baseLines, linesWithEnds(ours)).map((hunk) => ({...hunk, side: 0})),
    ...hunks(baseLines, linesWithEnds(theirs)).map((hunk) => ({...hunk, side: 1})),
  ].sort((a, b) => a.start - b.start || a.end - b.end)
  const merged: string[] = []
  let cursor = 0
  for (let i = 0; i < changes.length;) {
    // A group: the changes that overlap or touch the first one, transitively.
    let end = changes[i]!.end
    let j = i + 1
    while (j < changes.length && changes[j]!.start <= end) end = Math.max(end, changes[j++]!.end)
    const group = changes.slice(i, j)
    const start = group[0]!.start
    // Each side's text of the base region [start, end): its changes, the base's lines between them.
    const sideText = (side: number): string[] => {
      const out: string[] = []
      let at = start
      for (const hunk of group.filter((h) => h.side === side)) {
        out.push(...baseLines.slice(at, hunk.start), ...hunk.lines)
        at = hunk.end
      }
      return [...out, ...baseLines.slice(at, end)]
    }
    const sides = new Set(group.map((h) => h.side))
    const [oursText, theirsText] = [sideText(0), sideText(1)]
    if (sides.size === 2 && oursText.join('') !== theirsText.join('')) return undefined
    merged.push(...baseLines.slice(cursor, start), ...(sides.has(0) ? oursText : theirsText))
    cursor = end
    i = j
  }
  return [...merged, ...baseLines.slice(cursor)].join('')
}

/**
 * The three-way merge of two trees that share `base`, as git merges (file by file; a file both sides
 * changed, line by line): the merged tree, and the paths that conflict (then the tree is not a result).
 */
export function mergeTrees(base: Tree, ours: Tree, theirs: Tree): {tree: Tree; conflicts: string[]} {
  const tree: Tree = {}
  const conflicts: string[] = []
  for (const path of new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)])) {
    const [was, a, b] = [base[path], ours[path], theirs[path]]
    let result: string | undefined
    if (a === b || b === was) result = a
    else if (a === was) result = b
    else if (a === undefined || b === undefined) {
      // Changed on one side, deleted on the other.
      conflicts.push(path)
      continue
    } else {
      // Both changed it (or both added it: merged against an empty base, as git does).
      result = mergeText(was ?? '', a, b)
      if (result === undefined) {
        conflicts.push(path)
        continue
      }
    }
    if (result !== undefined) tree[path] = result
  }
  return {tree, conflicts: conflicts.sort()}
}

/** The whole diff as `git diff` prints it (GitHub's diff media type), as `gh pr diff` shows it. */
export function renderDiff(changes: FileChange[]): string {
  const abbreviated = (blob: string | null) => (blob ?? '0000000').slice(0, 7)
  return changes
    .map((change) => {
      const a = change.status === 'added' ? '/dev/null' : `a/${change.filename}`
      const b = change.status === 'removed' ? '/dev/null' : `b/${change.filename}`
      const index = `index ${abbreviated(change.blobs.base)}..${abbreviated(change.blobs.head)}`
      const header =
        change.status === 'added'
          ? `new file mode 100644\n${index}\n`
          : change.status === 'removed'
            ? `deleted file mode 100644\n${index}\n`
            : `${index} 100644\n`
      // An empty file added or removed has no lines to show: git prints no file names for it.
      const body = change.patch === '' ? '' : `--- ${a}\n+++ ${b}\n${change.patch}\n`
      return `diff --git a/${change.filename} b/${change.filename}\n${header}${body}`
    })
    .join('')
}
