const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` is a UUID in its text form (any case): registry ids, row ids in cursors. Checked
 * before such a value reaches a `::uuid` cast, which would fail the statement instead of answering.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
