// The part of autocannon's API (it ships no types) the sandbox benchmark uses.
declare module 'autocannon' {
  interface Options {
    url: string
    method?: string
    body?: string
    headers?: Record<string, string>
    connections?: number
    /** Seconds. */
    duration?: number
  }
  interface Histogram {
    p50: number
    /** Requests: how many completed. */
    total: number
  }
  interface Result {
    /** Seconds. */
    duration: number
    errors: number
    non2xx: number
    requests: Histogram
    latency: Histogram
  }
  export default function autocannon(options: Options): Promise<Result>
}
