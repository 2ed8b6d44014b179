/** The benchmark modules, in the order `npm run bench` runs them. Add new ones here. */
import type { Benchmark } from '../harness/types.js';
import { eventsDelivery, eventsWrites } from './events.js';
import { files } from './files.js';
import { filesZip } from './files-zip.js';
import { reportsGroups, versionToken } from './identity.js';
import { filesTus } from './files-tus.js';
import { filesVault } from './files-vault.js';
import { memory } from './memory.js';
import { numbers } from './numbers.js';
import { query } from './query.js';
import { reports } from './reports.js';
import { soak } from './soak.js';
import { structure } from './structure.js';
import { version, versionUnlogged } from './version.js';

export const BENCHMARKS: Benchmark[] = [
  version,
  versionUnlogged,
  versionToken,
  memory,
  reports,
  reportsGroups,
  query,
  structure,
  numbers,
  files,
  filesZip,
  filesVault,
  filesTus,
  eventsDelivery,
  eventsWrites,
  soak,
];
