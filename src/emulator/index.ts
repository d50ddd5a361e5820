export {startSandbox, type Sandbox, type SandboxOptions} from './server.js'
export {AGENT_LOGIN, REVIEWER_LOGIN, DEFAULT_REPO, RERUN_WORKFLOW_FILE} from './defaults.js'
export type {FaultConfig, FaultRule} from './faults.js'
export {npmGithubMcpServer, GITHUB_API_ORIGIN_PRELOAD, type StdioServer} from './mcp-server.js'
