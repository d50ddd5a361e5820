/** REST representations of users (GitHub's simple user, and the public profile of GET /user). */
import {SerializerCore, type Json} from '../core/serializer-core.js'
import {nodeId, timestamp} from '../core/store-core.js'

/** Users, on the core (../serialize.ts lists the whole chain). */
export class UserSerializer extends SerializerCore {
  user(login: string | null): Json | null {
    if (login === null) return null
    const user = this.store.user(login)
    const url = `${this.links.api}/users/${user.login}`
    return {
      login: user.login,
      id: user.id,
      node_id: nodeId('user', user.id),
      avatar_url: `${this.links.html}/avatars/${user.login}`,
      gravatar_id: '',
      url,
      html_url: `${this.links.html}/${user.login}`,
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
  userDetail(login: string): Json {
    const user = this.store.user(login)
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
      public_repos: Object.values(this.store.state.repos).filter((r) => r.owner === login).length,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: created,
      updated_at: created,
    }
  }
}
