/** One hostile request and the error code it must get. */
export interface HostileCase {
  name: string;
  /** A JSON body (serialized as is), or raw text sent with `contentType`. */
  request: Record<string, unknown> | unknown[] | string;
  contentType?: string;
  method?: string;
  /** The code the answer must carry (in `errors` or `userErrors`); never INTERNAL_SERVER_ERROR. */
  code: string;
}
