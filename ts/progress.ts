// A one-line progress bar on standard error: bytes, rows per second, ETA.

const BAR_WIDTH = 24

/** Bytes in SI units: "950 B", "1.5 MB", "12 GB". */
export function human(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let v = bytes
  let i = 0
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000
    i++
  }
  return `${v.toFixed(v < 10 && i > 0 ? 1 : 0)} ${units[i]}`
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--'
  const s = Math.max(0, Math.round(seconds))
  const m = Math.floor(s / 60)
  return m >= 60 ? `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m` : `${m}:${String(s % 60).padStart(2, '0')}`
}

export class ProgressBar {
  readonly #total: number
  readonly #start = Date.now()
  #lastDraw = 0
  #drawn = false

  constructor(totalBytes: number) {
    this.#total = totalBytes
  }

  update(doneBytes: number, rows: number): void {
    const now = Date.now()
    if (now - this.#lastDraw < 100) return
    this.#lastDraw = now
    const elapsed = (now - this.#start) / 1000
    const frac = this.#total > 0 ? Math.min(1, doneBytes / this.#total) : 0
    const filled = Math.round(frac * BAR_WIDTH)
    const rate = elapsed > 0 ? rows / elapsed : 0
    const eta = frac > 0 ? (elapsed / frac) * (1 - frac) : Infinity
    const line =
      `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% ` +
      `${human(doneBytes)}/${human(this.#total)}  ${Math.round(rate).toLocaleString('en-US')} rows/s  ETA ${duration(eta)}`
    process.stderr.write(`\r${line.padEnd(process.stderr.columns ? process.stderr.columns - 1 : 79)}`)
    this.#drawn = true
  }

  clear(): void {
    if (this.#drawn) process.stderr.write(`\r${' '.repeat(process.stderr.columns ? process.stderr.columns - 1 : 79)}\r`)
    this.#drawn = false
  }
}
