/** Durations as people write and read them: 90s, 15m, 1h30m. */

/** `4s`, `1m05s`, `1h01m`; `?` for a duration that is not one. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?'
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  return m >= 60
    ? `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`
    : `${m}m${String(s % 60).padStart(2, '0')}s`
}

/** `90s`, `15m`, `1h30m`, `2.5h` in milliseconds; undefined unless every part is a number with a unit h, m or s. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim()
  if (!/^(\d+(\.\d+)?(h|m|s))+$/.test(trimmed)) return undefined
  const unit = {h: 3_600_000, m: 60_000, s: 1000} as const
  let ms = 0
  for (const [, value, , u] of trimmed.matchAll(/(\d+(\.\d+)?)(h|m|s)/g))
    ms += Number(value) * unit[u as keyof typeof unit]
  return ms
}
