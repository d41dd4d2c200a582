export { testProvider } from "./test-provider.ts";
export { bindingKey, testPlatform, type TestPlatform } from "./test-platform.ts";
