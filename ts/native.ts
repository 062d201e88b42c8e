// The native addon, loaded through the loader napi-rs generates at build time.
import { createRequire } from 'node:module'

export interface NativeBatch {
  json: Buffer
  payloads?: Buffer
}

export interface NativeCursor {
  push(chunk: Uint8Array): void
  end(): void
  abort(reason: string): void
  queuedBytes(): number
  waitDrain(low: number): Promise<void>
  nextBatch(maxItems: number): Promise<NativeBatch | null>
}

export interface NativePayloadSource {
  readonly head: string
  read(size: number): Promise<Buffer | null>
}

export interface NativeCancelToken {
  cancel(): void
}

export interface NativeBinding {
  nativeVersion(): string
  panicForTest(): void
  expandInputs(paths: string[]): string[]
  runIndex(
    files: string[],
    optionsJson: string,
    output?: string | null,
    onEvent?: ((event: string) => void) | null,
    cancel?: NativeCancelToken | null,
  ): Promise<string>
  generateSample(dir: string, optionsJson: string): Promise<string>
  openPayload(path: string, offset: number): Promise<NativePayloadSource>
  Cursor: {
    openFile(path: string, optionsJson: string, kind: 'index' | 'lines' | 'records'): NativeCursor
    openPush(name: string, optionsJson: string, kind: 'index' | 'lines' | 'records'): NativeCursor
  }
  CancelToken: new () => NativeCancelToken
}

const require = createRequire(import.meta.url)

export const native: NativeBinding = require('../native/index.cjs') as NativeBinding
