/**
 * A tool call sees only its own processes: its command runs in a PID namespace of its own with its own
 * /proc (util-linux `unshare --pid --fork --mount-proc`, in a user namespace when ghx-bench is not
 * root). Without it an agent's shell could read, from /proc, the command lines and environments of every
 * process of the same user: a concurrent run's MCP server and the token in its environment (issue 27),
 * the harness and the sandbox. When the namespace's first process ends, the kernel kills every process
 * left in it, which the subreaper (tool-processes.ts) then need not find.
 * Where unshare is missing or refused (no user namespaces for this user, macOS), calls run as before,
 * seeing the other processes; GHX_BENCH_NO_PID_NAMESPACE=1 asks for that.
 */
import {spawnSync} from 'node:child_process'

const UNSHARE_ARGS = ['--pid', '--fork', '--mount-proc', '--kill-child']

let launcher: string[] | null | undefined

/** The command prefix that runs a command in a PID namespace of its own, or null where this machine cannot: probed once. */
export function pidNamespacePrefix(): string[] | null {
  if (process.env.GHX_BENCH_NO_PID_NAMESPACE) return null
  if (launcher !== undefined) return launcher
  const args = [...UNSHARE_ARGS, ...(process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'])]
  // By its full path: a call's PATH may be an isolated bin without it.
  const unshare = spawnSync('bash', ['-c', 'command -v unshare'], {encoding: 'utf8'}).stdout?.trim()
  const probe = unshare ? spawnSync(unshare, [...args, 'true'], {stdio: 'ignore', timeout: 5000}) : undefined
  launcher = unshare && probe?.status === 0 ? [unshare, ...args] : null
  return launcher
}
