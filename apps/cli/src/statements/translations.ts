import type { Statement, StatementKind, StatementOf } from "@stream-registry/ddl";
import { createBinding, deleteBinding, describeBindings, updateBinding } from "./bindings.ts";
import { declareCluster, showClusters } from "./clusters.ts";
import { grant, revoke, showGrants } from "./grants.ts";
import * as connectors from "./connectors.ts";
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
  showSourceTypes: connectors.showSourceTypes, // query sourceTypes (planned)
  showSinkTypes: connectors.showSinkTypes, // query sinkTypes (planned)
  createStreamSource: connectors.createStreamSource, // mutation createStreamSource (planned)
  describeStreamSource: connectors.describeStreamSource, // query streamSource (planned)
  updateStreamSource: connectors.updateStreamSource, // mutation updateStreamSource (planned)
  deleteStreamSource: connectors.deleteStreamSource, // mutation deleteStreamSource (planned)
  createStreamSink: connectors.createStreamSink, // mutation createStreamSink (planned)
  describeStreamSink: connectors.describeStreamSink, // query streamSink (planned)
  updateStreamSink: connectors.updateStreamSink, // mutation updateStreamSink (planned)
  deleteStreamSink: connectors.deleteStreamSink, // mutation deleteStreamSink (planned)
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
