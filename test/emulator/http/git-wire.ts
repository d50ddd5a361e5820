// Git's push protocol spoken by hand, for what a git client will not send (a ref name git refuses) or
// will not do (stop halfway through a pack), and the sandbox's git processes found by their HOME (the
// sandbox runs git with HOME set to its own folder of bare repositories).
import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import http from 'node:http'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'

export const ZERO = '0'.repeat(40)

function pktLine(text: string): Buffer {
  const body = Buffer.from(text, 'utf8')
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body])
}

/** A pack of no objects: what a push that creates a ref at a commit the server has sends. */
function emptyPack(): Buffer {
  const head = Buffer.from('PACK\0\0\0\x02\0\0\0\0', 'latin1')
  return Buffer.concat([head, createHash('sha1').update(head).digest()])
}

/** POST git-receive-pack as `token`, its body left open for the caller to write and end. */
export function receivePackRequest(url: string, token: string, fullName: string): http.ClientRequest {
  return http.request(`${url}/${fullName}.git/git-receive-pack`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-git-receive-pack-request',
      authorization: `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`,
    },
  })
}

/** The commands of a push (`<old> <new> <ref>` each, with report-status) and their pack. */
export function pushBody(updates: Array<{old?: string; new: string; ref: string}>, pack = emptyPack()): Buffer {
  const lines = updates.map((u, i) =>
    pktLine(`${u.old ?? ZERO} ${u.new} ${u.ref}${i === 0 ? '\0report-status' : ''}\n`),
  )
  return Buffer.concat([...lines, Buffer.from('0000'), pack])
}

/** Sends a whole push; the server's answer (report-status pkt-lines) as text. */
export function push(
  url: string,
  token: string,
  fullName: string,
  body: Buffer,
): Promise<{status: number; text: string}> {
  return new Promise((resolve, reject) => {
    const request = receivePackRequest(url, token, fullName)
    request.on('error', reject)
    request.on('response', (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({status: response.statusCode!, text: Buffer.concat(chunks).toString('utf8')}))
    })
    request.end(body)
  })
}

/** Processes whose HOME lies under `prefix`: the git processes of sandboxes whose folders start so. */
export function processesWithHome(prefix = path.join(tmpdir(), 'ghx-sandbox-git-')): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let environ: string
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1')
    } catch {
      continue
    }
    if (environ.split('\0').some((variable) => variable.startsWith(`HOME=${prefix}`))) found.push(Number(entry))
  }
  return found
}

/** The processes `processesWithHome` finds once those killed had the moment the kernel takes to end them (up to 5 s). */
export async function processesLeft(prefix?: string): Promise<number[]> {
  for (let i = 0; i < 100 && processesWithHome(prefix).length > 0; i++) await sleep(50)
  return processesWithHome(prefix)
}

/** Waits until git processes under `prefix` run (a push reached git), up to 20 s (a loaded machine starts git slowly). */
export async function gitRunning(prefix?: string): Promise<void> {
  for (let i = 0; i < 800 && processesWithHome(prefix).length === 0; i++) await sleep(25)
  if (processesWithHome(prefix).length === 0) throw new Error('no git process of the sandbox started')
}

export interface PushAnswer {
  status?: number
  text: string
  /** Whether the answer ended whole (a cut connection: false). */
  complete: boolean
}

/**
 * A push that stops halfway through its pack (the pack says 5 objects and sends none), so git waits
 * for the rest: a push in flight for as long as the caller likes. Resolves with the answer, if any.
 */
export function stalledReceivePack(url: string, token: string, fullName: string, sha: string): Promise<PushAnswer> {
  const request = receivePackRequest(url, token, fullName)
  const answer = new Promise<PushAnswer>((resolve) => {
    request.on('error', (error) => resolve({text: error.message, complete: false}))
    request.on('response', (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      response.on('error', () => {})
      response.on('close', () => resolve({status: response.statusCode, text, complete: response.complete}))
    })
  })
  request.write(pushBody([{new: sha, ref: 'refs/heads/stalled'}], Buffer.from('PACK\0\0\0\x02\0\0\0\x05', 'latin1')))
  // The body is never ended: once answered, the request's own socket is let go, or it keeps the process alive.
  return answer.finally(() => request.destroy())
}
