import { BadRequestException } from '@nestjs/common';
import { ASSOCIATION_NAMES, type AssociationName } from './associations/association-names.js';
import type { OpenQueryParamsDto } from './dto/query-params.dto.js';

/** What a reply holds besides the matches: the fields and associations asked for (null: none). */
export interface ReplyShape {
  /** Catalog property names; null: the default item. */
  fields: string[] | null;
  associations: AssociationName[] | null;
}

export interface OpenParams extends ReplyShape {
  q: unknown[];
  page?: number;
  start?: number;
  limit?: number;
}

/**
 * The open parameters of a request: the URL's, plus a POST body's. `q` (and the original
 * gateway's `qq`) from both are OR-ed; fields (`fields`, `field`) and associations
 * (`associations`, `assoc`) from both are joined, each name once; page, start or limit given in
 * both places is refused rather than silently picking one.
 */
export function mergeOpenParams(url: OpenQueryParamsDto, body: OpenQueryParamsDto | undefined): OpenParams {
  const both = body ? [url, body] : [url];
  const out: OpenParams = {
    q: both.flatMap((p) => [...asList(p.q), ...asList(p.qq)]),
    fields: names(both.flatMap((p) => [...(p.fields ?? []), ...(p.field ?? [])])),
    associations: associationNames(both.flatMap((p) => [...(p.associations ?? []), ...(p.assoc ?? [])])),
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

/** The names once each, in the order first given; null for none. */
function names(list: string[]): string[] | null {
  const unique = [...new Set(list.map((n) => n.trim()))];
  return unique.length ? unique : null;
}

/** Association names, checked: an unknown one is a 400 naming those there are. */
export function associationNames(list: string[]): AssociationName[] | null {
  const given = names(list);
  if (!given) return null;
  const known: readonly string[] = ASSOCIATION_NAMES;
  const unknown = given.filter((n) => !known.includes(n));
  if (unknown.length) {
    throw new BadRequestException(
      `unknown association${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => JSON.stringify(n)).join(', ')} (known: ${ASSOCIATION_NAMES.join(', ')})`,
    );
  }
  return given as AssociationName[];
}
