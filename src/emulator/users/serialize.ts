/** REST representations of users (GitHub's simple user, and the public profile of GET /user). */
import type {Json, SerializerCore} from '../core/serializer-core.js'
import {nodeId, timestamp} from '../core/store-core.js'

/** Users (../serialize.ts composes the serializers). */
export class UserSerializer {
  constructor(private readonly core: SerializerCore) {}

  user(login: string | null): Json | null {
    if (login === null) return null
    const user = this.core.store.user(login)
    const url = `${this.core.links.api}/users/${user.login}`
    return {
      login: user.login,
      id: user.id,
      node_id: nodeId('user', user.id),
      avatar_url: `${this.core.links.html}/avatars/${user.login}`,
      gravatar_id: '',
      url,
      html_url: `${this.core.links.html}/${user.login}`,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
      type: user.type,
      user_view_type: 'public',
      site_admin: false,
      ...(user.name ? {name: user.name} : {}),
    }
  }

  /** The detailed public profile (GET /user, GET /users/{username}). */
  detail(login: string): Json {
    const user = this.core.store.user(login)
    const created = timestamp(0)
    return {
      ...this.user(login),
      name: user.name,
      company: null,
      blog: '',
      location: null,
      email: null,
      hireable: null,
      bio: null,
      twitter_username: null,
      public_repos: Object.values(this.core.store.state.repos).filter((r) => r.owner === login).length,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: created,
      updated_at: created,
    }
  }
}
