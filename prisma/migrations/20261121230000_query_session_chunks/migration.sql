-- Query session snapshots hold 1000 iteration ids per row instead of a row per id: opening a
-- session over a million matches writes a thousandth of the rows and index entries.
CREATE TABLE "query_session_chunks" (
    "session_id" BIGINT NOT NULL,
    "chunk" INTEGER NOT NULL,
    "ids" INTEGER[] NOT NULL,

    CONSTRAINT "query_session_chunks_pkey" PRIMARY KEY ("session_id","chunk")
);

-- Sessions open during the upgrade keep their snapshots (positions run 1..total without gaps).
INSERT INTO "query_session_chunks" ("session_id", "chunk", "ids")
SELECT "session_id", ("pos" - 1) / 1000, array_agg("iteration_id" ORDER BY "pos")
FROM "query_session_items"
GROUP BY 1, 2;

DROP TABLE "query_session_items";
