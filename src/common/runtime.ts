/** Starts a clock for the `_runtime` field: elapsed seconds as a float. */
export function startRuntime(): () => number {
  const start = process.hrtime.bigint();
  return () => Number(process.hrtime.bigint() - start) / 1e9;
}
