/**
 * A GraphQL call's point cost by GitHub's published rule for its primary rate limit: add up the requests
 * needed to fulfil each connection in the call (a connection is a field with a `first` or `last`
 * argument), assuming every one returns its full page, so a connection nested under a page of 100 needs
 * 100 requests; divide the sum by 100 and round to the nearest whole number; a call costs at least 1.
 * GitHub's example: repositories(first: 100) { issues(first: 50) { labels(first: 60) } } needs
 * 1 + 100 + 100 × 50 = 5,101 requests: 51 points.
 */
import {Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode, type ValueNode} from 'graphql'

/** The page a connection asks for: its `first` or `last` argument (the larger when both), or undefined when neither. */
function pageSize(
  args: ReadonlyArray<{name: {value: string}; value: ValueNode}>,
  variables: Record<string, unknown>,
): number | undefined {
  let size: number | undefined
  for (const arg of args) {
    if (arg.name.value !== 'first' && arg.name.value !== 'last') continue
    const value =
      arg.value.kind === Kind.INT
        ? Number(arg.value.value)
        : arg.value.kind === Kind.VARIABLE
          ? variables[arg.value.name.value]
          : undefined
    if (typeof value === 'number' && Number.isFinite(value)) size = Math.max(size ?? 0, value)
  }
  return size
}

/** The requests the connections under a selection need, each nested one once per node of the pages above it. */
function requestsUnder(
  selections: SelectionSetNode | undefined,
  perParent: number,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  seen: ReadonlySet<string>,
): number {
  let requests = 0
  for (const selection of selections?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      const size = pageSize(selection.arguments ?? [], variables)
      if (size === undefined) requests += requestsUnder(selection.selectionSet, perParent, fragments, variables, seen)
      else
        requests +=
          perParent + requestsUnder(selection.selectionSet, perParent * Math.max(size, 0), fragments, variables, seen)
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      requests += requestsUnder(selection.selectionSet, perParent, fragments, variables, seen)
    } else {
      const name = selection.name.value
      // A fragment that spreads itself is invalid GraphQL; it is counted once, not forever.
      if (seen.has(name)) continue
      requests += requestsUnder(
        fragments.get(name)?.selectionSet,
        perParent,
        fragments,
        variables,
        new Set([...seen, name]),
      )
    }
  }
  return requests
}

/** The requests the operation to run (`operationName`, or the document's only one) needs; 0 when there is none. */
export function graphqlRequests(
  document: DocumentNode,
  variables: Record<string, unknown> = {},
  operationName?: string,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION)
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0]
  return operation ? requestsUnder(operation.selectionSet, 1, fragments, variables, new Set()) : 0
}

/** Whether a document's cost depends on its variables: some `first` or `last` argument is a variable. */
export function costReadsVariables(document: DocumentNode): boolean {
  const reads = (selections: SelectionSetNode | undefined): boolean =>
    (selections?.selections ?? []).some((selection) =>
      selection.kind === Kind.FIELD
        ? (selection.arguments ?? []).some(
            (arg) => (arg.name.value === 'first' || arg.name.value === 'last') && arg.value.kind === Kind.VARIABLE,
          ) || reads(selection.selectionSet)
        : selection.kind === Kind.INLINE_FRAGMENT && reads(selection.selectionSet),
    )
  return document.definitions.some(
    (d) => (d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION) && reads(d.selectionSet),
  )
}

/** The call's points: its requests / 100, rounded, at least 1. */
export function graphqlPoints(
  document: DocumentNode,
  variables?: Record<string, unknown>,
  operationName?: string,
): number {
  return Math.max(1, Math.round(graphqlRequests(document, variables, operationName) / 100))
}
