import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { forgetPrepared, isPrepared } from '../patches/pg-parsed-statements.js';

/**
 * Report queries as named prepared statements, so PostgreSQL parses (and, where it keeps a
 * generic plan, plans) a template's SQL once per connection instead of on every request. The
 * rendered SQL of a template is stable for one parameter shape and one kind of caller; its
 * values are always bound. Each connection keeps at most `perConnection` statements, least
 * recently used deallocated first; 0 runs every query unnamed.
 *
 * Statement names are a digest of the SQL text, so the same report gets the same name on every
 * connection and a name never stands for two texts.
 *
 * A statement runs unnamed, planned for its values every time, when `genericPlan` is false: after
 * five runs of a prepared statement PostgreSQL may keep a generic plan, and a generic plan cannot
 * turn a LIKE pattern's literal prefix into an index range (measured on the 100 000-object
 * benchmark data: the number-wildcard report went from 3–5 ms to 25–40 ms once the generic plan
 * was chosen). Report SQL gives such a LIKE the range as conditions of its own, which a generic
 * plan uses (src/qml/sql/sql.ts likeRange), and says so; for other SQL the default is false when
 * the text has a LIKE. The SQL text holds no values (they are all bound), so ` LIKE ` in it is
 * always the operator.
 */
export class PreparedStatements {
  private readonly byClient = new WeakMap<pg.ClientBase, ClientStatements>();

  constructor(private readonly perConnection: number) {}

  /** The query to run on `client`: named, after the statements it pushed out are deallocated. */
  async name<Q extends pg.QueryConfig>(
    client: pg.ClientBase,
    query: Q,
    genericPlan = !LIKE.test(query.text),
  ): Promise<Q> {
    if (this.perConnection <= 0 || !genericPlan) return query;
    const name = statementName(query.text);
    let held = this.byClient.get(client);
    if (!held) {
      const evicted: string[] = [];
      const names = new LRUCache<string, true>({
        max: this.perConnection,
        dispose: (_v, key, reason) => {
          if (reason === 'evict') evicted.push(key);
        },
      });
      held = { names, evicted };
      this.byClient.set(client, held);
    }
    held.names.set(name, true);
    for (const old of held.evicted.splice(0)) await deallocate(client, old);
    return { ...query, name };
  }
}

const LIKE = / (NOT )?LIKE /;

/**
 * Names of recent texts (at most 1000, and 2 million characters of text): digesting the SQL of
 * every request cost more than looking its name up.
 */
const NAMES = new LRUCache<string, string>({
  max: 1000,
  maxSize: 2 * 1024 * 1024,
  sizeCalculation: (_n, text) => text.length,
});

/** `report_` and the first 128 bits of the text's SHA-256, in hex. */
function statementName(text: string): string {
  let name = NAMES.get(text);
  if (name === undefined) {
    name = `report_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    NAMES.set(text, name);
  }
  return name;
}

interface ClientStatements {
  names: LRUCache<string, true>;
  /** Pushed out of `names` by the last set(), to be deallocated before the next query. */
  evicted: string[];
}

async function deallocate(client: pg.ClientBase, name: string): Promise<void> {
  // A statement whose preparation failed was never created: nothing to drop.
  if (!isPrepared(client, name)) return;
  // The name is a digest of ours (letters, digits, underscore), never text from a request.
  await client.query(`DEALLOCATE "${name}"`);
  // pg would otherwise run the name again without preparing it (src/patches/pg-parsed-statements.ts).
  forgetPrepared(client, name);
}
