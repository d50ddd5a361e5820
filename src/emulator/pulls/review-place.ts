/**
 * Where a new review comment goes in a pull request's diff, resolved as GitHub resolves it, or
 * GitHub's 422. The two endpoints word their refusals differently: a single review comment
 * (POST .../pulls/{n}/comments, GraphQL addPullRequestReviewThread) answers "Validation Failed" with
 * a `pull_request_review_thread.*` field error; a review with inline comments (POST .../reviews)
 * answers "Unprocessable Entity" with plain-sentence errors ("Line could not be resolved").
 */
import {SandboxError} from '../core/errors.js'
import type {FileChange} from '../core/git.js'
import type {ReviewComment} from '../core/state.js'
import {hunkUpTo, lineAt, lineAtPosition, parsePatch, sideAndLine, type DiffLine} from './diff-lines.js'

type ReviewSide = 'LEFT' | 'RIGHT'

export interface PlaceRequest {
  path?: string
  line?: unknown
  side?: string
  start_line?: unknown
  start_side?: string
  position?: unknown
  subject_type?: string
}

export interface Place {
  path: string
  /** null for a comment on the whole file. */
  line: number | null
  side: ReviewSide
  start_line: number | null
  start_side: ReviewSide | null
  position: number | null
  diff_hunk: string
  subject_type: 'line' | 'file'
}

export type PlaceStyle = 'comment' | 'review'

type Problem = 'path' | 'line' | 'start_line' | 'position' | 'start_after_line'

const COMMENT_MESSAGES: Record<Problem, [string, string]> = {
  path: ['pull_request_review_thread.path', 'pull_request_review_thread.path is not part of the diff'],
  line: ['pull_request_review_thread.line', 'pull_request_review_thread.line must be part of the diff'],
  start_line: [
    'pull_request_review_thread.start_line',
    'pull_request_review_thread.start_line must be part of the same hunk as the line.',
  ],
  start_after_line: [
    'pull_request_review_thread.start_line',
    'pull_request_review_thread.start_line must precede the end line.',
  ],
  position: ['pull_request_review_thread.position', 'pull_request_review_thread.position is invalid'],
}

const REVIEW_MESSAGES: Record<Problem, string> = {
  path: 'Path could not be resolved',
  line: 'Line could not be resolved',
  start_line: 'Start line could not be resolved',
  start_after_line: 'Start line could not be resolved',
  position: 'Position could not be resolved',
}

function refuse(problem: Problem, style: PlaceStyle): SandboxError {
  if (style === 'review') return new SandboxError(422, 'Unprocessable Entity', [REVIEW_MESSAGES[problem]])
  const [field, message] = COMMENT_MESSAGES[problem]
  return new SandboxError(422, 'Validation Failed', [
    {resource: 'PullRequestReviewComment', code: 'custom', field, message},
  ])
}

const side = (value: string | undefined): ReviewSide => (value?.toUpperCase() === 'LEFT' ? 'LEFT' : 'RIGHT')

/**
 * A line is an integer inside a hunk of the file's patch (on its side); a position is a line of the
 * patch below its first header; `start_line` makes a multi-line comment, in the same hunk as `line`.
 */
export function resolvePlace(files: FileChange[], request: PlaceRequest, style: PlaceStyle): Place {
  const file = files.find((f) => f.filename === request.path)
  if (!request.path || !file) throw refuse('path', style)
  const lines = parsePatch(file.patch)
  if (request.subject_type?.toLowerCase() === 'file') {
    return {
      path: file.filename,
      line: null,
      side: 'RIGHT',
      start_line: null,
      start_side: null,
      position: null,
      diff_hunk: lines
        .filter((l) => l.hunk === 0)
        .map((l) => l.text)
        .join('\n'),
      subject_type: 'file',
    }
  }
  let target: DiffLine | undefined
  if (request.line === undefined || request.line === null) {
    const position = request.position
    target = typeof position === 'number' && Number.isInteger(position) ? lineAtPosition(lines, position) : undefined
    if (!target) throw refuse(request.position === undefined || request.position === null ? 'line' : 'position', style)
  } else {
    target =
      typeof request.line === 'number' && Number.isInteger(request.line)
        ? lineAt(lines, request.line, side(request.side))
        : undefined
    if (!target) throw refuse('line', style)
  }
  const at = sideAndLine(target)
  let start: {side: ReviewSide; line: number} | null = null
  if (request.start_line !== undefined && request.start_line !== null) {
    const startSide = request.start_side ? side(request.start_side) : at.side
    const first =
      typeof request.start_line === 'number' && Number.isInteger(request.start_line)
        ? lineAt(lines, request.start_line, startSide)
        : undefined
    if (!first || first.hunk !== target.hunk) throw refuse('start_line', style)
    if (first.position > target.position) throw refuse('start_after_line', style)
    // A range of one line is a single-line comment.
    if (first.position < target.position) start = sideAndLine(first)
  }
  return {
    path: file.filename,
    line: at.line,
    side: at.side,
    start_line: start?.line ?? null,
    start_side: start?.side ?? null,
    position: target.position,
    diff_hunk: hunkUpTo(lines, target),
    subject_type: 'line',
  }
}

/** The place of an existing comment (a reply goes where its thread's first comment is). */
export function placeOf(comment: ReviewComment): Place {
  return {
    path: comment.path,
    line: comment.line,
    side: comment.side,
    start_line: comment.start_line ?? null,
    start_side: comment.start_side ?? null,
    position: comment.position ?? comment.line,
    diff_hunk: comment.diff_hunk ?? '',
    subject_type: comment.subject_type,
  }
}
