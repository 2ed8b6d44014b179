/**
 * The services the application offers, each a top-level route group under BASE_PATH
 * (`/<name>/…`) with a Swagger tag of the same name. The one list the gateway aliases
 * (`<GATEWAY_BASE_PATH>/services/<name>/…`) and the plug-in index are made from; a test checks
 * that every route the application serves starts with one of these or with a ROOT_ROUTES entry.
 */
export interface ServiceRoute {
  /** The route group and Swagger tag, e.g. `reports`. */
  name: string;
  /** One line about the service, as the plug-in index shows it. */
  description: string;
}

export const SERVICE_ROUTES: readonly ServiceRoute[] = [
  { name: 'reports', description: 'PDM report service: report templates, named reports and QML queries' },
  { name: 'files', description: 'PDM file service: the files of business objects' },
  { name: 'numbers', description: 'PDM number service: numbering rules, generated numbers, CAD attributes' },
  { name: 'query', description: 'PDM query service: paged query sessions over business objects' },
  { name: 'objects', description: 'PDM object service: business objects, iterations, structures, history' },
  { name: 'principals', description: 'PDM principal service: users and groups to pick from, and who the caller is' },
  {
    name: 'events',
    description: 'PDM change events: a pull feed, subscriptions delivered to webhooks and NATS, dead letters',
  },
  { name: 'admin', description: 'PDM administration: users, groups, containers, members, workspaces, numbering rules' },
];

/**
 * First path segments under BASE_PATH that are not services: the root record and plug-in index
 * (`version`, `plugins`), the object API of the original gateway (`api/1.0`), the caller's own
 * personal access tokens (`me/tokens`), the probes and Swagger UI.
 */
export const ROOT_ROUTES: readonly string[] = [
  'version',
  'plugins',
  'api',
  'me',
  'health',
  'docs',
  'docs-json',
  'docs-yaml',
];
