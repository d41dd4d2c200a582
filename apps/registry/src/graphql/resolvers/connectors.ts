import {
  connectorStatus,
  type ConnectorRole,
  type ConnectorRunState,
  type ObservedConnectorState,
} from "@stream-registry/core";
import type {
  MutationResolvers,
  QueryResolvers,
  StreamSinkResolvers,
  StreamSourceResolvers,
} from "../../generated/resolvers-types.ts";
import type { ConnectorService } from "../../services/connector-service.ts";
import { accessOf, callerIn } from "../authorize.ts";
import { toConnection } from "../connection.ts";
import type { GraphQLContext } from "../context.ts";
import type { ConnectorModel, ConnectorObservationModel } from "../models.ts";
import { payload } from "../payload.ts";
import { routed } from "../routed.ts";
import { subtreeConnection } from "../subtree.ts";
import { bindingByNames } from "./lookups.ts";

/**
 * Stream sources and sinks: one set of resolvers a role, made by the same functions. The look-ups
 * and mutations are routed to the registry that owns the namespace; the lists span the subtree.
 */

type Observed = { state: ObservedConnectorState; tasks: ConnectorObservationModel["tasks"]; error?: string };

/** What the provider last saw of it, batched per request (loaders.ts). */
const observationOf = (connector: ConnectorModel, { loaders }: GraphQLContext) =>
  loaders.connectorObservation[connector.role].load(connector.id);

/** The fields of StreamSource and StreamSink. */
function connectorFields(role: ConnectorRole) {
  return {
    // A representation another registry resolves (a parent indexing it, asking for a field): the
    // principal must read its document (a parent reads its children's). Batched per request.
    __resolveReference: async (ref: { namespace: string; name: string }, context: GraphQLContext) =>
      ref.namespace === context.namespace && (await accessOf(context)).readsDocument("", ref.name)
        ? ((await context.loaders.connectorByName[role].load(ref.name)) ?? null)
        : null,
    namespace: (_: ConnectorModel, __: unknown, { namespace }: GraphQLContext) => namespace,
    cluster: (connector: ConnectorModel) => connector.cluster,
    binding: (connector: ConnectorModel, _: unknown, context: GraphQLContext) =>
      bindingByNames(connector.name, connector.cluster.name, context),
    status: (connector: ConnectorModel) => connector,
    state: async (connector: ConnectorModel, _: unknown, context: GraphQLContext) => {
      const seen = await observationOf(connector, context);
      return connectorStatus(connector.phase, (seen?.details as Observed | undefined)?.state);
    },
    // From the data-in-flight poller's readings of its binding (flow/flow-poller.ts), never live.
    flow: async (connector: ConnectorModel, _: unknown, context: GraphQLContext) => {
      const seen = await observationOf(connector, context);
      const error = (seen?.details as Observed | undefined)?.error ?? null;
      return context.services.flow.connector(role, connector.cluster, connector.name, error);
    },
    observed: async (
      connector: ConnectorModel,
      _: unknown,
      context: GraphQLContext,
    ): Promise<ConnectorObservationModel | null> => {
      const seen = await observationOf(connector, context);
      const details = seen?.details as Observed | undefined;
      if (!seen || !details?.state) return null;
      return {
        state: details.state,
        tasks: details.tasks ?? [],
        error: details.error ?? null,
        autoRestarts: connector.autoRestarts,
        lastRestartAt: connector.lastRestartAt,
        message: seen.message,
        observedAt: seen.observedAt,
      };
    },
  };
}

function servicesOf(context: GraphQLContext, role: ConnectorRole): ConnectorService {
  return role === "source" ? context.services.sources : context.services.sinks;
}

export const StreamSource: StreamSourceResolvers = connectorFields("source");
export const StreamSink: StreamSinkResolvers = connectorFields("sink");

type ListArgs = Parameters<typeof subtreeConnection>[2];

/** The look-up, the subtree list and the types of a role. */
function queries(role: ConnectorRole, filterType: string) {
  return {
    lookUp: routed(
      async (_: unknown, { name }: { name: string; namespace?: string | null }, context: GraphQLContext) =>
        servicesOf(context, role).get(name, await accessOf(context)),
    ),
    list: (
      _: unknown,
      args: ListArgs,
      context: GraphQLContext,
      info: Parameters<typeof subtreeConnection>[0],
    ) =>
      subtreeConnection(info, context, args, filterType, async (filter, page) =>
        toConnection(await servicesOf(context, role).list(filter, page, await accessOf(context))),
      ),
    types: routed(
      async (
        _: unknown,
        { cluster }: { cluster: string; namespace?: string | null },
        context: GraphQLContext,
      ) => servicesOf(context, role).types(cluster, await accessOf(context)),
    ),
  };
}

const sources = queries("source", "StreamSourceFilter");
const sinks = queries("sink", "StreamSinkFilter");

export const connectorQueries = {
  source: sources.lookUp,
  sources: sources.list,
  sourceTypes: sources.types,
  sink: sinks.lookUp,
  sinks: sinks.list,
  sinkTypes: sinks.types,
} satisfies Pick<QueryResolvers, "source" | "sources" | "sourceTypes" | "sink" | "sinks" | "sinkTypes">;

/** The seven mutations of a role, each routed to the namespace's owner; `key` names the payload's field. */
function mutations<K extends "source" | "sink">(role: ConnectorRole, key: K) {
  type Input = { name: string; namespace?: string | null } & Record<string, unknown>;
  const run = (
    act: (
      service: ConnectorService,
      input: Input,
      caller: Awaited<ReturnType<typeof callerIn>>,
    ) => Promise<ConnectorModel>,
  ) =>
    routed((_: unknown, { input }: { input: Input }, context: GraphQLContext) =>
      payload(async () => ({
        [key]: await act(servicesOf(context, role), input, await callerIn(context)),
      })),
    );
  const state = (desired: ConnectorRunState) =>
    run((service, input, caller) => service.setState(input.name, desired, caller));
  return {
    create: run((service, input, caller) =>
      service.create(input as unknown as Parameters<ConnectorService["create"]>[0], caller),
    ),
    update: run((service, input, caller) =>
      service.update({ name: input.name, config: input.config }, caller),
    ),
    delete: run((service, input, caller) => service.delete(input.name, caller)),
    pause: state("PAUSED"),
    resume: state("RUNNING"),
    stop: state("STOPPED"),
    restart: run((service, input, caller) => service.restart(input.name, input.onlyFailed === true, caller)),
  };
}

const source = mutations("source", "source");
const sink = mutations("sink", "sink");

export const connectorMutations = {
  createStreamSource: source.create,
  updateStreamSource: source.update,
  deleteStreamSource: source.delete,
  pauseStreamSource: source.pause,
  resumeStreamSource: source.resume,
  stopStreamSource: source.stop,
  restartStreamSource: source.restart,
  createStreamSink: sink.create,
  updateStreamSink: sink.update,
  deleteStreamSink: sink.delete,
  pauseStreamSink: sink.pause,
  resumeStreamSink: sink.resume,
  stopStreamSink: sink.stop,
  restartStreamSink: sink.restart,
} satisfies Partial<MutationResolvers>;
