/**
 * The project kind: a Projects v2 board owned by the agent, holding the fixture issue (the issue kind
 * is seeded first), with a single-select Status field and no value set.
 */
import {issueRef, type FixtureContext} from './context.js'
import {sorted, type Snapshot} from './digest.js'
import {isIssueResource, type IssueResource} from './issues.js'
import {fixtureKind, hasFields} from './kind.js'

export interface ProjectResource {
  id: string
  number: number
  owner: string
  item_id: string
  field_id: string
  option_id: string
  seeded: {
    items: string[]
    /** The issues on the board when seeded (absent in manifests written before reset re-added a removed one). */
    contents?: Array<{number: number; node_id: string}>
  }
  [extra: string]: unknown
}

interface FieldRef {
  id?: string
  name?: string
  dataType?: string
}

interface ProjectNode {
  id: string
  number: number
  title: string
  fields: {nodes: Array<{id?: string; name?: string; options?: Array<{id: string; name: string}>}>}
  items: {
    nodes: Array<{
      id: string
      type?: string
      content: {number?: number; repository?: {nameWithOwner: string}; title?: string} | null
      fieldValues: {
        nodes: Array<{
          optionId?: string
          name?: string
          text?: string
          number?: number
          date?: string
          field?: FieldRef
        }>
      }
    }>
  }
}

const FIELD_REF = 'field { ... on ProjectV2FieldCommon { id name dataType } }'
const PROJECT_FIELDS = `id number title fields(first: 50) { nodes { ... on ProjectV2FieldCommon { id name } ... on ProjectV2SingleSelectField { options { id name } } } } items(first: 100) { nodes { id type content { ... on Issue { number repository { nameWithOwner } } ... on PullRequest { number repository { nameWithOwner } } ... on DraftIssue { title } } fieldValues(first: 50) { nodes { ... on ProjectV2ItemFieldSingleSelectValue { optionId name ${FIELD_REF} } ... on ProjectV2ItemFieldTextValue { text ${FIELD_REF} } ... on ProjectV2ItemFieldNumberValue { number ${FIELD_REF} } ... on ProjectV2ItemFieldDateValue { date ${FIELD_REF} } } } } }`

async function findProject(ctx: FixtureContext, login: string, title: string): Promise<ProjectNode | undefined> {
  const data = await ctx.agent.graphql<{user: {projectsV2: {nodes: ProjectNode[]}}}>(
    `query($login: String!) { user(login: $login) { projectsV2(first: 100) { nodes { ${PROJECT_FIELDS} } } } }`,
    {login},
  )
  return data.user.projectsV2.nodes.find((p) => p.title === title)
}

async function readProject(ctx: FixtureContext, id: string): Promise<ProjectNode> {
  return (
    await ctx.agent.graphql<{node: ProjectNode}>(
      `query($id: ID!) { node(id: $id) { ... on ProjectV2 { ${PROJECT_FIELDS} } } }`,
      {id},
    )
  ).node
}

/** Values a run can set on an item: the Title (the content's own title) is not one. */
function setValues(item: ProjectNode['items']['nodes'][number]): Array<{field: FieldRef; value: string | number}> {
  return item.fieldValues.nodes.flatMap((v) => {
    if (!v.field?.name || v.field.dataType === 'TITLE') return []
    const value = v.name ?? v.text ?? v.number ?? v.date
    return value === undefined ? [] : [{field: v.field, value}]
  })
}

/** A board owned by the agent with the fixture issue on it and a single-select Status field. */
export async function seedProject(ctx: FixtureContext, issue: IssueResource): Promise<ProjectResource> {
  const viewer = (await ctx.agent.graphql<{viewer: {id: string; login: string}}>('{ viewer { id login } }')).viewer
  const title = `GHX Bench Fixtures (bench-seed:${ctx.seedId})`
  let project = await findProject(ctx, viewer.login, title)
  if (!project) {
    await ctx.agent.graphql(
      'mutation($owner: ID!, $title: String!) { createProjectV2(input: {ownerId: $owner, title: $title}) { projectV2 { id } } }',
      {owner: viewer.id, title},
    )
    project = (await findProject(ctx, viewer.login, title))!
  }
  const status = project.fields.nodes.find((f) => f.name === 'Status' && f.options)!
  const resource: ProjectResource = {
    id: project.id,
    number: project.number,
    owner: viewer.login,
    item_id: '',
    field_id: status.id!,
    option_id: status.options![0]!.id,
    seeded: {items: [], contents: [{number: issue.number, node_id: issue.node_id}]},
  }
  // The fixture issue goes on the board when it is not there (a new board, or the issue was seeded anew); other items go.
  return resetProject(ctx, resource)
}

/**
 * Only the seeded issues stay on the board (a removed one is added again: the resource then names
 * its new item), with no field value set. Returns the resource as it now is.
 */
export async function resetProject(ctx: FixtureContext, resource: ProjectResource): Promise<ProjectResource> {
  const contents = resource.seeded.contents
  const refOf = (item: ProjectNode['items']['nodes'][number]) =>
    item.content?.number === undefined
      ? undefined
      : issueRef(ctx, item.content.number, item.content.repository?.nameWithOwner)
  const seededRefs = new Set((contents ?? []).map((c) => issueRef(ctx, c.number)))
  const isSeeded = (item: ProjectNode['items']['nodes'][number]) =>
    contents ? seededRefs.has(refOf(item) ?? '') : resource.seeded.items.includes(item.id)
  let project = await readProject(ctx, resource.id)
  for (const item of project.items.nodes) {
    if (!isSeeded(item)) {
      await ctx.agent.graphql(
        'mutation($p: ID!, $i: ID!) { deleteProjectV2Item(input: {projectId: $p, itemId: $i}) { deletedItemId } }',
        {p: resource.id, i: item.id},
      )
      continue
    }
    for (const {field} of setValues(item)) {
      await ctx.agent.graphql(
        'mutation($p: ID!, $i: ID!, $f: ID!) { clearProjectV2ItemFieldValue(input: {projectId: $p, itemId: $i, fieldId: $f}) { projectV2Item { id } } }',
        {p: resource.id, i: item.id, f: field.id},
      )
    }
  }
  const missing = (contents ?? []).filter((c) => !project.items.nodes.some((i) => refOf(i) === issueRef(ctx, c.number)))
  for (const content of missing) {
    await ctx.agent.graphql(
      'mutation($p: ID!, $c: ID!) { addProjectV2ItemById(input: {projectId: $p, contentId: $c}) { item { id } } }',
      {p: resource.id, c: content.node_id},
    )
  }
  if (missing.length === 0 && resource.item_id) return resource
  project = await readProject(ctx, resource.id)
  const first = contents?.[0]
  const item = first ? project.items.nodes.find((i) => refOf(i) === issueRef(ctx, first.number)) : undefined
  return {
    ...resource,
    item_id: item?.id ?? resource.item_id,
    seeded: {...resource.seeded, items: project.items.nodes.filter(isSeeded).map((i) => i.id)},
  }
}

/** The board's title, fields and items (by content, with the values set on them). */
async function snapshotProject(ctx: FixtureContext, resource: ProjectResource): Promise<Snapshot> {
  const project = await readProject(ctx, resource.id)
  const items: Record<string, Snapshot> = {}
  for (const item of project.items.nodes) {
    const key =
      item.content?.number !== undefined
        ? issueRef(ctx, item.content.number, item.content.repository?.nameWithOwner)
        : `draft: ${item.content?.title ?? item.id}`
    const values: Snapshot = {}
    for (const {field, value} of setValues(item)) values[field.name!] = value
    items[key] = {type: item.type ?? null, values}
  }
  return {
    title: project.title,
    fields: sorted(
      project.fields.nodes
        .filter((f) => f.name)
        .map((f) => (f.options ? `${f.name}: ${f.options.map((o) => o.name).join(' | ')}` : f.name!)),
    ),
    items,
  }
}

export async function projectStatus(ctx: FixtureContext, resource: ProjectResource): Promise<string[]> {
  try {
    const project = await readProject(ctx, resource.id)
    const problems: string[] = []
    const items = project.items.nodes.map((i) => i.id)
    if (items.sort().join() !== [...resource.seeded.items].sort().join())
      problems.push(`${items.length} item(s), seeded ${resource.seeded.items.length}`)
    if (project.items.nodes.some((i) => setValues(i).length > 0)) problems.push('a Status value is set (seeded unset)')
    return problems
  } catch (error) {
    return [`project ${resource.id} cannot be read: ${(error as Error).message}`]
  }
}

export const projectKind = fixtureKind('project', {
  is: (resource): resource is ProjectResource => hasFields(resource, {id: 'string', field_id: 'string'}),
  async seed(ctx, {resources}) {
    const issue = resources.issue
    if (!issue || !isIssueResource(issue)) throw new Error('the project kind needs the issue kind seeded first')
    return seedProject(ctx, issue)
  },
  // A removed issue comes back as a new item: the resource then names it.
  reset: async (ctx, resource, _seeding, replace) => replace(await resetProject(ctx, resource)),
  snapshot: snapshotProject,
  status: projectStatus,
  statusFields: ['items'],
  label: (resource) => `project #${String(resource.number)}`,
  dependencies: ['issue'],
})
