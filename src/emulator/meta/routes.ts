/** The API's root (its index of URL templates) and the rate limit. */
import type {RouteDef} from '../core/rest-support.js'
import type {Json, Links} from '../core/serializer-core.js'

/** GET /: the API's index of URL templates. */
function apiRoot(links: Links): Json {
  const a = links.api
  return {
    current_user_url: `${a}/user`,
    current_user_authorizations_html_url: `${links.html}/settings/connections/applications{/client_id}`,
    authorizations_url: `${a}/authorizations`,
    code_search_url: `${a}/search/code?q={query}{&page,per_page,sort,order}`,
    commit_search_url: `${a}/search/commits?q={query}{&page,per_page,sort,order}`,
    emails_url: `${a}/user/emails`,
    emojis_url: `${a}/emojis`,
    events_url: `${a}/events`,
    feeds_url: `${a}/feeds`,
    followers_url: `${a}/user/followers`,
    following_url: `${a}/user/following{/target}`,
    gists_url: `${a}/gists{/gist_id}`,
    issue_search_url: `${a}/search/issues?q={query}{&page,per_page,sort,order}`,
    issues_url: `${a}/issues`,
    keys_url: `${a}/user/keys`,
    label_search_url: `${a}/search/labels?q={query}&repository_id={repository_id}{&page,per_page}`,
    notifications_url: `${a}/notifications`,
    organization_url: `${a}/orgs/{org}`,
    organization_repositories_url: `${a}/orgs/{org}/repos{?type,page,per_page,sort}`,
    organization_teams_url: `${a}/orgs/{org}/teams`,
    public_gists_url: `${a}/gists/public`,
    rate_limit_url: `${a}/rate_limit`,
    repository_url: `${a}/repos/{owner}/{repo}`,
    repository_search_url: `${a}/search/repositories?q={query}{&page,per_page,sort,order}`,
    current_user_repositories_url: `${a}/user/repos{?type,page,per_page,sort}`,
    starred_url: `${a}/user/starred{/owner}{/repo}`,
    starred_gists_url: `${a}/gists/starred`,
    user_url: `${a}/users/{user}`,
    user_organizations_url: `${a}/user/orgs`,
    user_repositories_url: `${a}/users/{user}/repos{?type,page,per_page,sort}`,
    user_search_url: `${a}/search/users?q={query}{&page,per_page,sort,order}`,
  }
}

export const metaRoutes: RouteDef[] = [
  ['GET', '/', 'meta/root', (ctx) => ({body: apiRoot(ctx.ser.links)})],
  [
    'GET',
    '/rate_limit',
    'rate-limit/get',
    () => {
      const core = {limit: 5000, used: 0, remaining: 5000, reset: Math.floor(Date.now() / 1000) + 3600}
      return {body: {resources: {core, graphql: core, search: core}, rate: core}}
    },
  ],
]
