import type { IncomingMessage, ServerResponse } from "node:http";

/** The most any request to the registry may send. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A request's body as text, or undefined once more than `maxBytes` of it arrived. The rest of a
 * body too large is not read: the connection closes after the answer, since it cannot carry
 * another request.
 */
export async function readBodyText(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes = MAX_BODY_BYTES,
): Promise<string | undefined> {
  const tooLarge = () => {
    res.setHeader("connection", "close");
    res.on("finish", () => req.destroy());
    return undefined;
  };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
