/**
 * Every process a tool call starts ends with the call: when it finishes, when the run's signal aborts
 * it, and when the process running the call exits (the tool spawner, which exits with ghx-bench). A
 * process group alone is not enough (`setsid` leaves it, `cmd &` outlives the shell), so a call's
 * processes are found three ways and all of them are killed:
 *  - a subreaper: the call runs under a small perl parent that marks itself PR_SET_CHILD_SUBREAPER,
 *    so every orphan of the call (double fork, setsid) is re-parented to it, not to init, and stays
 *    in its process tree until the call is over (when perl is there; on Linux x64 and arm64); the
 *    tool spawner runs under a subreaper of its own (the hub), which adopts the orphans of a call that
 *    killed its perl parent, and kills all it holds when the spawner ends;
 *  - the process tree, read from /proc/<pid>/stat parent links while the call runs and at its end;
 *  - an environment marker: every process of the call inherits GHX_BENCH_RUN_TOKEN=<token>, and any
 *    process whose /proc/<pid>/environ carries it is the call's.
 * The kill stops (SIGSTOP) the processes found, looks again for children they started meanwhile, and
 * only then kills them (SIGKILL), so nothing forks its way out. The perl parent is also the command's
 * "clean" parent: /proc/$PPID/environ shows the tool's own environment, not the harness's.
 * An MCP server (a server over stdio) runs the same way, under a perl parent of its own that kills
 * the server's processes when the runner closes its control channel or is gone (`startServerProcess`).
 * Without /proc (macOS) only the process group is killed.
 */
import {randomBytes} from 'node:crypto'
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs'
import {arch} from 'node:os'
import path from 'node:path'

const RUN_TOKEN_VARIABLE = 'GHX_BENCH_RUN_TOKEN'
/**
 * In every tool process's environment: the project (its results folder) whose ghx-bench started it, so
 * that a run ends the leftovers of its own project only, never another project's on the same machine.
 */
const PROJECT_VARIABLE = 'GHX_BENCH_PROJECT'
/** In the tool spawner's environment: the pid of its parent subreaper (SPAWNER_HUB_SCRIPT), which adopts the orphans of a call whose own subreaper was killed. */
const TOOL_HUB_VARIABLE = 'GHX_BENCH_TOOL_HUB'

const HAS_PROC = existsSync('/proc/self/stat')

interface ProcStat {
  pid: number
  ppid: number
  state: string
  /** Start time in clock ticks since boot: with the pid, it names one process (pids are reused). */
  start: string
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1')
    // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return {pid, state: fields[0]!, ppid: Number(fields[1]), start: fields[19]!}
  } catch {
    return undefined
  }
}

function allProcesses(): ProcStat[] {
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  const stats: ProcStat[] = []
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue
    const stat = readStat(Number(name))
    if (stat) stats.push(stat)
  }
  return stats
}

/**
 * The call's processes under a subreaper, from its roots down the kernel's child links
 * (/proc/<pid>/task/<tid>/children): only the tree is read, not every process of the machine.
 * Undefined when this kernel has no child links.
 */
function treeOf(roots: ReadonlyMap<number, string>): ProcStat[] | undefined {
  const found = new Map<number, ProcStat>()
  const pending = [...roots.keys()]
  while (pending.length > 0) {
    const pid = pending.pop()!
    if (found.has(pid)) continue
    const stat = readStat(pid)
    // A root's pid taken by another process since (pids are reused) is not the call's.
    if (!stat || (roots.has(pid) && roots.get(pid) !== stat.start)) continue
    found.set(pid, stat)
    const children = childrenOf(pid)
    if (!children) return undefined
    pending.push(...children)
  }
  return [...found.values()]
}

/** A process's children, from the kernel's child links; undefined when this kernel has none ([] for a process that is gone). */
function childrenOf(pid: number): number[] | undefined {
  let tasks: string[]
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const children: number[] = []
  for (const task of tasks) {
    let links: string
    try {
      links = readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(`/proc/${pid}/task/${task}`))
        return undefined
      continue
    }
    for (const child of links.split(' ')) if (child) children.push(Number(child))
  }
  return children
}

function environOf(pid: number): Buffer | undefined {
  try {
    return readFileSync(`/proc/${pid}/environ`)
  } catch {
    return undefined
  }
}

/** This process's start time, so that a token names a harness even after its pid is reused. */
const SELF_START = HAS_PROC ? (readStat(process.pid)?.start ?? '0') : '0'

const isAlive = (stat: ProcStat | undefined): stat is ProcStat =>
  stat !== undefined && stat.state !== 'Z' && stat.state !== 'X'

const trees = new Set<ToolProcessTree>()
let exitHook = false

/** The processes of one tool call. */
export class ToolProcessTree {
  private readonly marker: Buffer
  /** The call's first processes: pid -> start time. */
  private readonly roots = new Map<number, string>()
  /** pid -> start time of every process found to be the call's. */
  private readonly known = new Map<number, string>()
  /** Environments already read (pid:start -> carries the marker): a process's environment is read once. */
  private readonly environChecked = new Map<string, boolean>()
  private timer: NodeJS.Timeout | undefined
  /** The first root's start time: a process older than the call cannot carry its marker (its environment is not read). */
  private since = Number.POSITIVE_INFINITY
  /** The roots are subreapers: every orphan of the call stays in their tree, so the tree is all there is to read. */
  private subreaped = false

  /**
   * `token` is `<harness pid>.<harness start>.<random>`: `reapOrphanedTools` tells a dead harness's
   * leftovers by it. A token without its random part (`<pid>.<start>.`) stands for every call of that harness.
   */
  constructor(readonly token = `${process.pid}.${SELF_START}.${randomBytes(8).toString('hex')}`) {
    this.marker = Buffer.from(`${RUN_TOKEN_VARIABLE}=${token}${token.endsWith('.') ? '' : '\0'}`)
    trees.add(this)
    if (!exitHook) {
      exitHook = true
      // Synchronous, as 'exit' handlers must be: whatever is still running when ghx-bench exits ends with it.
      process.once('exit', () => killAllToolProcesses())
    }
  }

  /** The variables every process of the call inherits. */
  env(): Record<string, string> {
    return {[RUN_TOKEN_VARIABLE]: this.token, ...projectMarker()}
  }

  /** The call's first process; its descendants are the call's. Watching starts here. */
  adopt(pid: number | undefined, intervalMs = 150): void {
    if (pid === undefined) return
    const stat = readStat(pid)
    this.roots.set(pid, stat?.start ?? '')
    if (stat) {
      this.known.set(pid, stat.start)
      this.since = Math.min(this.since, Number(stat.start))
    }
    if (HAS_PROC && !this.timer) {
      this.timer = setInterval(() => this.scan(), intervalMs)
      this.timer.unref()
    }
  }

  /**
   * The roots reported that they are subreapers: no process of the call can leave their tree, so the
   * tree need not be watched while the call runs, and each look reads the tree alone.
   */
  markSubreaped(): void {
    this.subreaped = true
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** One look at /proc: the call's processes alive now (descendants of what is known, and marker carriers). */
  scan(): ProcStat[] {
    if (!HAS_PROC) return []
    // Orphans of a call whose subreaper was killed went to the hub: a call that ends takes them too.
    const adopted = adoptedByHub()
    const tree = this.subreaped
      ? treeOf(adopted.size > 0 ? new Map([...this.roots, ...adopted]) : this.roots)
      : undefined
    if (tree) {
      for (const stat of tree) this.known.set(stat.pid, stat.start)
      return tree.filter(isAlive)
    }
    const stats = allProcesses()
    const byPid = new Map(stats.map((s) => [s.pid, s]))
    for (const [pid, start] of this.known) if (byPid.get(pid)?.start !== start) this.known.delete(pid)
    for (const [pid, start] of adopted) this.known.set(pid, start)
    const protectedPids = new Set([process.pid, process.ppid])
    for (const stat of stats) {
      if (this.known.has(stat.pid) || protectedPids.has(stat.pid) || Number(stat.start) < this.since) continue
      const key = `${stat.pid}:${stat.start}`
      let carries = this.environChecked.get(key)
      if (carries === undefined) {
        carries = environOf(stat.pid)?.includes(this.marker) ?? false
        this.environChecked.set(key, carries)
      }
      if (carries) this.known.set(stat.pid, stat.start)
    }
    // Descendants, to a fixed point: a child's parent may come later in the listing.
    let grew = true
    while (grew) {
      grew = false
      for (const stat of stats) {
        if (this.known.has(stat.pid) || protectedPids.has(stat.pid)) continue
        if (this.known.has(stat.ppid)) {
          this.known.set(stat.pid, stat.start)
          grew = true
        }
      }
    }
    return [...this.known.keys()].map((pid) => byPid.get(pid)).filter(isAlive)
  }

  /** Kills every process of the call (synchronous: usable from an 'exit' handler). */
  killAll(): void {
    // The subreaper (a root) is killed with the rest, not first: while it lives, every orphan is its descendant.
    if (HAS_PROC) {
      for (let pass = 0; pass < 10; pass++) {
        // Frozen processes cannot fork: look again until no new one appears, then kill them all.
        const frozen = new Set<number>()
        for (let look = 0; look < 20; look++) {
          const fresh = this.scan().filter((s) => !frozen.has(s.pid))
          if (fresh.length === 0) break
          for (const stat of fresh) {
            signal(stat.pid, 'SIGSTOP')
            frozen.add(stat.pid)
          }
        }
        if (frozen.size === 0) break
        for (const pid of frozen) signal(pid, 'SIGKILL')
      }
    }
    for (const root of this.roots.keys()) signal(-root, 'SIGKILL')
    this.dispose()
  }

  dispose(): void {
    clearInterval(this.timer)
    this.timer = undefined
    trees.delete(this)
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  if (pid === process.pid || pid === -process.pid || pid === 0) return
  try {
    process.kill(pid, name)
  } catch {
    // already gone
  }
}

/** The project whose tools this ghx-bench process starts (one project a process: a run sets it as it opens). */
let toolProject: string | undefined

/** Marks the tools this process starts from now on as `resultsDir`'s project's (PROJECT_VARIABLE). */
export function markToolsAsProject(resultsDir: string): void {
  toolProject = path.resolve(resultsDir)
}

/** The project's mark, for a tool's environment; empty before a run has set it. */
export const projectMarker = (): Record<string, string> => (toolProject ? {[PROJECT_VARIABLE]: toolProject} : {})

/** A variable's value in a process's environment (NUL-separated NAME=value entries), if it is set. */
function variableOf(environ: Buffer, name: string): string | undefined {
  const prefix = Buffer.from(`${name}=`)
  for (let at = environ.indexOf(prefix); at >= 0; at = environ.indexOf(prefix, at + 1)) {
    if (at > 0 && environ[at - 1] !== 0) continue
    const end = environ.indexOf(0, at)
    return environ.subarray(at + prefix.length, end < 0 ? environ.length : end).toString()
  }
  return undefined
}

/**
 * Kills the tool processes that a ghx-bench of this project (`resultsDir`), which died without cleaning
 * up (kill -9), left behind: those marked with the project and with a harness that is no longer
 * running. Another project's leftovers are its own next run's to end. Returns how many it killed.
 */
export function reapOrphanedTools(resultsDir: string): number {
  if (!HAS_PROC) return 0
  const project = path.resolve(resultsDir)
  const orphans: number[] = []
  for (const stat of allProcesses()) {
    if (stat.pid === process.pid || !isAlive(stat)) continue
    const environ = environOf(stat.pid)
    const token = environ && variableOf(environ, RUN_TOKEN_VARIABLE)
    if (token === undefined || variableOf(environ!, PROJECT_VARIABLE) !== project) continue
    const [pid, start] = token.split('.')
    const owner = readStat(Number(pid))
    // A zombie owner is gone too (its parent died with it and nothing has reaped it yet).
    if (isAlive(owner) && owner.start === start) continue
    orphans.push(stat.pid)
  }
  for (const pid of orphans) signal(pid, 'SIGKILL')
  return orphans.length
}

/**
 * Perl that kills every child of this process, again and again, until none is left: a child killed
 * hands its own children to this process (a subreaper), so each pass ends one more generation. Each
 * killed child is reaped before the next look.
 */
const KILL_CHILDREN_PERL = [
  'sub children_of_me {',
  '  my @found; opendir(my $dir, "/proc") or return @found;',
  '  for my $pid (readdir $dir) {',
  '    next unless $pid =~ /^\\d+$/;',
  '    open(my $stat, "<", "/proc/$pid/stat") or next; my $line = <$stat>; close $stat;',
  '    next unless defined $line; $line =~ s/^.*\\) //s;',
  '    push @found, $pid if (split / /, $line)[1] == $$;',
  '  }',
  '  return @found;',
  '}',
  'sub kill_children {',
  '  for (1 .. 100000) {',
  '    my @children = children_of_me(); last unless @children;',
  '    kill "KILL", @children; waitpid(-1, 0); 1 while waitpid(-1, POSIX::WNOHANG()) > 0;',
  '  }',
  '}',
].join('\n')

/**
 * The subreaper parent of a tool call: marks itself a child subreaper (prctl 36), runs the command in
 * a child with stdin from /dev/null and SIGPIPE as a shell expects it, reports on fd 3 when that
 * child ended ("exit N" or "signal N"), closes its own copies of stdout and stderr, and stays
 * (adopting every orphan, and reaping those that end: a fork loop leaves no zombies) until its stdin
 * closes: the harness kills what is left of the call first.
 */
const SUBREAPER_SCRIPT = [
  'use POSIX ();',
  // A harness that is gone (kill -9) must not take the subreaper with it: writes to its pipes fail quietly.
  '$SIG{PIPE} = "IGNORE";',
  'my $nr = shift @ARGV;',
  'my $reaper = ($nr && syscall($nr, 36, 1, 0, 0, 0) == 0) ? 1 : 0;',
  'open(my $status, ">&=", 3) or die "fd 3: $!";',
  'select((select($status), $| = 1)[0]);',
  'my $pid = fork();',
  'if (!defined $pid) { print $status "error fork: $!\\n"; exit 1 }',
  'if ($pid == 0) { POSIX::close(3); open(STDIN, "<", "/dev/null"); $SIG{PIPE} = "DEFAULT"; exec { $ARGV[0] } @ARGV; POSIX::_exit(127) }',
  'print $status "started $pid $reaper\\n";',
  'close(STDOUT); close(STDERR);',
  // Every child is reaped as it ends (the command's orphans included) until the command itself has.
  'my $s = 0;',
  'while (1) { my $ended = waitpid(-1, 0); if ($ended == $pid) { $s = $?; last } last if $ended < 0 }',
  'print $status (($s & 127) ? "signal " . ($s & 127) : "exit " . ($s >> 8)), "\\n";',
  'close($status);',
  '$SIG{CHLD} = sub { 1 while waitpid(-1, POSIX::WNOHANG()) > 0 };',
  '1 while waitpid(-1, POSIX::WNOHANG()) > 0;',
  // A reaped child interrupts the read (EINTR): read again until stdin closes.
  'while (1) { my $read = sysread(STDIN, my $byte, 1); last if defined $read || !$!{EINTR} }',
].join('\n')

/**
 * The tool spawner's parent, a subreaper too: the orphans of a call whose own subreaper was killed
 * (a tool that kills its parent) come here rather than to init, for the spawner to find and kill
 * (`GHX_BENCH_TOOL_HUB` tells it this process's pid). It reaps whatever ends, ignores the signals the
 * runner handles for the spawner, and when the spawner ends (kill -9 included) it kills all it holds
 * and ends the same way.
 */
const SPAWNER_HUB_SCRIPT = [
  'use POSIX ();',
  'my $nr = shift @ARGV;',
  'syscall($nr, 36, 1, 0, 0, 0) if $nr;',
  'my $quiet = sub {};',
  '$SIG{INT} = $quiet; $SIG{TERM} = $quiet;',
  `$ENV{${TOOL_HUB_VARIABLE}} = $$;`,
  'my $spawner = fork();',
  'exit 70 unless defined $spawner;',
  'if ($spawner == 0) { $SIG{INT} = "DEFAULT"; $SIG{TERM} = "DEFAULT"; exec { $ARGV[0] } @ARGV; POSIX::_exit(127) }',
  // The IPC channel is the spawner's: the runner sees it close when the spawner goes.
  'POSIX::close($ENV{NODE_CHANNEL_FD}) if defined $ENV{NODE_CHANNEL_FD};',
  'my $s = 0;',
  'while (1) { my $ended = waitpid(-1, 0); if ($ended == $spawner) { $s = $?; last } last if $ended < 0 }',
  KILL_CHILDREN_PERL,
  'kill_children();',
  'if ($s & 127) { $SIG{INT} = "DEFAULT"; $SIG{TERM} = "DEFAULT"; kill($s & 127, $$) }',
  'exit($s >> 8);',
].join('\n')

/**
 * The subreaper grandparent of a server (an MCP server over stdio): the server keeps stdin, stdout and
 * stderr; fd 3 is the control channel: out go "started PID 1|0" and, when the server ends, "exit N" or
 * "signal N"; in comes its end (the runner closed it or is gone, kill -9 included), and then every
 * process of the server is killed. Orphans are reaped as they end.
 */
const SERVER_SUBREAPER_SCRIPT = [
  'use POSIX ();',
  '$SIG{PIPE} = "IGNORE";',
  'my $nr = shift @ARGV;',
  'my $reaper = ($nr && syscall($nr, 36, 1, 0, 0, 0) == 0) ? 1 : 0;',
  'open(my $control, "+<&=", 3) or die "fd 3: $!";',
  'select((select($control), $| = 1)[0]);',
  'my $pid = fork();',
  'if (!defined $pid) { print $control "error fork: $!\\n"; exit 1 }',
  // The server's parent is a second perl that waits for it and ends as it ends: a server that kills its
  // parent kills that one, and its orphans still come here.
  'if ($pid == 0) {',
  '  POSIX::close(3);',
  '  my $server = fork();',
  '  POSIX::_exit(1) unless defined $server;',
  '  if ($server == 0) { $SIG{PIPE} = "DEFAULT"; exec { $ARGV[0] } @ARGV; POSIX::_exit(127) }',
  '  close(STDIN); close(STDOUT); close(STDERR);',
  '  waitpid($server, 0);',
  '  POSIX::_exit(($? & 127) ? 128 + ($? & 127) : $? >> 8);',
  '}',
  'print $control "started $pid $reaper\\n";',
  'close(STDIN); close(STDOUT); close(STDERR);',
  'sub reap { while ((my $ended = waitpid(-1, POSIX::WNOHANG())) > 0) { print $control (($? & 127) ? "signal " . ($? & 127) : "exit " . ($? >> 8)), "\\n" if $ended == $pid } }',
  '$SIG{CHLD} = \\&reap;',
  'reap();',
  'while (1) { my $read = sysread($control, my $byte, 1); last if (defined $read && $read == 0) || (!defined $read && !$!{EINTR}) }',
  '$SIG{CHLD} = "DEFAULT";',
  KILL_CHILDREN_PERL,
  'kill_children();',
].join('\n')

const PRCTL_SYSCALL: Record<string, number> = {x64: 157, arm64: 167}

/** perl, when this machine has perl and /proc (on Linux x64 and arm64): found once. */
let perl: {file: string; prctl: number} | null | undefined

function findPerl(): {file: string; prctl: number} | null {
  if (perl !== undefined) return perl
  perl = null
  const prctl = PRCTL_SYSCALL[arch()]
  if (!HAS_PROC || !prctl) return perl
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, 'perl')
    try {
      if (statSync(file).isFile()) return (perl = {file, prctl})
    } catch {
      // not here
    }
  }
  return perl
}

export interface Launcher {
  file: string
  args: string[]
}

const perlRunning = (script: string): Launcher | null => {
  if (!subreaperWanted()) return null
  const found = findPerl()
  return found ? {file: found.file, args: ['-e', script, String(found.prctl)]} : null
}

/** False with GHX_BENCH_NO_SUBREAPER=1 in this process's environment. */
export const subreaperWanted = (): boolean => !process.env.GHX_BENCH_NO_SUBREAPER

/**
 * perl with the subreaper script, when this machine has perl and /proc; null otherwise (and with
 * GHX_BENCH_NO_SUBREAPER=1, which leaves the process tree and the marker to find a call's processes).
 */
export const subreaperCommand = (): Launcher | null => perlRunning(SUBREAPER_SCRIPT)

/** The tool spawner's parent (SPAWNER_HUB_SCRIPT), to run the spawner's command under; null where there is no subreaper. */
export const spawnerHubCommand = (): Launcher | null => perlRunning(SPAWNER_HUB_SCRIPT)

/** A server's subreaper parent (SERVER_SUBREAPER_SCRIPT); null where there is no subreaper. */
export const serverSubreaperCommand = (): Launcher | null => perlRunning(SERVER_SUBREAPER_SCRIPT)

/**
 * The children of this process's hub (the tool spawner's parent subreaper) other than this process:
 * the orphans of calls whose own subreaper was killed. pid -> start time; empty without a hub.
 */
function adoptedByHub(): Map<number, string> {
  const hub = Number(process.env[TOOL_HUB_VARIABLE])
  const adopted = new Map<number, string>()
  // The hub is this process's parent while both live; a hub that is gone adopts nothing.
  if (!HAS_PROC || !hub || hub !== process.ppid) return adopted
  for (const child of childrenOf(hub) ?? []) {
    const stat = child === process.pid ? undefined : readStat(child)
    if (stat) adopted.set(child, stat.start)
  }
  return adopted
}

/** Kills the processes of every tool call still running in this process (at exit). */
export function killAllToolProcesses(): void {
  for (const tree of [...trees]) tree.killAll()
}

/**
 * Kills, synchronously, every process of the tool calls that another process (`owner`: the tool
 * spawner) is running: the processes below it and those whose marker names it. For a harness that
 * exits while its spawner's calls still run, before it removes the folders they may be writing into.
 */
export function killToolsStartedBy(owner: number): void {
  const start = HAS_PROC ? readStat(owner)?.start : undefined
  if (start === undefined) return
  const tree = new ToolProcessTree(`${owner}.${start}.`)
  for (const child of childrenOf(owner) ?? []) tree.adopt(child)
  // The spawner's hub (its parent, when that is not this process) holds the orphans of calls whose subreaper was killed.
  const hub = readStat(owner)?.ppid
  if (hub !== undefined && hub !== process.pid && readStat(hub)?.ppid === process.pid)
    for (const child of childrenOf(hub) ?? []) if (child !== owner) tree.adopt(child)
  tree.killAll()
}
