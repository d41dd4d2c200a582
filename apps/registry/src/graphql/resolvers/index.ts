import type { Resolvers } from "../../generated/resolvers-types.ts";
import { absolutePath } from "../indexed-objects.ts";
import { ConfigValueScalar, DateTimeScalar, JSONScalar } from "../scalars.ts";
import { ApiToken } from "./api-tokens.ts";
import { Grant } from "./grants.ts";
import { BindingType, Cluster, Namespace, ResourceStatus, Stream } from "./entities.ts";
import { ChildRegistry, ParentRegistry } from "./hierarchy.ts";
import { StreamSink, StreamSource } from "./connectors.ts";
import { Mutation } from "./mutation.ts";
import { Query } from "./query.ts";

/** All resolvers but those that depend on the loaded providers' secret keys (see ../schema.ts). */
export const resolvers: Resolvers = {
  Query,
  Mutation,
  Namespace,
  Cluster,
  Stream,
  Binding: BindingType,
  StreamSource,
  StreamSink,
  ResourceStatus,
  ParentRegistry,
  ChildRegistry,
  ApiToken,
  Grant,
  Change: {
    seq: (change) => change.seq.toString(),
    namespace: (change, _, { namespace }) =>
      change.namespaceBelow === null ? namespace : absolutePath(namespace, change.namespaceBelow),
  },
  ConfigValue: ConfigValueScalar,
  DateTime: DateTimeScalar,
  JSON: JSONScalar,
};
