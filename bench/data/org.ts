/**
 * The organisation around the business objects: users (the demo users plus synthetic ones),
 * containers with memberships and numbering rules, workspaces and report templates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashPassword } from '../../src/auth/password.js';
import { projectRoot } from '../../src/prisma/migrate.js';
import type { Prng } from './prng.js';
import { FIRST_NAMES, LAST_NAMES, LIBRARY_NAMES, PRODUCT_NAMES, PROJECT_NAMES } from './vocab.js';

export const DOC = 'wt.doc.WTDocument';
export const CAD = 'wt.epm.EPMDocument';
export const PART = 'wt.part.WTPart';
export type BusinessClass = typeof DOC | typeof CAD | typeof PART;
export const CLASSES: readonly BusinessClass[] = [DOC, CAD, PART];

export const PRODUCT = 'wt.pdmlink.PDMLinkProduct';
export const LIBRARY = 'wt.inf.library.WTLibrary';
export const PROJECT = 'wt.projmgmt.admin.Project2';
type ContainerClass = typeof PRODUCT | typeof LIBRARY | typeof PROJECT;

/** The share of each business class among a container's objects, by container class. */
const CLASS_MIX: Record<ContainerClass, Record<BusinessClass, number>> = {
  [PRODUCT]: { [DOC]: 0.35, [CAD]: 0.35, [PART]: 0.3 },
  [LIBRARY]: { [DOC]: 0.25, [CAD]: 0.15, [PART]: 0.6 },
  [PROJECT]: { [DOC]: 0.7, [CAD]: 0.15, [PART]: 0.15 },
};

export const DEMO_USERS = [
  { name: 'admin', password: 'admin', admin: true, fullName: 'Administrator' },
  { name: 'alice', password: 'alice-pw', admin: false, fullName: 'Alice Author' },
  { name: 'bob', password: 'bob-pw', admin: false, fullName: 'Bob Reader' },
  { name: 'carol', password: 'carol-pw', admin: false, fullName: 'Carol Librarian' },
];

export interface User {
  id: number;
  name: string;
  password: string;
  admin: boolean;
  fullName: string;
  disabled: boolean;
}

/** number = prefix + value zero-padded to width + suffix; values of a container are base+1… */
export interface Numbering {
  prefix: string;
  width: number;
  base: number;
}

export interface Container {
  id: number;
  cls: ContainerClass;
  name: string;
  /** Objects of each business class to generate in this container. */
  counts: Record<BusinessClass, number>;
  numbering: Record<BusinessClass, Numbering>;
  members: Map<number, 'reader' | 'author' | 'manager'>;
  /** Users who may create objects here (authors, managers), or the admin when there are none. */
  writers: number[];
}

export interface Org {
  users: User[];
  containers: Container[];
  workspaces: { id: number; name: string; containerId: number; ownerId: number }[];
  reports: { id: number; name: string; containerId: number; description: string | null; qml: string }[];
  roles: string[];
}

export function formatNumber(n: Numbering, value: number): string {
  return n.prefix + String(n.base + value).padStart(n.width, '0');
}

function users(prng: Prng, objects: number): User[] {
  const list: User[] = DEMO_USERS.map((u, i) => ({ id: i + 1, ...u, disabled: false }));
  const synthetic = Math.min(50, Math.max(8, Math.round(objects / 20_000)));
  for (let i = 0; i < synthetic; i++) {
    const first = FIRST_NAMES[i % FIRST_NAMES.length];
    const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length];
    const name = `${first}.${last}`.toLowerCase();
    list.push({ id: list.length + 1, name, password: `${name}-pw`, admin: false, fullName: `${first} ${last}`, disabled: prng.chance(0.05) });
  }
  return list;
}

function containerShells(prng: Prng): { cls: ContainerClass; name: string; weight: number }[] {
  const total = prng.int(5, 20);
  const libraries = prng.int(1, 2);
  const projects = Math.min(prng.int(1, 3), total - libraries - 1);
  const shells: { cls: ContainerClass; name: string; weight: number }[] = [];
  // Libraries first: their standard parts exist before the products' assemblies use them.
  for (let i = 0; i < libraries; i++) shells.push({ cls: LIBRARY, name: LIBRARY_NAMES[i], weight: 0.5 + prng.next() / 2 });
  for (let i = 0; i < total - libraries - projects; i++) {
    const round = Math.floor(i / PRODUCT_NAMES.length);
    const name = PRODUCT_NAMES[i % PRODUCT_NAMES.length] + (round ? ` ${round + 1}` : '');
    shells.push({ cls: PRODUCT, name, weight: 1 + 2 * prng.next() });
  }
  for (let i = 0; i < projects; i++) shells.push({ cls: PROJECT, name: PROJECT_NAMES[i], weight: 0.3 + 0.7 * prng.next() });
  return shells;
}

/** Splits `total` by weights into integers that add up to it (largest remainder). */
function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map(Math.floor);
  const order = exact.map((e, i) => [e - Math.floor(e), i]).sort((a, b) => b[0] - a[0]);
  const missing = total - out.reduce((a, b) => a + b, 0);
  for (let k = 0; k < missing; k++) out[order[k % order.length][1]]++;
  return out;
}

function digits(n: number): number {
  return String(n).length;
}

/**
 * Each container numbers each class from its own block (container index × block size), so
 * numbers stay unique per class and every numbering rule can go on from where the data ends.
 */
function assignNumbering(containers: Container[]): void {
  const defaults: Record<BusinessClass, { prefix: string; width: number; offset: number }> = {
    [DOC]: { prefix: '', width: 10, offset: 0 },
    [CAD]: { prefix: '', width: 10, offset: 500_000_000 },
    [PART]: { prefix: 'P-', width: 8, offset: 0 },
  };
  for (const cls of CLASSES) {
    const largest = Math.max(...containers.map((c) => c.counts[cls]));
    // Blocks of at least twice the count leave every rule room for as many new numbers again.
    const block = 10 ** Math.max(3, digits(2 * largest));
    for (const [i, c] of containers.entries()) {
      const d = { ...defaults[cls] };
      if (cls === PART && c.cls === LIBRARY) Object.assign(d, { prefix: 'STD-', width: 6 });
      const top = (containers.length + 1) * block;
      const offset = d.offset > top ? d.offset : 0;
      c.numbering[cls] = { prefix: d.prefix, width: Math.max(d.width, digits(offset + top)), base: offset + (i + 1) * block };
    }
  }
}

function memberships(prng: Prng, list: User[], containers: Container[]): void {
  const byName = new Map(list.map((u) => [u.name, u.id]));
  const alice = byName.get('alice')!;
  const bob = byName.get('bob')!;
  const carol = byName.get('carol')!;
  for (const [i, c] of containers.entries()) {
    if (c.cls === LIBRARY) {
      c.members.set(carol, 'manager').set(alice, 'reader').set(bob, 'reader');
    } else if (c.cls === PRODUCT) {
      c.members.set(alice, 'author');
      if (i % 2 === 0) c.members.set(bob, 'reader');
    } else if (i === containers.length - 1) {
      // The last project is carol's alone: alice and bob must not see it.
      c.members.set(carol, 'author');
    } else {
      c.members.set(alice, 'author').set(carol, 'reader');
    }
  }
  for (const u of list.slice(DEMO_USERS.length)) {
    const n = prng.int(1, 4);
    for (let k = 0; k < n; k++) {
      const c = prng.pick(containers);
      if (!c.members.has(u.id)) c.members.set(u.id, prng.weighted({ reader: 5, author: 4, manager: 1 }));
    }
  }
  const admin = byName.get('admin')!;
  for (const c of containers) {
    c.writers = [...c.members].filter(([, role]) => role !== 'reader').map(([id]) => id);
    if (c.writers.length === 0) c.writers.push(admin);
  }
}

interface DemoReport {
  name: string;
  container: string;
  description?: string;
  qml: string;
}

/** The demo dataset's report templates, each in the first generated container of the same class. */
function reports(containers: Container[]): Org['reports'] {
  const demo = JSON.parse(readFileSync(join(projectRoot(), 'prisma', 'demo-dataset.json'), 'utf8')) as {
    containers: { name: string; class: string }[];
    reports: DemoReport[];
  };
  return demo.reports.map((r, i) => {
    const cls = demo.containers.find((c) => c.name === r.container)?.class;
    const target = containers.find((c) => c.cls === cls) ?? containers[0];
    return { id: i + 1, name: r.name, containerId: target.id, description: r.description ?? null, qml: r.qml };
  });
}

export function createOrg(prng: Prng, objects: number): Org {
  const userList = users(prng, objects);
  const shells = containerShells(prng);
  const perContainer = apportion(objects, shells.map((s) => s.weight));
  const containers: Container[] = shells.map((s, i) => {
    const mix = CLASS_MIX[s.cls];
    const [docs, cads, parts] = apportion(perContainer[i], CLASSES.map((cls) => mix[cls]));
    return {
      id: i + 1, cls: s.cls, name: s.name, members: new Map(), writers: [],
      counts: { [DOC]: docs, [CAD]: cads, [PART]: parts },
      numbering: {} as Record<BusinessClass, Numbering>,
    };
  });
  assignNumbering(containers);
  memberships(prng, userList, containers);
  const workspaces: Org['workspaces'] = [];
  for (const u of userList) {
    const home = containers.find((c) => c.writers.includes(u.id) && c.members.has(u.id));
    if (home) workspaces.push({ id: workspaces.length + 1, name: `${u.name}-ws`, containerId: home.id, ownerId: u.id });
  }
  return { users: userList, containers, workspaces, reports: reports(containers), roles: ['PRIMARY', 'SECONDARY', 'THUMBNAIL', 'DRAWING'] };
}

/** scrypt hashes of every user's password (salted, so these alone are not reproducible). */
export async function hashPasswords(list: User[]): Promise<Map<number, string>> {
  const hashes = await Promise.all(list.map((u) => hashPassword(u.password)));
  return new Map(list.map((u, i) => [u.id, hashes[i]]));
}
