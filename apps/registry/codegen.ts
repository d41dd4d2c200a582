import type { CodegenConfig } from "@graphql-codegen/cli";

// Resolver types come from schema.graphql so the SDL and the code cannot drift.
const config: CodegenConfig = {
  schema: "../../schema.graphql",
  generates: {
    "src/generated/resolvers-types.ts": {
      plugins: ["typescript", "typescript-resolvers"],
      config: {
        federation: true,
        useTypeImports: true,
        useIndexSignature: true,
        enumsAsTypes: true,
        contextType: "../graphql/context.ts#GraphQLContext",
        mappers: {
          Cluster: "../graphql/models.ts#ClusterModel",
          Stream: "../graphql/models.ts#StreamModel",
          Binding: "../graphql/models.ts#BindingModel",
          Namespace: "../graphql/models.ts#NamespaceModel",
          Change: "../graphql/models.ts#ChangeModel",
          ClusterHealth: "../graphql/models.ts#ClusterHealthModel",
          BindingObservation: "../graphql/models.ts#BindingObservationModel",
          EffectiveConfig: "../graphql/models.ts#EffectiveConfigModel",
          ResourceStatus: "../graphql/models.ts#ResourceStatusModel",
          ParentRegistry: "../graphql/models.ts#ParentRegistryModel",
          ChildRegistry: "../graphql/models.ts#ChildRegistryModel",
          ApiToken: "../graphql/models.ts#ApiTokenModel",
          ClusterConnection: "../graphql/models.ts#ClusterConnectionModel",
          StreamConnection: "../graphql/models.ts#StreamConnectionModel",
          BindingConnection: "../graphql/models.ts#BindingConnectionModel",
          ChangeConnection: "../graphql/models.ts#ChangeConnectionModel",
          Grant: "../graphql/models.ts#GrantModel",
          GrantConnection: "../graphql/models.ts#GrantConnectionModel",
          StreamSource: "../graphql/models.ts#ConnectorModel",
          StreamSink: "../graphql/models.ts#ConnectorModel",
          StreamSourceConnection: "../graphql/models.ts#ConnectorConnectionModel",
          StreamSinkConnection: "../graphql/models.ts#ConnectorConnectionModel",
          ConnectorObservation: "../graphql/models.ts#ConnectorObservationModel",
        },
        scalars: {
          ConfigMaps: "@stream-registry/core#ConfigMaps",
          ConfigValue: "@stream-registry/core#ConfigValue",
          DateTime: "Date",
          JSON: "unknown",
        },
      },
    },
  },
};

export default config;
