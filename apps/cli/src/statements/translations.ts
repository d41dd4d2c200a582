import type { Statement, StatementKind, StatementOf } from "@stream-registry/ddl";
import { createBinding, deleteBinding, describeBindings, updateBinding } from "./bindings.ts";
import { declareCluster, showClusters } from "./clusters.ts";
import { grant, revoke, showGrants } from "./grants.ts";
import * as connectors from "./connectors.ts";
import { describeConnector } from "./connector-describe.ts";
import * as connectorLists from "./connector-lists.ts";
import type { Outcome, StatementContext } from "./context.ts";
import { declareDefaultNamespace, showNamespace } from "./namespace.ts";
import { showNamespaces } from "./namespaces.ts";
import { declareParentRegistry, dropParentRegistry } from "./parent-registry.ts";
import {
  dropChildRegistry,
  resumeChildRegistry,
  showChildRegistries,
  suspendChildRegistry,
} from "./child-registries.ts";
import * as replication from "./replication.ts";
import { registerKeySchema, registerTypeSchema } from "./schemas.ts";
import { describeStream, showStreams } from "./stream-queries.ts";
import { createStream, deleteStream, updateStream } from "./streams.ts";
import { createToken, revokeToken, rotateRegistryKey, showTokens } from "./tokens.ts";

type Translation<K extends StatementKind> = (
  statement: StatementOf<K>,
  context: StatementContext,
) => Promise<Outcome>;

/**
 * Statement kind -> the GraphQL operation(s) that carry it out: the one place that maps the DDL onto
 * the registry's API. Statements whose operation the registry lacks are refused as unsupported by
 * execute() (e.g. registerTypeSchema), and start working once the server adds it under that name.
 */
const translations: { [K in StatementKind]: Translation<K> } = {
  showNamespace, // query namespace
  showNamespaces, // query namespace { parent children }
  declareDefaultNamespace, // mutation declareDefaultNamespace
  declareParentRegistry, // mutation declareParentRegistry
  dropParentRegistry, // mutation dropParentRegistry
  showChildRegistries, // query childRegistries
  suspendChildRegistry, // mutation suspendChildRegistry
  resumeChildRegistry, // mutation resumeChildRegistry
  dropChildRegistry, // mutation dropChildRegistry
  declareCluster, // mutation declareCluster
  showClusters, // query clusters
  createStream, // mutation createStream
  updateStream, // mutation updateStream
  deleteStream, // mutation deleteStream
  showStreams, // query streams
  describeStream, // query stream
  createBinding, // mutation createBinding
  updateBinding, // mutation updateBinding
  deleteBinding, // mutation deleteBinding
  describeBindings, // query stream { bindings }
  registerKeySchema, // mutation registerKeySchema
  registerTypeSchema, // mutation registerTypeSchema
  showSourceTypes: connectorLists.showConnectorTypes, // query sourceTypes
  showSinkTypes: connectorLists.showConnectorTypes, // query sinkTypes
  showStreamSources: connectorLists.showConnectors, // query sources
  showStreamSinks: connectorLists.showConnectors, // query sinks
  createStreamSource: connectors.createConnector, // mutation createStreamSource
  describeStreamSource: describeConnector, // query source
  updateStreamSource: connectors.updateConnector, // mutation updateStreamSource
  deleteStreamSource: connectors.deleteConnector, // mutation deleteStreamSource
  pauseStreamSource: connectors.controlConnector, // mutation pauseStreamSource
  resumeStreamSource: connectors.controlConnector, // mutation resumeStreamSource
  stopStreamSource: connectors.controlConnector, // mutation stopStreamSource
  restartStreamSource: connectors.restartConnector, // mutation restartStreamSource
  createStreamSink: connectors.createConnector, // mutation createStreamSink
  describeStreamSink: describeConnector, // query sink
  updateStreamSink: connectors.updateConnector, // mutation updateStreamSink
  deleteStreamSink: connectors.deleteConnector, // mutation deleteStreamSink
  pauseStreamSink: connectors.controlConnector, // mutation pauseStreamSink
  resumeStreamSink: connectors.controlConnector, // mutation resumeStreamSink
  stopStreamSink: connectors.controlConnector, // mutation stopStreamSink
  restartStreamSink: connectors.restartConnector, // mutation restartStreamSink
  replicateBinding: replication.replicateBinding, // mutation replicateBinding (planned)
  showReplications: replication.showReplications, // query replications (planned)
  createStreamRelocation: replication.createStreamRelocation, // mutation createStreamRelocation (planned)
  describeStreamRelocation: replication.describeStreamRelocation, // query relocation (planned)
  deleteStreamRelocation: replication.deleteStreamRelocation, // mutation deleteStreamRelocation (planned)
  grant, // mutation grant
  revoke, // mutation revoke
  showGrants, // query grants
  createToken, // mutation createApiToken
  revokeToken, // mutation revokeApiToken
  showTokens, // query apiTokens
  rotateRegistryKey, // mutation rotateRegistryKey
};

export function translate(statement: Statement, context: StatementContext): Promise<Outcome> {
  const translation = translations[statement.kind] as Translation<StatementKind>;
  return translation(statement as StatementOf<StatementKind>, context);
}

/** "createStreamRelocation" -> "CREATE STREAM RELOCATION", as the statement is written. */
export function statementName(kind: StatementKind): string {
  return kind.replace(/([a-z])([A-Z])/g, "$1 $2").toUpperCase();
}
