/**
 * The names git and GitHub take: refs by `git check-ref-format`'s rules (a branch, a tag, a release's
 * tag), and a file's path in a tree by GitHub's (the contents API, POST git/trees). Every ref the store
 * keeps passed `checkRefName`; the bare repositories on disk name their ref files after them.
 */
import {refused} from './errors.js'

/** Characters no ref may hold besides controls and DEL: space and ~ ^ : ? * [ \ (git-check-ref-format(1)). */
const FORBIDDEN_IN_REF = /[ ~^:?*[\\]/

const isControl = (ref: string) => [...ref].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)

/** Whether `ref`, a full name (refs/heads/…, refs/tags/…), is one `git check-ref-format` takes. */
export function isValidRefName(ref: string): boolean {
  if (ref === '@' || ref.endsWith('.') || FORBIDDEN_IN_REF.test(ref) || isControl(ref)) return false
  if (ref.includes('..') || ref.includes('@{')) return false
  const components = ref.split('/')
  // At least two levels (refs/x), no empty component (a leading, trailing or doubled slash).
  if (components.length < 2) return false
  return components.every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'))
}

/** GitHub's 422 for a ref git would not take (POST and PATCH git/refs answer it; the store refuses it too). */
export function checkRefName(ref: string): void {
  if (!isValidRefName(ref)) throw refused('Reference name invalid')
}

/** Characters HFS+ ignores when it compares names: `.g\u200cit` is `.git` there. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g

/** A path component GitHub keeps out of trees: empty, `.`, `..`, and `.git` however a file system spells it. */
function malformedComponent(component: string): boolean {
  const lower = component.toLowerCase()
  if (lower === '' || lower === '.' || lower === '..' || lower === '.git') return true
  if (lower.replace(HFS_IGNORED, '') === '.git') return true
  // NTFS: `.git` or its 8.3 name followed by a backslash, or by trailing dots and spaces it drops.
  const rest = /^(?:\.git|git~1)(.*)$/s.exec(lower)?.[1]
  return rest !== undefined && (rest.startsWith('\\') || /^[. ]*$/.test(rest))
}

/** What is wrong with a file's path in a tree, as GitHub words it after "path " (undefined: nothing). */
export function treePathProblem(path: string): string | undefined {
  if (path.trim() === '') return 'cannot be blank'
  if (path.startsWith('/')) return 'cannot start with a slash'
  if (path.endsWith('/')) return 'cannot end with a slash'
  if (path.split('/').some(malformedComponent)) return 'contains a malformed path component'
  return undefined
}
