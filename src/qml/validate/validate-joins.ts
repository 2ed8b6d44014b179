import type { JoinDecl, TableDecl } from './ast.js';
import type { Catalog } from '../../catalog/catalog.js';
import { keepsOid, type CatalogClass } from '../../catalog/catalog-model.js';
import { typeInfoReference } from '../../catalog/type-info.js';
import { fail } from '../parse/element-rules.js';

/**
 * Whether rows of class `x` can be rows of class `y`: one is below the other, or, where one is
 * an interface, a class with objects implements it and is below (or implements) the other.
 */
export function relatedClasses(cat: Catalog, x: string, y: string): boolean {
  if (cat.isA(x, y) || cat.isA(y, x)) return true;
  if (!cat.findClass(x)?.interface && !cat.findClass(y)?.interface) return false;
  const below = new Set(cat.concreteBelow(y));
  return cat.concreteBelow(x).some((c) => below.has(c));
}

/**
 * The reference (of the first table's class) or the link class a join names, checked against the
 * classes of the two tables it joins, `a` and `b` (indexes in `tables`); `path` is the join's. A
 * link's ends are matched to its roles by class, so the result may name them the other way round.
 */
export function resolveJoin(
  cat: Catalog,
  kind: 'reference' | 'link',
  name: string,
  [a, b]: [number, number],
  tables: readonly TableDecl[],
  path: string,
): JoinDecl {
  const [ca, cb] = [tables[a].cls, tables[b].cls];
  const related = (x: string, y: string) => relatedClasses(cat, x, y);
  if (kind === 'reference') {
    const typeInfo = typeInfoReference(cat, tables[a].type, name, tables[b].type);
    if (typeof typeInfo === 'string') return fail(`${path}/@name`, typeInfo);
    if (typeInfo) return { k: 'reference', ref: typeInfo, from: a, to: b, path };
    const ref = cat.findReference(ca, name);
    if (!ref) {
      const known = [...ca.references.keys()].join(', ') || 'none';
      return fail(`${path}/@name`, `unknown reference "${name}" of ${ca.name} (its references: ${known})`);
    }
    const target = cat.findClass(ref.target)!;
    const byOid = keepsOid(ref);
    if (!related(cb.name, target.name) || (!byOid && target.storage !== cb.storage)) {
      fail(path, `reference "${name}" of ${ca.name} cannot point to ${cb.name} (it points to ${target.name})`);
    }
    return { k: 'reference', ref, from: a, to: b, path };
  }
  const link = cat.findLink(name);
  if (!link) {
    const known = cat.findClass(name);
    return fail(
      `${path}/@name`,
      known ? `${name} is not a link class (it has no roles A and B)` : `unknown link class "${name}"`,
    );
  }
  const [ra, rb] = [cat.findClass(link.roles!.a)!, cat.findClass(link.roles!.b)!];
  const fits = (c: typeof ca, role: typeof ra) => c.storage === role.storage && related(c.name, role.name);
  // Exports name the two ends in either order (a change notice, then its task, or the reverse):
  // each end takes the role its class fits; only where both fit both does the order decide.
  if (fits(ca, ra) && fits(cb, rb)) return ownMaster(cat, { k: 'link', link, a, b, path }, tables);
  if (fits(ca, rb) && fits(cb, ra)) return ownMaster(cat, { k: 'link', link, a: b, b: a, path }, tables);
  const elsewhere = filesKeptElsewhere(cat, link.storage, [ca, cb], rb);
  if (elsewhere !== null) {
    const [holder, file] = elsewhere === 0 ? [a, b] : [b, a];
    const none = `${tables[holder].cls.name} holds files in Windchill, but files are kept on iterations here: this join finds none`;
    return { k: 'link', link, a: holder, b: file, path, none };
  }
  return fail(
    path,
    `link ${name} cannot join ${ca.name} and ${cb.name}, in either order: it links ${ra.name} (role A) to ${rb.name} (role B)`,
  );
}

/**
 * For a holder-to-content link between a file and a content holder that is no iteration (a
 * derived image): the index of the holder's end, else null.
 */
function filesKeptElsewhere(
  cat: Catalog,
  storage: CatalogClass['storage'],
  [ca, cb]: [CatalogClass, CatalogClass],
  content: CatalogClass,
): 0 | 1 | null {
  if (storage !== 'holderToContent') return null;
  const holder = (c: CatalogClass) => c.storage !== 'iteration' && cat.isA(c.name, 'wt.content.ContentHolder');
  const file = (c: CatalogClass) => c.storage === content.storage && relatedClasses(cat, c.name, content.name);
  if (holder(ca) && file(cb)) return 0;
  if (holder(cb) && file(ca)) return 1;
  return null;
}

/**
 * A master-iteration link joins iterations to their own master: the master table's class must
 * be the master class of one of the iteration table's classes (a part master never has a
 * document's iterations, whatever roles as broad as `wt.vc.Mastered` allow).
 */
function ownMaster(cat: Catalog, j: Extract<JoinDecl, { k: 'link' }>, tables: readonly TableDecl[]): JoinDecl {
  if (j.link.storage !== 'masterIteration') return j;
  const [master, iterated] = [tables[j.a].cls, tables[j.b].cls];
  const masters = [...new Set(iterated.classValues.map((c) => cat.findClass(c)?.master ?? ''))].filter(Boolean);
  if (masters.some((m) => cat.isA(m, master.name) || cat.isA(master.name, m))) return j;
  return fail(
    j.path,
    `link ${j.link.name} joins iterations to their own master: the master of ${iterated.name} is ${masters.join(', ') || 'none'}, not ${master.name}`,
  );
}
