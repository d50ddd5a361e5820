/** GraphQL's Projects v2: projects, fields, items and their field values, and the mutations on them. */
import {
  connection,
  input,
  mutationId,
  NotModelled,
  text,
  type Args,
  type Context,
  type Obj,
} from '../core/graphql-objects.js'
import {issueOf} from '../core/graphql-nodes.js'
import type {Issue, Project, ProjectItem, Repo} from '../core/state.js'
import {userLogin} from '../users/graphql.js'

export function projectItemNode(ctx: Context, project: Project, item: ProjectItem): Obj {
  const [owner, name] = item.content.repo.split('/') as [string, string]
  const repo = ctx.store.repos.get(owner, name)
  const issue = repo.issues[item.content.number]!
  return {
    __typename: 'ProjectV2Item',
    id: item.id,
    type: issue.is_pull ? 'PULL_REQUEST' : 'ISSUE',
    createdAt: item.created_at,
    isArchived: false,
    content: ctx.nodes.Issue(ctx, repo, issue),
    project: () => projectNode(ctx, project),
    fieldValues: (args: Args) =>
      connection(
        Object.entries(item.values).map(([fieldId, optionId]) => {
          const field = project.fields.find((f) => f.id === fieldId)!
          const option = field.options.find((o) => o.id === optionId)!
          return {
            __typename: 'ProjectV2ItemFieldSingleSelectValue',
            name: option.name,
            optionId: option.id,
            field: fieldNode(field),
          }
        }),
        args,
      ),
    fieldValueByName: ({name}: Args) => {
      const field = project.fields.find((f) => f.name === name)
      const optionId = field ? item.values[field.id] : undefined
      const option = field?.options.find((o) => o.id === optionId)
      return option && field
        ? {
            __typename: 'ProjectV2ItemFieldSingleSelectValue',
            name: option.name,
            optionId: option.id,
            field: fieldNode(field),
          }
        : null
    },
  }
}

function fieldNode(field: Project['fields'][number]): Obj {
  return field.data_type === 'SINGLE_SELECT'
    ? {
        __typename: 'ProjectV2SingleSelectField',
        id: field.id,
        name: field.name,
        dataType: field.data_type,
        options: field.options.map((o) => ({id: o.id, name: o.name, nameHTML: o.name, color: 'GRAY', description: ''})),
      }
    : {__typename: 'ProjectV2Field', id: field.id, name: field.name, dataType: field.data_type}
}

export function projectNode(ctx: Context, project: Project): Obj {
  return {
    __typename: 'ProjectV2',
    id: project.id,
    number: project.number,
    title: project.title,
    closed: false,
    public: false,
    shortDescription: null,
    createdAt: project.created_at,
    url: `${ctx.links.html}/users/${project.owner}/projects/${project.number}`,
    owner: ctx.nodes.Actor(ctx, project.owner),
    fields: (args: Args) => connection(project.fields.map(fieldNode), args),
    field: ({name}: Args) => {
      const field = project.fields.find((f) => f.name === name)
      return field ? fieldNode(field) : null
    },
    items: (args: Args) =>
      connection(
        project.items.map((item) => projectItemNode(ctx, project, item)),
        args,
      ),
  }
}

export function projectItemsFor(ctx: Context, repo: Repo, issue: Issue): Obj[] {
  const key = `${repo.owner}/${repo.name}`
  return ctx.store.state.projects.flatMap((project) =>
    project.items
      .filter((i) => i.content.repo === key && i.content.number === issue.number)
      .map((item) => projectItemNode(ctx, project, item)),
  )
}

/** Mutation's fields on projects. */
export function projectMutations(ctx: Context): Obj {
  const {store} = ctx
  return {
    createProjectV2: (args: Args) => {
      const owner = userLogin(store, input(args).ownerId)
      return {...mutationId(args), projectV2: projectNode(ctx, store.projects.create(owner, text(input(args).title)))}
    },
    deleteProjectV2: (args: Args) => ({
      ...mutationId(args),
      projectV2: projectNode(ctx, store.projects.delete(text(input(args).projectId))),
    }),
    addProjectV2ItemById: (args: Args) => {
      const project = store.projects.byId(String(input(args).projectId))
      const {repo, issue} = issueOf(store, input(args).contentId)
      const itemId = store.projects.addItem(project, repo, issue.number)
      return {
        ...mutationId(args),
        item: projectItemNode(
          ctx,
          project,
          project.items.find((i) => i.id === itemId)!,
        ),
      }
    },
    deleteProjectV2Item: (args: Args) => {
      const project = store.projects.byId(String(input(args).projectId))
      store.projects.removeItem(project, String(input(args).itemId))
      return {...mutationId(args), deletedItemId: input(args).itemId}
    },
    updateProjectV2ItemFieldValue: (args: Args) => {
      const i = input(args)
      const project = store.projects.byId(String(i.projectId))
      const value = (i.value ?? {}) as {singleSelectOptionId?: string}
      if (!value.singleSelectOptionId)
        throw new NotModelled('ghx-bench sandbox models only single-select project field values')
      store.projects.setField(project, String(i.itemId), String(i.fieldId), value.singleSelectOptionId)
      return {
        ...mutationId(args),
        projectV2Item: projectItemNode(
          ctx,
          project,
          project.items.find((it) => it.id === i.itemId)!,
        ),
      }
    },
    clearProjectV2ItemFieldValue: (args: Args) => {
      const i = input(args)
      const project = store.projects.byId(String(i.projectId))
      store.projects.clearField(project, String(i.itemId), String(i.fieldId))
      return {
        ...mutationId(args),
        projectV2Item: projectItemNode(
          ctx,
          project,
          project.items.find((it) => it.id === i.itemId)!,
        ),
      }
    },
  }
}
