// Writes src/emulator/github-routes.json from GitHub's OpenAPI description (@octokit/openapi): every
// REST method + path template with its operationId. The sandbox answers 501 "not modelled" for a
// route GitHub has and it does not model, and 404 for a route GitHub does not have.
import {readFile, writeFile} from 'node:fs/promises'
import {createRequire} from 'node:module'

const require = createRequire(import.meta.url)
const spec = JSON.parse(await readFile(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8')) as {
  info: {version: string}
  paths: Record<string, Record<string, {operationId?: string}>>
}
const routes: Array<[string, string, string]> = []
for (const [path, operations] of Object.entries(spec.paths)) {
  for (const [method, operation] of Object.entries(operations)) {
    if (operation.operationId) routes.push([method.toUpperCase(), path, operation.operationId])
  }
}
routes.sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]))
await writeFile(
  new URL('../src/emulator/github-routes.json', import.meta.url),
  JSON.stringify({source: '@octokit/openapi api.github.com.json', routes}) + '\n',
)
console.log(`wrote ${routes.length} routes`)
