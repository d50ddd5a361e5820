/**
 * A worker thread running one of the package's modules, and its one answer. From source the module is
 * TypeScript: Node 20 applies no loader hooks registered by `--import` to a worker thread, so a
 * two-line script loads it through tsx's own import instead.
 */
import {createRequire} from 'node:module'
import {pathToFileURL} from 'node:url'
import {Worker} from 'node:worker_threads'
import {packageModulePath, RUNNING_FROM_SOURCE} from './package-paths.js'

function startWorker(relativeTsPath: string, workerData: unknown): Worker {
  const module = packageModulePath(relativeTsPath)
  if (!RUNNING_FROM_SOURCE) return new Worker(module, {workerData})
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href
  const url = pathToFileURL(module).href
  return new Worker(
    `import(${JSON.stringify(tsxApi)}).then(({tsImport}) => tsImport(${JSON.stringify(url)}, ${JSON.stringify(url)}))`,
    {eval: true, workerData},
  )
}

/** Runs the module (e.g. 'src/report/aggregate/aggregate-worker.ts') on `workerData`; resolves with the first message it posts. */
export function workerAnswer<T>(relativeTsPath: string, workerData: unknown, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(relativeTsPath, workerData)
    worker.once('message', (answer: T) => resolve(answer))
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the worker ${what} exited (${code}) without a result`)))
  })
}
