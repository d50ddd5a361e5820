/**
 * Where this package's own files are (built-in plugins, templates, the built-in catalogue), both when
 * it runs from source under tsx (tests, bin/dev.js) and when it runs compiled from dist/.
 */
import path from 'node:path'
import {fileURLToPath} from 'node:url'

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
