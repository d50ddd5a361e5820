// node --import preload: sends requests a tool makes to https://api.github.com (hard-coded, as in
// @modelcontextprotocol/server-github) to GHX_BENCH_GITHUB_API_URL instead, through the global fetch.
const target = process.env.GHX_BENCH_GITHUB_API_URL?.replace(/\/$/, '')
if (target) {
  const origin = /^https:\/\/api\.github\.com(?=\/|$)/
  const original = globalThis.fetch
  globalThis.fetch = (input, init) => {
    if (typeof input === 'string' || input instanceof URL) return original(String(input).replace(origin, target), init)
    if (input instanceof Request && origin.test(input.url)) return original(new Request(input.url.replace(origin, target), input), init)
    return original(input, init)
  }
}
