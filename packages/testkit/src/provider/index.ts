export { testProvider } from "./test-provider.ts";
export { bindingKey, testPlatform, type TestPlatform } from "./test-platform.ts";
export {
  connectorKey,
  testConnectorPlatform,
  type TestConnector,
  type TestConnectorPlatform,
} from "./test-connectors.ts";
