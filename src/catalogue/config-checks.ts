/**
 * The configuration checked against the plugins and the catalogue, as a suite is (catalogue.ts): its
 * provider is one a plugin provides and its options pass that plugin's schema, and its gate's profile
 * exists (a gate whose candidate is its baseline is refused as the configuration loads). Each finding names where the value was set: the
 * config file at file:line:col, or the GHX_BENCH_* variable.
 */
import {environmentVariable} from '../config/environment.js'
import type {ConfigFile, LoadedConfig} from '../config/load-config.js'
import type {PluginRegistry} from '../plugins/registry.js'
import {suggestionSuffix, type Diagnostic} from '../shared/diagnostics.js'
import {validateWithSchema} from '../shared/schema-validator.js'
import {parseSource, readSource, type SourceDocument} from '../shared/source-document.js'
import type {Catalogue} from './catalogue.js'

export async function checkConfig(
  config: LoadedConfig,
  registry: PluginRegistry,
  catalogue: Pick<Catalogue, 'profiles'>,
  cwd: string,
): Promise<Diagnostic[]> {
  const findings: Diagnostic[] = []
  const file = config.layers.file ?? {}
  if (Object.keys(file).length > 0)
    findings.push(...checkLayer(file, await fileDocument(config, cwd), registry, catalogue))
  const environment = config.layers.environment ?? {}
  if (Object.keys(environment).length > 0) {
    const document = parseSource(JSON.stringify(environment), '(environment)').document as SourceDocument
    // The environment has no lines: a finding names the variable that set the value.
    findings.push(
      ...checkLayer(environment, document, registry, catalogue).map(({code, message, pointer}) => ({
        file: '$' + environmentVariable(pointer ?? ''),
        code,
        message,
      })),
    )
  }
  return findings
}

/** The config file with its positions (a script config has none: its findings name the file and the key). */
async function fileDocument(config: LoadedConfig, cwd: string): Promise<SourceDocument> {
  const parsed = config.file && !/\.m?js$/.test(config.file) ? await readSource(config.file, cwd) : undefined
  return (
    parsed?.document ??
    (parseSource(JSON.stringify(config.layers.file ?? {}), config.origin).document as SourceDocument)
  )
}

function checkLayer(
  layer: ConfigFile,
  document: SourceDocument,
  registry: PluginRegistry,
  catalogue: Pick<Catalogue, 'profiles'>,
): Diagnostic[] {
  const findings: Diagnostic[] = []
  const provider = layer.provider
  if (provider !== undefined) {
    const name = typeof provider === 'string' ? provider : provider.name
    const plugin = registry.provider(name)
    if (!plugin) {
      findings.push(
        document.diagnostic(
          typeof provider === 'string' ? ['provider'] : ['provider', 'name'],
          'unknown_reference',
          `unknown provider "${name}"${suggestionSuffix(name, registry.providerNames())}`,
        ),
      )
    } else if (typeof provider === 'object' && provider.options) {
      findings.push(
        ...validateWithSchema(
          plugin.optionsSchema,
          provider.options,
          document,
          '/provider/options',
          `provider ${name} options`,
        ),
      )
    }
  }
  const profile = layer.gate?.profile
  if (profile && !catalogue.profiles.has(profile)) {
    findings.push(
      document.diagnostic(
        ['gate', 'profile'],
        'unknown_reference',
        `unknown profile "${profile}"${suggestionSuffix(profile, catalogue.profiles.keys())}`,
      ),
    )
  }
  return findings
}
