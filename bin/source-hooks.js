// The CLI's oclif hooks (package.json points at dist/) as their TypeScript sources: for bin/dev.js and
// the tests' in-process CLI, which run from the source.
export const sourceHooks = (hooks = {}) =>
  Object.fromEntries(
    Object.entries(hooks).map(([event, file]) => [
      event,
      file.replace(/^\.\/dist\/src\//, './src/').replace(/\.js$/, '.ts'),
    ]),
  )
