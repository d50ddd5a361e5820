/**
 * Where a review comment sits in a file's patch, as GitHub resolves it: by `line` (and `side`) of the
 * file, or by `position`, the number of lines below the first `@@` header of the file's patch (the
 * line right under it is position 1; later hunk headers count). A comment is resolvable only on a
 * line inside a hunk: an added or context line on the RIGHT, a deleted or context line on the LEFT.
 */

export interface DiffLine {
  /** Position in the file's patch (0 is the first hunk header). */
  position: number
  kind: ' ' | '+' | '-' | '@'
  /** Line number in the base version (context and deleted lines). */
  oldLine: number | null
  /** Line number in the head version (context and added lines). */
  newLine: number | null
  /** Index of the hunk this line belongs to. */
  hunk: number
  text: string
}

export function parsePatch(patch: string): DiffLine[] {
  const result: DiffLine[] = []
  let oldLine = 0
  let newLine = 0
  let hunk = -1
  for (const text of patch === '' ? [] : patch.split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text)
    if (header) {
      hunk++
      oldLine = Number(header[1])
      newLine = Number(header[2])
      result.push({position: result.length, kind: '@', oldLine: null, newLine: null, hunk, text})
      continue
    }
    if (hunk < 0) continue
    const kind = text[0] === '+' ? '+' : text[0] === '-' ? '-' : ' '
    if (text.startsWith('\\')) {
      // "\ No newline at end of file" is a line of the patch, not of either file.
      result.push({position: result.length, kind: '@', oldLine: null, newLine: null, hunk, text})
      continue
    }
    result.push({
      position: result.length,
      kind,
      oldLine: kind === '+' ? null : oldLine++,
      newLine: kind === '-' ? null : newLine++,
      hunk,
      text,
    })
  }
  return result
}

/** The diff line of a file line on a side, if it is inside a hunk. */
export function lineAt(lines: DiffLine[], line: number, side: 'LEFT' | 'RIGHT'): DiffLine | undefined {
  return lines.find(
    (l) =>
      l.kind !== '@' &&
      (side === 'RIGHT' ? l.kind !== '-' && l.newLine === line : l.kind !== '+' && l.oldLine === line),
  )
}

/** The diff line at a position, if it is a line of a file (not a hunk header). */
export function lineAtPosition(lines: DiffLine[], position: number): DiffLine | undefined {
  const found = lines[position]
  return found && found.kind !== '@' ? found : undefined
}

/** GitHub's diff_hunk of a comment: its hunk from the header down to the commented line. */
export function hunkUpTo(lines: DiffLine[], target: DiffLine): string {
  return lines
    .filter((l) => l.hunk === target.hunk && l.position <= target.position)
    .map((l) => l.text)
    .join('\n')
}

/** The side and file line a diff line stands for. */
export function sideAndLine(line: DiffLine): {side: 'LEFT' | 'RIGHT'; line: number} {
  return line.kind === '-' ? {side: 'LEFT', line: line.oldLine!} : {side: 'RIGHT', line: line.newLine!}
}
