import { BadRequestException } from '@nestjs/common';
import type { OpenQueryParamsDto } from './dto/query-params.dto.js';

/**
 * The open parameters of a request: the URL's, plus a POST body's. `q` from both are OR-ed;
 * page, start or limit given in both places is refused rather than silently picking one.
 */
export function mergeOpenParams(
  url: OpenQueryParamsDto,
  body: OpenQueryParamsDto | undefined,
): { q: unknown[]; page?: number; start?: number; limit?: number } {
  const out: { q: unknown[]; page?: number; start?: number; limit?: number } = {
    q: [...asList(url.q), ...asList(body?.q)],
  };
  for (const key of ['page', 'start', 'limit'] as const) {
    const inUrl = url[key];
    const inBody = body?.[key];
    if (inUrl !== undefined && inBody !== undefined) {
      throw new BadRequestException(`${key} is given both in the URL and in the body: give it once`);
    }
    out[key] = inUrl ?? inBody;
  }
  return out;
}

function asList(q: unknown): unknown[] {
  if (q === undefined) return [];
  return Array.isArray(q) ? q : [q];
}
