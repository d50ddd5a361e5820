// docs/cli.md, rendered from the commands themselves: oclif's config of this package (the commands from
// the TypeScript source, as bin/dev.js loads them), so the reference never drifts from --help. The
// rendering is deterministic: commands and flags sorted by name, no absolute path, no terminal width.
// `npm run docs:cli` writes it (scripts/generate-cli-docs.ts); test/docs/cli-docs.test.ts checks it.
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {Config, type Command, type Interfaces} from '@oclif/core'

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url))
export const CLI_DOCS_FILE = fileURLToPath(new URL('../docs/cli.md', import.meta.url))
export const CLI_DOCS_SCRIPT = 'npm run docs:cli'

/** The package's oclif config, its commands from src/command-index.ts (no build needed). */
export async function loadCliConfig(root: string = PROJECT_ROOT): Promise<Config> {
  const pjson = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as Interfaces.PJSON
  const commands = pjson.oclif.commands as Exclude<Interfaces.OclifConfiguration['commands'], string | undefined>
  pjson.oclif.commands = {...commands, target: './src/command-index.ts'}
  return Config.load({root, pjson})
}

type Flag = Command.Flag.Cached
type Arg = Command.Arg.Cached

/** One line of a table cell: no newline, no unescaped pipe. */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim()
}

function code(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``
}

/** `ghx-bench fixtures seed`: the id as the user types it (the topic separator is a space). */
function commandLine(config: Config, id: string): string {
  return `${config.bin} ${id.replaceAll(':', config.topicSeparator)}`
}

/** oclif's example templates (`<%= config.bin %> <%= command.id %>`), filled in. */
function fillTemplate(config: Config, id: string, text: string): string {
  return text
    .replace(/<%=\s*config\.bin\s*%>/g, config.bin)
    .replace(/<%=\s*command\.id\s*%>/g, id.replaceAll(':', config.topicSeparator))
}

function usage(config: Config, command: Command.Loadable): string {
  if (command.usage !== undefined) {
    const lines = Array.isArray(command.usage) ? command.usage : [command.usage]
    return lines.map((line) => fillTemplate(config, command.id, `${config.bin} ${line}`)).join('\n')
  }
  const args = Object.values(command.args)
    .filter((arg) => !arg.hidden)
    .map((arg) => {
      const name = arg.name.toUpperCase() + (command.strict === false ? '...' : '')
      return arg.required ? name : `[${name}]`
    })
  const hasFlags = Object.values(command.flags).some((flag) => !flag.hidden)
  return [commandLine(config, command.id), ...args, ...(hasFlags ? ['[FLAGS]'] : [])].join(' ')
}

function flagName(flag: Flag): string {
  const value = flag.type === 'option' ? ` <${flag.name === 'config' ? 'file' : 'value'}>` : ''
  const long = `--${flag.name}${flag.type === 'boolean' && flag.allowNo ? ` / --no-${flag.name}` : ''}${value}`
  const names = [flag.char === undefined ? long : `-${flag.char}, ${long}`]
  for (const alias of flag.aliases ?? []) names.push(`--${alias}`)
  return names.map(code).join(' ')
}

function flagNotes(flag: Flag): string {
  const notes: string[] = []
  const described = flag.summary ?? flag.description ?? ''
  if (described !== '') notes.push(described)
  if (flag.type === 'option' && flag.options !== undefined) notes.push(`one of ${flag.options.map(code).join(', ')}`)
  if (flag.type === 'option' && flag.multiple && !/repeatable/i.test(described)) notes.push('repeatable')
  if (flag.required) notes.push('required')
  if (flag.dependsOn !== undefined) notes.push(`needs ${flag.dependsOn.map((name) => code(`--${name}`)).join(', ')}`)
  if (flag.exclusive !== undefined) notes.push(`not with ${flag.exclusive.map((name) => code(`--${name}`)).join(', ')}`)
  if (flag.env !== undefined) notes.push(`environment ${code(flag.env)}`)
  return notes.join('; ')
}

function flagDefault(flag: Flag): string {
  // oclif's cache holds the default as --help shows it (a flag's defaultHelp already applied).
  const value = flag.default
  if (value === undefined || value === false || typeof value === 'function') return ''
  return code(Array.isArray(value) ? value.join(',') : String(value))
}

function argRow(arg: Arg): string {
  const notes = [arg.description ?? '']
  if (arg.options !== undefined) notes.push(`one of ${arg.options.map(code).join(', ')}`)
  const fallback = arg.default === undefined || typeof arg.default === 'function' ? '' : code(String(arg.default))
  return `| ${code(arg.name.toUpperCase())} | ${arg.required ? 'yes' : 'no'} | ${fallback} | ${cell(notes.filter((n) => n !== '').join('; '))} |`
}

function flagTable(flags: Flag[]): string[] {
  return [
    '| flag | default | meaning |',
    '|---|---|---|',
    ...flags.map((flag) => `| ${flagName(flag)} | ${flagDefault(flag)} | ${cell(flagNotes(flag))} |`),
  ]
}

/** A heading's GitHub anchor: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

function renderCommand(config: Config, command: Command.Loadable): string[] {
  const lines = [`## \`${commandLine(config, command.id)}\``, '']
  if (command.summary !== undefined) lines.push(command.summary, '')
  if (command.description !== undefined && command.description !== command.summary)
    lines.push(command.description.trim(), '')
  lines.push('```text', usage(config, command), '```', '')
  const args = Object.values(command.args).filter((arg) => !arg.hidden)
  if (args.length > 0)
    lines.push('| argument | required | default | meaning |', '|---|---|---|---|', ...args.map(argRow), '')
  const flags = Object.values(command.flags).filter((flag) => !flag.hidden)
  const own = flags.filter((flag) => flag.helpGroup !== 'GLOBAL').sort((a, b) => a.name.localeCompare(b.name, 'en'))
  if (own.length > 0) lines.push(...flagTable(own), '')
  const examples = (command.examples ?? []).map((example) =>
    typeof example === 'string'
      ? fillTemplate(config, command.id, example)
      : `${fillTemplate(config, command.id, example.command)}   # ${example.description}`,
  )
  if (examples.length > 0) lines.push('Examples:', '', '```sh', ...examples.map((example) => `$ ${example}`), '```', '')
  return lines
}

/** docs/cli.md for the package's commands (not the help plugin's), sorted by id. */
export function renderCliDocs(config: Config): string {
  const commands = config.commands
    .filter((command) => command.pluginName === config.pjson.name && !command.hidden)
    .sort((a, b) => a.id.localeCompare(b.id, 'en'))
  const globals = new Map<string, Flag>()
  for (const command of commands) {
    for (const flag of Object.values(command.flags))
      if (flag.helpGroup === 'GLOBAL' && !flag.hidden) globals.set(flag.name, flag)
  }
  const lines = [
    '<!-- Generated from the commands (src/commands/) by `npm run docs:cli`: do not edit by hand. -->',
    '',
    '# Command reference',
    '',
    `Every command of \`${config.bin}\`, as \`${config.bin} <command> --help\` describes it. The user guide is [guide.md](guide.md); exit codes are in the [README](../README.md#exit-codes).`,
    '',
    '| command | what it does |',
    '|---|---|',
    ...commands.map((command) => {
      const heading = `\`${commandLine(config, command.id)}\``
      return `| [${heading}](#${anchorOf(heading)}) | ${cell(command.summary ?? '')} |`
    }),
    '',
    '## Flags every command takes',
    '',
    ...flagTable([...globals.values()].sort((a, b) => a.name.localeCompare(b.name, 'en'))),
    '',
    ...commands.flatMap((command) => renderCommand(config, command)),
  ]
  return lines.join('\n').replace(/\n+$/, '\n')
}
