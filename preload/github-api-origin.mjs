// node --import preload: sends requests a tool makes to https://api.github.com (hard-coded, as in
// @modelcontextprotocol/server-github and `ghx run`) to GHX_BENCH_GITHUB_API_URL instead, through the
// global fetch; https://api.github.com/graphql goes to GHX_BENCH_GITHUB_GRAPHQL_URL when it is set
// (Enterprise serves GraphQL at /api/graphql, beside REST at /api/v3).
const target = process.env.GHX_BENCH_GITHUB_API_URL?.replace(/\/$/, '')
const graphql = process.env.GHX_BENCH_GITHUB_GRAPHQL_URL
if (target) {
  const origin = /^https:\/\/api\.github\.com(?=\/|$)/
  const rewrite = (url) =>
    graphql && /^https:\/\/api\.github\.com\/graphql\/?(?=\?|$)/.test(url)
      ? url.replace(/^https:\/\/api\.github\.com\/graphql\/?/, graphql)
      : url.replace(origin, target)
  const original = globalThis.fetch
  globalThis.fetch = (input, init) => {
    if (typeof input === 'string' || input instanceof URL) return original(rewrite(String(input)), init)
    if (input instanceof Request && origin.test(input.url))
      return original(new Request(rewrite(input.url), input), init)
    return original(input, init)
  }
}
