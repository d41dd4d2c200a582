import { isSchemaManagerError } from "@stream-registry/provider-api";
import { startRedirectTrap } from "@stream-registry/testkit";
import { describe, expect, it } from "vitest";
import { createConfluentSchemaManager } from "../src/index.ts";
import { schemaContext } from "./support/kafka-targets.ts";

const context = (url: string) => schemaContext(url, "srt_not-to-be-sent-anywhere-else");

/**
 * Issue 19, Must 4: the `confluent` SchemaManager's calls go to the URL the registry checked
 * against REGISTRY_CONNECT_ALLOW and nowhere else. A registry there that answers a redirect is
 * refused with a message saying so; nothing (no POST, no credentials) reaches where it pointed.
 */
describe("the confluent SchemaManager and redirects", () => {
  const manager = createConfluentSchemaManager();

  for (const status of [301, 302, 303, 307, 308]) {
    it(`refuses a ${status} without following it, for reads and writes`, async () => {
      await using redirects = await startRedirectTrap(status);
      const calls = await Promise.allSettled([
        manager.registerSchema("widgets-value", { schema: '"string"' }, context(redirects.url)),
        manager.getSubjects(context(redirects.url)),
      ]);
      for (const call of calls) {
        const error = call.status === "rejected" ? (call.reason as unknown) : "no error";
        if (!isSchemaManagerError(error)) throw new Error(`not refused: ${String(error)}`);
        const host = new URL(redirects.trapUrl).host;
        expect(error.message).toBe(
          `schema registry at ${redirects.url} answered a redirect (HTTP ${status} to ${host}): ` +
            "redirects are not followed; configure the final URL",
        );
        expect(error.retriable).toBe(false);
        expect(error.issues).toEqual([{ field: ["schema.registry", "url"], message: error.message }]);
      }
      expect(redirects.asked()).toBe(2);
      expect(redirects.trapped()).toBe(0);
    });
  }
});
