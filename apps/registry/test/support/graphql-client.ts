export { postGraphQL, type GraphQLResponse } from "@stream-registry/testkit";
