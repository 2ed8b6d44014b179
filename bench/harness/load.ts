/** HTTP load through autocannon, in this process, against one URL. */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const r = await autocannon({
    url: opts.url,
    headers: opts.headers,
    connections: opts.connections,
    duration: opts.seconds,
  });
  return {
    requestsPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

/** A run with failed requests measured something else (e.g. 401s): stop instead of reporting it. */
export function assertClean(r: LoadResult, who: string): void {
  if (r.requests === 0 || r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) {
    throw new Error(
      `${who}: ${r.requests} requests, ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts`,
    );
  }
}
