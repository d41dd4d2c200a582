/** GraphQL documents the tests share: the API as a client sees it. */
const userErrors = "userErrors { code field message }";
const status = "status { phase generation observedGeneration message }";

export const DECLARE_CLUSTER = `mutation($input: DeclareClusterInput!) {
  declareCluster(input: $input) { created cluster { name provider config generation } ${userErrors} } }`;
export const DELETE_CLUSTER = `mutation($input: DeleteClusterInput!) {
  deleteCluster(input: $input) { cluster { name } ${userErrors} } }`;
export const CREATE_STREAM = `mutation($input: CreateStreamInput!) {
  createStream(input: $input) { stream { name config producerConfig consumerConfig generation } ${userErrors} } }`;
export const UPDATE_STREAM = `mutation($input: UpdateStreamInput!) {
  updateStream(input: $input) { stream { name config producerConfig consumerConfig generation } ${userErrors} } }`;
export const DELETE_STREAM = `mutation($input: DeleteStreamInput!) {
  deleteStream(input: $input) { deleted stream { name deleting } ${userErrors} } }`;
export const CREATE_BINDING = `mutation($input: CreateBindingInput!) {
  createBinding(input: $input) { binding { fqn isDefault ${status} } ${userErrors} } }`;
export const UPDATE_BINDING = `mutation($input: UpdateBindingInput!) {
  updateBinding(input: $input) { binding { fqn isDefault config ${status} } ${userErrors} } }`;
export const DELETE_BINDING = `mutation($input: DeleteBindingInput!) {
  deleteBinding(input: $input) { binding { fqn ${status} } ${userErrors} } }`;
export const BINDING = `query($stream: String!, $cluster: String!) {
  binding(stream: $stream, cluster: $cluster) { fqn isDefault ${status} } }`;
export const DESCRIBE_BINDINGS = `query($stream: String) {
  bindings(filter: { stream: $stream }) { nodes { stream { name } cluster { name } isDefault ${status} } } }`;

export interface UserErrorView {
  code: string;
  field: string[];
  message: string;
}
export interface StatusView {
  phase: string;
  generation: number;
  observedGeneration: number | null;
  message: string | null;
}
export interface BindingView {
  fqn: string;
  isDefault: boolean;
  status: StatusView;
}
