import { describe, expect, it } from "vitest";
import * as core from "../src/index.ts";

describe("public API", () => {
  it("re-exports every agreed name", () => {
    const expected = {
      ErrorCode: "object",
      RegistryError: "function",
      userError: "function",
      MAX_NAME_LENGTH: "number",
      ROOT_NAMESPACE: "string",
      checkName: "function",
      formatFqn: "function",
      parseFqn: "function",
      checkNamespacePath: "function",
      checkConfigMaps: "function",
      mergeConfigMaps: "function",
      REDACTED: "string",
      isSecretKey: "function",
      redactSecrets: "function",
      givesSecrets: "function",
      keepStoredSecrets: "function",
      coreSecretRule: "function",
      configMapsEqual: "function",
      Phase: "object",
      nextPhase: "function",
      retryDelayMs: "function",
      encodeCursor: "function",
      decodeCursor: "function",
      DEFAULT_PAGE_SIZE: "number",
      MAX_PAGE_SIZE: "number",
      checkPageSize: "function",
      httpStatusOf: "object",
      isErrorCode: "function",
      isFaultCode: "function",
      REQUEST_ERROR_CODES: "object",
      isRequestErrorCode: "function",
      DeadlineExceeded: "function",
      withDeadline: "function",
      ROLES: "object",
      parseRole: "function",
      checkGrantPrincipal: "function",
      checkStreamPrefix: "function",
      scopeOf: "function",
      scopeCovers: "function",
      pathBelow: "function",
      pathOfBelow: "function",
      Access: "function",
      grantNamesOf: "function",
      quote: "function",
      Keyring: "function",
      parseSecretKeys: "function",
      sealConfigSets: "function",
      openConfigSets: "function",
      UnreadableSecrets: "function",
      secretPlaceholder: "function",
      ConnectAllowList: "function",
      parseConnectAllow: "function",
      normalizeHost: "function",
      formatHostPort: "function",
    };
    const actual = Object.fromEntries(
      Object.keys(expected).map((name) => [name, typeof (core as Record<string, unknown>)[name]]),
    );
    expect(actual).toEqual(expected);
  });

  it("has no default export", () => {
    expect("default" in core).toBe(false);
  });
});
