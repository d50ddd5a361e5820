/**
 * `ghx-bench/plugin-kit`: what a plugin needs from ghx-bench beyond the API's types, public and
 * versioned with the plugin API. The built-in plugins import exactly this and `ghx-bench`, as a third
 * party does; whatever a built-in needs from the core that a third party would need too comes here.
 *  - a shell arm: a session whose one `shell` tool runs bash in the run's folder with an isolated
 *    PATH (links to the arm's own tools and common utilities only) and kills every process a command
 *    started when it ends or the run aborts; the folder its tool layer writes its own log in (layerLogDir);
 *  - a provider: the built-in agent loop and its OpenAI-compatible chat-completions client; for one
 *    that drives an agent CLI, finding the pinned CLI and running it isolated, its JSON lines read;
 *  - errors the runner retries (InfrastructureError, recognised by a brand that holds across copies);
 *  - secrets: the harness's environment, and registering a secret a plugin learns, for redaction;
 *  - a server a session starts (an MCP server over stdio), held so that none of its processes outlives it;
 *    the npm GitHub MCP server's command, sent to the run's GitHub;
 *  - isObject, the check of a parsed JSON value before its keys are read;
 *  - testers: run a condition over cases, smoke-test a mode's session, as ghx-bench would use them.
 */
export {
  isolatedBin,
  isShellArm,
  layerLogDir,
  runShellCommand,
  shellSession,
  whichOnPath,
  BASE_UTILITIES,
  MAX_OUTPUT_CHARS,
  SHELL_TOOL,
  type ShellOptions,
} from '../agent/shell-tool.js'
export {runAgentLoop, sumUsage, DEFAULT_MAX_TURNS, type AgentLoopOptions} from '../agent/agent-loop.js'
export {
  chatCompletion,
  toolPayload,
  usageFromWire,
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  type ChatToolCall,
} from '../agent/chat-completions.js'
export {
  agentCliEnv,
  agentCliAvailability,
  agentCliInstallHint,
  agentCliOptionsSchema,
  agentCliVersion,
  findAgentCli,
  parseJsonLines,
  pinnedAgentCliPath,
  requireAgentCli,
  runAgentCli,
  startRequestTap,
  toolOutputTokens,
  DEFAULT_TOOL_OUTPUT_TOKENS,
  withFreshHome,
  type AgentCli,
  type AgentCliEvent,
  type AgentCliRun,
  type RequestTap,
} from './agent-cli.js'
export {InfrastructureError, isInfrastructureError} from '../plugins/api.js'
export {harnessEnv, registerSecret} from '../shared/process/secret-env.js'
export {startServerProcess, type ServerProcess, type ServerProcessOptions} from '../shared/process/server-process.js'
export {npmGithubMcpServer, type StdioServer} from '../emulator/mcp-server.js'
export {isObject} from '../shared/is-object.js'
export {
  testCondition,
  testMode,
  PluginTestError,
  type ConditionCase,
  type ModeCallCase,
  type ModeExpectations,
  type ModeSmokeReport,
} from './testing.js'
