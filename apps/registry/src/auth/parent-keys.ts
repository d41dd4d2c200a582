import { probeRegistry } from "@stream-registry/federation";
import { findLiveParentLink, recordParentKeys, type Database } from "@stream-registry/store";
import type { Logger } from "../logger.ts";
import { checkPublicKeys, publicKeysOf } from "./public-keys.ts";
import type { RegistryKeys } from "./registry-keys.ts";

/** How soon the parent's keys are asked for again. */
const REFRESH_EVERY_MS = 1_000;
const REFRESH_TIMEOUT_MS = 5_000;

/**
 * Reads the registered parent's public keys again, from its answer of itself (asked with this
 * registry's own token), and pins them if the same registry answers: what a token of the parent
 * signed with a key not pinned yet (it rotated) waits for. At most once a second; calls meanwhile
 * share the one in flight (or waiting for its second).
 */
export function parentKeysRefresher(db: Database, keys: RegistryKeys, logger: Logger): () => Promise<void> {
  let lastAt = 0;
  let running: Promise<void> | undefined;
  const refresh = async () => {
    const link = await findLiveParentLink(db.prisma);
    if (!link?.parentRegistryId) return;
    const info = await probeRegistry(link.url, {
      timeoutMs: REFRESH_TIMEOUT_MS,
      headers: keys.headersFor(link.parentRegistryId),
    });
    const bad =
      info.id !== link.parentRegistryId ? `it answers as registry ${info.id}` : checkPublicKeys(info.keys);
    if (bad) throw new Error(`the parent registry at ${link.url} gave no keys to pin: ${bad}`);
    if (await recordParentKeys(db.prisma, info.id, publicKeysOf(info.keys))) {
      logger.info(
        { parent: link.url, kids: info.keys.map((k) => k.kid) },
        "the parent's signing keys were read again",
      );
    }
  };
  return () => {
    if (running) return running;
    // Within a second of the last read it waits for the second to end, rather than giving up: a
    // stream of tokens naming made-up keys cannot keep the keys of a rotation from being read.
    const wait = Math.max(0, lastAt + REFRESH_EVERY_MS - Date.now());
    lastAt = Date.now() + wait;
    running = new Promise((resolve) => setTimeout(resolve, wait))
      .then(refresh)
      .catch((error: unknown) =>
        logger.warn({ err: error }, "the parent's signing keys could not be read again"),
      )
      .finally(() => (running = undefined));
    return running;
  };
}
