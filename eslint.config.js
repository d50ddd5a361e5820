import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// The import direction (ARCHITECTURE.md): a folder of src/ imports only folders in layers below its own
// (or beside it where a layer holds several, never each other). Data flows one way, and no two folders
// form a cycle.
const LAYERS = [
  ['shared'],
  ['schemas'],
  ['stats', 'config'],
  ['plugins'],
  ['catalogue'],
  ['emulator'],
  ['github'],
  ['seeding'],
  ['results'],
  ['verify', 'tool-accounting'],
  ['agent'],
  ['plugin-kit'],
  ['runner'],
  ['report'],
  ['app'],
  ['cli'],
  ['commands'],
]
// Folder names are plain words: they go into the patterns as they are.
const ROOT_MODULES = ['index', 'command-index']

/** For files `depth` folders below src/<folder>: the imports that reach a folder not below it, or the package's root modules. */
function layerRules(folder, layer) {
  const forbidden = LAYERS.flat().filter(
    (other) => other !== folder && LAYERS.findIndex((l) => l.includes(other)) >= layer,
  )
  return [1, 2, 3, 4].map((depth) => {
    const up = '\\.\\./'.repeat(depth)
    const upward = {
      regex: `^${up}(${forbidden.join('|')})(/|$)`,
      message: `src/${folder} is below these folders: it must not import them (the import direction, ARCHITECTURE.md).`,
    }
    const root = {
      regex: `^${up}(${ROOT_MODULES.join('|')})\\.js$`,
      message: 'The package root (index, command-index) is the top: nothing in src/ imports it.',
    }
    // no-restricted-imports does not see `import()`: the same patterns, on the literal a dynamic import names.
    const dynamic = ({regex, message}) => ({
      selector: `ImportExpression > Literal[value=/${regex.replaceAll('/', '\\/')}/]`,
      message,
    })
    return {
      files: [`src/${folder}/${'*/'.repeat(depth - 1)}*.ts`],
      rules: {
        'no-restricted-imports': ['error', {patterns: [upward, root]}],
        'no-restricted-syntax': ['error', dynamic(upward), dynamic(root)],
      },
    }
  })
}
const layering = LAYERS.flatMap((names, layer) => names.flatMap((folder) => layerRules(folder, layer)))

// A built-in plugin is written as a third party writes one: it imports `ghx-bench`, `ghx-bench/plugin-kit`,
// node: builtins, npm packages and files of its own folder, never a path out of it (into src/, another plugin).
const pluginImports = [1, 2, 3, 4].map((depth) => ({
  files: [`plugins/*/${'*/'.repeat(depth - 1)}*.{ts,js,mjs}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(\\.\\./){${depth}}`,
            message:
              'A built-in plugin imports only ghx-bench, ghx-bench/plugin-kit, node: builtins, npm packages and its own files, as a third party would: what it needs from the core goes into src/plugin-kit/.',
          },
          {
            regex: '^(/|file:)',
            message:
              'A built-in plugin imports no absolute path: only ghx-bench, ghx-bench/plugin-kit, node: builtins, npm packages and its own files.',
          },
          {
            regex: '^ghx-bench/(?!plugin-kit$)',
            message: 'A built-in plugin imports ghx-bench and ghx-bench/plugin-kit only, as a third party plugin does.',
          },
        ],
      },
    ],
  },
}))

export default tseslint.config(
  // Generated (npm run schemas): ajv's standalone code, checked by a test against what the schemas generate.
  {
    ignores: [
      'dist/',
      'node_modules/',
      'examples/*/node_modules/',
      'test/support/*.cjs',
      'src/shared/schema-validators.generated.ts',
    ],
  },
  js.configs.recommended,
  {files: ['**/*.js', '**/*.mjs'], languageOptions: {globals: globals.node}},
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {parserOptions: {project: ['./tsconfig.test.json'], tsconfigRootDir: import.meta.dirname}},
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise returned from under `await using` unawaited would see what it uses released before it settles.
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_'}],
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
  ...layering,
  ...pluginImports,
)
