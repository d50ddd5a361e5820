/**
 * Tool-call accounting across modes. Every tool call gets a category (gh_cli, mcp_tool, shell, other,
 * or the category of the mode's tool layer: ghx_capability), and each GitHub operation inside it is
 * mapped, where it can be, to one canonical operation named like the catalogue's capabilities
 * (issue.labels.add), so that per-operation counts compare across arms.
 *
 * GitHub's own interfaces are counted here: the `gh` CLI and the tools of GitHub MCP servers. A tool
 * layer the agent runs in its shell (ghx) is its mode's to read: the mode's accounting hook
 * (Mode.accounting) names its programs and says what their commands ran and which routes they took;
 * nothing here knows a mode by name.
 *
 * A shell call is read with a small shell tokenizer (below), so every `gh` (or tool-layer) command it
 * holds is found wherever it stands: after `;`, `&&`, `||`, `|`, newlines, inside `$( )`, backquotes,
 * `( )`, `{ }`, `if`/`while`/`for`/`case` bodies, behind `VAR=1`, `env`, `noglob`, `command`, `time`,
 * `xargs`, or in a `bash -c '…'`. Each written invocation counts once (a loop body is not unrolled).
 * Commands the shell reports it never ran (a zsh glob that matched nothing, a program not found) are
 * not counted.
 *
 * A call failed when its tool said so (non-zero exit, MCP `isError`), when the tool layer reported a
 * failure in its output (ghx exits 0 with `ok:false`), when an MCP result in the output text carries
 * `"isError": true`, or when the shell could not run one of its gh or tool-layer commands.
 *
 * Routes: the tool layer's own log of the run (ToolLayerAccounting.readLog; ghx's GHX_LOG_DIR) names
 * the route of each execution; where the run has one, by_route counts from it, else from the routes
 * the layer's envelopes report. A fallback is a call of the layer that failed followed by a call of
 * GitHub's own interfaces (gh in the shell, an MCP tool) that did not.
 */
import {isMutation} from '../catalogue/capabilities.js'
import type {LayerCallAccount, LayerCommand, LayerLogAccount, ProviderToolCall, ToolLayerAccounting} from '../plugins/api.js'
import {isObject} from '../shared/is-object.js'

export interface ToolAccounting {
  /**
   * Tool calls by kind: a shell call that ran the mode's tool layer takes the layer's category
   * (ghx_capability), else gh_cli if it ran gh, else shell; MCP tools are mcp_tool; anything else other.
   */
  by_category: Record<string, number>
  by_operation: Record<string, number>
  /**
   * Tool-layer executions (one per `ghx run`, one per chain step) by the route the layer took (cli,
   * graphql, rest): as its own log of the run names them where it has one (executions written in the
   * calls beyond those logged stay `unknown`), else as its envelopes report them; `unknown` where
   * neither says.
   */
  by_route: Record<string, number>
  /**
   * The route of the run's last tool-layer command: as the layer's log names it, else as the last
   * envelope in the calls' output that reports one says; null when nothing names one.
   */
  last_route: string | null
  /**
   * A call of the mode's tool layer failed and a later call of another GitHub tool (gh in the shell, an
   * MCP tool) succeeded: the work was done around the layer. False without a layer; null when a layer
   * call could not be read (its failure unknown) and nothing showed a fallback.
   */
  fallback: boolean | null
  /** Retries the tool layer reports over all its commands; null when the run ran none of them. */
  internal_retries: number | null
  /** Tool calls that failed (see the header): at most the number of calls. */
  failed: number
  /** gh and tool-layer commands the shell calls ran, each written invocation once (`{gh: 3, ghx: 2}`). */
  invocations: Record<string, number>
}

/** `gh <noun> <verb>` -> operation; a flag may refine it (gh issue edit --add-label). */
const GH_COMMANDS: Record<string, string | Array<[RegExp | null, string]>> = {
  'issue view': 'issue.view',
  'issue list': 'issue.list',
  'issue create': 'issue.create',
  'issue close': 'issue.close',
  'issue reopen': 'issue.reopen',
  'issue comment': 'issue.comments.create',
  'issue edit': [
    [/--add-label/, 'issue.labels.add'],
    [/--remove-label/, 'issue.labels.remove'],
    [/--add-assignee/, 'issue.assignees.add'],
    [/--remove-assignee/, 'issue.assignees.remove'],
    [/--milestone/, 'issue.milestone.set'],
    [null, 'issue.update'],
  ],
  'pr view': 'pr.view',
  'pr list': 'pr.list',
  'pr diff': 'pr.diff.view',
  'pr create': 'pr.create',
  'pr merge': 'pr.merge',
  'pr checks': 'pr.checks.list',
  'pr comment': 'pr.comments.create',
  'pr review': 'pr.reviews.submit',
  'pr edit': [
    [/--add-reviewer/, 'pr.reviews.request'],
    [null, 'pr.update'],
  ],
  'run view': [
    [/--log/, 'workflow.job.logs.view'],
    [null, 'workflow.run.view'],
  ],
  'run list': 'workflow.runs.list',
  'run rerun': [
    [/--failed/, 'workflow.run.rerun.failed'],
    [null, 'workflow.run.rerun.all'],
  ],
  'run cancel': 'workflow.run.cancel',
  'workflow run': 'workflow.dispatch',
  'workflow list': 'workflow.list',
  'workflow view': 'workflow.view',
  'release view': 'release.view',
  'release list': 'release.list',
  'release create': 'release.create',
  'release edit': 'release.update',
  'repo view': 'repo.view',
  'label list': 'repo.labels.list',
  'label create': 'repo.labels.create',
}

/** `gh api` REST calls: method + path (owner/repo and numbers abstracted) -> operation. */
const REST_ROUTES: Array<[string, RegExp, string]> = [
  ['GET', /^repos\/[^/]+\/[^/]+$/, 'repo.view'],
  ['GET', /^repos\/[^/]+\/[^/]+\/labels$/, 'repo.labels.list'],
  ['GET', /^repos\/[^/]+\/[^/]+\/issue-types$/, 'repo.issue_types.list'],
  ['GET', /^repos\/[^/]+\/[^/]+\/issues$/, 'issue.list'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues$/, 'issue.create'],
  ['GET', /^repos\/[^/]+\/[^/]+\/issues\/\d+$/, 'issue.view'],
  ['PATCH', /^repos\/[^/]+\/[^/]+\/issues\/\d+$/, 'issue.update'],
  ['GET', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/, 'issue.comments.list'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/, 'issue.comments.create'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/labels$/, 'issue.labels.add'],
  ['PUT', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/labels$/, 'issue.labels.set'],
  ['DELETE', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/labels\/.+$/, 'issue.labels.remove'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/assignees$/, 'issue.assignees.add'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/sub_issues$/, 'issue.relations.parent.set'],
  ['GET', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/dependencies\/blocked_by$/, 'issue.relations.view'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/dependencies\/blocked_by$/, 'issue.relations.blocked_by.add'],
  ['GET', /^repos\/[^/]+\/[^/]+\/pulls$/, 'pr.list'],
  ['GET', /^repos\/[^/]+\/[^/]+\/pulls\/\d+$/, 'pr.view'],
  ['PATCH', /^repos\/[^/]+\/[^/]+\/pulls\/\d+$/, 'pr.update'],
  ['GET', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/files$/, 'pr.diff.files'],
  ['GET', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews$/, 'pr.reviews.list'],
  ['GET', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/comments$/, 'pr.review_comments.list'],
  ['POST', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/comments$/, 'pr.review_comments.create'],
  ['POST', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews$/, 'pr.reviews.submit'],
  ['POST', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/requested_reviewers$/, 'pr.reviews.request'],
  ['PUT', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/merge$/, 'pr.merge'],
  ['PUT', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/update-branch$/, 'pr.branch.update'],
  ['GET', /^repos\/[^/]+\/[^/]+\/commits\/[^/]+\/check-runs$/, 'pr.checks.list'],
  ['DELETE', /^repos\/[^/]+\/[^/]+\/git\/refs\/heads\/.+$/, 'repo.branches.delete'],
  ['GET', /^repos\/[^/]+\/[^/]+\/releases$/, 'release.list'],
  ['POST', /^repos\/[^/]+\/[^/]+\/releases$/, 'release.create'],
  ['PATCH', /^repos\/[^/]+\/[^/]+\/releases\/\d+$/, 'release.update'],
  ['GET', /^repos\/[^/]+\/[^/]+\/actions\/workflows$/, 'workflow.list'],
  ['GET', /^repos\/[^/]+\/[^/]+\/actions\/workflows\/[^/]+$/, 'workflow.view'],
  ['POST', /^repos\/[^/]+\/[^/]+\/actions\/workflows\/[^/]+\/dispatches$/, 'workflow.dispatch'],
  ['GET', /^repos\/[^/]+\/[^/]+\/actions\/runs\/\d+$/, 'workflow.run.view'],
  ['GET', /^repos\/[^/]+\/[^/]+\/actions\/runs\/\d+\/artifacts$/, 'workflow.run.artifacts.list'],
  ['POST', /^repos\/[^/]+\/[^/]+\/actions\/runs\/\d+\/cancel$/, 'workflow.run.cancel'],
  ['POST', /^repos\/[^/]+\/[^/]+\/actions\/runs\/\d+\/rerun$/, 'workflow.run.rerun.all'],
  ['POST', /^repos\/[^/]+\/[^/]+\/actions\/runs\/\d+\/rerun-failed-jobs$/, 'workflow.run.rerun.failed'],
  ['GET', /^repos\/[^/]+\/[^/]+\/actions\/jobs\/\d+\/logs$/, 'workflow.job.logs.view'],
]

/** GraphQL fields and mutations -> operation; the first that appears in the query wins. */
const GRAPHQL_FIELDS: Array<[RegExp, string]> = [
  [/addPullRequestReviewThreadReply/, 'pr.threads.reply'],
  [/unresolveReviewThread/, 'pr.threads.unresolve'],
  [/resolveReviewThread/, 'pr.threads.resolve'],
  [/updateProjectV2ItemFieldValue/, 'project_v2.items.field.update'],
  [/addProjectV2ItemById/, 'project_v2.items.issue.add'],
  [/reviewThreads/, 'pr.threads.list'],
  [/closedByPullRequestsReferences/, 'issue.relations.prs.list'],
  [/projectV2\s*\([^)]*\)\s*\{\s*items/, 'project_v2.items.list'],
  [/projectV2\s*\([^)]*\)\s*\{\s*fields/, 'project_v2.fields.list'],
  [/subIssues|parent\s*\{/, 'issue.relations.view'],
  [/projectV2\s*\(/, 'project_v2.user.view'],
]

/** Tools of GitHub MCP servers -> operation; update_issue is refined by its arguments. */
const MCP_TOOLS: Record<string, string | ((args: Record<string, unknown>) => string)> = {
  get_issue: 'issue.view',
  list_issues: 'issue.list',
  search_issues: 'issue.search',
  create_issue: 'issue.create',
  add_issue_comment: 'issue.comments.create',
  update_issue: (args) =>
    args.state === 'closed' ? 'issue.close' : args.state === 'open' ? 'issue.reopen' : args.labels ? 'issue.labels.set' : args.assignees ? 'issue.assignees.set' : args.milestone !== undefined ? 'issue.milestone.set' : 'issue.update',
  get_pull_request: 'pr.view',
  list_pull_requests: 'pr.list',
  create_pull_request: 'pr.create',
  get_pull_request_files: 'pr.diff.files',
  get_pull_request_reviews: 'pr.reviews.list',
  create_pull_request_review: 'pr.reviews.submit',
  merge_pull_request: 'pr.merge',
  update_pull_request_branch: 'pr.branch.update',
  get_pull_request_status: 'pr.status.view',
  get_pull_request_comments: 'pr.review_comments.list',
  // GitHub's official server (github-mcp-server) folds several operations into one tool with a `method`.
  issue_read: (args) => ({get: 'issue.view', get_comments: 'issue.comments.list', get_labels: 'issue.labels.list', get_sub_issues: 'issue.relations.view'})[String(args.method)] ?? 'issue.view',
  issue_write: (args) => (args.method === 'create' ? 'issue.create' : args.state === 'closed' ? 'issue.close' : 'issue.update'),
  pull_request_read: (args) =>
    ({get: 'pr.view', get_diff: 'pr.diff.view', get_files: 'pr.diff.files', get_reviews: 'pr.reviews.list', get_review_comments: 'pr.threads.list', get_status: 'pr.checks.list', get_comments: 'pr.comments.list'})[String(args.method)] ?? 'pr.view',
  // method create without an event only opens a pending review; submit_pending (or create with an event) submits it.
  pull_request_review_write: (args) =>
    args.method === 'delete_pending' ? 'pr.reviews.delete_pending' : args.method === 'create' && !args.event ? 'pr.reviews.create_pending' : 'pr.reviews.submit',
  add_comment_to_pending_review: 'pr.reviews.comment',
  update_pull_request: 'pr.update',
  request_copilot_review: 'pr.reviews.request',
  list_workflow_runs: 'workflow.runs.list',
  get_workflow_run: 'workflow.run.view',
  get_job_logs: 'workflow.job.logs.view',
  rerun_failed_jobs: 'workflow.run.rerun.failed',
  rerun_workflow_run: 'workflow.run.rerun.all',
  cancel_workflow_run: 'workflow.run.cancel',
  run_workflow: 'workflow.dispatch',
  list_workflows: 'workflow.list',
  list_releases: 'release.list',
  get_latest_release: 'release.view',
  get_label: 'repo.labels.view',
}

/* ------------------------------------------------------------------------------------------------
 * A small shell tokenizer: enough of bash (and zsh) to find the simple commands of a line. It does
 * not run or expand anything: quotes ('…', "…", $'…') and escapes are removed from words, while
 * expansions ($x, ${x}, $(…), `…`) stay in the word as written; the commands inside $(…), `…`,
 * <(…) and unquoted here-document bodies are read as commands of their own, listed before the
 * command that holds them (they run first). A here-document body is the command's stdin, never a
 * command line. Reserved words (if, then, do, done, {, }, …) are dropped where a command starts,
 * `for NAME in …` and `case WORD in` headers and case patterns are not commands.
 * ---------------------------------------------------------------------------------------------- */

/** One simple command of a shell line. */
interface ShellCommand {
  /** The words, quotes and escapes removed; expansions kept as written. */
  words: string[]
  /** The command as written, from its first word to its last (here-document body excluded). */
  text: string
  /** What it reads from a here-document (`<<EOF`) or here-string (`<<<`). */
  stdin?: string
}

/** Reserved words that may stand where a command starts and are no command themselves. */
const RESERVED = new Set(['if', 'then', 'elif', 'else', 'fi', 'do', 'done', 'while', 'until', '{', '}', '!', 'esac'])

class ShellReader {
  i = 0
  readonly commands: ShellCommand[] = []
  constructor(private readonly s: string) {}

  /** Reads commands to the end of the text or, when `closing`, up to and past the `)` that closes a `$(`. */
  read(closing: boolean): void {
    const s = this.s
    let command: ShellCommand = {words: [], text: ''}
    let word: string | null = null // the word being read; null between words
    let plain = true // the word has no quoting, escape or expansion (only then can it be a reserved word)
    let wordStart = 0
    let start = -1 // source span of the command
    let end = -1
    let target: 'file' | 'herestring' | 'heredoc' | null = null // the next word is a redirection's target
    let stripTabs = false
    let header: 'for' | 'case' | 'function' | null = null // words that are not a command
    let cases = 0 // open case statements
    let pattern = false // reading a case pattern (`a|b)`), up to its `)`
    let subshells = 0
    const heredocs: Array<{command: ShellCommand; delimiter: string; stripTabs: boolean; expand: boolean}> = []

    const endWord = () => {
      if (word === null) return
      const value = word
      word = null
      if (target) {
        if (target === 'heredoc') heredocs.push({command, delimiter: value, stripTabs, expand: plain})
        else if (target === 'herestring') command.stdin = value
        target = null
        if (start >= 0) end = this.i
      } else if (header) {
        // `for NAME in …` runs to the end of the command; `case WORD in` ends at `in`; `function NAME`.
        if (header === 'function' || (header === 'case' && plain && value === 'in')) {
          if (header === 'case') {
            cases++
            pattern = true
          }
          header = null
        }
      } else if (pattern || (command.words.length === 0 && plain && RESERVED.has(value))) {
        if (plain && value === 'esac' && cases > 0) {
          cases--
          pattern = false
        }
      } else if (command.words.length === 0 && plain && (value === 'for' || value === 'select' || value === 'case' || value === 'function')) {
        header = value === 'select' ? 'for' : value
      } else {
        if (command.words.length === 0) start = wordStart
        command.words.push(value)
        end = this.i
      }
    }
    const dropWords = () => {
      word = null
      command.words = []
      start = end = -1
    }
    const flush = () => {
      endWord()
      if (command.words.length > 0) {
        command.text = s.slice(start, end).trim()
        this.commands.push(command)
      }
      command = {words: [], text: ''}
      start = end = -1
      target = null
      header = null
    }

    while (this.i < s.length) {
      const c = s[this.i]!
      const next = s[this.i + 1]
      if (c === '\\' && next === '\n') {
        this.i += 2 // line continuation
      } else if (c === ' ' || c === '\t') {
        endWord()
        this.i++
      } else if (c === '\n') {
        flush()
        this.i++
        this.heredocBodies(heredocs.splice(0))
      } else if (c === '#' && word === null) {
        while (this.i < s.length && s[this.i] !== '\n') this.i++ // a comment
      } else if (c === ';') {
        flush() // ; and the case terminators ;; ;& ;;&, after which comes a pattern
        if (cases > 0 && (next === ';' || next === '&')) pattern = true
        this.i += s.startsWith(';;&', this.i) ? 3 : next === ';' || next === '&' ? 2 : 1
      } else if (pattern && (c === '|' || c === '(')) {
        endWord() // a|b) or (a) in a case pattern
        this.i++
      } else if (c === '|' || (c === '&' && next !== '>')) {
        flush() // | || |& & &&
        this.i += next === c || (c === '|' && next === '&') ? 2 : 1
      } else if ((c === '<' || c === '>' || c === '&') && next !== '(') {
        // A redirection: `2>` drops its fd number; the next word is its target, not an argument.
        if (word !== null && plain && /^\d+$/.test(word)) word = null
        else endWord()
        if (s.startsWith('<<<', this.i)) {
          target = 'herestring'
          this.i += 3
        } else if (s.startsWith('<<', this.i)) {
          stripTabs = s[this.i + 2] === '-'
          target = 'heredoc'
          this.i += stripTabs ? 3 : 2
        } else {
          target = 'file' // < > >> >& <& <> >| &> &>>
          this.i++
          while (this.i < s.length && '<>&|'.includes(s[this.i]!)) this.i++
        }
      } else if (c === '(' && word === null && command.words.length === 0) {
        subshells++
        this.i++
      } else if (c === '(' && !(word ?? '').endsWith('=')) {
        // `name() { …; }`: a function definition; the name is no command.
        const close = s.indexOf(')', this.i)
        this.i = close < 0 ? s.length : close + 1
        dropWords()
      } else if (c === ')') {
        endWord()
        this.i++
        if (pattern) {
          pattern = false // the end of a case pattern
        } else {
          flush()
          if (subshells > 0) subshells--
          else if (closing) return
        }
      } else {
        // A character of a word.
        if (word === null) {
          word = ''
          plain = true
          wordStart = this.i
        }
        if (c === '\\') {
          word += next ?? ''
          plain = false
          this.i += 2
        } else if (c === "'") {
          const close = s.indexOf("'", this.i + 1)
          word += s.slice(this.i + 1, close < 0 ? s.length : close)
          plain = false
          this.i = close < 0 ? s.length : close + 1
        } else if (c === '"') {
          word += this.doubleQuoted()
          plain = false
        } else if (c === '$' && next === "'") {
          word += this.ansiC()
          plain = false
        } else if ((c === '$' || c === '<' || c === '>') && next === '(') {
          word += this.substitution() // $(…), $((…)), <(…), >(…)
          plain = false
        } else if (c === '(') {
          word += this.substitution() // an array assignment a=(…): its words are no commands
          plain = false
        } else if (c === '$' && next === '{') {
          word += this.braced()
          plain = false
        } else if (c === '`') {
          word += this.backquoted()
          plain = false
        } else {
          if (c === '$') plain = false
          word += c
          this.i++
        }
      }
    }
    flush()
    this.heredocBodies(heredocs.splice(0)) // a here-document opened on the last line has no body
  }

  /** `$(…)`, `<(…)`, `>(…)` at the cursor: its commands are read; `$((…))` and `a=(…)` have none. Returns the text. */
  substitution(): string {
    const s = this.s
    const start = this.i
    if (s.startsWith('$((', this.i) || s[this.i] === '(') {
      if (s[this.i] === '$') this.i++
      let depth = 0
      do {
        if (s[this.i] === '(') depth++
        else if (s[this.i] === ')') depth--
        this.i++
      } while (this.i < s.length && depth > 0)
    } else {
      this.i += 2
      this.read(true)
    }
    return s.slice(start, this.i)
  }

  /** `` `…` `` at the cursor: its commands are read. Returns the text. */
  backquoted(): string {
    const s = this.s
    let close = this.i + 1
    while (close < s.length && s[close] !== '`') close += s[close] === '\\' ? 2 : 1
    const inner = new ShellReader(s.slice(this.i + 1, close).replace(/\\([`$\\])/g, '$1'))
    inner.read(false)
    this.commands.push(...inner.commands)
    const text = s.slice(this.i, close + 1)
    this.i = close + 1
    return text
  }

  /** `${…}` at the cursor, as written. */
  braced(): string {
    const start = this.i
    let depth = 0
    this.i++ // the $
    do {
      if (this.s[this.i] === '{') depth++
      else if (this.s[this.i] === '}') depth--
      this.i++
    } while (this.i < this.s.length && depth > 0)
    return this.s.slice(start, this.i)
  }

  /** `"…"` at the cursor: its value; \ escapes only $ ` " \ and newline; substitutions are read. */
  doubleQuoted(): string {
    const s = this.s
    let value = ''
    this.i++
    while (this.i < s.length && s[this.i] !== '"') {
      const c = s[this.i]!
      const next = s[this.i + 1]
      if (c === '\\') {
        if (next !== '\n') value += next !== undefined && '$`"\\'.includes(next) ? next : c + (next ?? '')
        this.i += 2
      } else if (c === '$' && next === '(') value += this.substitution()
      else if (c === '$' && next === '{') value += this.braced()
      else if (c === '`') value += this.backquoted()
      else {
        value += c
        this.i++
      }
    }
    this.i++
    return value
  }

  /** `$'…'` at the cursor: its value, with the usual backslash escapes. */
  ansiC(): string {
    const s = this.s
    const escapes: Record<string, string> = {n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v'}
    let value = ''
    this.i += 2
    while (this.i < s.length && s[this.i] !== "'") {
      if (s[this.i] === '\\' && this.i + 1 < s.length) {
        const next = s[this.i + 1]!
        value += escapes[next] ?? next
        this.i += 2
      } else value += s[this.i++]
    }
    this.i++
    return value
  }

  /** The bodies of the here-documents opened on the line just ended: stdin of their commands. */
  heredocBodies(docs: Array<{command: ShellCommand; delimiter: string; stripTabs: boolean; expand: boolean}>): void {
    const s = this.s
    for (const doc of docs) {
      const lines: string[] = []
      while (this.i < s.length) {
        const lineEnd = s.indexOf('\n', this.i) < 0 ? s.length : s.indexOf('\n', this.i)
        const line = doc.stripTabs ? s.slice(this.i, lineEnd).replace(/^\t+/, '') : s.slice(this.i, lineEnd)
        this.i = lineEnd + 1
        if (line === doc.delimiter) break
        lines.push(line)
      }
      this.i = Math.min(this.i, s.length)
      const body = lines.length > 0 ? `${lines.join('\n')}\n` : ''
      doc.command.stdin = (doc.command.stdin ?? '') + body
      // An unquoted delimiter (<<EOF) lets $(…) and `…` run inside the body.
      if (doc.expand) {
        const inner = new ShellReader(body)
        while (inner.i < body.length) {
          const c = body[inner.i]
          if (c === '\\') inner.i += 2
          else if (c === '$' && body[inner.i + 1] === '(') inner.substitution()
          else if (c === '`') inner.backquoted()
          else inner.i++
        }
        this.commands.push(...inner.commands)
      }
    }
  }
}

/** The simple commands of a shell line, in the order they run (see the tokenizer above). */
function parseShellCommands(line: string): ShellCommand[] {
  const reader = new ShellReader(line)
  reader.read(false)
  return reader.commands
}

/** The simple commands of a shell line, each as written. */
export function shellCommands(line: string): string[] {
  return parseShellCommands(line).map((command) => command.text)
}

/**
 * Words that run the command after them, with their options that take a value
 * (`noglob gh …`, `env -u X gh …`, `xargs -n 1 gh …`, `timeout 30 gh …`).
 */
const RUNNERS: Record<string, readonly string[]> = {
  noglob: [],
  nohup: [],
  builtin: [],
  time: [],
  command: [],
  exec: ['-a'],
  env: ['-u', '-C', '-S', '--unset', '--chdir'],
  nice: ['-n'],
  timeout: ['-s', '-k', '--signal', '--kill-after'],
  xargs: ['-n', '-I', '-L', '-P', '-d', '-s', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file'],
  npx: ['-p', '--package'],
}

const basename = (word: string) => word.slice(word.lastIndexOf('/') + 1)
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/

/** The program a command runs and its arguments, past assignments (`A=1`) and runners; none for `command -v gh`. */
function programOf(words: readonly string[]): {name: string; args: string[]} | undefined {
  let k = 0
  while (k < words.length) {
    const word = words[k]!
    if (ASSIGNMENT.test(word)) {
      k++
      continue
    }
    const name = basename(word)
    const withValue = RUNNERS[name]
    if (!withValue) return {name, args: words.slice(k + 1)}
    if (name === 'command' && /^-[vV]$/.test(words[k + 1] ?? '')) return undefined // a lookup, not a run
    for (k++; k < words.length && words[k]!.startsWith('-'); ) {
      if (words[k] === '--') {
        k++
        break
      }
      k += withValue.includes(words[k]!) ? 2 : 1
    }
    if (name === 'timeout') k++ // its duration
  }
  return undefined
}

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash'])

/** The commands of a line, with those of the scripts it hands to a shell (`bash -c '…'`, `bash <<EOF`, `eval …`) added. */
function commandsOf(line: string, depth = 0): ShellCommand[] {
  return parseShellCommands(line).flatMap((command) => {
    const run = programOf(command.words)
    let script: string | undefined
    if (run && SHELLS.has(run.name)) {
      const flag = run.args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a))
      script = flag >= 0 ? run.args[flag + 1] : run.args.every((a) => a.startsWith('-')) ? command.stdin : undefined
    } else if (run?.name === 'eval') script = run.args.join(' ')
    return script !== undefined && depth < 4 ? [command, ...commandsOf(script, depth + 1)] : [command]
  })
}

/** Shell builtins: a glob error on one of them stops the whole script in zsh. */
const BUILTINS = new Set(['echo', 'print', 'printf', 'read', 'test', '[', 'cd', 'export', 'local', 'declare', 'typeset', 'set', 'eval', 'source', '.', 'let', 'return', 'exit'])

/**
 * The commands of a call the shell says it never ran, read from its output (so, best effort).
 * A glob that matches nothing (zsh `zsh:1: no matches found: a[0]=x`, bash with failglob
 * `bash: line 1: no match: a[0]=x`): the command that holds it, and, when that is a builtin, all
 * after it (zsh stops the script there). A program not installed (`bash: line 1: ghx: command not
 * found`, `zsh:1: command not found: ghx`, `sh: 1: ghx: not found`): the first command that runs it.
 */
function notRun(commands: readonly ShellCommand[], output: string): Set<ShellCommand> {
  const skipped = new Set<ShellCommand>()
  for (const m of output.matchAll(/^(?:zsh|bash)\b[^\n]*?: no match(?:es found)?: (.+)$/gm)) {
    const at = commands.findIndex((c) => !skipped.has(c) && c.words.includes(m[1]!))
    if (at < 0) continue
    const builtin = BUILTINS.has(programOf(commands[at]!.words)?.name ?? '')
    for (const c of commands.slice(at, builtin ? undefined : at + 1)) skipped.add(c)
  }
  for (const m of output.matchAll(/^(?:[a-z]*sh: (?:line )?(?:\d+: )?(\S+): (?:command )?not found|zsh(?::\d+)?: command not found: (\S+))$/gm)) {
    // The missing program may be the command's runner: bash has no `noglob`, so `noglob gh …` runs nothing.
    const name = basename(m[1] ?? m[2]!)
    const runs = (c: ShellCommand) => basename(c.words.find((w) => !ASSIGNMENT.test(w)) ?? '') === name || programOf(c.words)?.name === name
    const command = commands.find((c) => !skipped.has(c) && runs(c))
    if (command) skipped.add(command)
  }
  return skipped
}

/** The operations of one gh command: one, or for `gh issue edit --remove-label a --add-label b` each that a flag names. */
function ghOperations(args: readonly string[], text: string): string[] {
  if (args[0] === 'api') {
    const method = (args.find((a, i) => (args[i - 1] === '-X' || args[i - 1] === '--method') && a) ?? args.find((a) => /^(--method=|-X)./.test(a))?.replace(/^(--method=|-X)/, '') ?? '').toUpperCase()
    const valued = ['-X', '--method', '-f', '-F', '--jq', '-q', '--input', '-H', '--header', '--field', '--raw-field', '-t', '--template', '-p', '--preview', '--hostname', '--cache']
    const target = args.slice(1).find((a, i) => !a.startsWith('-') && !valued.includes(args[i]!))
    if (target === 'graphql') {
      // A mutation's selection may read fields a query pattern names (addSubIssue { issue { parent { … } } }): only a change names it.
      const changes = /\bmutation\b/.test(text)
      return [GRAPHQL_FIELDS.find(([pattern, operation]) => pattern.test(text) && (!changes || isMutation(operation)))?.[1] ?? (changes ? 'graphql.mutation' : 'graphql.other')]
    }
    if (!target) return []
    const path = target.replace(/^\/+/, '').replace(/\?.*$/, '')
    const hasFields = args.some((a) => a === '-f' || a === '-F' || a === '--field' || a === '--raw-field' || a === '--input')
    const verb = method || (hasFields ? 'POST' : 'GET')
    return [REST_ROUTES.find(([m, pattern]) => m === verb && pattern.test(path))?.[2] ?? `rest.${verb.toLowerCase()}`]
  }
  const entry = GH_COMMANDS[`${args[0]} ${args[1]}`]
  if (entry === undefined) return []
  if (typeof entry === 'string') return [entry]
  // Flags only: a --body that mentions --add-label is no flag.
  const flags = args.filter((a) => a.startsWith('-'))
  const flagged = entry.filter(([flag]) => flag !== null && flags.some((a) => flag.test(a))).map(([, operation]) => operation)
  return flagged.length > 0 ? flagged : entry.filter(([flag]) => flag === null).map(([, operation]) => operation)
}


/** An MCP CallToolResult printed as the output text: `{"content": […], "isError": true}`. */
function outputReportsError(output: string): boolean {
  const text = output.trim()
  if (!text.startsWith('{') || !text.includes('"isError"')) return false
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) && value.isError === true
  } catch {
    return false
  }
}

/**
 * The tool accounting of a run's calls, in the order they ran. `layerLog` is the text of the layer's
 * own log of the run (shell-tool's layerLogOf), when it wrote one.
 */
export function accountToolCalls(calls: readonly ProviderToolCall[], mcpTools: ReadonlySet<string>, layer?: ToolLayerAccounting, layerLog?: string | null): ToolAccounting {
  const result: ToolAccounting = {
    by_category: {},
    by_operation: {},
    by_route: {},
    last_route: null,
    fallback: false,
    internal_retries: null,
    failed: 0,
    invocations: {gh: 0, ...Object.fromEntries((layer?.programs ?? []).map((program) => [program, 0]))},
  }
  const count = (into: Record<string, number>, key: string, n = 1) => (into[key] = (into[key] ?? 0) + n)
  const layerPrograms = new Set(layer?.programs ?? [])
  // Fallbacks: a layer call failed (or could not be read: it may have), then a GitHub tool call succeeded.
  let layerFailed = false
  let layerUnread = false
  let maybeFallback = false
  const afterLayer = (category: string, failed: boolean, unread = false) => {
    if (!layer) return
    if (category === layer.category) {
      if (failed) layerFailed = true
      else if (unread) layerUnread = true
    } else if (!failed && (category === 'gh_cli' || category === 'mcp_tool')) {
      if (layerFailed) result.fallback = true
      else if (layerUnread) maybeFallback = true
    }
  }
  for (const call of calls) {
    // Runtimes that attach MCP servers themselves prefix the tools with the server's key (github_get_issue).
    const mcpTool = mcpTools.has(call.tool) ? call.tool : [...mcpTools].find((name) => call.tool.endsWith(`_${name}`))
    const line = typeof call.args.command === 'string' ? call.args.command : undefined
    if (mcpTool || line === undefined) {
      if (mcpTool) {
        const mapped = MCP_TOOLS[mcpTool]
        count(result.by_operation, typeof mapped === 'function' ? mapped(call.args) : (mapped ?? `mcp.${mcpTool}`))
      }
      count(result.by_category, mcpTool ? 'mcp_tool' : 'other')
      // The agent loop turns isError into ok: false; a runtime may hand the CallToolResult on as text.
      const failed = !call.ok || outputReportsError(call.output)
      if (failed) result.failed++
      afterLayer(mcpTool ? 'mcp_tool' : 'other', failed)
      continue
    }

    const commands = commandsOf(line)
    const skipped = notRun(commands, call.output)
    let category = 'shell'
    let failed = !call.ok
    const layerCommands: LayerCommand[] = []
    for (const command of commands) {
      const run = programOf(command.words)
      if (!run || (run.name !== 'gh' && !layerPrograms.has(run.name))) continue
      if (skipped.has(command)) {
        failed = true // the shell could not run it
        continue
      }
      count(result.invocations, run.name)
      if (layer && layerPrograms.has(run.name)) {
        category = layer.category
        layerCommands.push({program: run.name, args: run.args, ...(command.stdin !== undefined ? {stdin: command.stdin} : {})})
      } else {
        if (category === 'shell') category = 'gh_cli'
        for (const operation of ghOperations(run.args, `${command.text}\n${command.stdin ?? ''}`)) count(result.by_operation, operation)
      }
    }
    count(result.by_category, category)

    let unread = false
    if (layer && layerCommands.length > 0) {
      const read = readLayer(layer, layerCommands, call.output)
      for (const operation of read.operations) count(result.by_operation, operation)
      for (const [route, n] of Object.entries(read.routes ?? {})) count(result.by_route, routeName(route), n)
      if (read.lastRoute && ROUTE_NAME.test(read.lastRoute)) result.last_route = read.lastRoute
      result.internal_retries = (result.internal_retries ?? 0) + (read.retries ?? 0)
      if (read.failed) failed = true
      // A call the hook could not read may have failed though it exited 0: whether it did is unknown.
      unread = read.unreadable === true
    }
    if (failed) result.failed++
    afterLayer(category, failed, unread)
  }
  if (result.fallback === false && maybeFallback) result.fallback = null
  if (!layer) return result
  // The layer's own log names the route of every execution it ran, where the run has one.
  const logged = layer.readLog && layerLog ? readLog(layer, layerLog) : null
  const loggedCount = logged ? Object.values(logged.routes).reduce((sum, n) => sum + n, 0) : 0
  if (logged && loggedCount > 0) {
    const written = Object.values(result.by_route).reduce((sum, n) => sum + n, 0)
    result.by_route = {...logged.routes}
    if (written > loggedCount) count(result.by_route, 'unknown', written - loggedCount)
    result.last_route = logged.lastRoute ?? result.last_route
  }
  return result
}

/** The mode's reading of its layer's commands; a hook that throws counts them with no operation, under the route `unknown`. */
function readLayer(layer: ToolLayerAccounting, commands: LayerCommand[], output: string): LayerCallAccount & {unreadable?: boolean} {
  try {
    return layer.account(commands, output)
  } catch {
    return {operations: [], routes: {unknown: commands.length}, unreadable: true}
  }
}

/** A route as a row may hold it (a key of by_route, route_used): a short lower-case word; anything else is `unknown`. */
const ROUTE_NAME = /^[a-z][a-z0-9_-]{0,31}$/
const routeName = (route: string) => (ROUTE_NAME.test(route) ? route : 'unknown')

/** The mode's reading of its layer's log, routes checked; a hook that throws, or says nothing usable, reads as no log. */
function readLog(layer: ToolLayerAccounting, text: string): LayerLogAccount | null {
  try {
    const read = layer.readLog!(text)
    const routes: Record<string, number> = {}
    for (const [route, n] of Object.entries(read.routes ?? {})) {
      if (!Number.isSafeInteger(n) || n <= 0) continue
      const name = routeName(route)
      routes[name] = (routes[name] ?? 0) + n
    }
    return {routes, lastRoute: typeof read.lastRoute === 'string' && ROUTE_NAME.test(read.lastRoute) ? read.lastRoute : null}
  } catch {
    return null
  }
}
