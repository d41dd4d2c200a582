export { defineProviderConformanceSuite } from "./suite.ts";
export type { ConformanceFactory, ConformanceTarget, InvalidStream } from "./target.ts";
