// Shared by the reliability suite: small projects on the embedded default (sandbox + oracle), the CLI
// started as a child with a private TMPDIR, rows read back, processes looked for.
import {execFileSync, spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, readdirSync, readFileSync} from 'node:fs'
import {mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {makeProject, PROJECT_ROOT, runCli, type CliResult} from './cli.js'
import {shellCommandScenario} from './scenarios.js'

export {makeProject, PROJECT_ROOT, runCli, shellCommandScenario, type CliResult}
export {keyOf, rowsOf} from './sandbox-project.js'

const REPO_VIEW = readFileSync(path.join(PROJECT_ROOT, 'suites', 'scenarios', 'repo-view-001.yml'), 'utf8')

export function config(extra = ''): string {
  return [
    'target: sandbox',
    'model: oracle',
    'suites_dir: catalogue',
    'results_dir: results',
    'reports_dir: reports',
    'fixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: rel, sandbox_repos: [ghx-bench/sandbox]}',
    extra,
    '',
  ].join('\n')
}

export function suite(name: string, ids: string[], extra: string[] = [], repetitions = 1): string {
  return [
    `name: ${name}`,
    `scenarios: {ids: [${ids.join(', ')}]}`,
    'modes: [agent_direct]',
    `repetitions: ${repetitions}`,
    'seed: 1',
    ...extra,
    '',
  ].join('\n')
}

/** A project with repo-view-001 (fast, no fixtures) and the given extra catalogue files. */
export function project(files: Record<string, string> = {}, extraConfig = ''): Promise<string> {
  return makeProject({
    '.ghxbenchrc.yml': config(extraConfig),
    'catalogue/scenarios/repo-view-001.yml': REPO_VIEW,
    'catalogue/one.yml': suite('one', ['repo-view-001'], [], 3),
    ...files,
  })
}

/** A fresh, private TMPDIR for one CLI child: what it leaves there is what it leaked. */
export function privateTmp(): string {
  return mkdtempSync(path.join(tmpdir(), 'ghx-bench-rel-tmp-'))
}

/** What ghx-bench left in a private TMPDIR (tsx's compile cache, which bin/dev.js keeps there, is not ghx-bench's). */
export function leftInTmp(dir: string): string[] {
  return readdirSync(dir).filter((name) => !/^tsx-\d+$/.test(name))
}

export interface Started {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  events: Array<{type: string; [key: string]: unknown}>
  waitFor(test: (events: Started['events']) => boolean): Promise<void>
  done: Promise<number>
}

/** Starts the CLI (`run … --json` streams events) and resolves each JSON line as it comes. */
export function start(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'dev.js'), ...args], {
    cwd,
    env: {...process.env, NO_COLOR: '1', CI: '1', ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const events: Started['events'] = []
  const waiters: Array<{test: (e: Started['events']) => boolean; resolve: () => void}> = []
  let out = ''
  let err = ''
  let buffer = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    buffer += chunk.toString()
    let end: number
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end)
      buffer = buffer.slice(end + 1)
      if (line.startsWith('{"type"')) events.push(JSON.parse(line) as Started['events'][number])
      for (const waiter of waiters.filter((w) => w.test(events))) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    }
  })
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const done = new Promise<number>((resolve) =>
    child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGKILL' ? 137 : signal === 'SIGINT' ? 130 : -1))),
  )
  return {
    child,
    events,
    done,
    stdout: () => out,
    stderr: () => err,
    waitFor: (test) => new Promise((resolve) => (test(events) ? resolve() : waiters.push({test, resolve}))),
  }
}

export const finished = (n: number) => (events: Started['events']) =>
  events.filter((e) => e.type === 'run_finished').length >= n

/** Live processes (not zombies) whose command line contains the marker. */
export function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'pid,stat,args'])
    .toString()
    .split('\n')
    .filter((line) => line.includes(marker) && !/\bps -eo\b/.test(line) && !/^\s*\d+\s+Z/.test(line))
}

/** Live `sleep <marker>` processes themselves (not the shells or parents whose command line names them). */
export function sleepsOf(marker: string): string[] {
  return processesWith(marker).filter((line) =>
    new RegExp(`^\\s*\\d+\\s+\\S+\\s+sleep ${marker.replace('.', '\\.')}$`).test(line),
  )
}

/** The parent of a process, from /proc/<pid>/stat. */
export function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
}

/**
 * The tool spawner a call's process runs under: the nearest ancestor running tool-spawner-main, read
 * from outside (a call, in a PID namespace of its own, cannot see its parents).
 */
export function toolSpawnerAbove(pid: number): number {
  for (let p = parentOf(pid); p > 1; p = parentOf(p))
    if (readFileSync(`/proc/${p}/cmdline`, 'latin1').includes('tool-spawner-main')) return p
  throw new Error(`process ${pid} runs under no tool spawner`)
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A unique number for `sleep <n>` markers, so that a test finds its own processes only. */
export function marker(): string {
  return `${600 + Math.floor(Math.random() * 300)}.${process.pid % 1000}${Math.floor(Math.random() * 1000)}`
}

export async function scratch(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'ghx-bench-rel-'))
}
