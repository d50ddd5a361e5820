// Every relative link of the README, ARCHITECTURE.md and docs/*.md reaches a file of the repository, and
// its #anchor a heading (GitHub's anchor of it) or an explicit id of that file.
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {PROJECT_ROOT} from '../support/cli.js'

const DOCUMENTS = [
  'README.md',
  'ARCHITECTURE.md',
  ...readdirSync(path.join(PROJECT_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return markdown
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`+[^`\n]*`+/g, (span) => (span.includes('](') ? span : ''))
}

/** GitHub's anchors of a markdown file: each heading's, numbered when repeated, and explicit ids. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  const withoutCode = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
  for (const [, heading] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    // Links keep their text; HTML tags go, but not a `<placeholder>` inside inline code.
    const text = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .split(/(`[^`]*`)/)
      .map((part) => (part.startsWith('`') ? part : part.replace(/<[^>]+>/g, '')))
      .join('')
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    result.add(count === 0 ? base : `${base}-${count}`)
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) result.add(id!)
  return result
}

/** The relative link targets of a markdown file: inline links and images, and reference definitions. */
function links(markdown: string): string[] {
  const text = prose(markdown)
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!)
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s+(\S+)/gm)].map((m) => m[1]!)
  return [...inline, ...references].filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

describe('documentation links', () => {
  for (const document of DOCUMENTS) {
    it(`${document}: every relative link and anchor resolves`, () => {
      const source = readFileSync(path.join(PROJECT_ROOT, document), 'utf8')
      const broken: string[] = []
      for (const target of links(source)) {
        const [file = '', anchor] = target.split('#', 2)
        const resolved =
          file === ''
            ? path.join(PROJECT_ROOT, document)
            : path.resolve(path.dirname(path.join(PROJECT_ROOT, document)), decodeURIComponent(file))
        if (!resolved.startsWith(PROJECT_ROOT) || !existsSync(resolved)) {
          broken.push(`${target}: no such file`)
          continue
        }
        if (anchor === undefined || anchor === '') continue
        if (!statSync(resolved).isFile() || !resolved.endsWith('.md')) {
          broken.push(`${target}: an anchor into a file that is not markdown`)
          continue
        }
        if (!anchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor)))
          broken.push(`${target}: no heading or id "${anchor}" there`)
      }
      expect(broken, `${document} has broken links`).to.deep.equal([])
    })
  }
})
