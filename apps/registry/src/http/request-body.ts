import type { IncomingMessage, ServerResponse } from "node:http";

/** The most any request to the registry may send. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** What is read and dropped of a body too large after its answer, at most: more cuts the connection. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * A request's body as text, or undefined once more than `maxBytes` of it arrived. The rest of a
 * body too large is read and dropped after the answer (up to DRAIN_BYTES more), so that a client
 * still writing it finishes and reads the answer rather than a reset; a client that sends more
 * than that is cut off.
 */
export async function readBodyText(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes = MAX_BODY_BYTES,
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.on("finish", () => drain(req));
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function drain(req: IncomingMessage): void {
  if (req.complete) return;
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_BYTES) req.destroy();
  });
}
