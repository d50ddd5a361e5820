import {createHash} from 'node:crypto'

/** The SHA-256 of a JSON value as written (key order included): what two copies of a document share. */
export const jsonSha256 = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex')
