// The emulator's shape: resources composed, not inherited (no class chain deeper than a class on one
// base), and no import cycle among its modules (a resource's GraphQL objects find another's through
// the context's node builders). Read from the sources' import and class lines.
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {expect} from 'chai'

const EMULATOR = fileURLToPath(new URL('../../src/emulator/', import.meta.url))
const sources = (readdirSync(EMULATOR, {recursive: true}) as string[])
  .filter((file) => file.endsWith('.ts'))
  .map((file) => path.join(EMULATOR, file))
const text = new Map(sources.map((file) => [file, readFileSync(file, 'utf8')]))

/** The emulator modules a file imports (type-only imports and re-exports included). */
function imports(file: string): string[] {
  const specifiers = [...text.get(file)!.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)].map(
    (match) => match[1]!,
  )
  return specifiers
    .map((specifier) => path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')))
    .filter((target) => text.has(target))
}

/** The files of each import cycle (Tarjan's strongly connected components of more than one file). */
function importCycles(): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const cycles: string[][] = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    for (const target of imports(file)) {
      if (!index.has(target)) visit(target)
      if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, low.get(target)!))
    }
    if (low.get(file) !== index.get(file)) return
    const component = stack.splice(stack.indexOf(file))
    if (component.length > 1) cycles.push(component.map((f) => path.relative(EMULATOR, f)).sort())
  }
  for (const file of sources) if (!index.has(file)) visit(file)
  return cycles
}

describe('sandbox: the emulator’s structure', () => {
  it('has no import cycle', () => {
    expect(importCycles()).to.deep.equal([])
  })

  it('has no class more than one base deep (a base of its own or one from outside, such as Error)', () => {
    const bases = new Map<string, string | undefined>()
    for (const source of text.values())
      for (const [, name, base] of source.matchAll(/^export class (\w+)(?: extends (\w+))?/gm)) bases.set(name!, base)
    const depth = (name: string): number => (bases.has(name) ? 1 + (bases.get(name) ? depth(bases.get(name)!) : 0) : 1)
    const deep = [...bases.keys()].filter((name) => depth(name) > 2).map((name) => `${name}: ${depth(name)}`)
    expect(bases.size).to.be.greaterThan(10)
    expect(deep).to.deep.equal([])
  })
})
