/**
 * The public API of ghx-bench: what plugin authors and programmatic users import from 'ghx-bench'.
 * The plugin kit (shell sessions, the agent loop, the chat client, testers) is 'ghx-bench/plugin-kit'.
 */
export {definePlugin, InfrastructureError, isInfrastructureError, PLUGIN_API_VERSION} from './plugins/api.js'
/** Secret variables leave process.env at start-up: a plugin reads them with harnessEnv(), and registers any secret it learns. */
export {harnessEnv, registerSecret} from './shared/process/secret-env.js'
export type {
  Availability,
  Condition,
  ConditionContext,
  ConditionResult,
  ConditionSpec,
  EnvelopeContract,
  GithubClient,
  JsonSchema,
  LayerCallAccount,
  LayerCommand,
  LayerLogAccount,
  Mode,
  ModeContext,
  ModelEndpoint,
  ModeSession,
  Plugin,
  Provider,
  ProviderProgress,
  ProviderRunInput,
  ProviderToolCall,
  ProviderTrace,
  ProviderTurn,
  ReadTask,
  ToolDefinition,
  ToolLayerAccounting,
  ToolResult,
  Usage,
} from './plugins/api.js'
export type {ConfigFile as Config} from './config/schema.js'
export type {Scenario, AtomicScenario, WorkflowScenario, Checkpoint} from './schemas/scenario.js'
export type {Suite} from './schemas/suite.js'
export type {Profile} from './schemas/profile.js'
export type {ScenarioSet} from './schemas/scenario-set.js'
