// The GraphQL documents live in the testkit, beside the seed builders that send them.
export {
  BINDING,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  DELETE_BINDING,
  DELETE_CLUSTER,
  DELETE_STREAM,
  DESCRIBE_BINDINGS,
  UPDATE_BINDING,
  UPDATE_STREAM,
  type BindingView,
  type StatusView,
  type UserErrorView,
} from "@stream-registry/testkit";
