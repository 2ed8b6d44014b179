import pg from 'pg';
import { nameTypesAsText } from './pg-name-types-as-text.js';

const field = (dataTypeID: number) => ({
  name: 'c',
  tableID: 0,
  columnID: 0,
  dataTypeID,
  dataTypeSize: -1,
  dataTypeModifier: -1,
  format: 'text' as const,
});

/** The type OIDs a new pg result records for columns of the given types. */
function recorded(...types: number[]): number[] {
  const result = new pg.Result('', pg.types) as pg.Result & { addFields(fields: ReturnType<typeof field>[]): void };
  result.addFields(types.map(field));
  return result.fields.map((f) => f.dataTypeID);
}

describe('nameTypesAsText (src/patches/pg-name-types-as-text.ts)', () => {
  it('says so when pg.Result has no addFields() to wrap', () => {
    const proto = pg.Result.prototype as unknown as { addFields?: unknown };
    const addFields = proto.addFields;
    delete proto.addFields;
    try {
      expect(() => nameTypesAsText()).toThrow(
        'src/patches/pg-name-types-as-text.ts, written for pg 8.23.1, cannot work: pg.Result.prototype.addFields is missing.',
      );
    } finally {
      proto.addFields = addFields;
    }
  });

  it('reports `name` and `"char"` columns as text once applied, and leaves other types alone', () => {
    expect(recorded(19, 18, 23, 25)).toEqual([19, 18, 23, 25]);
    nameTypesAsText();
    nameTypesAsText(); // applied once
    expect(recorded(19, 18, 23, 25)).toEqual([25, 25, 23, 25]);
  });
});
