/**
 * Where this package's own files are (built-in plugins, templates, the built-in catalogue), both when
 * it runs from source under tsx (tests, bin/dev.js) and when it runs compiled from dist/.
 */
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

// tsx's own import (a worker thread's, module-worker.ts) adds a query to the URL.
export const RUNNING_FROM_SOURCE = new URL(import.meta.url).pathname.endsWith('.ts')

/** src/shared/package-paths.ts and dist/src/shared/package-paths.js both resolve to the package root. */
export const PACKAGE_ROOT = fileURLToPath(new URL(RUNNING_FROM_SOURCE ? '../..' : '../../..', import.meta.url))

export function packagePath(...segments: string[]): string {
  return path.join(PACKAGE_ROOT, ...segments)
}

/** A module of the package's TypeScript tree: the .ts source, or its compiled .js under dist/. */
export function packageModulePath(relativeTsPath: string): string {
  return RUNNING_FROM_SOURCE ? packagePath(relativeTsPath) : packagePath('dist', relativeTsPath.replace(/\.ts$/, '.js'))
}

/**
 * The command that runs a module of the package in a Node process of its own: from source with tsx (as
 * this package resolves it: the child may start in a folder that has none) and the source export
 * condition (what the module imports of `ghx-bench` is src/ too), else the compiled .js.
 */
export function packageModuleCommand(relativeTsPath: string): string[] {
  const sourceFlags = RUNNING_FROM_SOURCE
    ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, '--conditions=ghx-bench-source']
    : []
  return [process.execPath, ...sourceFlags, packageModulePath(relativeTsPath)]
}
