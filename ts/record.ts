import { Readable } from 'node:stream'

import { native } from './native.js'

/** Header fields in order, looked up case-insensitively; repeated names kept. */
export class Headers implements Iterable<[string, string]> {
  readonly entries: ReadonlyArray<readonly [string, string]>

  constructor(entries: Array<[string, string]>) {
    this.entries = entries
  }

  /** The first value of a header. */
  get(name: string): string | undefined {
    const n = name.toLowerCase()
    return this.entries.find(([k]) => k.toLowerCase() === n)?.[1]
  }

  getAll(name: string): string[] {
    const n = name.toLowerCase()
    return this.entries.filter(([k]) => k.toLowerCase() === n).map(([, v]) => v)
  }

  [Symbol.iterator](): Iterator<[string, string]> {
    return (this.entries as Array<[string, string]>)[Symbol.iterator]()
  }
}

export interface HttpHead {
  /** `HTTP/1.1` for responses, the method (`GET`, `POST`) for requests. */
  protocol: string
  /** Status code of a response, when the status line has one. */
  status?: number
  /** The status line after the protocol: `200 OK`, or `/path HTTP/1.1` for requests. */
  statusLine: string
  headers: Headers
}

/** @internal the JSON shape a record crosses the native boundary in. */
export interface RawRecord {
  type: string
  format: 'warc' | 'arc'
  version: string
  offset: number
  length: number
  seekable: boolean
  truncated: boolean
  blockLength: number
  httpHeaderLength: number
  payloadLength: number
  targetUri?: string
  date?: string
  contentType?: string
  headers: Array<[string, string]>
  http?: { protocol: string; statusLine: string; headers: Array<[string, string]> }
  payload?: [number, number]
  payloadCut?: boolean
}

/** A WARC or ARC record: its headers and framing, and its payload on demand. */
export class ArchiveRecord {
  /** WARC-Type; ARC records are `response`, the ARC file header `warcinfo`. */
  readonly type: string
  readonly format: 'warc' | 'arc'
  /** `WARC/1.0`, `WARC/1.1`, ... or `ARC/1`, `ARC/2`. */
  readonly version: string
  /** Offset of the record (of its gzip member in a `.warc.gz`). */
  readonly offset: number
  /** Length of the record (its compressed member in a `.warc.gz`). */
  readonly length: number
  /** False when offsets count decoded bytes (records sharing one compressed member). */
  readonly seekable: boolean
  readonly truncated: boolean
  readonly headers: Headers
  readonly http?: HttpHead
  readonly targetUri?: string
  readonly date?: string
  readonly contentType?: string
  /** Bytes of the payload: the block after the HTTP headers (or the whole block). */
  readonly payloadLength: number
  readonly #path?: string
  readonly #payload?: Buffer

  /** @internal */
  constructor(raw: RawRecord, path: string | undefined, payloads: Buffer | undefined) {
    this.type = raw.type
    this.format = raw.format
    this.version = raw.version
    this.offset = raw.offset
    this.length = raw.length
    this.seekable = raw.seekable
    this.truncated = raw.truncated
    this.headers = new Headers(raw.headers)
    this.targetUri = raw.targetUri
    this.date = raw.date
    this.contentType = raw.contentType
    this.payloadLength = raw.payloadLength
    if (raw.http) {
      const code = /^\d{3}\b/.exec(raw.http.statusLine)
      this.http = {
        protocol: raw.http.protocol,
        statusLine: raw.http.statusLine,
        status: code && raw.type !== 'request' ? Number(code[0]) : undefined,
        headers: new Headers(raw.http.headers),
      }
    }
    this.#path = path
    if (raw.payload && payloads) this.#payload = payloads.subarray(raw.payload[0], raw.payload[1])
  }

  get recordId(): string | undefined {
    return this.headers.get('WARC-Record-ID')
  }

  /** The payload as stored (after HTTP headers; not de-chunked or decompressed). */
  async payload(): Promise<Buffer> {
    if (this.#payload) return this.#payload
    const chunks: Buffer[] = []
    for await (const c of this.payloadStream()) chunks.push(c as Buffer)
    return Buffer.concat(chunks)
  }

  /** The payload as a stream, read from the file by offset (any size, bounded memory). */
  payloadStream(): Readable {
    if (this.#payload) return Readable.from([this.#payload])
    if (!this.#path || !this.seekable) {
      throw new Error(
        'this record\'s payload was not kept: read it from a seekable file, or pass { payload: "buffer" } to readRecords',
      )
    }
    return payloadStreamAt(this.#path, this.offset)
  }
}

/** Streams the payload of the record at `offset` in the file at `path`. */
export function payloadStreamAt(path: string, offset: number, chunkSize = 1 << 20): Readable {
  let source: Awaited<ReturnType<typeof native.openPayload>> | undefined
  return new Readable({
    async read() {
      try {
        source ??= await native.openPayload(path, offset)
        this.push(await source.read(chunkSize))
      } catch (e) {
        this.destroy(e as Error)
      }
    },
  })
}
