/** GitHub's text-match metadata of search results (REST's `text_matches`, GraphQL's `textMatches`). */
import {CODE_KEYS} from './code.js'
import {COMMIT_KEYS} from './commits.js'
import {ISSUE_KEYS} from './issues.js'
import {lower, parseQuery, shapeOf} from './query.js'
import {REPO_KEYS} from './repositories.js'

export interface TextMatch {
  property: string
  fragment: string
  highlights: Array<{text: string; indices: [number, number]}>
}

/** GitHub's text-match metadata: for each property a query word occurs in, the text and where. */
export function textMatches(query: string, properties: Record<string, string | null | undefined>): TextMatch[] {
  const words = shapeOf(parseQuery(query, new Set([...ISSUE_KEYS, ...REPO_KEYS, ...CODE_KEYS, ...COMMIT_KEYS]))).words
  const matches: TextMatch[] = []
  for (const [property, value] of Object.entries(properties)) {
    if (!value) continue
    const fragment = value.slice(0, 500)
    const highlights: TextMatch['highlights'] = []
    for (const word of words) {
      let at = lower(fragment).indexOf(word)
      while (word && at !== -1) {
        highlights.push({text: fragment.slice(at, at + word.length), indices: [at, at + word.length]})
        at = lower(fragment).indexOf(word, at + word.length)
      }
    }
    if (highlights.length)
      matches.push({property, fragment, highlights: highlights.sort((a, b) => a.indices[0] - b.indices[0])})
  }
  return matches
}
