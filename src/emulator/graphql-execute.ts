/**
 * A query's execution planned once and run for every request that sends it, in place of graphql-js's
 * `execute`, which on each request collects every selection's fields, looks up each field's definition,
 * builds its resolve info and arguments, and tests each value's type through several checks per field
 * (more than half of a small query's time in the sandbox). The plan does that work once: per selection
 * and object type, the fields to resolve in their response order, each field's arguments when they hold
 * no variable, and a completion made for its type.
 *
 * The plan answers only what it answers exactly as graphql-js would: a query (never a mutation) whose
 * every field resolves, completes and serializes without an error. Anything else (a resolver that throws
 * or returns an error, a null where the schema says non-null, a value that is not of its type, variables
 * that do not coerce) abandons the plan's run, and graphql-js executes the query from the start: query
 * resolvers read the store and change nothing, so running them again answers what graphql-js alone would
 * have. What a plan cannot mirror exactly is never planned (graphql.ts runs graphql-js for it): mutations,
 * @skip and @include (fields that depend on variables), introspection's __schema and __type, fields with
 * a resolver of their own or types with isTypeOf (the sandbox's schema has neither), and `__proto__` as
 * a response key (a plain object would take it as its prototype).
 */
import {
  getArgumentValues,
  getVariableValues,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql'
import {collectFields, collectSubfields} from 'graphql/execution/collectFields.js'
import type {Args, Obj} from './core/graphql-objects.js'

type Variables = Record<string, unknown>

/** What a run of a plan carries: the context its resolvers get, and the request's coerced variables. */
interface Run {
  context: unknown
  variables: Variables
}

/** A value completed for its type: serialized (a leaf), completed item by item (a list), or its fields executed (an object). */
type Complete = (value: unknown, run: Run) => unknown

/** One field of a selection on one object type, in response order. */
interface FieldStep {
  /** The response key: the alias, or the field's name. */
  key: string
  name: string
  /** `__typename`'s answer (the object type's name); undefined for any other field. */
  typename?: string
  def?: GraphQLField<unknown, unknown>
  node?: FieldNode
  /** The arguments, when they hold no variable: the same for every request. */
  args?: Args
  complete?: Complete
}

/** What fieldValue answers for a field its object does not have: one the sandbox does not model. */
export const MISSING = Symbol('not modelled')

/**
 * A field's value as the sandbox's objects hold it (core/graphql-objects.ts): the object's property of the
 * field's name, called (with the object as `this`) with the field's arguments and the context when it is a
 * function; MISSING when the object has no such property. graphql.ts's fieldResolver and the plans both read fields so.
 */
export function fieldValue(source: unknown, name: string, args: Args, context: unknown): unknown {
  if (source === null || typeof source !== 'object' || !(name in source)) return MISSING
  const value = (source as Obj)[name]
  return typeof value === 'function' ? (value as (a: Args, c: unknown) => unknown).call(source, args, context) : value
}

/** Thrown to abandon a run: graphql-js then executes the query. */
const ABANDON = new Error('the planned run of a query is abandoned')

export interface QueryPlan {
  /** Runs the plan: the answer's `data`, or undefined when graphql-js must execute the query. */
  run(rootValue: unknown, context: unknown, variables: unknown): {data: Obj} | undefined
}

/** The operation graphql-js would run, or undefined when it would answer an error instead. */
function operationOf(document: DocumentNode, operationName: string | undefined): OperationDefinitionNode | undefined {
  let operation: OperationDefinitionNode | undefined
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue
    if (operationName === undefined) {
      if (operation) return undefined
      operation = definition
    } else if (definition.name?.value === operationName) operation = definition
  }
  return operation
}

/** Whether any value node (a list's or an input object's included) names a variable. */
function hasVariable(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true
  if (value.kind === Kind.LIST) return value.values.some(hasVariable)
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => hasVariable(field.value))
  return false
}

/** Whether a selection anywhere in the document carries a directive (@skip or @include: fields that depend on variables). */
function hasDirectives(document: DocumentNode): boolean {
  const within = (set: SelectionSetNode | undefined): boolean =>
    set !== undefined &&
    set.selections.some(
      (selection) =>
        (selection.directives?.length ?? 0) > 0 ||
        (selection.kind !== Kind.FRAGMENT_SPREAD && within(selection.selectionSet)),
    )
  return document.definitions.some(
    (definition) =>
      (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) &&
      ((definition.directives?.length ?? 0) > 0 || within(definition.selectionSet)),
  )
}

/** Freezes arguments shared by every request (a resolver that wrote to them would throw, not change the next request's). */
function freeze(value: unknown, keep: unknown): void {
  if (value === null || typeof value !== 'object' || value === keep || Object.isFrozen(value)) return
  for (const item of Object.values(value)) freeze(item, keep)
  Object.freeze(value)
}

/**
 * The plan of a parsed and validated document's operation (`operationName`, or its only one), or undefined
 * when graphql-js must execute it: it is not a query, or it is one the plan does not mirror.
 */
export function planQuery(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
): QueryPlan | undefined {
  const operation = operationOf(document, operationName)
  const root = schema.getQueryType()
  if (!operation || operation.operation !== OperationTypeNode.QUERY || !root || hasDirectives(document))
    return undefined
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null) as Record<
    string,
    FragmentDefinitionNode
  >
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition
  const variableDefinitions = operation.variableDefinitions ?? []
  // Fields are collected once: without @skip and @include, which fields a selection holds depends on no variable.
  const noVariables: Variables = {}

  /** The steps of the fields collected for one object type, or false when one of them cannot be planned. */
  function steps(type: GraphQLObjectType, fields: Map<string, readonly FieldNode[]>): FieldStep[] | false {
    if (type.isTypeOf) return false
    const list: FieldStep[] = []
    for (const [key, nodes] of fields) {
      if (key === '__proto__') return false
      const node = nodes[0]!
      const name = node.name.value
      if (name === '__typename') {
        list.push({key, name, typename: type.name})
        continue
      }
      if (name === '__schema' || name === '__type') return false
      const def = type.getFields()[name]
      // graphql-js leaves out a field its type does not define (validation has refused it already).
      if (!def) continue
      if (def.resolve) return false
      let args: Args | undefined
      if (!(node.arguments ?? []).some((argument) => hasVariable(argument.value))) {
        try {
          args = getArgumentValues(def, node, noVariables)
        } catch {
          // Arguments that never coerce: graphql-js answers the error it raises.
          return false
        }
        for (const argument of def.args) freeze(args[argument.name], argument.defaultValue)
        Object.freeze(args)
      }
      list.push({key, name, def, node, args, complete: completion(def.type, nodes)})
    }
    return list
  }

  /** Executes the steps of a selection on its source: an object with the fields in response order. */
  function execute(list: FieldStep[], source: unknown, run: Run): Obj {
    const out: Obj = {}
    for (const step of list) {
      if (step.typename !== undefined) {
        out[step.key] = step.typename
        continue
      }
      // graphql-js coerces a field's arguments before it resolves the field.
      const args = step.args ?? getArgumentValues(step.def!, step.node!, run.variables)
      const value = fieldValue(source, step.name, args, run.context)
      if (value === MISSING) throw ABANDON
      out[step.key] = step.complete!(value, run)
    }
    return out
  }

  /** The completion of a field's values of `type`, made once (an object type's fields collected on first use). */
  function completion(type: GraphQLOutputType, nodes: readonly FieldNode[]): Complete {
    if (isNonNullType(type)) {
      const inner = completion(type.ofType, nodes)
      return (value, run) => {
        const completed = inner(value, run)
        if (completed === null) throw ABANDON
        return completed
      }
    }
    if (isListType(type)) {
      const item = completion(type.ofType, nodes)
      return (value, run) => {
        if (value instanceof Error) throw ABANDON
        if (value === null || value === undefined) return null
        if (Array.isArray(value)) {
          const out = new Array<unknown>(value.length)
          for (let i = 0; i < value.length; i++) out[i] = item(value[i], run)
          return out
        }
        if (typeof value !== 'object' || typeof (value as Iterable<unknown>)[Symbol.iterator] !== 'function')
          throw ABANDON
        return Array.from(value as Iterable<unknown>, (entry) => item(entry, run))
      }
    }
    if (isLeafType(type))
      return (value) => {
        if (value instanceof Error) throw ABANDON
        if (value === null || value === undefined) return null
        const serialized: unknown = type.serialize(value)
        if (serialized === null || serialized === undefined) throw ABANDON
        return serialized
      }
    // graphql.ts's typeResolver decides an abstract value's type unless the type has a resolver of its own (none has).
    if (isAbstractType(type) && !type.resolveType) {
      // The steps of each object type a value of the abstract type turned out to be (false: cannot be planned).
      const byType = new Map<string, FieldStep[] | false>()
      return (value, run) => {
        if (value instanceof Error) throw ABANDON
        if (value === null || value === undefined) return null
        // graphql.ts's typeResolver: the value's __typename, which must name an object type of the abstract type.
        const name = (value as {__typename?: unknown}).__typename
        if (typeof name !== 'string') throw ABANDON
        let list = byType.get(name)
        if (list === undefined) {
          const runtime = schema.getType(name)
          list =
            runtime && isObjectType(runtime) && schema.isSubType(type, runtime)
              ? steps(runtime, collectSubfields(schema, fragments, noVariables, runtime, nodes))
              : false
          byType.set(name, list)
        }
        if (list === false) throw ABANDON
        return execute(list, value, run)
      }
    }
    if (isObjectType(type)) {
      let list: FieldStep[] | false | undefined
      return (value, run) => {
        if (value instanceof Error) throw ABANDON
        if (value === null || value === undefined) return null
        list ??= steps(type, collectSubfields(schema, fragments, noVariables, type, nodes))
        if (list === false) throw ABANDON
        return execute(list, value, run)
      }
    }
    return () => {
      throw ABANDON
    }
  }

  const rootSteps = steps(root, collectFields(schema, fragments, noVariables, root, operation.selectionSet))
  if (rootSteps === false) return undefined
  return {
    run(rootValue, context, variables) {
      // graphql-js refuses variables that are not an object (it throws); coercion errors are its answer too.
      if (variables !== null && variables !== undefined && typeof variables !== 'object') return undefined
      let coerced = noVariables
      if (variableDefinitions.length > 0) {
        const result = getVariableValues(schema, variableDefinitions, (variables ?? {}) as Variables, {maxErrors: 50})
        if (result.errors) return undefined
        coerced = result.coerced
      }
      try {
        return {data: execute(rootSteps, rootValue, {context, variables: coerced})}
      } catch {
        return undefined
      }
    },
  }
}
