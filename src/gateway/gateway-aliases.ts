import type { NextFunction, Request, Response } from 'express';
import { errorEnvelope } from '../common/error-envelope.js';
import { closeIfBodyUnread } from '../common/lingering-close.js';
import { requestIdOf } from '../common/request-id.js';
import { SERVICE_ROUTES } from '../common/service-routes.js';

/** The settings the aliases are made of (the two paths of AppConfig). */
export interface GatewayPaths {
  /** GATEWAY_BASE_PATH, e.g. /Windchill/servlet/nexiles/tools; empty: no aliases. */
  gatewayBasePath: string;
  /** BASE_PATH, e.g. /pdm, or empty. */
  basePath: string;
}

/** An address under the gateway path that is none of its aliases. */
export const NOT_AN_ALIAS = Symbol('not an alias');

/** What an URL is to the gateway: outside it (null), an alias of the URL given, or NOT_AN_ALIAS. */
export type GatewayTarget = string | null | typeof NOT_AN_ALIAS;

/** Addresses under the gateway path that keep the rest of their path under BASE_PATH. */
const SAME_PATH = new Set(['/version', '/plugins/index.json', '/plugins/index.html']);
const OBJECT_API = '/api/1.0';
const SERVICES = '/services/';
const SERVICE_NAMES: ReadonlySet<string> = new Set(SERVICE_ROUTES.map((s) => s.name));

/**
 * The mapping of request URLs (path and query string) to the URLs of the routes they are
 * aliases of:
 *
 * - `<gateway>/services/<service>/<rest>` → `<base>/<service>/<rest>`, for the services of
 *   SERVICE_ROUTES;
 * - `<gateway>/version`, `<gateway>/plugins/index.json|index.html` → the same under `<base>`;
 * - `<gateway>/api/1.0/<rest>` → `<base>/api/1.0/<rest>`.
 *
 * The query string is kept as it is, and so is the rest of the path (still %-escaped). Paths
 * match without regard to case and with or without one trailing slash, as the routes do.
 */
export function gatewayTargets(paths: GatewayPaths): (url: string) => GatewayTarget {
  const gateway = paths.gatewayBasePath.toLowerCase();
  const base = paths.basePath;
  return (url) => {
    if (!gateway || url.length < gateway.length || url.slice(0, gateway.length).toLowerCase() !== gateway) return null;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path.length > gateway.length && path[gateway.length] !== '/') return null;
    const query = q < 0 ? '' : url.slice(q);
    const rest = path.slice(gateway.length);
    const lower = rest.toLowerCase();
    const bare = lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
    if (SAME_PATH.has(bare) || bare === OBJECT_API || lower.startsWith(`${OBJECT_API}/`)) {
      return `${base}${rest}${query}`;
    }
    if (lower.startsWith(SERVICES) && SERVICE_NAMES.has(lower.slice(SERVICES.length).split('/')[0])) {
      return `${base}${rest.slice(SERVICES.length - 1)}${query}`;
    }
    return NOT_AN_ALIAS;
  };
}

/**
 * Express middleware serving the gateway addresses: a request to an alias has its URL rewritten
 * to the route's before routing, so that it goes through exactly what a request to the route
 * itself does (the global guard, validation, the error filter). Nothing of the body is read.
 * `req.originalUrl` keeps the address the client sent, which the request log and error messages
 * show. An address under the gateway path that is no alias is answered 404 in the error
 * envelope, as an unknown route is (here also when BASE_PATH is set, where the application's own
 * not-found answer covers only the paths under BASE_PATH).
 */
export function gatewayAliases(paths: GatewayPaths) {
  const targetOf = gatewayTargets(paths);
  return (req: Request, res: Response, next: NextFunction): void => {
    const target = targetOf(req.url);
    if (target === null) return next();
    if (target === NOT_AN_ALIAS) {
      closeIfBodyUnread(req, res);
      res.status(404).json(errorEnvelope(404, `Cannot ${req.method} ${req.originalUrl}`, requestIdOf(req)));
      return;
    }
    req.url = target;
    next();
  };
}
