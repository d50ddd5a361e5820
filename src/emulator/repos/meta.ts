/**
 * What GitHub derives from a repository's files on its default branch: languages (as linguist counts
 * them: programming and markup languages by bytes; prose such as Markdown and data such as YAML or
 * JSON do not count, nor vendored or documentation paths), the license, the code of conduct, the
 * security policy, issue and pull request templates, contact and funding links; and what follows
 * from its history and its forks. REST, GraphQL and search answer from here.
 */
import {parse as parseYaml} from 'yaml'
import type {Tree} from '../core/state.js'
import type {Repo} from '../core/state.js'

/** Extensions and file names of the languages linguist counts, with the colours GitHub shows. */
const LANGUAGES: Array<{name: string; color: string; extensions?: string[]; filenames?: string[]}> = [
  {name: 'TypeScript', color: '#3178c6', extensions: ['.ts', '.tsx', '.mts', '.cts']},
  {name: 'JavaScript', color: '#f1e05a', extensions: ['.js', '.jsx', '.mjs', '.cjs']},
  {name: 'Python', color: '#3572A5', extensions: ['.py']},
  {name: 'Go', color: '#00ADD8', extensions: ['.go']},
  {name: 'Rust', color: '#dea584', extensions: ['.rs']},
  {name: 'Java', color: '#b07219', extensions: ['.java']},
  {name: 'Kotlin', color: '#A97BFF', extensions: ['.kt', '.kts']},
  {name: 'Ruby', color: '#701516', extensions: ['.rb']},
  {name: 'PHP', color: '#4F5D95', extensions: ['.php']},
  {name: 'C', color: '#555555', extensions: ['.c', '.h']},
  {name: 'C++', color: '#f34b7d', extensions: ['.cpp', '.cc', '.hpp', '.cxx']},
  {name: 'C#', color: '#178600', extensions: ['.cs']},
  {name: 'Swift', color: '#F05138', extensions: ['.swift']},
  {name: 'Shell', color: '#89e051', extensions: ['.sh', '.bash']},
  {name: 'HTML', color: '#e34c26', extensions: ['.html', '.htm']},
  {name: 'CSS', color: '#663399', extensions: ['.css']},
  {name: 'SCSS', color: '#c6538c', extensions: ['.scss']},
  {name: 'Vue', color: '#41b883', extensions: ['.vue']},
  {name: 'Dockerfile', color: '#384d54', filenames: ['Dockerfile']},
  {name: 'Makefile', color: '#427819', filenames: ['Makefile', 'makefile', 'GNUmakefile']},
]

const EXCLUDED = /(^|\/)(node_modules|vendor|dist|docs?|documentation|\.github)\//

function languageOf(path: string): (typeof LANGUAGES)[number] | undefined {
  if (EXCLUDED.test(path)) return undefined
  const name = path.split('/').pop()!
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 ? name.slice(dot).toLowerCase() : ''
  return LANGUAGES.find((l) => l.filenames?.includes(name) || (extension && l.extensions?.includes(extension)))
}

export function defaultTree(repo: Repo): Tree {
  const sha = repo.branches[repo.default_branch]
  return sha ? (repo.commits[sha]?.tree ?? {}) : {}
}

/** Bytes per language, largest first (GET /languages, GraphQL languages). */
export function languages(repo: Repo): Array<{name: string; color: string; size: number}> {
  const sizes = new Map<string, {name: string; color: string; size: number}>()
  for (const [path, content] of Object.entries(defaultTree(repo))) {
    const language = languageOf(path)
    if (!language) continue
    const entry = sizes.get(language.name) ?? {name: language.name, color: language.color, size: 0}
    entry.size += Buffer.byteLength(content)
    sizes.set(language.name, entry)
  }
  return [...sizes.values()].sort((a, b) => b.size - a.size || a.name.localeCompare(b.name))
}

export function primaryLanguage(repo: Repo): {name: string; color: string} | null {
  return languages(repo)[0] ?? null
}

export interface LicenseInfo {
  key: string
  name: string
  spdx_id: string
  /** The license file's path. */
  path: string
}

const LICENSES: Array<{key: string; name: string; spdx: string; test: (text: string) => boolean}> = [
  {
    key: 'mit',
    name: 'MIT License',
    spdx: 'MIT',
    test: (t) => /\bMIT License\b/i.test(t) || /Permission is hereby granted, free of charge/i.test(t),
  },
  {
    key: 'apache-2.0',
    name: 'Apache License 2.0',
    spdx: 'Apache-2.0',
    test: (t) => /Apache License/i.test(t) && /Version 2\.0/i.test(t),
  },
  {
    key: 'gpl-3.0',
    name: 'GNU General Public License v3.0',
    spdx: 'GPL-3.0',
    test: (t) => /GNU GENERAL PUBLIC LICENSE/i.test(t) && /Version 3/i.test(t),
  },
  {
    key: 'gpl-2.0',
    name: 'GNU General Public License v2.0',
    spdx: 'GPL-2.0',
    test: (t) => /GNU GENERAL PUBLIC LICENSE/i.test(t) && /Version 2/i.test(t),
  },
  {
    key: 'mpl-2.0',
    name: 'Mozilla Public License 2.0',
    spdx: 'MPL-2.0',
    test: (t) => /Mozilla Public License,? (version|v\.?) 2\.0/i.test(t),
  },
  {
    key: 'bsd-3-clause',
    name: 'BSD 3-Clause "New" or "Revised" License',
    spdx: 'BSD-3-Clause',
    test: (t) => /Redistribution and use in source and binary forms/i.test(t) && /Neither the name/i.test(t),
  },
  {
    key: 'bsd-2-clause',
    name: 'BSD 2-Clause "Simplified" License',
    spdx: 'BSD-2-Clause',
    test: (t) => /Redistribution and use in source and binary forms/i.test(t),
  },
  {
    key: 'isc',
    name: 'ISC License',
    spdx: 'ISC',
    test: (t) =>
      /\bISC License\b/i.test(t) || /Permission to use, copy, modify, and\/or distribute this software/i.test(t),
  },
  {
    key: 'unlicense',
    name: 'The Unlicense',
    spdx: 'Unlicense',
    test: (t) => /unencumbered software released into the public domain/i.test(t),
  },
]

/** The license GitHub detects in a LICENSE (or COPYING) file at the root; `other` when the text is not one it knows. */
export function license(repo: Repo): LicenseInfo | null {
  const tree = defaultTree(repo)
  const path = Object.keys(tree)
    .filter((p) => /^(licen[cs]e|copying)(\.(md|txt|rst))?$/i.test(p))
    .sort()[0]
  if (!path) return null
  const known = LICENSES.find((l) => l.test(tree[path]!))
  return known
    ? {key: known.key, name: known.name, spdx_id: known.spdx, path}
    : {key: 'other', name: 'Other', spdx_id: 'NOASSERTION', path}
}

/** A community file in the root, .github/ or docs/, as GitHub looks for it. */
function communityFile(repo: Repo, pattern: RegExp): {path: string; content: string} | null {
  const tree = defaultTree(repo)
  for (const dir of ['.github/', '', 'docs/']) {
    const path = Object.keys(tree).find(
      (p) => p.startsWith(dir) && pattern.test(p.slice(dir.length)) && !p.slice(dir.length).includes('/'),
    )
    if (path) return {path, content: tree[path]!}
  }
  return null
}

export function codeOfConduct(repo: Repo): {key: string; name: string; path: string; body: string} | null {
  const file = communityFile(repo, /^code_of_conduct(\.(md|txt))?$/i)
  if (!file) return null
  const covenant = /Contributor Covenant/i.test(file.content)
  return {
    key: covenant ? 'contributor_covenant' : 'other',
    name: covenant ? 'Contributor Covenant' : 'Other',
    path: file.path,
    body: file.content,
  }
}

export function securityPolicy(repo: Repo): {path: string} | null {
  return communityFile(repo, /^security(\.(md|txt))?$/i)
}

/** A YAML scalar as text ('' for anything else). */
const scalar = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : ''

function yamlOf(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {}
  try {
    const value: unknown = parseYaml(text)
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

function templateConfig(repo: Repo): Record<string, unknown> {
  const tree = defaultTree(repo)
  return yamlOf(tree['.github/ISSUE_TEMPLATE/config.yml'] ?? tree['.github/ISSUE_TEMPLATE/config.yaml'])
}

export function contactLinks(repo: Repo): Array<{name: string; url: string; about: string}> {
  const links = templateConfig(repo).contact_links
  return Array.isArray(links)
    ? links.map((l: Record<string, unknown>) => ({name: scalar(l.name), url: scalar(l.url), about: scalar(l.about)}))
    : []
}

export function blankIssuesEnabled(repo: Repo): boolean {
  return templateConfig(repo).blank_issues_enabled !== false
}

/** .github/FUNDING.yml: one link per platform entry (GitHub's FundingPlatform names, upper case). */
export function fundingLinks(repo: Repo): Array<{platform: string; url: string}> {
  const funding = yamlOf(defaultTree(repo)['.github/FUNDING.yml'])
  const urls: Record<string, (id: string) => string> = {
    github: (id) => `https://github.com/${id}`,
    patreon: (id) => `https://patreon.com/${id}`,
    open_collective: (id) => `https://opencollective.com/${id}`,
    ko_fi: (id) => `https://ko-fi.com/${id}`,
    liberapay: (id) => `https://liberapay.com/${id}`,
    custom: (id) => id,
  }
  return Object.entries(funding).flatMap(([platform, value]) => {
    const ids = (Array.isArray(value) ? value : [value]).filter((v) => typeof v === 'string' && v !== '') as string[]
    const url = urls[platform]
    return ids.map((id) => ({platform: url ? platform.toUpperCase() : 'OTHER', url: url ? url(id) : id}))
  })
}

/** Markdown issue templates in .github/ISSUE_TEMPLATE (front matter: name, about, title, labels). */
export function issueTemplates(
  repo: Repo,
): Array<{name: string; about: string; title: string; body: string; filename: string}> {
  const tree = defaultTree(repo)
  return Object.keys(tree)
    .filter((p) => /^\.github\/ISSUE_TEMPLATE\/[^/]+\.md$/i.test(p))
    .sort()
    .map((path) => {
      const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(tree[path]!)
      const meta = yamlOf(match?.[1])
      const filename = path.split('/').pop()!
      return {
        name: scalar(meta.name) || filename,
        about: scalar(meta.about),
        title: scalar(meta.title),
        body: match ? match[2]! : tree[path]!,
        filename,
      }
    })
}

/** Pull request templates: the single one (root, .github/ or docs/) and those in PULL_REQUEST_TEMPLATE/. */
export function pullRequestTemplates(repo: Repo): Array<{filename: string; body: string}> {
  const tree = defaultTree(repo)
  return Object.keys(tree)
    .filter(
      (p) =>
        /^(\.github\/|docs\/)?pull_request_template\.md$/i.test(p) ||
        /^\.github\/PULL_REQUEST_TEMPLATE\/[^/]+\.md$/i.test(p),
    )
    .sort()
    .map((path) => ({filename: path.split('/').pop()!, body: tree[path]!}))
}

/** The repository's size as GitHub reports it: kilobytes of its files. */
export function diskUsage(repo: Repo): number {
  return Math.ceil(Object.values(defaultTree(repo)).reduce((n, content) => n + Buffer.byteLength(content), 0) / 1024)
}

/** When the repository was last pushed to: its newest commit's date, or its creation. */
export function pushedAt(repo: Repo): string {
  return Object.values(repo.commits).reduce((latest, c) => (c.date > latest ? c.date : latest), repo.created_at)
}

/** The repositories forked from this one. */
export function forksOf(repos: Record<string, Repo>, repo: Repo): Repo[] {
  return Object.values(repos).filter((r) => r.fork_of === `${repo.owner}/${repo.name}`)
}
